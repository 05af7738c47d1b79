//! The switch: which mutant is active on this thread, and the step budget
//! that keeps a mutant from running forever.
//!
//! Everything here is per thread, so mutants can run in parallel on worker
//! threads. Generated code reads the switch once per call ([`here`], or
//! `idle()` first in optimized builds) and its sites test that local copy;
//! with nothing switched on the body runs as written, which is what keeps an
//! annotated binary close to the speed of the plain one.

use std::cell::Cell;
use std::time::{Duration, Instant};

use crate::outcome::Stop;
use crate::schema::{MutantId, Unit};

/// A mutant is active on this thread.
pub(crate) const ACTIVE: u32 = 1;
/// Probes record branch coverage.
pub(crate) const PROBE: u32 = 2;
/// Loop back-edges and calls count against the step budget.
pub(crate) const BUDGET: u32 = 4;
/// Probes also record execution and infection (mutation analysis).
pub(crate) const INFECT: u32 = 8;

const NONE: u32 = u32::MAX;
/// How many ticks pass between two looks at the clock.
const CLOCK_EVERY: u64 = 1 << 14;

struct State {
    mode: Cell<u32>,
    active: Cell<u32>,
    steps: Cell<u64>,
    step_limit: Cell<u64>,
    /// The step count at which a tick must look further: the limit is
    /// passed or the clock is due. One comparison per tick instead of two.
    next_check: Cell<u64>,
    depth: Cell<u32>,
    depth_limit: Cell<u32>,
    /// The lowest stack address the run may reach (its start minus the
    /// stack budget): one comparison per call.
    stack_floor: Cell<usize>,
    deadline: Cell<Option<Instant>>,
    /// The budget the run was given, for the threads it spawns
    /// ([`current`]).
    budget: Cell<Option<Budget>>,
    /// The budget ran out in this run (`"steps"`, `"depth"`, `"time"`):
    /// from then on every tick stops the run again, so code that catches
    /// the unwind (a retry loop around `catch_unwind`) cannot go on, and
    /// the run ends as a timeout whatever it returns.
    stopped: Cell<Option<&'static str>>,
    quiet: Cell<bool>,
}

thread_local! {
    static STATE: State = const {
        State {
            mode: Cell::new(0),
            active: Cell::new(NONE),
            steps: Cell::new(0),
            step_limit: Cell::new(u64::MAX),
            next_check: Cell::new(u64::MAX),
            depth: Cell::new(0),
            depth_limit: Cell::new(u32::MAX),
            stack_floor: Cell::new(0),
            deadline: Cell::new(None),
            budget: Cell::new(None),
            stopped: Cell::new(None),
            quiet: Cell::new(false),
        }
    };
}

/// Limits on one run, so that a mutant that loops or recurses forever ends
/// in a catchable [`Stop::Timeout`] instead of a hang or a stack overflow.
///
/// ```
/// use std::time::Duration;
/// let budget = mu2_runtime::Budget::default().steps(1_000).wall(Duration::from_secs(1));
/// assert_eq!(budget.step_limit, 1_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Loop iterations and annotated calls allowed (ticks), as in Mu2.
    pub step_limit: u64,
    /// Nesting of annotated function calls allowed.
    pub depth_limit: u32,
    /// Bytes of stack the run may use beyond where it started. Checked at
    /// each annotated call, so that unbounded recursion unwinds before it
    /// overflows the thread's stack (which would abort the process).
    pub stack_limit: usize,
    /// Wall-clock time allowed; checked every few thousand ticks.
    pub wall: Option<Duration>,
}

impl Default for Budget {
    /// 1,000,000 ticks; 10,000 nested annotated calls or 1 MiB of stack
    /// (half of what a spawned thread has by default), whichever comes first;
    /// and ten seconds of wall-clock time.
    ///
    /// Mu2 (Java) allows 10,000,000 ticks, which a JIT runs through in
    /// milliseconds; an instrumented debug build of Rust needs about a
    /// microsecond per loop iteration, so a tenth of that keeps a looping
    /// mutant to about a second under `cargo test`.
    fn default() -> Budget {
        Budget {
            step_limit: 1_000_000,
            depth_limit: 10_000,
            stack_limit: 1 << 20,
            wall: Some(Duration::from_secs(10)),
        }
    }
}

