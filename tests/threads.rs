//! Threads that annotated code spawns run under the run that spawned them:
//! the active mutant is on there, the probes record what they ran, and a
//! mutant that loops or is unviable there ends the run as it would on the
//! run's own thread.

use std::future::Future;
use std::pin::pin;
use std::sync::mpsc;
use std::task::{Context, Poll, Waker};

use mu2::probe::Trace;
use mu2::{Budget, Mutant, Operator, Outcome, Stop};

const MODULE: &str = module_path!();

fn one(function: &str, op: Operator, original: &str, replacement: &str) -> &'static Mutant {
    let found: Vec<_> = mu2::mutants()
        .iter()
        .filter(|m| {
            m.module.starts_with(MODULE)
                && m.function == function
                && m.operator == op
                && m.original == original
                && m.replacement == replacement
        })
        .collect();
    assert_eq!(found.len(), 1, "{function}: {original} -> {replacement}");
    found[0]
}

fn run<R>(m: &Mutant, f: impl FnOnce() -> R) -> Outcome<R> {
    mu2::run_mutant(Some(m.id), Budget::default(), f)
}

/// Sums halves on two scoped threads; the mutants are in the closures.
#[mu2::mutate]
fn scoped_sum(v: &[u64]) -> u64 {
    let (a, b) = v.split_at(v.len() / 2);
    std::thread::scope(|s| {
        let left = s.spawn(|| a.iter().map(|x| x * 2).sum::<u64>());
        let right = s.spawn(|| b.iter().map(|x| x * 2).sum::<u64>());
        left.join().unwrap() + right.join().unwrap()
    })
}

/// A detached thread that calls another annotated function, and a channel.
#[mu2::mutate]
fn via_channel(n: u32) -> u32 {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        tx.send(square(n)).unwrap();
    });
    handle.join().unwrap();
    rx.try_recv().unwrap_or(0)
}

#[mu2::mutate]
fn square(n: u32) -> u32 {
    n * n
}

/// Counts down on a spawned thread; `-` to `+` never ends.
#[mu2::mutate]
fn countdown(n: i64) -> i64 {
    std::thread::spawn(move || {
        let mut k = n;
        let mut steps = 0;
        while k != 0 {
            k -= 1;
            steps += 1;
        }
        steps
    })
    .join()
    .unwrap()
}

/// `String + &str` in a spawned thread: `-` is unviable.
#[mu2::mutate]
fn greet(name: String) -> String {
    std::thread::spawn(move || name + "!").join().unwrap()
}

/// A stand-in for `tokio::task`.
mod task {
    use super::*;

    /// `tokio::task::spawn` on a multi-threaded runtime: the task is
    /// polled on a worker thread of its own.
    pub fn spawn<F: Future + Send + 'static>(task: F) -> std::thread::JoinHandle<F::Output>
    where
        F::Output: Send + 'static,
    {
        std::thread::spawn(move || {
            let mut task = pin!(task);
            let mut cx = Context::from_waker(Waker::noop());
            loop {
                if let Poll::Ready(v) = task.as_mut().poll(&mut cx) {
                    return v;
                }
            }
        })
    }
}

/// Ready on its second poll.
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: std::pin::Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        Poll::Pending
    }
}

/// Tasks on worker threads: the mutants are in the `async` blocks.
#[mu2::mutate]
fn tasks(n: u64) -> u64 {
    let doubled = task::spawn(async move {
        YieldOnce(false).await;
        n * 2
    });
    let waits = task::spawn(async move {
        let mut left = n;
        while left > 0 {
            YieldOnce(false).await;
            left -= 1;
        }
        left
    });
    doubled.join().unwrap() + waits.join().unwrap()
}

