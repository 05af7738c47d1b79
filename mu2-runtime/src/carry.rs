//! Threads spawned inside a run. The switch is per thread, so a thread that
//! annotated code spawns would start idle: the active mutant would not be on
//! there, and the probes would not see what it ran. `#[mu2::mutate]` wraps
//! the closure of a spawn call of the standard library, rayon or tokio
//! (`thread::spawn`, `s.spawn` in `thread::scope`, `Builder::spawn_scoped`,
//! `rayon::join`, ...) so that the new thread runs under the run that
//! spawned it ([`Carry`]):
//!
//! - the same active mutant, and a budget of its own with the limits the
//!   run had left (so a looping mutant there ends too);
//! - under probes, a trace of its own, merged into the run's trace when the
//!   run ends (threads still running then are not waited for);
//! - a timeout or an unviable alternative there is how the run ends, as it
//!   would be on the run's own thread, instead of whatever panic it causes
//!   in the thread that joins it;
//! - threads it spawns report to the same run; at most [`MAX_LIVE`] carried
//!   threads at once, and none started once the run has ended.
//!
//! `async` blocks handed to a spawn-like call (`tokio::spawn(async { .. })`)
//! are carried too, each of their polls on whatever thread polls them
//! ([`Carry::task`]). Only closures and `async` blocks written at the call
//! are carried: a function passed by name (`thread::spawn(worker)`) and
//! threads started by a library's own pool (`par_iter`) run idle.

use std::cell::RefCell;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Instant;

use crate::outcome::{Outcome, Stop};
use crate::probe::{self, Trace};
use crate::switch::{self, Budget, Setting};

/// Carried threads of one run that may exist at once. A mutant can make a
/// function that spawns a thread per level recurse without its base case,
/// each thread with a budget of its own: thousands of threads later,
/// spawning fails where a panic cannot be raised, and the process aborts.
/// Past this many the run stops as a timeout.
const MAX_LIVE: usize = 512;

/// What the threads a run spawned recorded, collected for the run.
#[derive(Default)]
struct Spawned {
    /// Their probes' records, merged.
    trace: Mutex<Option<Trace>>,
    /// The first stop (timeout, unviable) that ended one of them.
    stop: Mutex<Option<Stop>>,
    /// Carried threads spawned and not yet done.
    live: AtomicUsize,
    /// The run has ended: threads it left behind start nothing more.
    over: AtomicBool,
}

thread_local! {
    /// The collector of the run in progress on this thread, made when the
    /// run first spawns a carried thread.
    static RUN: RefCell<Option<Arc<Spawned>>> = const { RefCell::new(None) };
}

/// The run in progress on this thread, taken at a thread's spawn and put on
/// the new thread. Generated code makes one where annotated code spawns:
///
/// ```
/// use mu2_runtime::__rt::Carry;
/// // What `std::thread::spawn(|| 6 * 7)` becomes under `#[mu2::mutate]`:
/// let handle = std::thread::spawn({
///     let carry = Carry::new();
///     let spawned = || 6 * 7;
///     move || carry.run(|| spawned())
/// });
/// assert_eq!(handle.join().unwrap(), 42);
/// ```
pub struct Carry(Option<Carried>);

struct Carried {
    setting: Setting,
    /// When the run must end: each thread or poll gets what is left then.
    deadline: Option<Instant>,
    spawned: Arc<Spawned>,
    /// A thread's carry counts against [`MAX_LIVE`] from the spawn until
    /// the thread drops its closure (a task's does not).
    counted: bool,
}

