//! What a `#[mu2::diff]` or `#[mu2::fuzz]` test does when `cargo test` runs it.
//!
//! - `MU2` unset: the driver *replays* its saved corpus. A differential
//!   driver compares each input's output with the one recorded when the input
//!   was saved, so the corpus is a regression suite; `MU2_UPDATE=1` records
//!   outputs anew. A driver with no corpus yet does a short random run, so a
//!   new driver is never a no-op.
//! - `MU2=fuzz`: the driver runs a campaign (`engine`).

use std::fmt::Debug;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::config::{Config, Mode};
use crate::corpus::{Failure, Store};
use crate::engine::{Campaign, Limits, Settings, Target, unix_now};
use crate::input::{Invalid, MAX_INPUT, Source};
use crate::outcome::{Outcome, Stop};
use crate::rng::Rng;
use crate::switch::Budget;

/// Where a driver was defined; generated code fills it in.
#[derive(Clone, Copy, Debug)]
pub struct DriverInfo {
    /// The driver's name: its function name, and its folder under `MU2_DIR`.
    pub name: &'static str,
    /// The crate root (`CARGO_MANIFEST_DIR` of the crate defining the driver).
    pub manifest_dir: &'static str,
    /// The module defining it (`module_path!()`), to re-run it as a test.
    pub module: &'static str,
}

/// A driver as the registry lists it.
#[derive(Clone, Copy, Debug)]
pub struct DriverEntry {
    pub info: DriverInfo,
    /// `diff` or `fuzz`.
    pub kind: &'static str,
}

impl DriverInfo {
    /// The test's name as libtest knows it: the module path without the
    /// crate, then the driver's name.
    pub fn test_name(&self) -> String {
        match self.module.split_once("::") {
            Some((_, rest)) => format!("{rest}::{}", self.name),
            None => self.name.to_string(),
        }
    }
}

/// How long a driver with no corpus runs random inputs under plain `cargo test`.
const SMOKE_TIME: Duration = Duration::from_secs(1);
const SMOKE_TRIALS: u64 = 10_000;

/// A function that generates a driver's input and shows it with `Debug`
/// (`None` when its type has no `Debug`): what `MU2=repro` prints.
pub type ShowFn = fn(&mut Source) -> Result<Option<String>, Invalid>;

/// Runs a differential driver (`#[mu2::diff]`) as the `MU2_*` variables say.
pub fn diff<O: Debug + Send>(
    info: DriverInfo,
    run: fn(&mut Source) -> Result<O, Invalid>,
    compare: fn(&O, &O) -> bool,
    show: ShowFn,
) {
    if let Some(config) = supervised(info, run) {
        drive(info, &config, Driver::diff_by(run, compare).show(show))
    }
}

/// Runs a property driver (`#[mu2::fuzz]`): only panics fail it.
pub fn fuzz(info: DriverInfo, run: fn(&mut Source) -> Result<(), Invalid>, show: ShowFn) {
    if let Some(config) = supervised(info, run) {
        drive(info, &config, Driver::fuzz(run).show(show))
    }
}

/// The test's configuration, unless a supervisor ran the work in a child
/// process (`MU2=fuzz`, `MU2=score`), or this process is an isolation run.
fn supervised<O>(info: DriverInfo, run: fn(&mut Source) -> Result<O, Invalid>) -> Option<Config> {
    let config = match Config::from_env(Path::new(info.manifest_dir)) {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    };
    crate::supervise::isolate_if_asked(run);
    if config.mode == Mode::Score && crate::corpus::saved_inputs(&config.dir, info.name) == 0 {
        let corpus = config.dir.join(info.name).join("corpus");
        panic!(
            "mu2: driver `{name}` has no saved corpus to score: {corpus} {}. \
             Grow one first: MU2=fuzz MU2_TIME=1m cargo test {name} (or `cargo mu2 fuzz {name}`)",
            if corpus.is_dir() {
                "holds no inputs"
            } else {
                "does not exist"
            },
            name = info.name,
            corpus = corpus.display()
        );
    }
    (!crate::supervise::supervise(&info, &config, &config.dir.join(info.name))).then_some(config)
}