#[test]
fn tasks_spawned_on_other_threads_run_under_the_run() {
    assert_eq!(tasks(3), 6);
    // After an await, on the worker thread.
    let m = one("tasks", Operator::Math, "*", "/");
    assert_eq!(run(m, || tasks(3)), Outcome::Returned(1));
    let (_, trace) = mu2::probe::record(Budget::default(), || tasks(3));
    assert!(trace.ran(m) && trace.infects(m));
    // A mutant that makes a task yield forever, each poll short, ends at
    // the run's deadline.
    let m = one("tasks", Operator::Increments, "-=", "+=");
    let budget = Budget::default().wall(std::time::Duration::from_millis(200));
    let started = std::time::Instant::now();
    assert_eq!(
        mu2::run_mutant(Some(m.id), budget, || tasks(3)),
        Outcome::Stopped(Stop::Timeout("time"))
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn the_active_mutant_is_on_in_spawned_threads() {
    assert_eq!(scoped_sum(&[1, 2, 3, 4]), 20);
    // The two closures' `*` are two sites, each in its own thread.
    let muls: Vec<_> = mu2::mutants()
        .iter()
        .filter(|m| m.module.starts_with(MODULE) && m.function == "scoped_sum")
        .filter(|m| m.original == "*" && m.replacement == "/")
        .collect();
    assert_eq!(muls.len(), 2);
    let outs: Vec<_> = muls
        .iter()
        .map(|m| run(m, || scoped_sum(&[1, 2, 3, 4])))
        .collect();
    // [1, 2] -> 1 / 2 + 2 / 2 = 1 and [3, 4] -> 1 + 2 = 3, each with the other half doubled.
    assert!(outs.contains(&Outcome::Returned(1 + 14)), "{outs:?}");
    assert!(outs.contains(&Outcome::Returned(6 + 3)), "{outs:?}");

    // A mutant in a function the spawned closure calls.
    let m = one("square", Operator::Math, "*", "/");
    assert_eq!(via_channel(5), 25);
    assert_eq!(run(m, || via_channel(5)), Outcome::Returned(1));
    // The thread that ran the mutant went back to the original.
    assert_eq!(via_channel(5), 25);
    assert_eq!(mu2::active_mutant(), None);
}

#[test]
fn probes_record_what_spawned_threads_ran() {
    let (out, trace): (_, Trace) =
        mu2::probe::record(Budget::default(), || scoped_sum(&[1, 2, 3, 4]));
    assert_eq!(out, Outcome::Returned(20));
    for m in mu2::mutants()
        .iter()
        .filter(|m| m.module.starts_with(MODULE) && m.function == "scoped_sum")
        .filter(|m| m.original == "*")
    {
        assert!(trace.ran(m), "{m}");
        if m.replacement == "/" {
            assert!(trace.infects(m), "{m}");
        }
    }
    let (out, trace) = mu2::probe::record(Budget::default(), || via_channel(3));
    assert_eq!(out, Outcome::Returned(9));
    let sq = one("square", Operator::Math, "*", "/");
    assert!(trace.ran(sq) && trace.infects(sq));
    // Branch coverage too: the closures' loops and the spawned calls.
    assert!(trace.steps() > 0);
}

#[test]
fn a_spawned_thread_that_stops_ends_the_run_with_its_stop() {
    assert_eq!(countdown(5), 5);
    let m = one("countdown", Operator::Increments, "-=", "+=");
    let budget = Budget::default().steps(10_000);
    assert_eq!(
        mu2::run_mutant(Some(m.id), budget, || countdown(5)),
        Outcome::Stopped(Stop::Timeout("steps"))
    );

    assert_eq!(greet("mu".into()), "mu!");
    let m = one("greet", Operator::Math, "+", "-");
    assert_eq!(
        run(m, || greet("mu".into())),
        Outcome::Stopped(Stop::Unviable(m.id))
    );
    // `with_mutant` raises the thread's stop, not the join's panic.
    let payload = std::panic::catch_unwind(|| mu2::with_mutant(m.id, || greet("mu".into())))
        .expect_err("an unviable mutant stops the run");
    assert_eq!(payload.downcast_ref::<Stop>(), Some(&Stop::Unviable(m.id)));
}

/// The closures push to borrowed vectors (`FnMut`), on scoped threads.
#[mu2::mutate]
fn fill(n: u32) -> (Vec<u32>, Vec<u32>) {
    let (mut evens, mut odds) = (Vec::new(), Vec::new());
    std::thread::scope(|s| {
        s.spawn(|| {
            (0..n)
                .filter(|k| k % 2 == 0)
                .for_each(|k| evens.push(k * 10))
        });
        s.spawn(|| {
            for k in 0..n {
                if k % 2 == 1 {
                    odds.push(k)
                }
            }
        });
    });
    (evens, odds)
}

/// A thread that spawns a thread: the grandchild's sites are probed, and
/// its timeout is the run's.
#[mu2::mutate]
fn grandchild(x: u64) -> u64 {
    let outer = std::thread::spawn(move || {
        let inner = std::thread::spawn(move || {
            let mut k = x;
            while k > 0 {
                k -= 1;
            }
            x * 3
        });
        inner.join().unwrap() + 1
    });
    outer.join().unwrap()
}

/// Sums a range, a thread per left half; `-` -> `+` removes the base case,
/// and threads multiply without end.
#[mu2::mutate]
fn tree_sum(lo: u64, hi: u64) -> u64 {
    if hi - lo <= 8 {
        return (lo..hi).sum();
    }
    let mid = (lo + hi) / 2;
    let left = std::thread::spawn(move || tree_sum(lo, mid));
    let right = tree_sum(mid, hi);
    left.join().unwrap_or(0) + right
}

/// Swallows panics, and with them the budget's stop.
#[mu2::mutate]
fn collatz_or(n: u64, fallback: u64) -> u64 {
    std::panic::catch_unwind(|| {
        let (mut x, mut steps) = (n, 0);
        while x != 1 {
            x = if x % 2 == 0 { x / 2 } else { 3 * x + 1 };
            steps += 1;
        }
        steps
    })
    .unwrap_or(fallback)
}

#[test]
fn fn_mut_closures_nested_threads_and_runaway_spawning() {
    assert_eq!(fill(5), (vec![0, 20, 40], vec![1, 3]));
    let m = one("fill", Operator::Math, "*", "/");
    assert_eq!(
        run(m, || fill(5)),
        Outcome::Returned((vec![0, 0, 0], vec![1, 3]))
    );

    assert_eq!(grandchild(4), 13);
    let (out, trace) = mu2::probe::record(Budget::default(), || grandchild(4));
    assert_eq!(out, Outcome::Returned(13));
    let times = one("grandchild", Operator::Math, "*", "/");
    assert!(
        trace.ran(times) && trace.infects(times),
        "the grandchild is probed"
    );
    assert_eq!(run(times, || grandchild(4)), Outcome::Returned(2));
    let m = one("grandchild", Operator::Increments, "-=", "+=");
    let budget = Budget::default().steps(10_000);
    assert_eq!(
        mu2::run_mutant(Some(m.id), budget, || grandchild(4)),
        Outcome::Stopped(Stop::Timeout("steps"))
    );

    assert_eq!(tree_sum(0, 100), 4950);
    let m = one("tree_sum", Operator::Math, "-", "+");
    let out = mu2::run_mutant(Some(m.id), Budget::default(), || tree_sum(0, 100));
    assert!(matches!(out, Outcome::Stopped(Stop::Timeout(_))), "{out:?}");
}

#[test]
fn a_stop_the_code_catches_still_ends_the_run_as_a_timeout() {
    assert_eq!(collatz_or(6, 999), 8);
    let m = one("collatz_or", Operator::RemoveConditionals, "x != 1", "true");
    let budget = Budget::default().steps(10_000);
    assert_eq!(
        mu2::run_mutant(Some(m.id), budget, || collatz_or(6, 999)),
        Outcome::Stopped(Stop::Timeout("steps"))
    );
    let payload = std::panic::catch_unwind(|| mu2::with_mutant(m.id, || collatz_or(6, 999)))
        .expect_err("the run timed out");
    assert_eq!(
        payload.downcast_ref::<Stop>(),
        Some(&Stop::Timeout("steps"))
    );
}
