//! `cargo mu2`: the command line of mu2.
//!
//! It builds the workspace's tests once, finds the `#[mu2::diff]` /
//! `#[mu2::fuzz]` drivers in the test binaries, and runs a driver's test
//! binary with the right `MU2_*` settings. Everything it does can also be done
//! with the variables and `cargo test`; see docs/cli.md.

mod html;
mod workspace;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};

use clap::{Args, Parser, Subcommand};
use mu2_runtime::corpus;
use mu2_runtime::guidance::{Filter, Opt};
use mu2_runtime::report::Report;

use workspace::{Build, Driver, Workspace};

/// Why `cargo mu2` stopped; each maps to an exit code CI can act on.
#[derive(Debug)]
pub enum Failure {
    /// Bad flags, an unknown driver, nothing to work on yet (no corpus to
    /// score, no score to report): exit 4.
    Usage(String),
    /// The code does not build (cargo showed why): exit 1.
    Build,
    /// No mu2 here, a file that cannot be read, a tool that cannot run: exit 1.
    Env(String),
    /// The driver's original panics on a saved input, or a campaign found
    /// failures: exit 3.
    Failures(String),
    /// The mutation score is below `--min-score`: exit 2.
    BelowMinScore(String),
}

impl Failure {
    fn code(&self) -> u8 {
        match self {
            Failure::Build | Failure::Env(_) => 1,
            Failure::BelowMinScore(_) => 2,
            Failure::Failures(_) => 3,
            Failure::Usage(_) => 4,
        }
    }
}

#[derive(Parser)]
#[command(name = "cargo-mu2", bin_name = "cargo mu2", version, about = ABOUT, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
    /// The Cargo.toml of the workspace or package (default: the one here).
    #[arg(long, global = true, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
    /// Only these packages (default: every package that depends on mu2).
    #[arg(short, long = "package", global = true, value_name = "NAME")]
    packages: Vec<String>,
    /// Every package that depends on mu2 (default inside a member's folder: that member).
    #[arg(long, global = true)]
    workspace: bool,
    /// Build without optimizations (campaigns run several times slower).
    #[arg(long, global = true)]
    debug: bool,
}

const ABOUT: &str = "Mutation-guided fuzzing for Rust: list, fuzz, score and report on #[mu2::diff] / #[mu2::fuzz] drivers";

const EXIT_CODES: &str = "Exit codes: 0 success; 1 the code does not build or the environment is wrong; \
2 mutants survive past --min-score; 3 a driver's original panics on a saved input, or a campaign found failures; \
4 usage error (bad flag, unknown driver) or nothing to work on yet (no saved corpus to score, no score to report).";