/// A driver's generate-and-run function, how its outputs compare, and how
/// they are recorded.
pub struct Driver<O> {
    run: fn(&mut Source) -> Result<O, Invalid>,
    compare: fn(&O, &O) -> bool,
    snapshot: Option<fn(&O) -> String>,
    show: Option<ShowFn>,
}

impl<O> Driver<O> {
    /// How `MU2=repro` shows the generated input.
    pub fn show(self, show: ShowFn) -> Driver<O> {
        Driver {
            show: Some(show),
            ..self
        }
    }
}

impl<O: Debug> Driver<O> {
    /// A differential driver whose outputs compare with `compare`; their
    /// `Debug` text is recorded and replayed.
    pub fn diff_by(
        run: fn(&mut Source) -> Result<O, Invalid>,
        compare: fn(&O, &O) -> bool,
    ) -> Driver<O> {
        Driver {
            run,
            compare,
            snapshot: Some(|o: &O| format!("{o:?}")),
            show: None,
        }
    }
}

impl<O: Debug + PartialEq> Driver<O> {
    /// A differential driver whose outputs compare with `==`.
    pub fn diff(run: fn(&mut Source) -> Result<O, Invalid>) -> Driver<O> {
        Driver::diff_by(run, |a, b| a == b)
    }
}

impl Driver<()> {
    /// A property driver: only panics count.
    pub fn fuzz(run: fn(&mut Source) -> Result<(), Invalid>) -> Driver<()> {
        Driver {
            run,
            compare: |_, _| true,
            snapshot: None,
            show: None,
        }
    }
}

/// Replays or fuzzes, as `config` says. Panics (failing the test) with a
/// message naming each failing input.
pub fn drive<O: Send>(info: DriverInfo, config: &Config, driver: Driver<O>) {
    let (run, snapshot, compare, show) = (driver.run, driver.snapshot, driver.compare, driver.show);
    let target = Target {
        name: info.name.to_string(),
        run,
        snapshot,
        compare,
    };
    // Plain `cargo test` of a driver nobody has fuzzed yet leaves no folders
    // behind in the source tree.
    if config.mode == Mode::Replay && !config.dir.join(info.name).join("corpus").is_dir() {
        return crate::switch::on_run_stack(move || smoke(target, config));
    }
    let store = match Store::open(&config.dir, info.name) {
        Ok(s) => s,
        Err(e) => panic!("mu2: driver `{}`: {e}", info.name),
    };
    crate::switch::on_run_stack(move || match config.mode {
        Mode::Replay => replay(target, store, config),
        Mode::Fuzz => campaign(target, store, config),
        Mode::Score => crate::score::score_driver(target, store, config),
        Mode::Repro => repro(target, show, config),
    })
}

fn campaign<O: Send>(target: Target<O>, store: Store, config: &Config) {
    let seed = config.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let root = store.root().to_path_buf();
    let name = target.name.clone();
    let limits = Limits {
        time: config.time,
        trials: config.trials,
    };
    let settings = Settings {
        guidance: config.guidance,
        limits,
        seed,
        opt: config.opt,
        filter: config.filter,
        jobs: config.jobs,
    };
    let summary = match Campaign::new(target, store, settings).run() {
        Ok(s) => s,
        Err(e) => panic!("mu2: driver `{name}`: {e}"),
    };
    let mutants = match config.guidance {
        crate::config::Guidance::Mutation | crate::config::Guidance::Split => format!(
            ", killing {} of {} mutants ({} mutant runs)",
            summary.killed,
            crate::schema::mutants().len(),
            summary.mutant_runs
        ),
        _ => String::new(),
    };
    crate::status::say(&format!(
        "mu2: `{name}`: {} executions in {:.1}s, corpus of {} inputs covering {} branches{mutants}, in {}",
        summary.execs,
        summary.elapsed.as_secs_f64(),
        summary.corpus,
        summary.coverage,
        root.join("corpus").display()
    ));
    if !summary.failures.is_empty() {
        panic!(
            "mu2: `{name}` found {} new failure(s), saved in {}:\n{}",
            summary.failures.len(),
            root.join("failures").display(),
            list_failures(&summary.failures)
        );
    }
}

