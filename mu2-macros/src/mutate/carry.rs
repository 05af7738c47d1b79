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
//!     let mut __mu2_spawned = || work(&v);
//!     let _ = &mut __mu2_spawned;
//!     move || __mu2_carry.run(|| __mu2_spawned())
//! })
//! ```
//!
//! An `async` block there becomes `::mu2::__rt::Carry::task(async
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
use syn::visit::Visit;
use syn::{Block, Expr, ExprClosure, Pat, Signature};

/// Functions that run their closure or `async` block on another thread,
/// by the last two segments of their path: `std::thread::spawn`,
/// `rayon::spawn`, `rayon::join`, `tokio::spawn`, `tokio::task::spawn`,
/// `tokio::task::spawn_blocking` (and `async_std::task::spawn`).
const FUNCTIONS: &[(&str, &str)] = &[
    ("thread", "spawn"),
    ("rayon", "spawn"),
    ("rayon", "spawn_fifo"),
    ("rayon", "join"),
    ("tokio", "spawn"),
    ("task", "spawn"),
    ("task", "spawn_blocking"),
];

/// The variables in a function that hold a `std::thread::Scope`: the
/// parameter of a closure passed to `thread::scope`, or a parameter whose
/// type names `Scope`. Their `spawn` methods are carried, and so are
/// `spawn` and `spawn_scoped` on a `thread::Builder::new()` chain. Other
/// methods named `spawn` belong to types the macro cannot see, which may
/// take a function pointer or require `Copy`, and are left alone.
#[derive(Default)]
pub struct Scopes(Vec<String>);

impl Scopes {
    pub fn of(sig: Option<&Signature>, body: &Block) -> Scopes {
        struct Finder(Vec<String>);
        impl Visit<'_> for Finder {
            fn visit_expr_call(&mut self, c: &syn::ExprCall) {
                if path_ends(&c.func, &["thread", "scope"])
                    && let Some(Expr::Closure(f)) = c.args.first()
                    && let Some(p) = f.inputs.first()
                {
                    self.0.extend(ident_of(p));
                }
                syn::visit::visit_expr_call(self, c);
            }
            fn visit_item(&mut self, _: &syn::Item) {}
        }
        let mut f = Finder(Vec::new());
        if let Some(sig) = sig {
            for input in &sig.inputs {
                if let syn::FnArg::Typed(t) = input
                    && names_scope(&t.ty)
                {
                    f.0.extend(ident_of(&t.pat));
                }
            }
        }
        f.visit_block(body);
        Scopes(f.0)
    }

    fn holds(&self, e: &Expr) -> bool {
        match e {
            Expr::Path(p) => p
                .path
                .get_ident()
                .is_some_and(|i| self.0.iter().any(|s| i == s)),
            Expr::Reference(r) => self.holds(&r.expr),
            Expr::Paren(p) => self.holds(&p.expr),
            _ => false,
        }
    }
}

fn ident_of(p: &Pat) -> Option<String> {
    match p {
        Pat::Ident(i) => Some(i.ident.to_string()),
        Pat::Type(t) => ident_of(&t.pat),
        _ => None,
    }
}

fn names_scope(ty: &syn::Type) -> bool {
    struct Finder(bool);
    impl Visit<'_> for Finder {
        fn visit_path_segment(&mut self, s: &syn::PathSegment) {
            self.0 |= s.ident == "Scope";
            syn::visit::visit_path_segment(self, s);
        }
    }
    let mut f = Finder(false);
    f.visit_type(ty);
    f.0
}

/// Whether `e` is a path whose last segments are `names`.
pub(crate) fn path_ends(e: &Expr, names: &[&str]) -> bool {
    let Expr::Path(p) = e else { return false };
    let segments = &p.path.segments;
    p.qself.is_none()
        && segments.len() >= names.len()
        && segments
            .iter()
            .rev()
            .zip(names.iter().rev())
            .all(|(s, n)| s.ident == n)
}

