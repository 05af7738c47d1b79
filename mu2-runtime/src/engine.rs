//! The greybox loop: Zest's, with Mu2's saving rule (the paper's Algorithm 2).
//!
//! Seeds come from the driver's corpus (or one random input); then the loop
//! cycles through saved inputs, giving each a number of havoc children in
//! proportion to its share of coverage (twenty times more for favored
//! inputs), and runs each child on the original with the probes on. A child
//! is saved when it reaches a new branch (`+cov`), a new hit-count bucket
//! (`+count`) or a new branch among valid inputs (`+valid`). Under mutation
//! guidance the child is then run against the mutants it executed and
//! infected (`guidance`), each judged by the `oracle`; it is also saved, and
//! favored, when it is the first to kill some mutant (`+mutants`). A panic of
//! the original is a failure: saved in `failures/`, deduplicated by location,
//! and the campaign goes on.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::bits::Bits;
use crate::config::Guidance;
use crate::corpus::{Failure, Meta, PlotRow, Store, StoreError};
use crate::coverage::{self, CoverageMap};
use crate::guidance::{Filter, Opt, Selector};
use crate::havoc::havoc;
use crate::input::{Invalid, MAX_INPUT, Source};
use crate::oracle::{Observed, Verdict, decide};
use crate::outcome::{Outcome, Panic, Stop};
use crate::pool::Pool;
use crate::probe::{self, Probes, Trace};
use crate::rng::Rng;
use crate::status::{Stats, Status};
use crate::switch::Budget;

/// Zest's baseline number of children per parent.
const CHILDREN_BASELINE: usize = 50;
/// Zest's multiplier for favored parents.
const CHILDREN_FAVORED: usize = 20;
/// Wall-clock limit of one mutant run in a campaign (a backstop: the step
/// budget stops loops long before).
const MUTANT_WALL: Duration = Duration::from_secs(1);
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
    /// Whether two outputs count as the same (property drivers: always).
    pub compare: fn(&O, &O) -> bool,
}

/// How a campaign runs.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub guidance: Guidance,
    pub limits: Limits,
    pub seed: u64,
    pub opt: Opt,
    pub filter: Filter,
    /// Worker threads for mutant runs.
    pub jobs: usize,
}

impl Default for Settings {
    /// Mutation guidance with infection pruning and no filter, one worker,
    /// seed 0, no limits.
    fn default() -> Settings {
        Settings {
            guidance: Guidance::Mutation,
            limits: Limits::default(),
            seed: 0,
            opt: Opt::Infection,
            filter: Filter::All,
            jobs: 1,
        }
    }
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
    /// Mutants killed by the saved corpus (mutation guidance).
    pub killed: usize,
    /// Mutant runs, in all.
    pub mutant_runs: u64,
    /// New failures: (file name, failure).
    pub failures: Vec<(String, Failure)>,
    pub elapsed: Duration,
}

/// Mutation-guidance state: which mutants the saved inputs kill.
struct Kills {
    selector: Selector,
    killed: Bits,
    unviable: Bits,
    surviving: Bits,
    /// Mutants already seen and no longer surviving (killed or unviable):
    /// the probes need not evaluate them again (`probe::record_known`).
    /// Only seen ones, so that the selector's count of seen mutants is
    /// what it would have been.
    known: Bits,
    chosen: Vec<usize>,
}

/// A campaign on one driver.
pub struct Campaign<O> {
    target: Target<O>,
    store: Store,
    settings: Settings,
    budget: Budget,
    rng: Rng,
    kills: Kills,
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
    /// Whether the driver's output text was seen to change between two
    /// runs of one input (said once).
    unstable_said: bool,
}

