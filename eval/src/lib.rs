//! The evaluation harness: every fuzzer variant on every fixture, repeated
//! with different seeds, each final corpus scored by the same scorer; then
//! tables, statistics and plots answering the Mu2 paper's research
//! questions (RQ1-RQ4), with cargo-mutants and cargo-fuzz alongside.
//!
//! ```sh
//! cargo run --release -p mu2-eval -- --profile quick
//! ```
//!
//! See `docs/evaluation.md` for what every column means.

pub mod markdown;
pub mod peers;
pub mod run;
pub mod stats;
pub mod svg;
pub mod targets;

use std::path::{Path, PathBuf};

use serde::Serialize;

use run::{Budget, Run, Variant};
use targets::Fixture;

/// What to evaluate, and where to write it.
#[derive(Clone, Debug)]
pub struct Options {
    /// `quick`, `full` or `custom`: printed in the report so a table is
    /// never mistaken for a full-profile one.
    pub profile: String,
    pub fixtures: Vec<Fixture>,
    pub variants: Vec<Variant>,
    pub reps: u64,
    pub budget: Budget,
    pub out: PathBuf,
    /// Run cargo-mutants and cargo-fuzz too.
    pub peers: bool,
    /// Which of the two, when `peers`.
    pub mutants_peer: bool,
    pub fuzz_peer: bool,
    /// Run the RQ4 oracle comparison.
    pub oracles: bool,
    pub jobs: usize,
    /// The command line, for the report.
    pub command: String,
}

impl Options {
    /// A profile's defaults: `quick` (a few seconds a run, 2 repetitions,
    /// sort and json, no peers) or `full` (two minutes a run, 10
    /// repetitions, every fixture, peers on).
    pub fn profile(name: &str) -> Option<Options> {
        let all_variants = || {
            run::ALL_VARIANTS
                .iter()
                .map(|v| Variant::parse(v).expect("a known variant"))
                .collect()
        };
        let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
        let base = Options {
            profile: name.to_string(),
            fixtures: targets::all(),
            variants: all_variants(),
            reps: 10,
            budget: Budget::Seconds(120.0),
            out: PathBuf::from("target/mu2-eval"),
            peers: true,
            mutants_peer: true,
            fuzz_peer: true,
            oracles: true,
            jobs,
            command: String::new(),
        };
        match name {
            "full" => Some(base),
            "quick" => Some(Options {
                fixtures: ["sort", "json"]
                    .iter()
                    .filter_map(|f| targets::find(f))
                    .collect(),
                reps: 2,
                budget: Budget::Seconds(2.0),
                peers: false,
                ..base
            }),
            _ => None,
        }
    }
}

/// Everything one evaluation measured.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Results {
    pub profile: String,
    pub command: String,
    pub reps: u64,
    pub budget: String,
    pub runs: Vec<Run>,
    /// RQ4: per fixture, the property-target campaigns scored with the
    /// differential scorer and with the property scorer.
    pub oracles: Vec<OracleRuns>,
    pub mutants: Vec<(String, Result<peers::MutantsOutcome, String>)>,
    pub libfuzzer: Vec<(String, Result<Vec<Run>, String>)>,
}

/// RQ4 on one fixture.
#[derive(Clone, Debug, Serialize)]
pub struct OracleRuns {
    pub fixture: String,
    /// Property campaign, differential scorer.
    pub differential: Vec<Run>,
    /// Property campaign, property scorer.
    pub property: Vec<Run>,
}

/// The workspace root (eval's parent), where fixture paths are relative to.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("eval/ is inside the workspace")
        .to_path_buf()
}

fn budget_text(budget: Budget) -> String {
    match budget {
        Budget::Seconds(s) => format!("{s} s"),
        Budget::Trials(n) => format!("{n} trials"),
    }
}

fn temp() -> Result<tempfile::TempDir, String> {
    tempfile::Builder::new()
        .prefix("mu2-eval-")
        .tempdir()
        .map_err(|e| format!("a temporary folder: {e}"))
}

