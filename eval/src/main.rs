//! `cargo run --release -p mu2-eval -- --profile quick|full [flags]`: see
//! `docs/evaluation.md`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use mu2_eval::run::{Budget, Variant};
use mu2_eval::{Options, evaluate, targets};

/// Mutation vs coverage guidance on the fixtures, repeated and scored.
#[derive(Parser, Debug)]
#[command(name = "mu2-eval")]
struct Args {
    /// `quick` (seconds per run, 2 reps, sort and json, no peers) or `full`
    /// (two minutes per run, 10 reps, all fixtures, peers).
    #[arg(long, default_value = "quick")]
    profile: String,
    /// Comma-separated fixture names (known: see `targets::all`).
    #[arg(long, value_delimiter = ',')]
    fixtures: Option<Vec<String>>,
    /// Comma-separated variants: random, coverage, mutation, split,
    /// least-executed:K, random:K; or `none` (only the peer tools).
    #[arg(long, value_delimiter = ',')]
    variants: Option<Vec<String>>,
    /// Repetitions (seeds 1..=N) per variant.
    #[arg(long)]
    reps: Option<u64>,
    /// Wall-clock budget per campaign.
    #[arg(long)]
    seconds: Option<f64>,
    /// A trial budget per campaign instead of time (deterministic).
    #[arg(long, conflicts_with = "seconds")]
    trials: Option<u64>,
    /// Output folder.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Run cargo-mutants and cargo-fuzz too.
    #[arg(long)]
    peers: bool,
    /// Skip cargo-mutants and cargo-fuzz (even under `full`).
    #[arg(long, conflicts_with = "peers")]
    no_peers: bool,
    /// Which peer tools run, comma-separated: cargo-mutants, cargo-fuzz
    /// (default: both).
    #[arg(long, value_delimiter = ',', conflicts_with = "no_peers")]
    peer_tools: Option<Vec<String>>,
    /// Skip the RQ4 oracle comparison.
    #[arg(long)]
    no_oracles: bool,
}

fn options(args: Args) -> Result<Options, String> {
    let mut opts = Options::profile(&args.profile)
        .ok_or_else(|| format!("unknown profile {:?}: quick or full", args.profile))?;
    if let Some(names) = args.fixtures {
        opts.fixtures = names
            .iter()
            .map(|n| {
                targets::find(n).ok_or_else(|| {
                    let known: Vec<_> = targets::all().iter().map(|f| f.name).collect();
                    format!("unknown fixture {n:?}: known are {}", known.join(", "))
                })
            })
            .collect::<Result<_, _>>()?;
    }
    if let Some(names) = args.variants {
        opts.variants = if names == ["none"] {
            Vec::new()
        } else {
            names
                .iter()
                .map(|n| Variant::parse(n).ok_or_else(|| format!("unknown variant {n:?}")))
                .collect::<Result<_, _>>()?
        };
    }
    if let Some(r) = args.reps {
        opts.reps = r.max(1);
    }
    if let Some(s) = args.seconds {
        opts.budget = Budget::Seconds(s);
    }
    if let Some(n) = args.trials {
        opts.budget = Budget::Trials(n);
    }
    if let Some(out) = args.out {
        opts.out = out;
    }
    opts.peers = (opts.peers || args.peers || args.peer_tools.is_some()) && !args.no_peers;
    if let Some(tools) = args.peer_tools {
        opts.mutants_peer = false;
        opts.fuzz_peer = false;
        for t in tools {
            match t.as_str() {
                "cargo-mutants" => opts.mutants_peer = true,
                "cargo-fuzz" => opts.fuzz_peer = true,
                other => {
                    return Err(format!(
                        "unknown peer tool {other:?}: cargo-mutants or cargo-fuzz"
                    ));
                }
            }
        }
    }
    opts.oracles = !args.no_oracles;
    Ok(opts)
}

fn main() -> ExitCode {
    let command = std::iter::once("cargo run --release -p mu2-eval --".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let opts = match options(Args::parse()) {
        Ok(mut o) => {
            o.command = command;
            o
        }
        Err(e) => {
            eprintln!("mu2-eval: {e}");
            return ExitCode::from(2);
        }
    };
    match evaluate(&opts) {
        Ok(_) => {
            println!(
                "mu2-eval: report: {}",
                opts.out.join("summary.md").display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mu2-eval: {e}");
            ExitCode::FAILURE
        }
    }
}