fn list_failures(failures: &[(String, Failure)]) -> String {
    failures
        .iter()
        .map(|(name, f)| format!("  {name}: panicked at {}: {}", f.location, f.message))
        .collect::<Vec<_>>()
        .join("\n")
}

fn replay<O>(target: Target<O>, store: Store, config: &Config) {
    let (entries, warnings) = match store.load() {
        Ok(x) => x,
        Err(e) => panic!("mu2: driver `{}`: {e}", target.name),
    };
    for w in &warnings {
        eprintln!("{w}");
    }
    if entries.is_empty() {
        return smoke(target, config);
    }
    let corpus = store.root().join("corpus");
    let mut problems = Vec::new();
    let mut updated = 0;
    let mut unrecorded = 0;
    let total = entries.len();
    for mut entry in entries {
        let path = corpus.join(&entry.name);
        let mut src = Source::new(entry.bytes.clone(), None, MAX_INPUT);
        let run = target.run;
        match crate::run_mutant(None, Budget::default().on_run_stack(), || run(&mut src)) {
            Outcome::Returned(Ok(output)) => {
                let Some(snapshot) = target.snapshot else {
                    continue;
                };
                let now = snapshot(&output);
                if entry.meta.output.as_deref() == Some(now.as_str()) {
                    continue;
                }
                if config.update {
                    entry.meta.output = Some(now);
                    if let Err(e) = store.update(&entry.name, &entry.meta) {
                        panic!("mu2: driver `{}`: {e}", target.name);
                    }
                    updated += 1;
                } else {
                    match &entry.meta.output {
                        Some(was) => problems.push(format!(
                            "{}: the output changed\n    recorded: {was}\n    now:      {now}",
                            path.display()
                        )),
                        // A seed dropped in by hand, say: replayed for panics only.
                        None => unrecorded += 1,
                    }
                }
            }
            Outcome::Returned(Err(Invalid)) | Outcome::Stopped(Stop::Invalid) => {}
            Outcome::Panicked(p) => problems.push(format!("{}: {p}", path.display())),
            Outcome::Stopped(stop) => problems.push(format!("{}: {stop}", path.display())),
        }
    }
    if unrecorded > 0 {
        eprintln!(
            "mu2: `{}`: {unrecorded} of {total} inputs have no recorded output, so only their panics are checked; MU2_UPDATE=1 records them",
            target.name
        );
    }
    if updated > 0 {
        eprintln!(
            "mu2: `{}`: recorded new outputs for {updated} of {total} inputs",
            target.name
        );
    }
    if !problems.is_empty() {
        panic!(
            "mu2: {} of {total} saved inputs of driver `{}` fail:\n  {}\n\nIf the new outputs are right, record them: MU2_UPDATE=1 cargo test {}",
            problems.len(),
            target.name,
            problems.join("\n  "),
            target.name
        );
    }
}

