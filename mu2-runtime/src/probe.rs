//! Probes: what one run of the original did, recorded per thread.
//!
//! - execution: which mutants' sites ran;
//! - infection: which of those mutants would have produced a different value
//!   at least once (evaluated on copies of the operands, panics silenced);
//! - unviable: which of those mutants cannot type-check for the types seen;
//! - branch coverage with hit counts.
//!
//! The engine reads a [`Trace`] after each run; generated code only writes.

use std::cell::Cell;

use crate::bits::Bits;
use crate::carry::{self, Collect};
use crate::outcome::{self, Outcome, Stop};
use crate::schema::{self, Mutant};
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

    /// Empties the trace and sizes it for this binary's registry.
    pub(crate) fn reset(&mut self) {
        let reg = schema::registry();
        let n = reg.mutants.len();
        self.executed.reset(n);
        self.infected.reset(n);
        self.unviable.reset(n);
        self.hits.clear();
        self.hits.resize(reg.branches, 0);
        self.steps = 0;
    }

    /// Adds what `other` (a trace of the same binary) recorded: a thread
    /// that the run spawned (`carry`).
    pub(crate) fn absorb(&mut self, other: &Trace) {
        self.executed.union_with(&other.executed);
        self.infected.union_with(&other.infected);
        self.unviable.union_with(&other.unviable);
        if self.hits.len() < other.hits.len() {
            self.hits.resize(other.hits.len(), 0);
        }
        for (h, o) in self.hits.iter_mut().zip(&other.hits) {
            *h = h.saturating_add(*o);
        }
        self.steps = self.steps.saturating_add(other.steps);
    }

    pub(crate) fn add_steps(&mut self, steps: u64) {
        self.steps = self.steps.saturating_add(steps);
    }
}

/// Where this thread's probes write: raw views of the buffers of the
/// [`Trace`] being recorded, set by [`record_with`] for the length of one
/// run and empty otherwise. A probe is then a thread-local read and a
/// bounds check, with no `RefCell` and no destructor check (the cell is
/// `const`-initialized and has no `Drop`). Probes take a copy of the
/// views: the optimizer then knows no write through them changes them.
/// The probes are `#[inline]`, not `#[inline(always)]`, so that an
/// unoptimized build calls them instead of giving every site's inlined
/// copy its own stack slots (deep recursion in a debug test would run out
/// of stack sooner).
#[derive(Clone, Copy)]
struct Buffers {
    executed: *mut u64,
    infected: *mut u64,
    unviable: *mut u64,
    /// Words in each of the three bit sets.
    words: usize,
    hits: *mut u32,
    branches: usize,
}

const EMPTY: Buffers = Buffers {
    executed: std::ptr::null_mut(),
    infected: std::ptr::null_mut(),
    unviable: std::ptr::null_mut(),
    words: 0,
    hits: std::ptr::null_mut(),
    branches: 0,
};

thread_local! {
    static BUFFERS: Cell<Buffers> = const { Cell::new(EMPTY) };
}

/// The thread's buffers as they were before a run pointed them at its
/// trace; put back when dropped (a nested run ends before its outer one).
pub(crate) struct Restore(Buffers);

impl Restore {
    /// Points the probes at `trace` until the guard drops. `trace` must
    /// not be touched until then: the probes write through these pointers.
    pub(crate) fn point_at(trace: &mut Trace) -> Restore {
        let words = trace.executed.words_mut().len();
        debug_assert!(
            trace.infected.words_mut().len() == words && trace.unviable.words_mut().len() == words
        );
        let views = Buffers {
            executed: trace.executed.words_mut().as_mut_ptr(),
            infected: trace.infected.words_mut().as_mut_ptr(),
            unviable: trace.unviable.words_mut().as_mut_ptr(),
            words,
            hits: trace.hits.as_mut_ptr(),
            branches: trace.hits.len(),
        };
        Restore(BUFFERS.with(|b| b.replace(views)))
    }
}

impl Drop for Restore {
    fn drop(&mut self) {
        BUFFERS.with(|b| b.set(self.0))
    }
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
    record_seeded(trace, probes, None, budget, f)
}

/// Like [`record_into`], except that the mutants in `known` count as
/// executed and infected from the start of the run, so no site evaluates
/// their alternatives again, and a site whose mutants are all known costs
/// one bit test. For callers done with those mutants: the engine with the
/// mutants its corpus kills already, the scorer with those it detected.
/// Infection evaluation is most of what a probed run costs, and most of
/// the mutants a campaign reaches are killed early.
///
/// ```
/// use mu2_runtime::{Bits, Budget, probe};
/// let mut trace = probe::Trace::default();
/// let known = Bits::new(mu2_runtime::mutants().len());
/// let out = probe::record_known(&mut trace, &known, Budget::default(), || 2 + 2);
/// assert_eq!(out.returned(), Some(4));
/// ```
pub fn record_known<R>(
    trace: &mut Trace,
    known: &Bits,
    budget: Budget,
    f: impl FnOnce() -> R,
) -> Outcome<R> {
    record_seeded(trace, Probes::All, Some(known), budget, f)
}