#[derive(Subcommand)]
enum Cmd {
    /// List the drivers, and the mutants by file and operator.
    ///
    /// Example: cargo mu2 list --mutants
    List {
        /// Every mutant with its location.
        #[arg(long)]
        mutants: bool,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Run a campaign on a driver, with a live status screen; then score the
    /// corpus it grew and write the HTML report.
    ///
    /// The corpus lives in mu2/<driver>/ in the crate (commit its corpus/), or
    /// under --dir. At the end every saved input is run against every mutant
    /// (as `score` does) and the report is written (as `report <driver>` does);
    /// --no-score stops after the campaign.
    ///
    /// Example: cargo mu2 fuzz parses --time 5m
    ///
    /// Example, a campaign in its own folder, to compare with others (see `report --campaign`):
    /// cargo mu2 fuzz parses --time 5m --guidance coverage --dir target/zest
    Fuzz {
        /// The driver's name (its test function).
        driver: String,
        #[command(flatten)]
        opts: FuzzOpts,
        /// Stop after the campaign: do not score the corpus or write the report.
        #[arg(long)]
        no_score: bool,
        /// Where to write the report (default: target/mu2 in the workspace).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Score a driver's saved corpus against every mutant; writes report.json.
    ///
    /// Example: cargo mu2 score parses --min-score 80
    Score {
        driver: String,
        #[command(flatten)]
        common: Common,
        /// Fail (exit 2) when the mutation score is below this percentage.
        #[arg(long, value_name = "PERCENT", value_parser = percent)]
        min_score: Option<f64>,
        /// Machine-readable summary.
        #[arg(long)]
        json: bool,
    },
    /// Replay one input: show it, the original's output or panic, and the mutants it kills.
    ///
    /// Example: cargo mu2 repro parses mu2/parses/corpus/id_000012
    Repro {
        driver: String,
        /// The input file (in the corpus, the failures, anywhere).
        input: PathBuf,
        #[command(flatten)]
        common: Common,
    },
    /// Write the reports of the last scores: HTML, JSON and CSV.
    ///
    /// With --campaign, the plots of one driver show several of its campaigns
    /// side by side, one labelled line each: each DIR is the --dir a campaign
    /// was run with (`cargo mu2 fuzz <driver> --dir DIR`), or its <driver>/
    /// folder. A label defaults to the campaign's guidance (from its fuzz.log),
    /// else the folder's name. The mutation report shown is --dir's when given,
    /// else the first campaign's that has been scored.
    ///
    /// Example: cargo mu2 report parses --out target/mu2
    ///
    /// Example: cargo mu2 report parses --campaign target/zest --campaign mu2=target/mu2-run
    Report {
        /// The drivers (default: every driver with a score).
        drivers: Vec<String>,
        /// Where to write (default: target/mu2 in the workspace).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// A campaign of the driver to plot, as [LABEL=]DIR; repeat to compare campaigns.
        #[arg(long = "campaign", visible_alias = "compare", value_name = "[LABEL=]DIR", value_parser = campaign_arg)]
        campaigns: Vec<CampaignArg>,
        #[command(flatten)]
        common: Common,
        /// Fail (exit 2) when a driver's mutation score is below this percentage.
        #[arg(long, value_name = "PERCENT", value_parser = percent)]
        min_score: Option<f64>,
    },
}

#[derive(Args, Clone)]
struct Common {
    /// Where corpora live (MU2_DIR; default: mu2/ in the crate).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Worker threads for mutant runs (MU2_JOBS).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    jobs: Option<u32>,
}

#[derive(Args, Clone)]
struct FuzzOpts {
    /// Stop after this long: 30s, 5m, 1h30m (MU2_TIME).
    #[arg(long, value_parser = duration)]
    time: Option<String>,
    /// Stop after this many generated inputs (MU2_TRIALS).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    trials: Option<u64>,
    /// The campaign's random seed (MU2_SEED).
    #[arg(long)]
    seed: Option<u64>,
    /// mutation, coverage, split or random (MU2_GUIDANCE).
    #[arg(long, value_parser = ["mutation", "coverage", "split", "random"])]
    guidance: Option<String>,
    /// none, execution or infection (MU2_OPT).
    #[arg(long, value_parser = opt)]
    opt: Option<String>,
    /// least-executed:K, random:K (K a number or a percentage), or all (MU2_FILTER).
    #[arg(long, value_parser = filter)]
    filter: Option<String>,
    #[command(flatten)]
    common: Common,
}

fn duration(s: &str) -> Result<String, String> {
    mu2_runtime::config::parse_duration(s)
        .map(|_| s.to_string())
        .ok_or_else(|| "expected a duration such as 30s, 5m, 1h or 1h30m".into())
}

fn opt(s: &str) -> Result<String, String> {
    Opt::parse(s)
        .map(|_| s.to_string())
        .ok_or_else(|| "expected none, execution or infection".into())
}

fn filter(s: &str) -> Result<String, String> {
    Filter::parse(s).map(|_| s.to_string()).ok_or_else(|| {
        "expected least-executed:K, random:K (K a number or a percentage such as 10%), or all"
            .into()
    })
}

/// A `--campaign` value: an optional label and a campaign's folder.
#[derive(Clone, Debug)]
struct CampaignArg {
    label: Option<String>,
    dir: PathBuf,
}

fn campaign_arg(s: &str) -> Result<CampaignArg, String> {
    // `LABEL=DIR`, unless what precedes `=` looks like a path.
    let (label, dir) = match s.split_once('=') {
        Some((l, d)) if !l.is_empty() && !l.contains(['/', '\\']) => (Some(l.to_string()), d),
        _ => (None, s),
    };
    if dir.is_empty() {
        return Err("expected [LABEL=]DIR, the --dir a campaign ran with".into());
    }
    Ok(CampaignArg {
        label,
        dir: PathBuf::from(dir),
    })
}

fn percent(s: &str) -> Result<f64, String> {
    s.trim_end_matches('%')
        .parse::<f64>()
        .ok()
        .filter(|p| (0.0..=100.0).contains(p))
        .ok_or_else(|| "expected a percentage from 0 to 100".into())
}

fn main() -> ExitCode {
    // `cargo mu2 ...` runs `cargo-mu2 mu2 ...`.
    let mut args: Vec<_> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "mu2") {
        args.remove(1);
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 4 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            match &failure {
                Failure::Build => {
                    eprintln!("cargo mu2: the tests do not build (cargo's errors are above)")
                }
                Failure::Usage(m)
                | Failure::Env(m)
                | Failure::Failures(m)
                | Failure::BelowMinScore(m) => {
                    eprintln!("cargo mu2: {m}")
                }
            }
            ExitCode::from(failure.code())
        }
    }
}