impl Budget {
    /// No limits at all (the code runs as long as it runs).
    pub const UNLIMITED: Budget = Budget {
        step_limit: u64::MAX,
        depth_limit: u32::MAX,
        stack_limit: usize::MAX,
        wall: None,
    };

    /// The same budget with another step limit.
    pub fn steps(self, step_limit: u64) -> Budget {
        Budget { step_limit, ..self }
    }

    /// The same budget with another call-depth limit.
    pub fn depth(self, depth_limit: u32) -> Budget {
        Budget {
            depth_limit,
            ..self
        }
    }

    /// The same budget with another stack limit, in bytes.
    pub fn stack(self, stack_limit: usize) -> Budget {
        Budget {
            stack_limit,
            ..self
        }
    }

    /// The same budget with the stack limit for mu2's own threads (half of
    /// [`RUN_STACK`]): instrumented debug frames are large, and a parser
    /// recursing over a 128-deep input can need several MiB.
    pub fn on_run_stack(self) -> Budget {
        self.stack(RUN_STACK / 2)
    }

    /// The same budget with another wall-clock limit.
    pub fn wall(self, wall: Duration) -> Budget {
        Budget {
            wall: Some(wall),
            ..self
        }
    }

    /// The budget for a mutant run on an input the original ran in
    /// `original_steps`: a hundred times that (at least 100,000 steps), but
    /// never more than this budget allows. Looping mutants then stop in
    /// proportion to the work the input needs, not after a fixed count.
    ///
    /// ```
    /// let b = mu2_runtime::Budget::default();
    /// assert_eq!(b.for_mutant(50).step_limit, 100_000);
    /// assert_eq!(b.for_mutant(2_000).step_limit, 200_000);
    /// assert_eq!(b.for_mutant(u64::MAX).step_limit, b.step_limit);
    /// ```
    pub fn for_mutant(self, original_steps: u64) -> Budget {
        let steps = original_steps
            .saturating_mul(100)
            .max(100_000)
            .min(self.step_limit);
        Budget {
            step_limit: steps,
            ..self
        }
    }

    /// This budget scaled by `factor` (the scorer runs with ten times the
    /// campaign's budget to avoid false kills).
    pub fn scaled(self, factor: u32) -> Budget {
        Budget {
            step_limit: self.step_limit.saturating_mul(factor as u64),
            wall: self.wall.map(|w| w.saturating_mul(factor)),
            ..self
        }
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn mode() -> u32 {
    STATE.with(|s| s.mode.get())
}

/// The switch as one call of an annotated function sees it, read once at
/// its entry (`let __mu2 = ::mu2::__rt::here(&UNIT);`) and passed to every
/// site in its body. Sites then test a local instead of reading
/// thread-local and atomic memory each time, and a loop's sites test
/// values the optimizer knows do not change inside it.
///
/// A call's view stays right for the whole call: a run (a mutant switched
/// on, probes) starts and ends around whole calls, because `run_mutant`,
/// `with_mutant` and the probe recorders scope the switch to a closure.
/// Closures and `async` blocks read their own at entry, since they may run
/// after the call that made them has returned.
///
/// ```
/// // Generated code only.
/// # use mu2_runtime::__rt::{Unit, here};
/// static UNIT: Unit = Unit::new("doc.rs", "doc", &[], 0);
/// let __mu2 = here(&UNIT);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Here {
    /// The thread's mode, without [`ACTIVE`] when the active mutant is not
    /// in this unit (every site then runs its original).
    pub(crate) mode: u32,
    /// The active mutant's unit-local index; `u32::MAX` when none of this
    /// unit's is active, so that `k - first < count` alone tells whether a
    /// site's alternative is on (`first + count` is at most the unit's
    /// mutant count, which is below `u32::MAX`).
    pub(crate) k: u32,
    /// The unit's first mutant and first branch probe, as dense indices.
    pub(crate) mutant_base: u32,
    pub(crate) branch_base: u32,
}

/// The switch for a call of a function in `unit`; see [`Here`].
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn here(unit: &'static Unit) -> Here {
    let (mut mode, active) = STATE.with(|s| (s.mode.get(), s.active.get()));
    let (mutant_base, branch_base) = if mode == 0 {
        (0, 0)
    } else {
        (unit.mutant_base(), unit.branch_base())
    };
    let mut k = active.wrapping_sub(mutant_base);
    // While the thread unwinds, destructors (and what they call) run their
    // originals: a mutant that panics there again would abort the process.
    if mode & ACTIVE == 0 || k >= unit.mutant_count() || std::thread::panicking() {
        mode &= !ACTIVE;
        k = u32::MAX;
    }
    Here {
        mode,
        k,
        mutant_base,
        branch_base,
    }
}

impl Here {
    /// The alternative of the site whose `count` mutants start at the
    /// unit-local index `first` that is active, if any. This is where a
    /// mutant is switched on.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn choice(self, first: u32, count: u32) -> Option<u32> {
        let k = self.k.wrapping_sub(first);
        (k < count).then_some(k)
    }
}

