//! The kill decision: does a mutant's run on an input differ from the
//! original's? (Mu2 §3.3.)
//!
//! A mutant is killed when
//! - both return and the driver's comparison says the outputs differ;
//! - it panics where the original returned, or panics at another location
//!   than the original did (the same location counts as the same outcome);
//! - its validity differs (it breaks an assumption the original met, or the
//!   other way round): assumption violations are outcomes too;
//! - it runs out of its budget (TIMEOUT).
//!
//! An unviable mutant is never killed: it has no behaviour to compare.

use crate::input::Invalid;
use crate::outcome::{Outcome, Stop};

/// What the original did on an input, kept to judge its mutants.
#[derive(Clone, Debug, PartialEq)]
pub enum Observed<O> {
    Returned(O),
    Invalid,
    /// Panicked at this location (`file:line:col`), if known.
    Panicked(Option<String>),
    TimedOut,
}

impl<O> Observed<O> {
    /// What a driver's run ended in.
    pub fn of(outcome: Outcome<Result<O, Invalid>>) -> Observed<O> {
        match outcome {
            Outcome::Returned(Ok(o)) => Observed::Returned(o),
            Outcome::Returned(Err(Invalid)) | Outcome::Stopped(Stop::Invalid) => Observed::Invalid,
            Outcome::Panicked(p) => Observed::Panicked(p.location),
            Outcome::Stopped(Stop::Timeout(_)) => Observed::TimedOut,
            // The original has no active mutant; a stray Unviable is a panic.
            Outcome::Stopped(Stop::Unviable(_)) => Observed::Panicked(None),
        }
    }
}

/// The verdict on one mutant for one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    Survived,
    /// Killed: its output differs, it panics differently, or its validity differs.
    Killed,
    /// Killed by running out of its budget.
    TimedOut,
    /// The replacement does not type-check for the types at its site.
    Unviable,
}

impl Verdict {
    /// Whether the mutant is detected (killed in the paper's sense).
    pub fn detected(self) -> bool {
        matches!(self, Verdict::Killed | Verdict::TimedOut)
    }
}

/// Judges a mutant's run against the original's.
///
/// ```
/// use mu2_runtime::oracle::{decide, Observed, Verdict};
/// use mu2_runtime::{Outcome, Stop};
/// let same = |a: &i32, b: &i32| a == b;
/// assert_eq!(decide(&Observed::Returned(1), Outcome::Returned(Ok(1)), same), Verdict::Survived);
/// assert_eq!(decide(&Observed::Returned(1), Outcome::Returned(Ok(2)), same), Verdict::Killed);
/// assert_eq!(decide(&Observed::Returned(1), Outcome::Stopped(Stop::Timeout("steps")), same), Verdict::TimedOut);
/// ```
pub fn decide<O>(
    original: &Observed<O>,
    mutant: Outcome<Result<O, Invalid>>,
    same: impl Fn(&O, &O) -> bool,
) -> Verdict {
    if let Outcome::Stopped(Stop::Unviable(_)) = mutant {
        return Verdict::Unviable;
    }
    let mutant = Observed::of(mutant);
    let differs = match (original, &mutant) {
        (_, Observed::TimedOut) => return Verdict::TimedOut,
        (Observed::Returned(a), Observed::Returned(b)) => !same(a, b),
        (Observed::Invalid, Observed::Invalid) => false,
        (Observed::Panicked(a), Observed::Panicked(b)) => a != b,
        (Observed::TimedOut, _) => true,
        _ => true,
    };
    if differs {
        Verdict::Killed
    } else {
        Verdict::Survived
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Panic;

    fn same(a: &i32, b: &i32) -> bool {
        a == b
    }

    fn panic_at(at: &str) -> Outcome<Result<i32, Invalid>> {
        Outcome::Panicked(Panic {
            message: "boom".into(),
            location: Some(at.into()),
        })
    }

    #[test]
    fn outputs_are_compared_with_the_drivers_comparison() {
        let original = Observed::Returned(10);
        assert_eq!(
            decide(&original, Outcome::Returned(Ok(10)), same),
            Verdict::Survived
        );
        assert_eq!(
            decide(&original, Outcome::Returned(Ok(11)), same),
            Verdict::Killed
        );
        // A lenient comparison lets a close output survive.
        let close = |a: &i32, b: &i32| (a - b).abs() <= 1;
        assert_eq!(
            decide(&original, Outcome::Returned(Ok(11)), close),
            Verdict::Survived
        );
    }

    #[test]
    fn panics_kill_unless_the_original_panicked_at_the_same_place() {
        assert_eq!(
            decide(&Observed::Returned(1), panic_at("a.rs:1:1"), same),
            Verdict::Killed
        );
        let original = Observed::Panicked(Some("a.rs:1:1".into()));
        assert_eq!(
            decide(&original, panic_at("a.rs:1:1"), same),
            Verdict::Survived
        );
        assert_eq!(
            decide(&original, panic_at("a.rs:2:1"), same),
            Verdict::Killed
        );
        assert_eq!(
            decide(&original, Outcome::Returned(Ok(1)), same),
            Verdict::Killed
        );
    }

    #[test]
    fn validity_is_an_outcome() {
        let invalid: Outcome<Result<i32, Invalid>> = Outcome::Stopped(Stop::Invalid);
        assert_eq!(
            decide(&Observed::Returned(1), invalid.clone(), same),
            Verdict::Killed
        );
        assert_eq!(decide(&Observed::Invalid, invalid, same), Verdict::Survived);
        assert_eq!(
            decide(&Observed::Invalid, Outcome::Returned(Ok(1)), same),
            Verdict::Killed
        );
    }

    #[test]
    fn timeouts_kill_and_unviable_mutants_never_do() {
        let t: Outcome<Result<i32, Invalid>> = Outcome::Stopped(Stop::Timeout("steps"));
        assert_eq!(decide(&Observed::Returned(1), t, same), Verdict::TimedOut);
        let u = Outcome::Stopped(Stop::Unviable(crate::MutantId(1)));
        assert_eq!(decide(&Observed::Returned(1), u, same), Verdict::Unviable);
    }
}