/// No corpus yet: a short random run with a seed fixed by the driver's name,
/// so the test is deterministic. A failing input is saved in `failures/`.
fn smoke<O>(target: Target<O>, config: &Config) {
    let seed = target.name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    let mut rng = Rng::seed(seed);
    let started = Instant::now();
    let mut trials = 0;
    while trials < SMOKE_TRIALS && started.elapsed() < SMOKE_TIME {
        trials += 1;
        let mut src = Source::new(Vec::new(), Some(rng.fork()), MAX_INPUT);
        let run = target.run;
        let outcome = crate::run_mutant(None, Budget::default().on_run_stack(), || run(&mut src));
        let message = match outcome {
            Outcome::Panicked(p) => p,
            Outcome::Stopped(Stop::Timeout(what)) => crate::Panic {
                message: Stop::Timeout(what).to_string(),
                location: Some(format!("timeout ({what})")),
            },
            _ => continue,
        };
        let bytes = src.into_bytes();
        let failure = Failure {
            message: message.message.clone(),
            location: message.location.clone().unwrap_or_default(),
            found_at: unix_now(),
            size: bytes.len(),
            input_debug: None,
        };
        let saved = match Store::open(&config.dir, &target.name).and_then(|mut store| {
            let name = store.save_failure(&bytes, &failure)?;
            Ok((name, store))
        }) {
            Ok((Some(name), store)) => format!(
                "saved as {}",
                store.root().join("failures").join(name).display()
            ),
            Ok((None, store)) => format!("already in {}", store.root().join("failures").display()),
            Err(e) => format!("could not be saved: {e}"),
        };
        panic!(
            "mu2: driver `{}` has no corpus yet, and a random input fails it: {message}\nThe input is {saved}. To search further and build a corpus: MU2=fuzz MU2_TIME=1m cargo test {}",
            target.name, target.name
        );
    }
}

/// `MU2=repro`: what one input file generates, what the original does with
/// it, and which mutants it kills.
fn repro<O>(target: Target<O>, show: Option<ShowFn>, config: &Config) {
    use crate::oracle::{Observed, Verdict, decide};
    use crate::probe::{Probes, Trace};
    let path = config
        .input
        .as_ref()
        .expect("MU2=repro requires MU2_INPUT (checked with the config)");
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => panic!("mu2: cannot read the input {}: {e}", path.display()),
    };
    let mut text = format!(
        "mu2: `{}` on {} ({} bytes)\n",
        target.name,
        path.display(),
        bytes.len()
    );
    let input = match show.map(|show| show(&mut Source::new(bytes.clone(), None, MAX_INPUT))) {
        Some(Ok(Some(shown))) => shown,
        Some(Ok(None)) | None => "(the input's type does not implement Debug)".into(),
        Some(Err(Invalid)) => "(these bytes do not generate an input: INVALID)".into(),
    };
    text.push_str(&format!("input:\n{}\n", indent(&input)));
    let mut trace = Trace::default();
    let mut src = Source::new(bytes.clone(), None, MAX_INPUT);
    let run = target.run;
    let outcome = crate::probe::record_with(
        &mut trace,
        Probes::All,
        Budget::default().on_run_stack(),
        || run(&mut src),
    );
    let original = match &outcome {
        Outcome::Returned(Ok(o)) => match target.snapshot {
            Some(snapshot) => format!("returned {}", snapshot(o)),
            None => "returned".into(),
        },
        Outcome::Returned(Err(Invalid)) | Outcome::Stopped(Stop::Invalid) => {
            "INVALID (an assumption does not hold)".into()
        }
        Outcome::Panicked(p) => p.to_string(),
        Outcome::Stopped(stop) => stop.to_string(),
    };
    text.push_str(&format!("original: {original}\n"));
    let observed = Observed::of(outcome);
    let mutants = crate::schema::mutants();
    let chosen: Vec<usize> = trace
        .executed()
        .iter()
        .filter(|&m| trace.infected().contains(m))
        .collect();
    let mut killed = Vec::new();
    for &m in &chosen {
        let mut src = Source::new(bytes.clone(), None, MAX_INPUT);
        let budget = Budget::default().on_run_stack().for_mutant(trace.steps());
        let verdict = decide(
            &observed,
            crate::run_at(Some(m as u32), budget, || run(&mut src)),
            target.compare,
        );
        if verdict.detected() {
            killed.push((m, verdict));
        }
    }
    text.push_str(&format!(
        "mutants: it executes {}, infects {}, and kills {}:",
        trace.executed().count(),
        chosen.len(),
        killed.len()
    ));
    for (m, verdict) in killed {
        let how = if verdict == Verdict::TimedOut {
            " (TIMED_OUT)"
        } else {
            ""
        };
        text.push_str(&format!("\n  {} {}{how}", mutants[m].id, mutants[m]));
    }
    crate::status::say(&text);
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