/// Whether a call of the function whose `count` mutants start at the
/// unit-local index `first` may run its body as written, with only the
/// budget counted: no probe is on, and the active mutant (if any) is
/// another function's. Generated code asks at entry, in optimized builds,
/// before it reads [`here`], which only the instrumented body needs: two
/// thread-local reads and a comparison (see docs/benchmarks.md).
///
/// ```
/// // Generated code only; outside any run nothing is switched on.
/// # use mu2_runtime::__rt::{Unit, elsewhere};
/// static UNIT: Unit = Unit::new("doc.rs", "doc", &[], 0);
/// assert!(elsewhere(&UNIT, 0, 0));
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn elsewhere(unit: &'static Unit, first: u32, count: u32) -> bool {
    let (mode, active) = STATE.with(|s| (s.mode.get(), s.active.get()));
    // With no mutant active, `active` is `NONE` (u32::MAX): far out of range.
    mode & PROBE == 0 && active.wrapping_sub(unit.mutant_base().wrapping_add(first)) >= count
}

/// The dense index of the mutant active on this thread.
pub(crate) fn active() -> Option<u32> {
    let a = STATE.with(|s| s.active.get());
    (a != NONE).then_some(a)
}

/// The id of the mutant active on this thread, if any.
///
/// ```
/// assert_eq!(mu2_runtime::active_mutant(), None);
/// ```
pub fn active_mutant() -> Option<MutantId> {
    active().map(|i| crate::schema::mutants()[i as usize].id)
}

/// Counts one step (a loop back-edge or an annotated call) against the budget.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn tick() {
    STATE.with(|s| {
        let steps = s.steps.get() + 1;
        s.steps.set(steps);
        if steps >= s.next_check.get() {
            check(steps)
        }
    })
}

/// Counts `n` steps at once, checking the limit and the clock as `n` single
/// ticks would have (the clock at most once).
#[inline(never)]
fn ticks(n: u64) {
    STATE.with(|s| {
        let steps = s.steps.get().saturating_add(n);
        s.steps.set(steps);
        if steps >= s.next_check.get() {
            check(steps)
        }
    })
}