/// Runs the evaluation and writes `summary.md`, `runs.json` and the SVG
/// plots into `opts.out`.
pub fn evaluate(opts: &Options) -> Result<Results, String> {
    let mut results = Results {
        profile: opts.profile.clone(),
        command: opts.command.clone(),
        reps: opts.reps,
        budget: budget_text(opts.budget),
        ..Results::default()
    };
    for fixture in &opts.fixtures {
        // Repetition-major: each round runs every variant once, so that
        // other load on the machine (which changes executions per second)
        // falls on all variants alike, not on whichever ran during it.
        for rep in 0..opts.reps {
            for variant in &opts.variants {
                let seed = rep + 1;
                eprintln!(
                    "mu2-eval: {} / {} / seed {seed} ({})",
                    fixture.name,
                    variant.name(),
                    budget_text(opts.budget)
                );
                let dir = temp()?;
                let run = run::campaign(
                    fixture,
                    fixture.differential(),
                    &fixture.differential(),
                    *variant,
                    opts.budget,
                    seed,
                    opts.jobs,
                    dir.path(),
                )?;
                eprintln!(
                    "mu2-eval:   killed {}/{}, coverage {}, corpus {}, {} execs",
                    run.killed, run.viable, run.coverage, run.corpus, run.execs
                );
                results.runs.push(run);
            }
        }
        if opts.oracles {
            results.oracles.push(oracles(fixture, opts)?);
        }
    }
    if opts.peers {
        let work = opts.out.join("peers");
        std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
        let work = work.canonicalize().map_err(|e| e.to_string())?;
        for fixture in &opts.fixtures {
            if opts.mutants_peer {
                eprintln!("mu2-eval: cargo-mutants on {}", fixture.name);
                let m = peers::cargo_mutants(&workspace(), fixture, &work);
                if let Err(e) = &m {
                    eprintln!("mu2-eval:   {e}");
                }
                results.mutants.push((fixture.name.to_string(), m));
            }
            if !opts.fuzz_peer {
                continue;
            }
            let seconds = match opts.budget {
                Budget::Seconds(s) => s,
                Budget::Trials(_) => 1.0,
            };
            eprintln!("mu2-eval: cargo-fuzz on {}", fixture.name);
            let f = peers::cargo_fuzz(&workspace(), fixture, seconds, opts.reps, &work, opts.jobs);
            if let Err(e) = &f {
                eprintln!("mu2-eval:   {e}");
            }
            results.libfuzzer.push((fixture.name.to_string(), f));
        }
    }
    markdown::write(&results, opts)?;
    Ok(results)
}

/// RQ4: mutation-guided campaigns on the property target (only panics
/// fail), each corpus scored by both oracles.
fn oracles(fixture: &Fixture, opts: &Options) -> Result<OracleRuns, String> {
    let mut out = OracleRuns {
        fixture: fixture.name.to_string(),
        differential: Vec::new(),
        property: Vec::new(),
    };
    let variant = Variant::parse("mutation").expect("a known variant");
    for rep in 0..opts.reps {
        let seed = rep + 1;
        eprintln!("mu2-eval: {} / property target / seed {seed}", fixture.name);
        let dir = temp()?;
        let property = fixture.property();
        let driver = property.name.clone();
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        let diff = run::campaign(
            fixture,
            property,
            &fixture.differential(),
            variant,
            opts.budget,
            seed,
            opts.jobs,
            dir.path(),
        )?;
        let mut prop = run::score_corpus(
            fixture,
            &fixture.property(),
            dir.path(),
            &driver,
            opts.jobs,
            started,
        )?;
        prop.variant = "property".into();
        prop.seed = seed;
        prop.coverage = diff.coverage;
        prop.execs = diff.execs;
        out.differential.push(diff);
        out.property.push(prop);
    }
    Ok(out)
}
