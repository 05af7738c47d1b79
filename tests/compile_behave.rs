//! Compile-and-behave tests: tricky Rust, written twice by `group!` (once in
//! a `#[mu2::mutate]` module, once plain), must compile, behave the same with
//! no mutant active, and end (return, panic, time out or report unviable)
//! under every one of its mutants.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// Emits the items of a group twice, as `meta` (annotated) and `plain`, and a
/// driver over each that calls the items and formats their results.
macro_rules! group {
    ($name:ident { $($items:tt)* } |$m:ident| $drive:block) => {
        group!(@with [#[allow(dead_code, unused_imports, unused_variables, unused_mut, unused_parens, clippy::all)]]
            $name { $($items)* } |$m| $drive);
    };
    // The same with the group module's attributes given (`strict_group!`).
    (@with [$($attr:tt)*] $name:ident { $($items:tt)* } |$m:ident| $drive:block) => {
        $($attr)*
        pub mod $name {
            #[allow(unused_imports)]
            use super::*;
            #[mu2::mutate]
            pub mod meta {
                #[allow(unused_imports)]
                use super::*;
                $($items)*
            }
            pub mod plain {
                #[allow(unused_imports)]
                use super::*;
                $($items)*
            }
            pub fn drive_meta() -> Vec<String> {
                use meta as $m;
                $drive
            }
            pub fn drive_plain() -> Vec<String> {
                use plain as $m;
                $drive
            }
            pub const GROUP: crate::Group = crate::Group {
                meta_module: concat!(module_path!(), "::meta"),
                meta: drive_meta,
                plain: drive_plain,
            };
        }
    };
}

/// `group!` that denies warnings instead of allowing the usual ones: the
/// code must be warning-free as written, and stay so under the attribute.
macro_rules! strict_group {
    ($name:ident { $($items:tt)* } |$m:ident| $drive:block) => {
        group!(@with [#[deny(warnings)]] $name { $($items)* } |$m| $drive);
    };
}

/// `vec![format!("{:?}", e1), format!("{:?}", e2), ...]`.
macro_rules! show {
    ($($e:expr),* $(,)?) => { vec![$(format!("{:?}", $e)),*] };
}

pub struct Group {
    pub meta_module: &'static str,
    pub meta: fn() -> Vec<String>,
    pub plain: fn() -> Vec<String>,
}

/// Polls a future to completion with a no-op waker (the futures here never
/// wait on anything).
pub fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..1000 {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
    panic!("block_on: the future did not finish in 1000 polls")
}

#[path = "compile_behave/arith.rs"]
mod arith;
#[path = "compile_behave/closures.rs"]
mod closures;
#[path = "compile_behave/control.rs"]
mod control;
#[path = "compile_behave/edge.rs"]
mod edge;
#[path = "compile_behave/heldout.rs"]
mod heldout;
#[path = "compile_behave/heldout2.rs"]
mod heldout2;
#[path = "compile_behave/heldout3.rs"]
mod heldout3;
#[path = "compile_behave/heldout5.rs"]
mod heldout5;
#[path = "compile_behave/items.rs"]
mod items;
#[path = "compile_behave/types.rs"]
mod types;

fn groups() -> Vec<Group> {
    let mut all = Vec::new();
    all.extend(arith::groups());
    all.extend(closures::groups());
    all.extend(control::groups());
    all.extend(edge::groups());
    all.extend(heldout::groups());
    all.extend(heldout2::groups());
    all.extend(heldout3::groups());
    all.extend(heldout5::groups());
    all.extend(items::groups());
    all.extend(types::groups());
    all
}

fn in_module(m: &mu2::Mutant, module: &str) -> bool {
    m.module == module
        || m.module
            .strip_prefix(module)
            .is_some_and(|rest| rest.starts_with("::"))
}

#[test]
fn original_behaviour_is_unchanged() {
    for g in groups() {
        assert_eq!((g.meta)(), (g.plain)(), "{}", g.meta_module);
    }
}

#[test]
fn probing_does_not_change_behaviour() {
    for g in groups() {
        let (outcome, trace) = mu2::probe::record(mu2::Budget::default(), g.meta);
        assert_eq!(outcome.returned(), Some((g.plain)()), "{}", g.meta_module);
        let executed = mu2::mutants()
            .iter()
            .filter(|m| in_module(m, g.meta_module) && trace.ran(m))
            .count();
        assert!(executed > 0, "{}: no mutant site ran", g.meta_module);
    }
}

#[test]
fn every_group_has_mutants() {
    for g in groups() {
        let n = mu2::mutants()
            .iter()
            .filter(|m| in_module(m, g.meta_module))
            .count();
        assert!(n > 0, "{} has no mutants", g.meta_module);
    }
}

/// How one mutant's run ended.
#[derive(Debug, PartialEq, Eq, Hash, Clone, Copy, PartialOrd, Ord)]
enum End {
    Same,
    Different,
    Panicked,
    Timeout,
    Unviable,
}

fn end_of(result: Result<Vec<String>, Box<dyn Any + Send>>, original: &[String]) -> End {
    match result {
        Ok(v) if v == original => End::Same,
        Ok(_) => End::Different,
        Err(p) => match p.downcast_ref::<mu2::Stop>() {
            Some(mu2::Stop::Timeout(_)) => End::Timeout,
            Some(mu2::Stop::Unviable(_)) => End::Unviable,
            Some(_) | None => End::Panicked,
        },
    }
}

/// Every listed mutant of the code above, run through `with_mutant`, ends;
/// the run also leaves no mutant active behind it.
#[test]
fn every_mutant_ends() {
    let groups = groups();
    // (group, mutant) pairs, shared by a few worker threads.
    let work: Vec<(usize, &'static mu2::Mutant)> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, group)| {
            mu2::mutants()
                .iter()
                .filter(move |m| in_module(m, group.meta_module))
                .map(move |m| (g, m))
        })
        .collect();
    let originals: Vec<Vec<String>> = groups.iter().map(|g| (g.plain)()).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let ends: Vec<(usize, String, End)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    let mut ends = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&(g, m)) = work.get(i) else {
                            break ends;
                        };
                        let run = groups[g].meta;
                        let r = catch_unwind(AssertUnwindSafe(|| mu2::with_mutant(m.id, run)));
                        assert_eq!(mu2::active_mutant(), None);
                        ends.push((g, m.to_string(), end_of(r, &originals[g])));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a mutant run escaped catch_unwind"))
            .collect()
    });
    assert_eq!(ends.len(), work.len());
    for (g, group) in groups.iter().enumerate() {
        let mine: Vec<_> = ends.iter().filter(|(i, _, _)| *i == g).collect();
        assert!(!mine.is_empty(), "{}", group.meta_module);
        // Mutants do run: in every group some mutant changes what it does.
        assert!(
            mine.iter().any(|(_, _, e)| *e != End::Same),
            "{}: no mutant changed anything: {mine:#?}",
            group.meta_module
        );
    }
}