/// The step count reached `next_check`: stops the run if it is over its
/// step limit or its time, else sets the next check (the limit, or the
/// next multiple of [`CLOCK_EVERY`] when the run has a deadline).
#[cold]
#[inline(never)]
fn check(steps: u64) {
    if let Some(what) = stopped() {
        timeout(what)
    }
    let (over, deadline) = STATE.with(|s| {
        let limit = s.step_limit.get();
        let deadline = s.deadline.get();
        s.next_check
            .set(next_check(steps, limit, deadline.is_some()));
        (steps > limit, deadline)
    });
    if over {
        timeout("steps")
    }
    if deadline.is_some_and(|d| Instant::now() > d) {
        timeout("time")
    }
}

/// The first step count after `steps` at which a tick must call [`check`].
fn next_check(steps: u64, limit: u64, clock: bool) -> u64 {
    let over = limit.saturating_add(1);
    if !clock {
        return over;
    }
    let clock = (steps / CLOCK_EVERY)
        .saturating_add(1)
        .saturating_mul(CLOCK_EVERY);
    over.min(clock)
}

/// Steps a body counts in a local, handed to the thread's budget every
/// [`Fuel::CHUNK`] steps (fewer when less of the budget is left) and when
/// the body ends: a loop iteration then costs a decrement and a branch on
/// a register, not a round trip to thread-local memory.
///
/// The limit is checked at each hand-over. Steps still held by bodies up
/// the stack are counted when they end, so with deep nesting the budget may
/// run out later than exact counting would say, never earlier.
///
/// ```
/// let mut fuel = mu2_runtime::__rt::Fuel::new();
/// for _ in 0..10 {
///     fuel.tick();
/// }
/// ```
#[derive(Debug)]
pub struct Fuel {
    left: u32,
    /// The steps of the current chunk (`left` counts down from it).
    chunk: u32,
}

impl Fuel {
    /// Steps counted locally between two hand-overs.
    pub const CHUNK: u32 = 1024;

    /// A counter for one call.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Fuel {
        let chunk = chunk();
        Fuel { left: chunk, chunk }
    }

    /// One step: a loop back-edge.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn tick(&mut self) {
        self.left -= 1;
        if self.left == 0 {
            // A value, not `&mut self`: the counter's address does not
            // escape, so it can live in a register.
            let chunk = refill(self.chunk);
            self.chunk = chunk;
            self.left = chunk;
        }
    }
}

/// Steps to count locally before the next hand-over: at most what is left
/// of the budget, so that a small limit is kept exactly; at least one.
#[cfg_attr(not(debug_assertions), inline(always))]
fn chunk() -> u32 {
    STATE.with(|s| {
        let left = s.step_limit.get().saturating_sub(s.steps.get());
        left.clamp(1, Fuel::CHUNK as u64) as u32
    })
}

/// Hands `used` steps over to the budget; returns the next chunk.
#[cold]
#[inline(never)]
fn refill(used: u32) -> u32 {
    if mode() & BUDGET != 0 {
        ticks(used as u64)
    }
    chunk()
}

impl Drop for Fuel {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn drop(&mut self) {
        let used = self.chunk - self.left;
        if used != 0 {
            // No limit check here: this may run while a TIMEOUT unwinds.
            STATE.with(|s| s.steps.set(s.steps.get().saturating_add(used as u64)))
        }
    }
}

/// Stops the run, unless the thread is unwinding already (from a timeout,
/// say): then the budget is not checked, since a panic out of a destructor
/// that runs during unwinding would abort the process.
#[cold]
#[inline(never)]
fn timeout(what: &'static str) {
    STATE.with(|s| {
        if s.stopped.get().is_none() {
            s.stopped.set(Some(what));
        }
        // Every tick from now on looks, and stops the run again.
        s.next_check.set(0);
    });
    if !std::thread::panicking() {
        crate::outcome::stop(Stop::Timeout(what))
    }
}

/// How the budget ran out in the run in progress on this thread, if it did
/// (even if the code caught the unwind and went on).
pub(crate) fn stopped() -> Option<&'static str> {
    STATE.with(|s| s.stopped.get())
}