fn run(cli: Cli) -> Result<(), Failure> {
    let build = Build {
        manifest_path: cli.manifest_path.as_deref(),
        packages: &cli.packages,
        workspace: cli.workspace,
        release: !cli.debug,
    };
    let ws = Workspace::load(&build)?;
    match cli.command {
        Cmd::List { mutants, json } => list(&ws, mutants, json),
        Cmd::Fuzz {
            driver,
            opts,
            no_score,
            out,
        } => {
            let d = ws.driver(&driver)?;
            let mut env = common_env(&opts.common);
            env.push(("MU2", "fuzz".into()));
            for (var, value) in [
                ("MU2_TIME", opts.time),
                ("MU2_TRIALS", opts.trials.map(|t| t.to_string())),
                ("MU2_SEED", opts.seed.map(|s| s.to_string())),
                ("MU2_GUIDANCE", opts.guidance),
                ("MU2_OPT", opts.opt),
                ("MU2_FILTER", opts.filter),
            ] {
                if let Some(v) = value {
                    env.push((var, v));
                }
            }
            let fuzzed = run_driver(d, &env, "the campaign found failures (listed above)");
            // A campaign that found failures still grew a corpus worth scoring.
            if no_score || !matches!(fuzzed, Ok(()) | Err(Failure::Failures(_))) {
                return fuzzed;
            }
            if corpus::saved_inputs(&corpus_dir(d, &opts.common), &d.name) == 0 {
                eprintln!("cargo mu2: the campaign saved no input, so there is nothing to score");
                return fuzzed;
            }
            score(d, &opts.common)?;
            report(
                &ws,
                std::slice::from_ref(&d.name),
                out,
                &opts.common,
                None,
                &[],
            )?;
            fuzzed
        }
        Cmd::Score {
            driver,
            common,
            min_score,
            json,
        } => {
            let d = ws.driver(&driver)?;
            let report = score(d, &common)?;
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&report.summary).expect("plain data")
                );
            }
            gate(&report, min_score)
        }
        Cmd::Repro {
            driver,
            input,
            common,
        } => {
            let d = ws.driver(&driver)?;
            let input = std::fs::canonicalize(&input).map_err(|e| {
                Failure::Usage(format!("cannot read the input {}: {e}", input.display()))
            })?;
            let mut env = common_env(&common);
            env.push(("MU2", "repro".into()));
            env.push(("MU2_INPUT", input.display().to_string()));
            run_driver(d, &env, "the replay failed (see above)")
        }
        Cmd::Report {
            drivers,
            out,
            campaigns,
            common,
            min_score,
        } => report(&ws, &drivers, out, &common, min_score, &campaigns),
    }
}

/// Scores the driver's saved corpus (`MU2=score`) and reads the report back.
fn score(d: &Driver, common: &Common) -> Result<Report, Failure> {
    let dir = corpus_dir(d, common);
    if corpus::saved_inputs(&dir, &d.name) == 0 {
        let corpus = dir.join(&d.name).join("corpus");
        let dir_flag = match &common.dir {
            Some(_) => format!(" --dir {}", dir.display()),
            None => String::new(),
        };
        return Err(Failure::Usage(format!(
            "`{}` has no saved corpus to score: {} {}. Grow one first: cargo mu2 fuzz {}{dir_flag}",
            d.name,
            corpus.display(),
            if corpus.is_dir() {
                "holds no inputs"
            } else {
                "does not exist"
            },
            d.name
        )));
    }
    let mut env = common_env(common);
    env.push(("MU2", "score".into()));
    run_driver(
        d,
        &env,
        "the original panics on saved inputs (listed above)",
    )?;
    let path = dir.join(&d.name).join("report.json");
    Report::read(&path).map_err(|e| Failure::Env(format!("cannot read the report: {e}")))
}

