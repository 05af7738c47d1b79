//! Probes: what one run of the original did, recorded per thread.
//!
//! - execution: which mutants' sites ran;
//! - infection: which of those mutants would have produced a different value
//!   at least once (evaluated on copies of the operands, panics silenced);
//! - unviable: which of those mutants cannot type-check for the types seen;
//! - branch coverage with hit counts.
//!
//! The engine reads a [`Trace`] after each run; generated code only writes.

use std::cell::RefCell;

use crate::bits::Bits;
use crate::outcome::{self, Outcome};
use crate::schema::{self, Mutant, Unit};
use crate::switch::{self, Budget, Setting};

/// What one run of the original did. Reuse one `Trace` across runs with
/// [`record_into`] to avoid allocating.
///
/// ```
/// let (outcome, trace) = mu2_runtime::probe::record(mu2_runtime::Budget::default(), || 2 + 2);
/// assert_eq!(outcome.returned(), Some(4));
/// assert_eq!(trace.executed().count(), 0); // nothing annotated ran
/// ```
#[derive(Clone, Debug, Default)]
pub struct Trace {
    executed: Bits,
    infected: Bits,
    unviable: Bits,
    hits: Vec<u32>,
    steps: u64,
}

impl Trace {
    /// Mutants whose site ran (dense indices into [`mutants`](crate::mutants)).
    pub fn executed(&self) -> &Bits {
        &self.executed
    }

    /// Mutants that would have changed a value at least once.
    pub fn infected(&self) -> &Bits {
        &self.infected
    }

    /// Mutants found unviable for the types at their site.
    pub fn unviable(&self) -> &Bits {
        &self.unviable
    }

    /// Hit counts per branch probe (dense index).
    pub fn hits(&self) -> &[u32] {
        &self.hits
    }

    /// Steps (loop back-edges and annotated calls) the run took.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Whether this run executed `mutant`'s site.
    pub fn ran(&self, mutant: &Mutant) -> bool {
        self.executed.contains(mutant.index)
    }

    /// Whether this run infected `mutant`.
    pub fn infects(&self, mutant: &Mutant) -> bool {
        self.infected.contains(mutant.index)
    }

    /// A trace with the given execution and infection, for tests of what
    /// consumes traces.
    #[cfg(test)]
    pub(crate) fn synthetic(executed: Bits, infected: Bits) -> Trace {
        Trace {
            executed,
            infected,
            ..Trace::default()
        }
    }

    fn reset(&mut self) {
        let reg = schema::registry();
        let n = reg.mutants.len();
        self.executed.reset(n);
        self.infected.reset(n);
        self.unviable.reset(n);
        self.hits.clear();
        self.hits.resize(reg.branches, 0);
        self.steps = 0;
    }
}

thread_local! {
    static TRACE: RefCell<Trace> = RefCell::new(Trace::default());
}

/// Which probes a run records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probes {
    /// Branch coverage only: what coverage-guided fuzzing needs, and cheap.
    Coverage,
    /// Coverage, plus execution and infection of every mutant: what
    /// mutation-guided fuzzing needs. Infection evaluates each alternative.
    All,
}

/// Runs the original code with every probe on and returns what it did.
pub fn record<R>(budget: Budget, f: impl FnOnce() -> R) -> (Outcome<R>, Trace) {
    let mut trace = Trace::default();
    let outcome = record_into(&mut trace, budget, f);
    (outcome, trace)
}

/// Like [`record`], writing into `trace` (its buffers are reused).
/// Panics inside `f` are caught and silenced.
pub fn record_into<R>(trace: &mut Trace, budget: Budget, f: impl FnOnce() -> R) -> Outcome<R> {
    record_with(trace, Probes::All, budget, f)
}

/// Like [`record_into`], with only the `probes` asked for.
pub fn record_with<R>(
    trace: &mut Trace,
    probes: Probes,
    budget: Budget,
    f: impl FnOnce() -> R,
) -> Outcome<R> {
    trace.reset();
    TRACE.with(|t| std::mem::swap(&mut *t.borrow_mut(), trace));
    let outcome = {
        let _saved = switch::set(Setting {
            active: None,
            probe: true,
            infect: probes == Probes::All,
            budget: Some(budget),
            quiet: true,
        });
        let outcome = outcome::catch(f);
        TRACE.with(|t| t.borrow_mut().steps = switch::steps());
        outcome
    };
    TRACE.with(|t| std::mem::swap(&mut *t.borrow_mut(), trace));
    outcome
}

#[inline]
fn with(f: impl FnOnce(&mut Trace)) {
    // A probe fired while the trace is borrowed (from inside a Drop during
    // unwinding, say) is dropped rather than allowed to panic.
    let _ = TRACE.try_with(|t| {
        if let Ok(mut t) = t.try_borrow_mut() {
            f(&mut t)
        }
    });
}

pub(crate) fn executed(unit: &Unit, first: u32, count: u32) {
    let base = (unit.mutant_base() + first) as usize;
    with(|t| {
        for i in base..base + count as usize {
            t.executed.insert(i)
        }
    })
}

pub(crate) fn infected(unit: &Unit, mutant: u32) {
    let i = (unit.mutant_base() + mutant) as usize;
    with(|t| t.infected.insert(i))
}

pub(crate) fn unviable(unit: &Unit, mutant: u32) {
    let i = (unit.mutant_base() + mutant) as usize;
    with(|t| t.unviable.insert(i))
}

pub(crate) fn hit(unit: &Unit, branch: u32) {
    let i = (unit.branch_base() + branch) as usize;
    with(|t| {
        if let Some(h) = t.hits.get_mut(i) {
            *h = h.saturating_add(1)
        }
    })
}