/// The stack pointer: read from the register where we know its name (one
/// instruction), else the address of a local in the current frame.
#[cfg_attr(not(debug_assertions), inline(always))]
fn stack_pointer() -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        let sp: usize;
        // SAFETY: copies the stack pointer register; reads no memory.
        unsafe {
            std::arch::asm!("mov {}, rsp", out(reg) sp, options(nomem, nostack, preserves_flags))
        };
        sp
    }
    #[cfg(target_arch = "aarch64")]
    {
        let sp: usize;
        // SAFETY: copies the stack pointer register; reads no memory.
        unsafe {
            std::arch::asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags))
        };
        sp
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let marker = 0u8;
        std::hint::black_box(&marker) as *const u8 as usize
    }
}

/// Entering an annotated function: checks the depth and stack budgets.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn enter() -> bool {
    let sp = stack_pointer();
    STATE.with(|s| {
        let d = s.depth.get() + 1;
        // Stacks grow down on every platform Rust supports with threads.
        if d > s.depth_limit.get() || sp < s.stack_floor.get() {
            timeout("depth")
        }
        s.depth.set(d);
    });
    tick();
    true
}

#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn leave() {
    STATE.with(|s| s.depth.set(s.depth.get().saturating_sub(1)))
}

pub(crate) fn quiet() -> bool {
    STATE.with(|s| s.quiet.get())
}

/// Restores the switch as it was when dropped, panics included.
pub(crate) struct Saved {
    mode: u32,
    active: u32,
    steps: u64,
    step_limit: u64,
    next_check: u64,
    depth: u32,
    depth_limit: u32,
    stack_floor: usize,
    deadline: Option<Instant>,
    budget: Option<Budget>,
    stopped: Option<&'static str>,
    quiet: bool,
}

impl Drop for Saved {
    fn drop(&mut self) {
        STATE.with(|s| {
            s.mode.set(self.mode);
            s.active.set(self.active);
            s.steps.set(self.steps);
            s.step_limit.set(self.step_limit);
            s.next_check.set(self.next_check);
            s.depth.set(self.depth);
            s.depth_limit.set(self.depth_limit);
            s.stack_floor.set(self.stack_floor);
            s.deadline.set(self.deadline);
            s.budget.set(self.budget);
            s.stopped.set(self.stopped);
            s.quiet.set(self.quiet);
        })
    }
}

/// What a run sets on the switch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Setting {
    pub(crate) active: Option<u32>,
    pub(crate) probe: bool,
    pub(crate) infect: bool,
    pub(crate) budget: Option<Budget>,
    pub(crate) quiet: bool,
}

/// Sets the switch for one run; the returned guard puts it back.
pub(crate) fn set(setting: Setting) -> Saved {
    STATE.with(|s| {
        let saved = Saved {
            mode: s.mode.get(),
            active: s.active.get(),
            steps: s.steps.get(),
            step_limit: s.step_limit.get(),
            next_check: s.next_check.get(),
            depth: s.depth.get(),
            depth_limit: s.depth_limit.get(),
            stack_floor: s.stack_floor.get(),
            deadline: s.deadline.get(),
            budget: s.budget.get(),
            stopped: s.stopped.get(),
            quiet: s.quiet.get(),
        };
        let mut mode = 0;
        match setting.active {
            Some(index) => {
                s.active.set(index);
                mode |= ACTIVE;
            }
            None => s.active.set(NONE),
        }
        if setting.probe {
            mode |= PROBE;
        }
        if setting.infect {
            mode |= PROBE | INFECT;
        }
        match setting.budget {
            Some(b) => {
                mode |= BUDGET;
                s.steps.set(0);
                s.step_limit.set(b.step_limit);
                s.next_check
                    .set(next_check(0, b.step_limit, b.wall.is_some()));
                s.depth.set(0);
                s.depth_limit.set(b.depth_limit);
                // Stacks grow down on every platform Rust supports with threads.
                s.stack_floor
                    .set(stack_pointer().saturating_sub(b.stack_limit));
                s.deadline.set(b.wall.map(|w| Instant::now() + w));
            }
            None => {
                s.step_limit.set(u64::MAX);
                s.next_check.set(u64::MAX);
                s.depth_limit.set(u32::MAX);
                s.stack_floor.set(0);
                s.deadline.set(None);
            }
        }
        s.budget.set(setting.budget);
        s.stopped.set(None);
        s.mode.set(mode);
        s.quiet.set(setting.quiet || saved.quiet);
        saved
    })
}

