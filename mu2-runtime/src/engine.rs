//! The greybox loop: Zest's, with mu2's saving rules.
//!
//! Seeds come from the driver's corpus (or one random input); then the loop
//! cycles through saved inputs, giving each a number of havoc children in
//! proportion to its share of coverage (twenty times more for favored
//! inputs), and runs each child on the original with every probe on. A child
//! is saved when it reaches a new branch (`+cov`), a new hit-count bucket
//! (`+count`) or a new branch among valid inputs (`+valid`). A panic of the
//! original is a failure: saved in `failures/`, deduplicated by location, and
//! the campaign goes on.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::config::Guidance;
use crate::corpus::{Failure, Meta, PlotRow, Store, StoreError};
use crate::coverage::{self, CoverageMap};
use crate::havoc::havoc;
use crate::input::{Invalid, MAX_INPUT, Source};
use crate::outcome::{Outcome, Panic, Stop};
use crate::probe::{self, Probes, Trace};
use crate::rng::Rng;
use crate::status::{Stats, Status};
use crate::switch::Budget;

/// Zest's baseline number of children per parent.
const CHILDREN_BASELINE: usize = 50;
/// Zest's multiplier for favored parents.
const CHILDREN_FAVORED: usize = 20;
/// How often a row is added to `plot_data.csv`.
const PLOT_EVERY: Duration = Duration::from_secs(1);

/// What the engine runs: a driver's generate-and-run function, and how to
/// record its output.
pub struct Target<O> {
    pub name: String,
    /// Generates the input from the source and runs the code under test.
    pub run: fn(&mut Source) -> Result<O, Invalid>,
    /// The output as text for the corpus (`Debug`), for differential drivers.
    pub snapshot: Option<fn(&O) -> String>,
}

/// When a campaign stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub time: Option<Duration>,
    pub trials: Option<u64>,
}

/// How one execution of the original ended.
enum Result_<O> {
    Valid(O),
    Invalid,
    Failed(Panic),
}

/// One saved input in the queue.
struct Queued {
    name: String,
    bytes: Vec<u8>,
    /// Branches it reaches.
    reached: usize,
    favored: bool,
}

/// What a finished campaign found.
#[derive(Clone, Debug)]
pub struct Summary {
    pub execs: u64,
    pub corpus: usize,
    pub coverage: usize,
    /// New failures: (file name, failure).
    pub failures: Vec<(String, Failure)>,
    pub elapsed: Duration,
}

/// A campaign on one driver.
pub struct Campaign<O> {
    target: Target<O>,
    store: Store,
    guidance: Guidance,
    limits: Limits,
    budget: Budget,
    rng: Rng,
    trace: Trace,
    total: CoverageMap,
    valid: CoverageMap,
    queue: Vec<Queued>,
    max_reached: usize,
    failures: Vec<(String, Failure)>,
    known_failures: usize,
    stats: Stats,
    status: Status,
    last_plot: Instant,
}

impl<O> Campaign<O> {
    /// A campaign saving into `store`, seeded with `seed`.
    pub fn new(
        target: Target<O>,
        store: Store,
        guidance: Guidance,
        limits: Limits,
        seed: u64,
    ) -> Self {
        let branches = crate::schema::branch_count();
        let status = Status::new(&target.name, guidance, limits, seed);
        Campaign {
            target,
            store,
            guidance,
            limits,
            budget: Budget::default(),
            rng: Rng::seed(seed),
            trace: Trace::default(),
            total: CoverageMap::new(branches),
            valid: CoverageMap::new(branches),
            queue: Vec::new(),
            max_reached: 0,
            failures: Vec::new(),
            known_failures: 0,
            stats: Stats::new(branches),
            status,
            last_plot: Instant::now(),
        }
    }