/// Whether `e` is a method chain on `thread::Builder::new()`.
fn on_builder(e: &Expr) -> bool {
    match e {
        Expr::MethodCall(m) => on_builder(&m.receiver),
        Expr::Call(c) => path_ends(&c.func, &["Builder", "new"]),
        _ => false,
    }
}

/// Wraps the closures and `async` blocks of `e` if it is a call that runs
/// them on another thread. `e`'s closures are already rewritten.
pub fn spawned(e: &mut Expr, scopes: &Scopes) {
    let args = match e {
        Expr::MethodCall(m)
            if (m.method == "spawn" && (scopes.holds(&m.receiver) || on_builder(&m.receiver)))
                || (m.method == "spawn_scoped" && on_builder(&m.receiver)) =>
        {
            &mut m.args
        }
        Expr::Call(c) if FUNCTIONS.iter().any(|(m, f)| path_ends(&c.func, &[m, f])) => &mut c.args,
        _ => return,
    };
    for arg in args {
        match arg {
            Expr::Closure(c) if carriable(c) => {
                // `mut`: an `FnMut` closure is called through it. The
                // borrow marks it used, for closures that are `Fn`.
                *arg = Expr::Verbatim(quote!({
                    let __mu2_carry = ::mu2::__rt::Carry::new();
                    let mut __mu2_spawned = #c;
                    let _ = &mut __mu2_spawned;
                    move || __mu2_carry.run(|| __mu2_spawned())
                }));
            }
            // A task (`tokio::spawn(async move { .. })`): each poll runs
            // under the run, on whichever worker polls it.
            Expr::Async(_) => {
                *arg = Expr::Verbatim(quote!(::mu2::__rt::Carry::task(#arg)));
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
    use super::{Scopes, spawned};
    use quote::ToTokens;
    use syn::{Block, Expr};

    fn wrapped(src: &str) -> bool {
        let body: Block = syn::parse_str(&format!("{{ {src}; }}")).unwrap();
        let scopes = Scopes::of(None, &body);
        let mut found = false;
        struct V<'a>(&'a Scopes, &'a mut bool);
        impl syn::visit_mut::VisitMut for V<'_> {
            fn visit_expr_mut(&mut self, e: &mut Expr) {
                syn::visit_mut::visit_expr_mut(self, e);
                spawned(e, self.0);
                *self.1 |= e.to_token_stream().to_string().contains("Carry");
            }
        }
        let mut body = body;
        syn::visit_mut::VisitMut::visit_block_mut(&mut V(&scopes, &mut found), &mut body);
        found
    }

    #[test]
    fn closures_handed_to_threads_are_carried() {
        for src in [
            "std::thread::spawn(|| 1)",
            "thread::spawn(move || work(x))",
            "std::thread::scope(|s| { s.spawn(|| v.push(1)); })",
            "thread::scope(|scope| scope.spawn(move || 2))",
            "std::thread::Builder::new().name(n).spawn(|| 1)",
            "thread::Builder::new().spawn_scoped(s, || 1)",
            "rayon::join(|| a(), || b())",
            "tokio::task::spawn_blocking(move || read(path))",
            "tokio::spawn(async move { work().await })",
        ] {
            assert!(wrapped(src), "{src}");
        }
    }

    #[test]
    fn other_calls_and_closures_are_left_alone() {
        for src in [
            "v.iter().map(|x| x + 1)",
            "thread::spawn(worker)",
            "std::thread::scope(|s| { s.spawn(worker); })",
            "rayon::scope(|s| s.spawn(|_| work()))",
            "pool.spawn(|| 1)",
            "pool.spawn(Box::new(|| 1))",
            "rt.block_on(async move { 1 })",
            "thread::scope(|s| 1)",
            "join(|| 1, || 2)",
            "f(|| 1)",
        ] {
            assert!(!wrapped(src), "{src}");
        }
    }
}