impl Drop for Carried {
    fn drop(&mut self) {
        if self.counted {
            self.spawned.live.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

impl Carry {
    /// The run in progress here, if any (outside runs: nothing to carry),
    /// for a thread about to be spawned. Stops the run as a timeout if it
    /// has [`MAX_LIVE`] carried threads already.
    #[inline]
    pub fn new() -> Carry {
        let carry = Carry::taken(true);
        if let Some(c) = &carry.0 {
            // Counted now, whatever happens: dropping `carry` (while
            // unwinding, too) gives it back.
            let live = c.spawned.live.fetch_add(1, Ordering::Relaxed);
            if c.spawned.over.load(Ordering::Relaxed) {
                // A thread left running by a run that has ended.
                crate::outcome::stop(Stop::Timeout("time"))
            }
            if live >= MAX_LIVE {
                c.spawned.stop_here(Stop::Timeout("threads"))
            }
        }
        carry
    }

    fn taken(counted: bool) -> Carry {
        let Some((mut setting, deadline)) = switch::current() else {
            return Carry(None);
        };
        // The new thread's stack is not this one's: a spawned thread has
        // 2 MiB unless its builder says otherwise, so its recursion must
        // stop well before that, as `Budget::default` does.
        let default_stack = Budget::default().stack_limit;
        if let Some(b) = &mut setting.budget {
            b.stack_limit = b.stack_limit.min(default_stack);
        }
        let spawned = RUN.with(|r| r.borrow_mut().get_or_insert_with(Default::default).clone());
        Carry(Some(Carried {
            setting,
            deadline,
            spawned,
            counted,
        }))
    }

    /// Runs `f` (the spawned closure) under the carried run. On a thread
    /// already in a run (a "spawn" that runs the closure in place), `f`
    /// just runs.
    pub fn run<R>(&self, f: impl FnOnce() -> R) -> R {
        let Some(Carried {
            setting,
            deadline,
            spawned,
            ..
        }) = &self.0
        else {
            return f();
        };
        if switch::mode() != 0 {
            return f();
        }
        let mut setting = *setting;
        if let (Some(b), Some(deadline)) = (&mut setting.budget, deadline) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                // A future polled again after its run's time ran out: a
                // mutant can make one yield forever, each poll short.
                spawned.stop_here(Stop::Timeout("time"))
            }
            b.wall = Some(left);
        }
        if spawned.over.load(Ordering::Relaxed) {
            // A thread left running by a run that has ended: its mutant
            // must not act on later runs.
            crate::outcome::stop(Stop::Timeout("time"))
        }
        // Threads this one spawns report to the same run.
        let _collector = Nested::enter(spawned);
        let mut trace = setting.probe.then(|| {
            let mut t = Trace::default();
            t.reset();
            t
        });
        let result = {
            let _buffers = trace.as_mut().map(probe::Restore::point_at);
            let _saved = switch::set(setting);
            let result = catch_unwind(AssertUnwindSafe(f));
            if let Some(t) = &mut trace {
                t.add_steps(switch::steps());
            }
            // Ran out of budget, and the closure caught the unwind.
            if let Some(what) = switch::stopped() {
                spawned.stopped(Stop::Timeout(what));
            }
            result
        };
        if let Some(t) = trace {
            let mut merged = spawned.trace.lock().unwrap_or_else(PoisonError::into_inner);
            match &mut *merged {
                Some(m) => m.absorb(&t),
                None => *merged = Some(t),
            }
        }
        match result {
            Ok(r) => r,
            Err(payload) => {
                if let Some(stop) = payload.downcast_ref::<Stop>() {
                    spawned.stopped(stop.clone());
                }
                resume_unwind(payload)
            }
        }
    }

    /// `future`, polled under the carried run wherever it is polled: what
    /// generated code makes of an `async` block handed to a spawn-like call
    /// (`tokio::spawn(async move { .. })`), whose polls may run on any
    /// worker thread.
    ///
    /// ```
    /// use mu2_runtime::__rt::Carry;
    /// let fut = Carry::task(async { 6 * 7 });
    /// let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// let mut fut = std::pin::pin!(fut);
    /// assert_eq!(fut.as_mut().poll(&mut cx), std::task::Poll::Ready(42));
    /// ```
    pub fn task<F: Future>(future: F) -> CarriedFuture<F> {
        CarriedFuture {
            carry: Carry::taken(false),
            future: Box::pin(future),
        }
    }
}

impl Spawned {
    /// Notes how one of the run's threads stopped (the first stop wins).
    fn stopped(&self, stop: Stop) {
        let mut first = self.stop.lock().unwrap_or_else(PoisonError::into_inner);
        first.get_or_insert(stop);
    }

    /// Notes `stop` and stops this thread with it.
    fn stop_here(&self, stop: Stop) -> ! {
        self.stopped(stop.clone());
        crate::outcome::stop(stop)
    }
}

/// This thread's collector set to a carried run's, until dropped.
struct Nested(Option<Arc<Spawned>>);

impl Nested {
    fn enter(spawned: &Arc<Spawned>) -> Nested {
        Nested(RUN.with(|r| r.borrow_mut().replace(spawned.clone())))
    }
}

impl Drop for Nested {
    fn drop(&mut self) {
        let outer = self.0.take();
        let _ = RUN.try_with(|r| *r.borrow_mut() = outer);
    }
}

/// A future that runs each poll under a carried run ([`Carry::task`]).
pub struct CarriedFuture<F> {
    carry: Carry,
    future: Pin<Box<F>>,
}

impl<F: Future> Future for CarriedFuture<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = &mut *self;
        this.carry.run(|| this.future.as_mut().poll(cx))
    }
}

impl Default for Carry {
    fn default() -> Carry {
        Carry::new()
    }
}

/// The scope of one run on this thread: threads it spawns report to it
/// until [`Collect::finish`]. Nested runs have scopes of their own.
pub(crate) struct Collect {
    /// The enclosing run's collector, put back when this scope ends.
    outer: Option<Arc<Spawned>>,
    done: bool,
}

impl Collect {
    pub(crate) fn open() -> Collect {
        Collect {
            outer: RUN.with(|r| r.borrow_mut().take()),
            done: false,
        }
    }

    /// Ends the scope: merges what the run's threads recorded into `trace`,
    /// and returns the stop that ended one of them, if one did (a run that
    /// panicked because of it ends with that stop instead).
    pub(crate) fn finish(mut self, trace: Option<&mut Trace>) -> Option<Stop> {
        self.done = true;
        let outer = self.outer.take();
        let spawned = RUN.with(|r| std::mem::replace(&mut *r.borrow_mut(), outer))?;
        spawned.over.store(true, Ordering::Relaxed);
        let merged = spawned.trace.lock().ok().and_then(|mut t| t.take());
        if let (Some(trace), Some(merged)) = (trace, merged) {
            trace.absorb(&merged);
        }
        spawned.stop.lock().ok().and_then(|mut s| s.take())
    }
}

impl Drop for Collect {
    /// Puts the enclosing run's collector back if `finish` was not reached.
    fn drop(&mut self) {
        if !self.done {
            let outer = self.outer.take();
            let _ = RUN.try_with(|r| *r.borrow_mut() = outer);
        }
    }
}

/// How a run ended: `outcome`, unless its budget ran out (`stop`) on its
/// own thread or on one it spawned and the code went on regardless: it
/// panicked for it (a `join().unwrap()` on the stopped thread), or caught
/// the unwind and returned.
pub(crate) fn ended<R>(outcome: Outcome<R>, stop: Option<Stop>) -> Outcome<R> {
    match (outcome, stop) {
        (Outcome::Panicked(_) | Outcome::Returned(_), Some(stop)) => Outcome::Stopped(stop),
        (outcome, _) => outcome,
    }
}