    /// Runs until the time or trial limit (forever without one).
    pub fn run(mut self) -> Result<Summary, StoreError> {
        self.known_failures = self.store.failures()?.len();
        self.stats.failures = self.known_failures;
        self.store.log(&format!(
            "campaign start: driver {}, guidance {}, {}",
            self.target.name,
            self.guidance.name(),
            self.status.budget_text()
        ))?;
        self.seed()?;
        while !self.done() {
            match self.guidance {
                Guidance::Random => self.trial(Vec::new(), None)?,
                Guidance::Coverage if self.queue.is_empty() => self.trial(Vec::new(), None)?,
                Guidance::Coverage => {
                    let parent = self.stats.cursor % self.queue.len();
                    for _ in 0..self.children(parent) {
                        if self.done() {
                            break;
                        }
                        let child = havoc(&self.queue[parent].bytes, &mut self.rng, MAX_INPUT);
                        self.trial(child, Some(parent))?;
                    }
                    self.stats.cursor += 1;
                    if self.stats.cursor % self.queue.len() == 0 {
                        self.stats.cycles += 1;
                    }
                }
            }
        }
        self.plot()?;
        self.status.finish(&self.stats);
        self.store.log(&format!(
            "campaign end: {} execs, {} saved inputs, {} branches, {} new failures",
            self.stats.execs,
            self.queue.len(),
            self.total.branches(),
            self.failures.len()
        ))?;
        Ok(Summary {
            execs: self.stats.execs,
            corpus: self.queue.len(),
            coverage: self.total.branches(),
            failures: self.failures,
            elapsed: self.stats.started.elapsed(),
        })
    }

    fn done(&self) -> bool {
        let by_trials = self.limits.trials.is_some_and(|t| self.stats.trials >= t);
        let by_time = self
            .limits
            .time
            .is_some_and(|t| self.stats.started.elapsed() >= t);
        by_trials || by_time
    }

    /// Zest's energy: children in proportion to the parent's coverage.
    fn children(&self, parent: usize) -> usize {
        let p = &self.queue[parent];
        let mut n = CHILDREN_BASELINE;
        if self.max_reached > 0 {
            n = (CHILDREN_BASELINE * p.reached / self.max_reached).max(1);
        }
        if p.favored {
            n *= CHILDREN_FAVORED;
        }
        n
    }

    /// Runs the saved corpus (or nothing, when empty) to rebuild coverage.
    fn seed(&mut self) -> Result<(), StoreError> {
        let (entries, warnings) = self.store.load()?;
        for w in &warnings {
            self.status.warn(&w.to_string());
        }
        for entry in entries {
            let (result, bytes) = self.execute(entry.bytes, false);
            let hits = self.trace.hits().to_vec();
            match result {
                Result_::Failed(p) => self.failure(&bytes, p)?,
                Result_::Valid(_) => {
                    self.stats.valid += 1;
                    self.valid.merge(&hits)
                }
                Result_::Invalid => self.stats.invalid += 1,
            }
            self.total.merge(&hits);
            self.enqueue(entry.name, bytes, &hits, true);
        }
        self.stats.corpus = self.queue.len();
        self.stats.coverage = self.total.branches();
        Ok(())
    }

    /// Generates (or mutates) one input, runs it, and saves it if it earns it.
    fn trial(&mut self, bytes: Vec<u8>, parent: Option<usize>) -> Result<(), StoreError> {
        self.stats.trials += 1;
        let (result, bytes) = self.execute(bytes, true);
        let hits = self.trace.hits();
        let gain = self.total.gain(hits);
        let (output, valid) = match result {
            Result_::Failed(p) => return self.failure(&bytes, p),
            Result_::Valid(o) => {
                self.stats.valid += 1;
                (Some(o), true)
            }
            Result_::Invalid => {
                self.stats.invalid += 1;
                (None, false)
            }
        };
        let valid_gain = if valid {
            self.valid.gain(hits)
        } else {
            Default::default()
        };
        let mut reasons = Vec::new();
        if !gain.new_branches.is_empty() {
            reasons.push("+cov".to_string());
        }
        if gain.new_counts {
            reasons.push("+count".to_string());
        }
        if !valid_gain.new_branches.is_empty() {
            reasons.push("+valid".to_string());
        }
        if !reasons.is_empty() {
            // Zest's responsibilities: an input owns the branches it first
            // reached; owning any makes it favored.
            let favored = !gain.new_branches.is_empty() || !valid_gain.new_branches.is_empty();
            let hits = hits.to_vec();
            let meta = Meta {
                reasons: reasons.clone(),
                saved_at: unix_now(),
                size: bytes.len(),
                valid,
                parent: parent.map(|p| self.queue[p].name.clone()),
                output: match (&output, self.target.snapshot) {
                    (Some(o), Some(snapshot)) => Some(snapshot(o)),
                    _ => None,
                },
                ..Meta::default()
            };
            let name = self.store.save(&bytes, &meta)?;
            self.store.log(&format!(
                "saved {name} ({}) size {}",
                reasons.join(" "),
                bytes.len()
            ))?;
            self.total.merge(&hits);
            if valid {
                self.valid.merge(&hits);
            }
            self.enqueue(name, bytes, &hits, favored);
        }
        self.tick()
    }