fn common_env(c: &Common) -> Vec<(&'static str, String)> {
    let mut env = Vec::new();
    if let Some(dir) = &c.dir {
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
        env.push(("MU2_DIR", dir.display().to_string()));
    }
    if let Some(j) = c.jobs {
        env.push(("MU2_JOBS", j.to_string()));
    }
    env
}

fn corpus_dir(d: &Driver, c: &Common) -> PathBuf {
    match &c.dir {
        Some(dir) => std::path::absolute(dir).unwrap_or_else(|_| dir.clone()),
        None => d.manifest_dir.join("mu2"),
    }
}

/// Runs the driver's test in its binary, with output shown as it comes.
fn run_driver(d: &Driver, env: &[(&str, String)], failed: &str) -> Result<(), Failure> {
    let mut cmd = Command::new(&d.binary);
    cmd.args([
        d.test.as_str(),
        "--exact",
        "--nocapture",
        "--test-threads=1",
        "--quiet",
    ])
    .current_dir(&d.manifest_dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    // libtest's own lines ("running 1 test", "test result: ok") say nothing
    // here; everything else the test prints is passed on as it comes.
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| Failure::Env(format!("cannot run {}: {e}", d.binary.display())))?;
    if let Some(out) = child.stdout.take() {
        let mut stdout = std::io::stdout().lock();
        for line in BufReader::new(out).split(b'\n').map_while(Result::ok) {
            if !libtest_chatter(&String::from_utf8_lossy(&line)) {
                let _ = stdout.write_all(&line);
                let _ = stdout.write_all(b"\n");
                let _ = stdout.flush();
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| Failure::Env(format!("cannot run {}: {e}", d.binary.display())))?;
    match status.code() {
        Some(0) => Ok(()),
        Some(101) => Err(Failure::Failures(format!("`{}`: {failed}", d.name))),
        _ => Err(Failure::Env(format!(
            "`{}`'s test binary ended abnormally ({status})",
            d.name
        ))),
    }
}

/// A line libtest prints for a passing run with `--quiet`.
fn libtest_chatter(line: &str) -> bool {
    let line = line.trim_end();
    line.is_empty()
        || (line.starts_with("running ") && (line.ends_with(" test") || line.ends_with(" tests")))
        || line.bytes().all(|b| b == b'.')
        || line.starts_with("test result: ok.")
}

fn gate(report: &Report, min_score: Option<f64>) -> Result<(), Failure> {
    match min_score {
        Some(min) if report.summary.score() < min => Err(Failure::BelowMinScore(format!(
            "`{}`: mutation score {:.1}% is below --min-score {min}% ({} mutants survive)",
            report.driver,
            report.summary.score(),
            report.summary.survived
        ))),
        _ => Ok(()),
    }
}

fn list(ws: &Workspace, show_mutants: bool, json: bool) -> Result<(), Failure> {
    if json {
        let drivers: Vec<_> = ws
            .drivers
            .iter()
            .map(|d| serde_json::json!({"name": d.name, "kind": d.kind, "package": d.package, "test": d.test}))
            .collect();
        let mutants: Vec<_> = ws.mutants.values().collect();
        let value = serde_json::json!({"drivers": drivers, "mutants": mutants});
        println!(
            "{}",
            serde_json::to_string_pretty(&value).expect("plain data")
        );
        return Ok(());
    }
    println!("drivers:");
    if ws.drivers.is_empty() {
        println!("  (none: add a #[mu2::diff] or #[mu2::fuzz] test)");
    }
    for d in &ws.drivers {
        println!("  {:<28} {:<5} package {}", d.name, d.kind, d.package);
    }
    let mut by_file: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    for m in ws.mutants.values() {
        *by_file
            .entry(&m.file)
            .or_default()
            .entry(&m.operator)
            .or_default() += 1;
    }
    println!("\nmutants: {} in {} files", ws.mutants.len(), by_file.len());
    for (file, ops) in &by_file {
        let total: usize = ops.values().sum();
        let detail: Vec<String> = ops.iter().map(|(op, n)| format!("{op} {n}")).collect();
        println!("  {file}: {total} ({})", detail.join(", "));
    }
    if show_mutants {
        println!();
        for m in ws.mutants.values() {
            println!(
                "  {} {}:{}:{} in {}: {} `{}` -> `{}`",
                m.id, m.file, m.line, m.column, m.function, m.operator, m.original, m.replacement
            );
        }
    }
    Ok(())
}

/// Writes HTML, JSON and CSV from the drivers' last scores; with
/// `--campaign`, one driver's campaigns are plotted together.
fn report(
    ws: &Workspace,
    names: &[String],
    out: Option<PathBuf>,
    common: &Common,
    min_score: Option<f64>,
    compare: &[CampaignArg],
) -> Result<(), Failure> {
    let chosen: Vec<&Driver> = if !compare.is_empty() {
        match (names, ws.drivers.as_slice()) {
            ([name], _) => vec![ws.driver(name)?],
            ([], [only]) => vec![only],
            _ => {
                return Err(Failure::Usage(
                    "--campaign compares campaigns of one driver: name it, as in \
                     `cargo mu2 report <driver> --campaign DIR --campaign DIR`"
                        .into(),
                ));
            }
        }
    } else if names.is_empty() {
        ws.drivers
            .iter()
            .filter(|d| {
                corpus_dir(d, common)
                    .join(&d.name)
                    .join("report.json")
                    .is_file()
            })
            .collect()
    } else {
        names
            .iter()
            .map(|n| ws.driver(n))
            .collect::<Result<_, _>>()?
    };
    if chosen.is_empty() {
        return Err(Failure::Usage(
            "no driver has been scored yet: run `cargo mu2 score <driver>` first".into(),
        ));
    }
    let out = out.unwrap_or_else(|| ws.root.join("target/mu2"));
    std::fs::create_dir_all(&out)
        .map_err(|e| Failure::Env(format!("cannot create {}: {e}", out.display())))?;
    let html_path = out.join("mu2-report.html");
    let mut reports = Vec::new();
    for d in &chosen {
        let own = corpus_dir(d, common).join(&d.name);
        let (dir, campaigns) = if compare.is_empty() {
            // A campaign's plot is optional: scoring a corpus fuzzed elsewhere has none.
            let label = guidance_of(&own).unwrap_or_else(|| d.name.clone());
            let campaigns: Vec<_> = html::Campaign::read(&label, &own.join("plot_data.csv"))
                .into_iter()
                .map(|c| with_score(c, &own))
                .collect();
            (own, campaigns)
        } else {
            let folders = campaign_folders(d, compare)?;
            // The report shown: --dir's, else the first scored campaign's.
            let dir = match common.dir {
                Some(_) => own,
                None => folders
                    .iter()
                    .map(|(_, f)| f.clone())
                    .find(|f| f.join("report.json").is_file())
                    .unwrap_or(own),
            };
            let mut campaigns = Vec::new();
            for (label, folder) in &folders {
                let c =
                    html::Campaign::read(label, &folder.join("plot_data.csv")).map_err(|e| {
                        Failure::Usage(format!(
                            "the campaign in {} has no plot data ({e}): it was not fuzzed there",
                            folder.display()
                        ))
                    })?;
                let c = with_score(c, folder);
                println!(
                    "campaign `{}`: {}, {}",
                    c.label,
                    folder.display(),
                    match c.score {
                        Some(score) => format!("mutation score {score:.1}%"),
                        None => format!(
                            "not scored (cargo mu2 score {} --dir {})",
                            d.name,
                            folder.parent().unwrap_or(folder).display()
                        ),
                    }
                );
                campaigns.push(c);
            }
            (dir, campaigns)
        };
        let report = Report::read(&dir.join("report.json")).map_err(|_| {
            let dir_flag = match (&common.dir, compare.is_empty()) {
                (None, true) => String::new(),
                _ => format!(" --dir {}", dir.parent().unwrap_or(&dir).display()),
            };
            Failure::Usage(format!(
                "`{}` has no score yet: run `cargo mu2 score {}{dir_flag}` first",
                d.name, d.name
            ))
        })?;
        let sources = html::read_sources([&report], &[ws.root.as_path(), d.manifest_dir.as_path()]);
        std::fs::copy(
            dir.join("report.json"),
            out.join(format!("{}.json", d.name)),
        )
        .map_err(|e| Failure::Env(format!("cannot write the JSON report: {e}")))?;
        std::fs::write(out.join(format!("{}.csv", d.name)), csv(&report))
            .map_err(|e| Failure::Env(format!("cannot write the CSV report: {e}")))?;
        reports.push((report, sources, dir.join("corpus"), campaigns));
    }
    let inputs: Vec<html::Input> = reports
        .iter()
        .map(|(report, sources, corpus, campaigns)| html::Input {
            report,
            sources,
            corpus_dir: Some(corpus.as_path()),
            campaigns,
        })
        .collect();
    std::fs::write(&html_path, html::render(&inputs, &html_path))
        .map_err(|e| Failure::Env(format!("cannot write {}: {e}", html_path.display())))?;
    for (report, ..) in &reports {
        let s = &report.summary;
        // PIT's "test strength": the score among the mutants the inputs reach.
        let reached = s.killed + s.timed_out + s.crashed + s.survived;
        let strength = if reached == 0 || s.no_coverage == 0 {
            String::new()
        } else {
            format!(
                "; {:.1}% of the {reached} mutants its inputs reach",
                100.0 * (reached - s.survived) as f64 / reached as f64
            )
        };
        println!(
            "{}: mutation score {:.1}% ({} killed, {} survived, {} no coverage, {} timed out, {} unviable, {} crashed){strength}",
            report.driver,
            s.score(),
            s.killed,
            s.survived,
            s.no_coverage,
            s.timed_out,
            s.unviable,
            s.crashed
        );
    }
    println!("JSON and CSV: {}", out.display());
    println!("HTML report: {}", html_path.display());
    for (report, ..) in &reports {
        gate(report, min_score)?;
    }
    Ok(())
}

/// The folder of each `--campaign` for driver `d`, with its label: the one
/// given, else the campaign's guidance, else the folder's name; labels that
/// would repeat get the folder added.
fn campaign_folders(
    d: &Driver,
    compare: &[CampaignArg],
) -> Result<Vec<(String, PathBuf)>, Failure> {
    let mut found = Vec::new();
    for c in compare {
        let dir = std::path::absolute(&c.dir).unwrap_or_else(|_| c.dir.clone());
        let folder = if dir.join(&d.name).is_dir() {
            dir.join(&d.name)
        } else if dir.join("plot_data.csv").is_file() || dir.join("corpus").is_dir() {
            dir.clone()
        } else {
            return Err(Failure::Usage(format!(
                "no campaign of `{}` in {}: expected the folder {} that `cargo mu2 fuzz {} --dir {}` writes",
                d.name,
                c.dir.display(),
                dir.join(&d.name).display(),
                d.name,
                c.dir.display()
            )));
        };
        let named = || {
            let base = if folder.file_name() == Some(d.name.as_ref()) {
                folder.parent().unwrap_or(&folder)
            } else {
                &folder
            };
            base.file_name().map_or_else(
                || c.dir.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        };
        let label = c.label.clone();
        let default = guidance_of(&folder).unwrap_or_else(named);
        found.push((label, default, c.dir.display().to_string(), folder));
    }
    let defaults: Vec<String> = found.iter().map(|f| f.1.clone()).collect();
    Ok(found
        .into_iter()
        .map(|(label, default, given, folder)| {
            let label = label.unwrap_or_else(|| {
                if defaults.iter().filter(|l| **l == default).count() > 1 {
                    format!("{default} ({given})")
                } else {
                    default
                }
            });
            (label, folder)
        })
        .collect())
}

/// The guidance of the last campaign in a driver's folder, from its `fuzz.log`.
fn guidance_of(folder: &std::path::Path) -> Option<String> {
    let log = std::fs::read_to_string(folder.join("fuzz.log")).ok()?;
    log.lines().rev().find_map(|line| {
        let (_, rest) = line.split_once("campaign start: ")?;
        rest.split(", ")
            .find_map(|part| part.strip_prefix("guidance "))
            .map(str::to_string)
    })
}

/// The campaign, with the mutation score of its corpus when it was scored.
fn with_score(mut c: html::Campaign, folder: &std::path::Path) -> html::Campaign {
    c.score = Report::read(&folder.join("report.json"))
        .ok()
        .map(|r| r.summary.score());
    c
}

/// `file,line,function,operator,original,replacement,status,killed_by`.
fn csv(report: &Report) -> String {
    let field = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out =
        String::from("file,line,function,operator,original,replacement,status,killed_by\n");
    for m in &report.mutants {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{}\n",
            field(&m.file),
            m.line,
            field(&m.function),
            field(&m.operator),
            field(&m.original),
            field(&m.replacement),
            m.status.name(),
            field(m.killed_by.as_deref().unwrap_or(""))
        ));
    }
    out
}