impl<O: Send> Campaign<O> {
    /// A campaign saving into `store`.
    pub fn new(target: Target<O>, store: Store, settings: Settings) -> Self {
        let branches = crate::schema::branch_count();
        let mutants = crate::schema::mutants().len();
        let status = Status::new(&target.name, &settings);
        let mut surviving = Bits::new(mutants);
        (0..mutants).for_each(|m| surviving.insert(m));
        Campaign {
            target,
            store,
            settings,
            budget: Budget::default().on_run_stack(),
            rng: Rng::seed(settings.seed),
            kills: Kills {
                selector: Selector::new(
                    mutants,
                    settings.opt,
                    settings.filter,
                    settings.seed ^ 0x6d75_3221,
                ),
                killed: Bits::new(mutants),
                unviable: Bits::new(mutants),
                surviving,
                known: Bits::new(mutants),
                chosen: Vec::new(),
            },
            trace: Trace::default(),
            total: CoverageMap::new(branches),
            valid: CoverageMap::new(branches),
            queue: Vec::new(),
            max_reached: 0,
            failures: Vec::new(),
            known_failures: 0,
            // Those configured out of this build cannot run: not counted.
            stats: Stats::new(
                branches,
                crate::schema::mutants()
                    .iter()
                    .filter(|m| m.compiled)
                    .count(),
            ),
            status,
            last_plot: Instant::now(),
            unstable_said: false,
        }
    }

    /// Runs until the time or trial limit (forever without one).
    pub fn run(self) -> Result<Summary, StoreError> {
        crate::switch::on_run_stack(move || self.run_here())
    }