fn record_seeded<R>(
    trace: &mut Trace,
    probes: Probes,
    known: Option<&Bits>,
    budget: Budget,
    f: impl FnOnce() -> R,
) -> Outcome<R> {
    trace.reset();
    if let Some(known) = known {
        debug_assert!(known.len() <= trace.executed.len());
        trace.executed.union_with(known);
        trace.infected.union_with(known);
    }
    let spawned = Collect::open();
    // Dropped in reverse: the switch is put back, then the buffers.
    let _buffers = Restore::point_at(trace);
    let _saved = switch::set(Setting {
        active: None,
        probe: true,
        infect: probes == Probes::All,
        budget: Some(budget),
        quiet: true,
    });
    let outcome = outcome::catch(f);
    // Before the switch is put back, which restores its step count too.
    trace.steps = switch::steps();
    let stopped = switch::stopped();
    let in_thread = spawned.finish(Some(trace));
    carry::ended(outcome, stopped.map(Stop::Timeout).or(in_thread))
}

/// Sets bit `i` of the set at `words` (of `len` words), if it is in range.
#[inline]
fn set_bit(words: *mut u64, len: usize, i: usize) {
    if i / 64 < len {
        // SAFETY: `words` points at `len` words of the trace being recorded
        // (see `Restore::point_at`), or `len` is 0; checked in range above.
        unsafe { *words.add(i / 64) |= 1 << (i % 64) }
    }
}

/// The mask of bits `first..first + count` in the word holding `first`,
/// when they all fall in that one word (as a site's few consecutive
/// mutants nearly always do): a probe is then one load and one store, not
/// one per mutant.
#[inline]
fn one_word(first: usize, count: usize) -> Option<(usize, u64)> {
    let low = first % 64;
    if count == 0 || low + count > 64 {
        return None;
    }
    // `count` is in 1..=64, so the shift is in 0..=63.
    Some((first / 64, (u64::MAX >> (64 - count)) << low))
}

/// Sets bits `first..first + count` (those in range).
#[inline]
fn set_bits(words: *mut u64, len: usize, first: usize, count: usize) {
    match one_word(first, count) {
        Some((word, mask)) => {
            if word < len {
                // SAFETY: as in `set_bit`; checked in range.
                unsafe { *words.add(word) |= mask }
            }
        }
        None => set_bits_each(words, len, first, count),
    }
}

#[cold]
fn set_bits_each(words: *mut u64, len: usize, first: usize, count: usize) {
    for i in first..first + count {
        set_bit(words, len, i)
    }
}

/// Whether bits `first..first + count` are all set (false when out of range).
#[inline]
fn all_set(words: *mut u64, len: usize, first: usize, count: usize) -> bool {
    match one_word(first, count) {
        // SAFETY: as in `set_bit`; checked in range.
        Some((word, mask)) => word < len && unsafe { *words.add(word) } & mask == mask,
        None => all_set_each(words, len, first, count),
    }
}

#[cold]
fn all_set_each(words: *mut u64, len: usize, first: usize, count: usize) -> bool {
    (first..first + count).all(|i| {
        // SAFETY: as in `set_bit`.
        i / 64 < len && unsafe { *words.add(i / 64) } & (1 << (i % 64)) != 0
    })
}

/// The mutants `first..first + count` (dense indices) ran.
#[inline]
pub(crate) fn executed(first: u32, count: u32) {
    let b = BUFFERS.with(Cell::get);
    set_bits(b.executed, b.words, first as usize, count as usize)
}

/// Mutant `i` (dense index) would have changed a value.
#[inline]
pub(crate) fn infected(i: u32) {
    let b = BUFFERS.with(Cell::get);
    set_bit(b.infected, b.words, i as usize)
}

/// Whether the mutants `first..first + count` are all infected already in
/// this run: infection is a set, so evaluating them again adds nothing.
#[inline]
pub(crate) fn settled(first: u32, count: u32) -> bool {
    let b = BUFFERS.with(Cell::get);
    all_set(b.infected, b.words, first as usize, count as usize)
}

/// Mutant `i` (dense index) cannot type-check at its site.
#[inline]
pub(crate) fn unviable(i: u32) {
    let b = BUFFERS.with(Cell::get);
    set_bit(b.unviable, b.words, i as usize)
}

/// Branch probe `i` (dense index) was hit once more.
#[inline]
pub(crate) fn hit(i: u32) {
    let b = BUFFERS.with(Cell::get);
    if (i as usize) < b.branches {
        // SAFETY: `hits` points at `branches` counters of the trace being
        // recorded (see `Restore::point_at`); checked in range.
        unsafe {
            let h = b.hits.add(i as usize);
            *h = (*h).saturating_add(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time bit operations agree with bit-by-bit ones for
    /// every range, across word boundaries and past the end.
    #[test]
    fn masks_agree_with_single_bits() {
        for first in 0..200 {
            for count in 0..140 {
                let mut fast = [0u64; 3];
                let mut slow = [0u64; 3];
                set_bits(fast.as_mut_ptr(), 3, first, count);
                for i in first..first + count {
                    set_bit(slow.as_mut_ptr(), 3, i);
                }
                assert_eq!(fast, slow, "set {first}+{count}");
                let naive = (first..first + count)
                    .all(|i| i / 64 < 3 && slow[i / 64] & (1 << (i % 64)) != 0);
                assert_eq!(
                    all_set(fast.as_mut_ptr(), 3, first, count),
                    naive,
                    "all set {first}+{count}"
                );
                // One bit missing in the middle is seen.
                if count > 2 && first + count <= 192 {
                    let gap = first + count / 2;
                    fast[gap / 64] &= !(1 << (gap % 64));
                    assert!(!all_set(fast.as_mut_ptr(), 3, first, count));
                }
            }
        }
    }
}
