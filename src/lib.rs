//! # mu2: mutation-analysis-guided greybox fuzzing for Rust
//!
//! `#[mu2::mutate]` compiles every PIT-style mutant of the annotated code into
//! one binary (a *meta-mutant*): each mutation site becomes a branch chosen at
//! run time by the thread's active mutant. With no mutant active the original
//! code runs.
//!
//! ```
//! #[mu2::mutate]
//! fn max(a: i32, b: i32) -> i32 {
//!     if a > b { a } else { b }
//! }
//!
//! assert_eq!(max(2, 3), 3);
//! // Every mutant is known before any code runs...
//! let mutants: Vec<_> = mu2::mutants().iter().filter(|m| m.function == "max").collect();
//! assert!(!mutants.is_empty());
//! // ...and each can be switched on for one closure.
//! let boundary = mutants.iter().find(|m| m.replacement == "<=").unwrap();
//! assert_eq!(mu2::with_mutant(boundary.id, || max(2, 3)), 2);
//! ```
//!
//! See the README for the full picture: operators, probes, budgets, and how
//! to keep the instrumentation out of production builds.

pub use mu2_macros::{compare, diff, fuzz, mutate};
pub use mu2_runtime::{
    Bits, Budget, Mutant, MutantId, Operator, Outcome, Panic, RUN_STACK, Stop, active_mutant,
    branch_count, config, corpus, coverage, driver, engine, guidance, mutant, mutants, oracle,
    probe, report, run_mutant, score, supervise, with_mutant,
};

/// Inputs for generators: `mu2::Source` is what a hand-written generator
/// `fn(&mut mu2::Source) -> T` reads its choices from.
pub use mu2_runtime::{Invalid, Rng, Source, input};

#[doc(hidden)]
pub use mu2_runtime::__rt;

/// Marks the current input invalid unless `cond` holds: the run ends at once
/// and counts as INVALID (neither a pass nor a failure), as JQF's `assume`.
///
/// ```
/// fn positive_only(x: i32) -> i32 {
///     mu2::assume!(x > 0);
///     x * 2
/// }
/// assert_eq!(positive_only(2), 4);
/// let stopped = std::panic::catch_unwind(|| positive_only(-1)).unwrap_err();
/// assert_eq!(stopped.downcast_ref::<mu2::Stop>(), Some(&mu2::Stop::Invalid));
/// ```
#[macro_export]
macro_rules! assume {
    ($cond:expr $(,)?) => {
        if !$cond {
            $crate::__rt::assumption_failed()
        }
    };
}