    fn enqueue(&mut self, name: String, bytes: Vec<u8>, hits: &[u32], favored: bool) {
        let reached = coverage::reached(hits);
        self.max_reached = self.max_reached.max(reached);
        self.queue.push(Queued {
            name,
            bytes,
            reached,
            favored,
        });
        self.stats.corpus = self.queue.len();
        self.stats.favored += favored as usize;
        self.stats.coverage = self.total.branches();
        self.stats.valid_coverage = self.valid.branches();
    }

    /// Runs the original on `bytes` with every probe on. `fresh`: reads past
    /// the end draw new random bytes (a generated or mutated input); otherwise
    /// they read zeros (a saved input, replayed exactly).
    fn execute(&mut self, bytes: Vec<u8>, fresh: bool) -> (Result_<O>, Vec<u8>) {
        self.stats.execs += 1;
        let fill = fresh.then(|| self.rng.fork());
        let mut src = Source::new(bytes, fill, MAX_INPUT);
        let run = self.target.run;
        let outcome = probe::record_with(&mut self.trace, Probes::Coverage, self.budget, || {
            run(&mut src)
        });
        let result = match outcome {
            Outcome::Returned(Ok(o)) => Result_::Valid(o),
            Outcome::Returned(Err(Invalid)) | Outcome::Stopped(Stop::Invalid) => Result_::Invalid,
            Outcome::Panicked(p) => Result_::Failed(p),
            Outcome::Stopped(stop) => Result_::Failed(Panic {
                message: stop.to_string(),
                location: Some(match stop {
                    Stop::Timeout(what) => format!("timeout ({what})"),
                    other => format!("{other:?}"),
                }),
            }),
        };
        (result, src.into_bytes())
    }

    fn failure(&mut self, bytes: &[u8], p: Panic) -> Result<(), StoreError> {
        let failure = Failure {
            message: p.message.clone(),
            location: p
                .location
                .clone()
                .unwrap_or_else(|| "unknown location".into()),
            found_at: unix_now(),
            size: bytes.len(),
            input_debug: None,
        };
        if let Some(name) = self.store.save_failure(bytes, &failure)? {
            self.store.log(&format!("failure {name}: {p}"))?;
            self.status.warn(&format!("new failure {name}: {p}"));
            self.failures.push((name, failure));
            self.stats.failures += 1;
        }
        self.tick()
    }

    /// Status and plot data, when their time has come.
    fn tick(&mut self) -> Result<(), StoreError> {
        self.status.update(&self.stats);
        if self.last_plot.elapsed() >= PLOT_EVERY {
            self.plot()?;
        }
        Ok(())
    }

    fn plot(&mut self) -> Result<(), StoreError> {
        self.last_plot = Instant::now();
        let elapsed = self.stats.started.elapsed().as_secs_f64();
        self.store.plot(&PlotRow {
            time: unix_now(),
            elapsed,
            execs: self.stats.execs,
            execs_per_sec: self.stats.execs as f64 / elapsed.max(1e-9),
            corpus: self.queue.len(),
            favored: self.stats.favored,
            coverage: self.total.branches(),
            valid_coverage: self.valid.branches(),
            valid_inputs: self.stats.valid,
            invalid_inputs: self.stats.invalid,
            failures: self.stats.failures,
            ..PlotRow::default()
        })
    }
}

pub(crate) fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}
