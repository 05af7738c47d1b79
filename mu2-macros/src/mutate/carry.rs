//! Closures handed to another thread. The switch is per thread, so the
//! closure of `thread::spawn(|| ..)` would run idle there: its mutants never
//! on, its probes unrecorded. The closure is wrapped so that the new thread
//! runs under the run that spawned it (`mu2_runtime::__rt::Carry`):
//!
//! ```text
//! s.spawn(|| work(&v))
//! // becomes
//! s.spawn({
//!     let __mu2_carry = ::mu2::__rt::Carry::new();
//!     let __mu2_spawned = || work(&v);
//!     move || __mu2_carry.run(|| __mu2_spawned())
//! })
//! ```
//!
//! An `async` block there becomes `::mu2::__rt::Carry::new().future(async
//! { .. })`, a future that polls the block under the run wherever it is
//! polled.
//!
//! The wrapper calls the closure the way the closure allows (by reference
//! for `Fn`, by value for `FnOnce`), so it has the same `Fn*` traits, and
//! it is `Send` and `'static` when the closure is. Only closures without
//! parameters are wrapped: a parameter's type would then have to be
//! inferred from the wrapper's call, and an inferred closure is not
//! generic over lifetimes as `rayon::Scope::spawn(|s| ..)` needs.

use quote::quote;
use syn::{Expr, ExprClosure};

/// Methods that may run their closure or `async` block on another thread:
/// `std::thread::Scope::spawn`, `Builder::spawn`, `Builder::spawn_scoped`,
/// `tokio::runtime::Handle::spawn` and `spawn_blocking`.
const METHODS: &[&str] = &["spawn", "spawn_scoped", "spawn_blocking"];

/// Functions that do: `std::thread::spawn`, `rayon::spawn`, `rayon::join`,
/// `tokio::spawn`, `tokio::task::spawn_blocking`.
const FUNCTIONS: &[&str] = &["spawn", "spawn_blocking", "join"];

/// Wraps the closures of `e` if it is a call that may run them on another
/// thread. `e`'s closures are already rewritten.
pub fn spawned(e: &mut Expr) {
    let args = match e {
        Expr::MethodCall(m) if METHODS.iter().any(|n| m.method == n) => &mut m.args,
        Expr::Call(c) => match &*c.func {
            Expr::Path(p)
                if p.path
                    .segments
                    .last()
                    .is_some_and(|s| FUNCTIONS.iter().any(|n| s.ident == n)) =>
            {
                &mut c.args
            }
            _ => return,
        },
        _ => return,
    };
    for arg in args {
        match arg {
            Expr::Closure(c) if carriable(c) => {
                *arg = Expr::Verbatim(quote!({
                    let __mu2_carry = ::mu2::__rt::Carry::new();
                    let __mu2_spawned = #c;
                    move || __mu2_carry.run(|| __mu2_spawned())
                }));
            }
            // A task (`tokio::spawn(async move { .. })`): each poll runs
            // under the run, on whichever worker polls it.
            Expr::Async(_) => {
                *arg = Expr::Verbatim(quote!(::mu2::__rt::Carry::new().future(#arg)));
            }
            _ => {}
        }
    }
}

fn carriable(c: &ExprClosure) -> bool {
    c.inputs.is_empty() && c.asyncness.is_none() && c.constness.is_none() && c.lifetimes.is_none()
}

#[cfg(test)]
mod tests {
    use super::spawned;
    use quote::ToTokens;
    use syn::Expr;

    fn wrapped(src: &str) -> bool {
        let mut e: Expr = syn::parse_str(src).unwrap();
        spawned(&mut e);
        e.to_token_stream().to_string().contains("Carry")
    }

    #[test]
    fn closures_handed_to_threads_are_carried() {
        for src in [
            "std::thread::spawn(|| 1)",
            "thread::spawn(move || work(x))",
            "s.spawn(|| v.push(1))",
            "std::thread::Builder::new().spawn(|| 1)",
            "b.spawn_scoped(s, || 1)",
            "rayon::join(|| a(), || b())",
            "tokio::task::spawn_blocking(move || read(path))",
            "tokio::spawn(async move { work().await })",
            "rt.spawn(async { 1 })",
        ] {
            assert!(wrapped(src), "{src}");
        }
    }

    #[test]
    fn other_calls_and_closures_are_left_alone() {
        for src in [
            "v.iter().map(|x| x + 1)",
            "thread::spawn(worker)",
            "s.spawn(|_| work())",
            "pool.spawn(Box::new(|| 1))",
            "rt.block_on(async move { 1 })",
            "thread::scope(|s| 1)",
            "f(|| 1)",
        ] {
            assert!(!wrapped(src), "{src}");
        }
    }
}