/// The setting of the run in progress on this thread, if any, for a thread
/// it spawns (`carry`): the same mutant, probes and budget limits; and when
/// its time runs out (the thread gets what is left then).
pub(crate) fn current() -> Option<(Setting, Option<Instant>)> {
    STATE.with(|s| {
        let mode = s.mode.get();
        if mode == 0 {
            return None;
        }
        let setting = Setting {
            active: (mode & ACTIVE != 0).then(|| s.active.get()),
            probe: mode & PROBE != 0,
            infect: mode & INFECT != 0,
            budget: s.budget.get(),
            quiet: s.quiet.get(),
        };
        Some((setting, s.deadline.get()))
    })
}

/// When the run in progress on this thread must end, if it has a
/// wall-clock budget.
pub(crate) fn deadline() -> Option<Instant> {
    STATE.with(|s| {
        if s.mode.get() & BUDGET != 0 {
            s.deadline.get()
        } else {
            None
        }
    })
}

/// Steps counted so far in the current run on this thread.
pub(crate) fn steps() -> u64 {
    STATE.with(|s| s.steps.get())
}

/// The stack of the threads mu2 runs drivers on: campaigns, scoring, replay
/// and mutant workers. (Only reserved address space until it is used.)
/// A test that runs deeply recursive annotated code outside a driver can
/// use it too:
///
/// ```
/// let depth = std::thread::Builder::new()
///     .stack_size(mu2_runtime::RUN_STACK)
///     .spawn(|| 42)
///     .unwrap()
///     .join()
///     .unwrap();
/// assert_eq!(depth, 42);
/// ```
pub const RUN_STACK: usize = 128 << 20;

/// Runs `f` on a thread with a [`RUN_STACK`] stack, named like the calling
/// thread (so panic messages still name the test), and returns its result;
/// a panic in `f` continues on the calling thread.
pub(crate) fn on_run_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let name = std::thread::current().name().unwrap_or("mu2").to_string();
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .name(name)
            .stack_size(RUN_STACK)
            .spawn_scoped(scope, f)
            .expect("a thread to run the driver on");
        match thread.join() {
            Ok(r) => r,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Outcome;

    #[test]
    fn checks_fall_on_the_limit_or_the_next_clock_reading() {
        // No deadline: only passing the limit needs a look.
        assert_eq!(next_check(0, 100, false), 101);
        assert_eq!(next_check(0, u64::MAX, false), u64::MAX);
        // A deadline: the clock every CLOCK_EVERY steps, the limit first
        // when it comes first.
        assert_eq!(next_check(0, u64::MAX, true), CLOCK_EVERY);
        assert_eq!(next_check(CLOCK_EVERY + 5, u64::MAX, true), 2 * CLOCK_EVERY);
        assert_eq!(next_check(0, 100, true), 101);
        assert_eq!(next_check(u64::MAX, u64::MAX, true), u64::MAX);
    }

    #[test]
    fn a_chunk_of_steps_past_the_limit_stops_the_run() {
        let budget = Budget::UNLIMITED.steps(5_000);
        let run = |n: u64| {
            crate::outcome::catch(|| {
                let _saved = set(Setting {
                    active: None,
                    probe: false,
                    infect: false,
                    budget: Some(budget),
                    quiet: true,
                });
                ticks(n);
                tick();
                steps()
            })
        };
        assert_eq!(run(4_999), Outcome::Returned(5_000));
        assert_eq!(run(5_000), Outcome::Stopped(Stop::Timeout("steps")));
    }
}
