//! The runtime of [mu2](https://docs.rs/mu2): the registry of meta-mutants,
//! the per-thread switch that activates one of them, the probes that record
//! what a run did, and the budget that stops runaway mutants.
//!
//! Users depend on the `mu2` crate, which re-exports this one. Generated code
//! calls into [`__rt`]; nothing there is a stable API.
//!
//! Where to look:
//! - [`schema`]: what the macro recorded about each site; [`mutants`].
//! - [`switch`]: the active mutant and the step budget (where a mutant is
//!   switched on: `switch::choice`).
//! - [`site`]: what each kind of generated site does.
//! - [`probe`]: execution, infection and coverage of one run.
//! - [`outcome`]: how a run ends, and the quiet panic hook.
//! - `carry`: threads that annotated code spawns join the run that spawned them.
//! - [`input`], [`havoc`]: inputs as byte sequences that generators consume.
//! - [`coverage`], [`engine`]: the greybox loop; [`corpus`]: what it saves.
//! - [`driver`], [`config`]: what `#[mu2::diff]` / `#[mu2::fuzz]` tests do.

mod bits;
mod carry;
pub mod config;
pub mod corpus;
pub mod coverage;
pub mod driver;
pub mod engine;
pub mod guidance;
mod havoc;
pub mod input;
mod json;
pub mod kind;
pub mod list;
pub mod oracle;
pub mod outcome;
mod pool;
pub mod probe;
pub mod report;
mod rng;
pub mod schema;
pub mod score;
pub mod site;
mod status;
pub mod supervise;
pub mod switch;

pub use bits::Bits;
pub use havoc::havoc;
pub use input::{Invalid, Source};
pub use outcome::{Outcome, Panic, Stop};
pub use rng::Rng;
pub use schema::{Mutant, MutantId, Operator, branch_count, mutant, mutants};
pub use switch::{Budget, RUN_STACK, active_mutant};

use switch::Setting;

/// Runs `f` with `id` active on this thread, and returns what it returns.
///
/// The mutant runs under the default [`Budget`]: a loop that never ends or a
/// recursion that never bottoms out unwinds with a [`Stop::Timeout`] payload
/// instead of hanging; an unviable mutant unwinds with [`Stop::Unviable`].
/// Other panics propagate as they are. For a result that never panics, use
/// [`run_mutant`].
///
/// ```
/// for m in mu2_runtime::mutants() {
///     let _ = std::panic::catch_unwind(|| mu2_runtime::with_mutant(m.id, || { /* call the code */ }));
/// }
/// ```
///
/// # Panics
///
/// When this binary has no mutant `id` (the message says how to list them).
pub fn with_mutant<R>(id: MutantId, f: impl FnOnce() -> R) -> R {
    let index = index_of(id);
    outcome::install_hook();
    let spawned = carry::Collect::open();
    let (result, stopped) = {
        let _saved = switch::set(Setting {
            active: Some(index),
            probe: false,
            infect: false,
            budget: Some(Budget::default()),
            quiet: false,
        });
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        (result, switch::stopped())
    };
    // The budget ran out here, or in a thread the run spawned, and the code
    // went on (it caught the unwind): the run is a timeout all the same.
    let stopped_there = stopped.map(Stop::Timeout).or(spawned.finish(None));
    match result {
        Ok(_) if stopped_there.is_some() => {
            std::panic::panic_any(stopped_there.expect("checked above"))
        }
        Ok(r) => r,
        Err(payload) => match (payload.downcast::<Stop>(), stopped_there) {
            // Raised again through the hook, so that it is printed readably.
            (Ok(stop), _) => std::panic::panic_any(*stop),
            // A thread it spawned stopped, and this one panicked for it.
            (Err(_), Some(stop)) => std::panic::panic_any(stop),
            (Err(payload), None) => std::panic::resume_unwind(payload),
        },
    }
}

/// Runs `f` with `id` active (or the original, for `None`) under `budget`,
/// quietly, and says how it ended.
///
/// ```
/// use mu2_runtime::{Budget, Outcome};
/// assert_eq!(mu2_runtime::run_mutant(None, Budget::default(), || 7), Outcome::Returned(7));
/// ```
pub fn run_mutant<R>(id: Option<MutantId>, budget: Budget, f: impl FnOnce() -> R) -> Outcome<R> {
    run_at(id.map(index_of), budget, f)
}

/// [`run_mutant`] by dense index, for the engine's hot loop.
pub(crate) fn run_at<R>(active: Option<u32>, budget: Budget, f: impl FnOnce() -> R) -> Outcome<R> {
    // Sites find the active mutant through their unit's base index, which
    // the registry assigns when it is first built.
    if active.is_some() {
        schema::registry();
    }
    let spawned = carry::Collect::open();
    let (outcome, stopped) = {
        let _saved = switch::set(Setting {
            active,
            probe: false,
            infect: false,
            budget: Some(budget),
            quiet: true,
        });
        (outcome::catch(f), switch::stopped())
    };
    let in_thread = spawned.finish(None);
    carry::ended(outcome, stopped.map(Stop::Timeout).or(in_thread))
}

fn index_of(id: MutantId) -> u32 {
    match schema::mutant(id) {
        Some(m) => m.index as u32,
        None => panic!(
            "mu2: this binary has no mutant {id}; `mu2::mutants()` lists the {} it has",
            mutants().len()
        ),
    }
}

/// For generated code only.
#[doc(hidden)]
pub mod __rt {
    pub use crate::carry::{CarriedFuture, Carry};
    pub use crate::driver::{self, DriverEntry, DriverInfo};
    pub use crate::input::{Invalid, Source};
    pub use crate::kind::{Asg, Ops, Place, Ret, Show, Un, prelude};
    pub use crate::outcome::assumption_failed;
    pub use crate::schema::DRIVERS;

    /// The default comparison of a differential driver's outputs.
    pub fn equal<O: PartialEq>(a: &O, b: &O) -> bool {
        a == b
    }
    pub use crate::schema::{Alt, Operator, Site, UNITS, Unit};
    pub use crate::site::*;
    pub use linkme;
}
