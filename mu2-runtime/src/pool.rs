//! Runs chosen mutants on one input, on worker threads.
//!
//! Each mutant run regenerates the input from the same bytes (so drivers need
//! no `Clone`) with that mutant switched on for the worker's thread. Work is
//! split by index and results come back in index order, so what a campaign
//! does never depends on how many workers it has.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::{Scope, ScopedJoinHandle};

use crate::input::{Invalid, MAX_INPUT, Source};
use crate::outcome::Outcome;
use crate::switch::Budget;

/// Workers get a large stack: mutants may recurse deeply before the budget's
/// stack limit stops them.
const WORKER_STACK: usize = crate::switch::RUN_STACK;

/// How a driver's run on one input ended, with a mutant active.
pub type MutantOutcome<O> = Outcome<Result<O, Invalid>>;

/// A worker's job queue, and where its outcomes come back.
type Worker<O> = (Sender<Job>, Receiver<Vec<(usize, MutantOutcome<O>)>>);

struct Job {
    bytes: Arc<Vec<u8>>,
    mutants: Vec<usize>,
    budget: Budget,
}

/// Runs mutants on inputs: in the calling thread with one job, else on
/// `jobs` scoped worker threads.
pub struct Pool<'scope, O> {
    run: fn(&mut Source) -> Result<O, Invalid>,
    workers: Vec<Worker<O>>,
    handles: Vec<ScopedJoinHandle<'scope, ()>>,
}

impl<O> Drop for Pool<'_, O> {
    /// Closes the job queues, which ends the workers, and joins them.
    ///
    /// Dropping the handles instead would detach threads that are exiting
    /// at that moment, and glibc's `pthread_detach` can then read the
    /// thread's descriptor after the thread has freed its stack (the
    /// detach marks the thread, the thread sees the mark and frees itself,
    /// another thread's exit unmaps that stack, and the detach reads it):
    /// a segmentation fault, seen about once in a few hundred campaigns
    /// with workers' large stacks, which glibc unmaps rather than caches.
    fn drop(&mut self) {
        self.workers.clear();
        for handle in self.handles.drain(..) {
            if let Err(panic) = handle.join() {
                if !std::thread::panicking() {
                    std::panic::resume_unwind(panic)
                }
            }
        }
    }
}

impl<'scope, O: Send + 'scope> Pool<'scope, O> {
    pub fn new<'env>(
        scope: &'scope Scope<'scope, 'env>,
        run: fn(&mut Source) -> Result<O, Invalid>,
        jobs: usize,
    ) -> Pool<'scope, O> {
        let mut workers = Vec::new();
        let mut handles = Vec::new();
        if jobs > 1 {
            for i in 0..jobs {
                let (job_tx, job_rx) = channel::<Job>();
                let (out_tx, out_rx) = channel();
                let handle = std::thread::Builder::new()
                    .name(format!("mu2-worker-{i}"))
                    .stack_size(WORKER_STACK)
                    .spawn_scoped(scope, move || {
                        for job in job_rx {
                            let out: Vec<_> = job
                                .mutants
                                .iter()
                                .map(|&m| (m, run_one(i + 1, run, &job.bytes, m, job.budget)))
                                .collect();
                            if out_tx.send(out).is_err() {
                                break;
                            }
                        }
                    })
                    .expect("a worker thread for mutant runs");
                workers.push((job_tx, out_rx));
                handles.push(handle);
            }
        }
        Pool {
            run,
            workers,
            handles,
        }
    }

    /// Runs each of `mutants` (ascending) on `bytes` under `budget`;
    /// outcomes in the same order.
    pub fn run(
        &self,
        bytes: &[u8],
        mutants: &[usize],
        budget: Budget,
    ) -> Vec<(usize, MutantOutcome<O>)> {
        if self.workers.is_empty() || mutants.len() < 2 {
            return mutants
                .iter()
                .map(|&m| (m, run_one(0, self.run, bytes, m, budget)))
                .collect();
        }
        let bytes = Arc::new(bytes.to_vec());
        let n = self.workers.len().min(mutants.len());
        // Interleaved shares balance cheap and expensive mutants.
        for (w, (tx, _)) in self.workers.iter().take(n).enumerate() {
            let share = mutants.iter().copied().skip(w).step_by(n).collect();
            tx.send(Job {
                bytes: bytes.clone(),
                mutants: share,
                budget,
            })
            .expect("mutant workers live as long as the pool");
        }
        let mut out: Vec<_> = self
            .workers
            .iter()
            .take(n)
            .flat_map(|(_, rx)| rx.recv().expect("a mutant worker died"))
            .collect();
        out.sort_by_key(|(m, _)| *m);
        out
    }
}

/// Runs one mutant; `slot` says which thread, for the supervisor.
fn run_one<O>(
    slot: usize,
    run: fn(&mut Source) -> Result<O, Invalid>,
    bytes: &[u8],
    mutant: usize,
    budget: Budget,
) -> MutantOutcome<O> {
    let mut src = Source::new(bytes.to_vec(), None, MAX_INPUT);
    crate::supervise::running(slot, Some(mutant));
    let outcome = crate::run_at(Some(mutant as u32), budget, || run(&mut src));
    crate::supervise::running(slot, None);
    outcome
}