    fn run_here(mut self) -> Result<Summary, StoreError> {
        // Mutants that took an earlier process down are killed (CRASHED) and
        // never run again.
        for m in crate::supervise::crashed_indices(self.store.root()) {
            self.kills.killed.insert(m);
            self.kills.surviving.remove(m);
        }
        self.stats.killed = self.kills.killed.count();
        self.known_failures = self.store.failures()?.len();
        self.stats.failures = self.known_failures;
        self.store.log(&format!(
            "campaign start: driver {}, guidance {}, opt {}, filter {}, {}",
            self.target.name,
            self.settings.guidance.name(),
            self.settings.opt.name(),
            self.settings.filter,
            self.status.budget_text()
        ))?;
        let (run, jobs) = (self.target.run, self.settings.jobs);
        std::thread::scope(|scope| {
            let pool = Pool::new(scope, run, jobs);
            self.seed(&pool)?;
            while !self.done() {
                self.step(&pool)?;
            }
            Ok::<(), StoreError>(())
        })?;
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
            killed: self.kills.killed.count(),
            mutant_runs: self.stats.mutant_runs,
            failures: self.failures,
            elapsed: self.stats.started.elapsed(),
        })
    }

    /// One parent's children (or one fresh input).
    fn step(&mut self, pool: &Pool<'_, O>) -> Result<(), StoreError> {
        if self.settings.guidance == Guidance::Random || self.queue.is_empty() {
            return self.trial(Vec::new(), None, pool);
        }
        let parent = self.stats.cursor % self.queue.len();
        for _ in 0..self.children(parent) {
            if self.done() {
                break;
            }
            let child = havoc(&self.queue[parent].bytes, &mut self.rng, MAX_INPUT);
            self.trial(child, Some(parent), pool)?;
        }
        self.stats.cursor += 1;
        if self.stats.cursor.is_multiple_of(self.queue.len()) {
            self.stats.cycles += 1;
        }
        Ok(())
    }

    fn done(&self) -> bool {
        let limits = self.settings.limits;
        let by_trials = limits.trials.is_some_and(|t| self.stats.trials >= t);
        let by_time = limits
            .time
            .is_some_and(|t| self.stats.started.elapsed() >= t);
        by_trials || by_time
    }

    /// Whether mutants are run now: always under mutation guidance; in the
    /// second half of the budget under split guidance.
    fn mutating(&self) -> bool {
        match self.settings.guidance {
            Guidance::Mutation => true,
            Guidance::Coverage | Guidance::Random => false,
            Guidance::Split => {
                let limits = self.settings.limits;
                let by_time = limits
                    .time
                    .is_some_and(|t| self.stats.started.elapsed() * 2 >= t);
                let by_trials = limits.trials.is_some_and(|t| self.stats.trials * 2 >= t);
                by_time || by_trials
            }
        }
    }

    /// Runs the chosen mutants on an input the original ran as `observed`;
    /// returns those it is the first to kill.
    fn kill(&mut self, bytes: &[u8], observed: &Observed<O>, pool: &Pool<'_, O>) -> Vec<usize> {
        for m in self.trace.unviable().iter() {
            self.kills.unviable.insert(m);
            self.kills.surviving.remove(m);
        }
        let kills = &mut self.kills;
        kills
            .selector
            .select(&kills.surviving, &self.trace, &mut kills.chosen);
        crate::supervise::judging(bytes);
        let budget = self.budget.wall(MUTANT_WALL).for_mutant(self.trace.steps());
        let outcomes = pool.run(bytes, &kills.chosen, budget);
        self.stats.mutant_runs += outcomes.len() as u64;
        self.stats.note_mutants_run(outcomes.len());
        let mut new = Vec::new();
        for (m, outcome) in outcomes {
            match decide(observed, outcome, self.target.compare) {
                Verdict::Unviable => {
                    self.kills.unviable.insert(m);
                    self.kills.surviving.remove(m);
                }
                v if v.detected() => {
                    self.kills.killed.insert(m);
                    self.kills.surviving.remove(m);
                    new.push(m);
                }
                _ => {}
            }
        }
        self.stats.killed = self.kills.killed.count();
        self.stats.seen = self.kills.selector.seen().count();
        new
    }

    /// Zest's energy: children in proportion to the parent's coverage.
    fn children(&self, parent: usize) -> usize {
        let p = &self.queue[parent];
        let mut n = CHILDREN_BASELINE;
        if let Some(share) = (CHILDREN_BASELINE * p.reached).checked_div(self.max_reached) {
            n = share.max(1);
        }
        if p.favored {
            n *= CHILDREN_FAVORED;
        }
        n
    }

    /// Runs the saved corpus (or nothing, when empty) to rebuild coverage
    /// and, under mutation guidance, the set of mutants it kills.
    fn seed(&mut self, pool: &Pool<'_, O>) -> Result<(), StoreError> {
        let (entries, warnings) = self.store.load()?;
        for w in &warnings {
            self.status.warn(&w.to_string());
        }
        for entry in entries {
            let mutating = self.mutating();
            let (result, bytes) = self.execute(entry.bytes, false, mutating);
            let hits = self.trace.hits().to_vec();
            let observed = match result {
                Result_::Failed(p) => {
                    self.failure(&bytes, p)?;
                    None
                }
                Result_::Valid(o) => {
                    self.stats.valid += 1;
                    self.valid.merge(&hits);
                    Some(Observed::Returned(o))
                }
                Result_::Invalid => {
                    self.stats.invalid += 1;
                    Some(Observed::Invalid)
                }
            };
            if let (Some(observed), true) = (observed, mutating) {
                self.kill(&bytes, &observed, pool);
            }
            self.total.merge(&hits);
            self.enqueue(entry.name, bytes, &hits, true);
        }
        self.stats.corpus = self.queue.len();
        self.stats.coverage = self.total.branches();
        Ok(())
    }

    /// Generates (or mutates) one input, runs it, and saves it if it earns it.
    fn trial(
        &mut self,
        bytes: Vec<u8>,
        parent: Option<usize>,
        pool: &Pool<'_, O>,
    ) -> Result<(), StoreError> {
        self.stats.trials += 1;
        crate::supervise::trials(self.stats.trials);
        let mutating = self.mutating();
        let (result, bytes) = self.execute(bytes, true, mutating);
        let observed = match result {
            Result_::Failed(p) => return self.failure(&bytes, p),
            Result_::Valid(o) => {
                self.stats.valid += 1;
                Observed::Returned(o)
            }
            Result_::Invalid => {
                self.stats.invalid += 1;
                Observed::Invalid
            }
        };
        let new_kills = if mutating {
            self.kill(&bytes, &observed, pool)
        } else {
            Vec::new()
        };
        let (output, valid) = match observed {
            Observed::Returned(o) => (Some(o), true),
            _ => (None, false),
        };
        let hits = self.trace.hits();
        let gain = self.total.gain(hits);
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
        if !new_kills.is_empty() {
            reasons.push("+mutants".to_string());
        }
        if !reasons.is_empty() {
            // Zest's responsibilities: an input owns the branches it first
            // reached, and (Mu2) the mutants it first killed; owning any makes
            // it favored.
            let favored = !gain.new_branches.is_empty()
                || !valid_gain.new_branches.is_empty()
                || !new_kills.is_empty();
            let all = crate::schema::mutants();
            let kills = new_kills.iter().map(|&m| all[m].id.to_string()).collect();
            let hits = hits.to_vec();
            let meta = Meta {
                reasons: reasons.clone(),
                saved_at: unix_now(),
                size: bytes.len(),
                valid,
                parent: parent.map(|p| self.queue[p].name.clone()),
                output: match (&output, self.target.snapshot) {
                    (Some(o), Some(snapshot)) => self.stable(&bytes, snapshot(o), snapshot)?,
                    _ => None,
                },
                kills,
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

    /// `text`, the output of the run that is saving `bytes`, if a second
    /// run of the original gives the same text. Replay (plain `cargo test`)
    /// compares each input's output with the recorded text, in another
    /// process: text that changes from run to run (a `HashMap`'s order, an
    /// address, a time) would fail it for nothing. Such an input is saved
    /// without its output, so replay checks it for panics only, and the
    /// user is told why, once.
    fn stable(
        &mut self,
        bytes: &[u8],
        text: String,
        snapshot: fn(&O) -> String,
    ) -> Result<Option<String>, StoreError> {
        let run = self.target.run;
        let mut src = Source::new(bytes.to_vec(), None, MAX_INPUT);
        let again = match crate::run_at(None, self.budget, || run(&mut src)) {
            Outcome::Returned(Ok(o)) => snapshot(&o),
            _ => String::new(),
        };
        if again == text {
            return Ok(Some(text));
        }
        if !self.unstable_said {
            self.unstable_said = true;
            let message = format!(
                "driver `{}`: two runs of one input gave different output text (a HashMap's order? \
                 an address, a time, state kept between runs?):\n    first:  {text}\n    second: {again}\n\
                 Inputs are saved without their output, so replay checks them for panics only. \
                 Return something whose Debug text is stable (a BTreeMap, a sorted Vec).",
                self.target.name
            );
            self.status.warn(&message);
            self.store.log(&message)?;
        }
        Ok(None)
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

    /// Runs the original on `bytes` with the probes on (execution and
    /// infection too when `mutating`). `fresh`: reads past
    /// the end draw new random bytes (a generated or mutated input); otherwise
    /// they read zeros (a saved input, replayed exactly).
    fn execute(&mut self, bytes: Vec<u8>, fresh: bool, mutating: bool) -> (Result_<O>, Vec<u8>) {
        self.stats.execs += 1;
        let fill = fresh.then(|| self.rng.fork());
        let mut src = Source::new(bytes, fill, MAX_INPUT);
        let run = self.target.run;
        let outcome = if mutating {
            let kills = &mut self.kills;
            kills
                .known
                .set_difference(kills.selector.seen(), &kills.surviving);
            probe::record_known(&mut self.trace, &kills.known, self.budget, || run(&mut src))
        } else {
            probe::record_with(&mut self.trace, Probes::Coverage, self.budget, || {
                run(&mut src)
            })
        };
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
            mutants_total: self.stats.mutants,
            mutants_killed: self.stats.killed,
            mutants_seen: self.stats.seen,
            mutants_run_per_input: self.stats.run_per_input,
        })
    }
}

pub(crate) fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}
