//! One campaign and its scoring: the unit every table row is made of.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use mu2::Source;
use mu2::config::Guidance;
use mu2::corpus::Store;
use mu2::engine::{Campaign, Limits, Settings, Target};
use mu2::guidance::{Filter, Opt};
use mu2::report::{Report, Status};
use serde::Serialize;

use crate::targets::Fixture;

/// A fuzzer configuration under comparison (the paper's Table 2 columns).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Variant {
    pub guidance: Guidance,
    pub filter: Filter,
}

/// The variants of the paper's evaluation, in report order.
pub const ALL_VARIANTS: &[&str] = &[
    "random",
    "coverage",
    "mutation",
    "split",
    "least-executed:10",
    "least-executed:5",
    "random:10",
];

impl Variant {
    /// `random`, `coverage`, `mutation`, `split`, or a filter of mutation
    /// guidance (`least-executed:10`, `random:10`, ...). `random` alone is
    /// the no-feedback baseline; `random:K` the random-K mutant filter.
    pub fn parse(text: &str) -> Option<Variant> {
        let plain = |guidance| Variant {
            guidance,
            filter: Filter::All,
        };
        Some(match text {
            "random" => plain(Guidance::Random),
            "coverage" => plain(Guidance::Coverage),
            "mutation" => plain(Guidance::Mutation),
            "split" => plain(Guidance::Split),
            _ if text.contains(':') => Variant {
                guidance: Guidance::Mutation,
                filter: Filter::parse(text)?,
            },
            _ => return None,
        })
    }

    /// The name [`Variant::parse`] reads back.
    pub fn name(&self) -> String {
        match self.filter {
            Filter::All => self.guidance.name().to_string(),
            f => f.to_string(),
        }
    }

    /// Whether the campaign runs mutants at all (for the kills-over-time
    /// column of `plot_data.csv`, which only those fill).
    pub fn runs_mutants(&self) -> bool {
        matches!(self.guidance, Guidance::Mutation | Guidance::Split)
    }
}

/// When a campaign stops: wall-clock seconds (the evaluation) or trials (the
/// tests, which must be deterministic and fast).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Seconds(f64),
    Trials(u64),
}

impl Budget {
    fn limits(self) -> Limits {
        match self {
            Budget::Seconds(s) => Limits {
                time: Some(Duration::from_secs_f64(s)),
                trials: None,
            },
            Budget::Trials(n) => Limits {
                time: None,
                trials: Some(n),
            },
        }
    }
}

/// What one campaign found, scored.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    pub fixture: String,
    pub variant: String,
    pub seed: u64,
    /// The fixture's mutants the final corpus detects (killed, timed out or
    /// crashed), by the scorer.
    pub killed: usize,
    /// The fixture's mutants that are not unviable.
    pub viable: usize,
    /// Ids of the detected mutants (for the reliability histogram).
    pub killed_ids: BTreeSet<String>,
    /// Branches the campaign covered (`Summary::coverage`).
    pub coverage: usize,
    pub corpus: usize,
    pub execs: u64,
    pub seconds: f64,
    /// Running the final corpus once on the original.
    pub replay_seconds: f64,
    /// Scoring the final corpus against every mutant.
    pub score_seconds: f64,
    /// (seconds into the campaign, mutants detected by inputs saved by then),
    /// from the saved inputs' timestamps and the scorer's first killer of
    /// each mutant: the same measure for every variant.
    pub kills_over_time: Vec<(f64, usize)>,
    /// (seconds, mutants killed during fuzzing), from `plot_data.csv`; empty
    /// for variants that run no mutants.
    pub plot_kills: Vec<(f64, usize)>,
}

/// Settings for one campaign of the evaluation.
pub fn settings(variant: Variant, budget: Budget, seed: u64, jobs: usize) -> Settings {
    Settings {
        guidance: variant.guidance,
        limits: budget.limits(),
        seed,
        opt: Opt::Infection,
        filter: variant.filter,
        jobs,
    }
}

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Runs one campaign of `target` in a fresh folder under `dir`, then scores
/// its corpus with `scorer` (the differential target, unless told
/// otherwise).
#[allow(clippy::too_many_arguments)] // each is one independent knob of the experiment
pub fn campaign(
    fixture: &Fixture,
    target: Target<String>,
    scorer: &Target<String>,
    variant: Variant,
    budget: Budget,
    seed: u64,
    jobs: usize,
    dir: &Path,
) -> Result<Run, String> {
    let name = target.name.clone();
    let store = Store::open(dir, &name).map_err(|e| e.to_string())?;
    let started = unix_now();
    let summary = Campaign::new(target, store, settings(variant, budget, seed, jobs))
        .run()
        .map_err(|e| e.to_string())?;
    let mut run = score_corpus(fixture, scorer, dir, &name, jobs, started)?;
    run.variant = variant.name();
    run.seed = seed;
    run.coverage = summary.coverage;
    run.execs = summary.execs;
    run.seconds = summary.elapsed.as_secs_f64();
    run.plot_kills = plot_kills(&dir.join(&name).join("plot_data.csv"));
    Ok(run)
}

/// Scores the corpus in `dir/driver` with `scorer`, counting the fixture's
/// own mutants only, and times one replay of the corpus on the original.
/// `started` (Unix seconds) is the campaign's start, for kills over time.
pub fn score_corpus(
    fixture: &Fixture,
    scorer: &Target<String>,
    dir: &Path,
    driver: &str,
    jobs: usize,
    started: f64,
) -> Result<Run, String> {
    let mut store = Store::open(dir, driver).map_err(|e| e.to_string())?;
    let (entries, _) = store.load().map_err(|e| e.to_string())?;
    let clock = Instant::now();
    for e in &entries {
        let mut src = Source::replay(e.bytes.clone());
        // A panic of the original is a finding, not a harness error.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::hint::black_box((fixture.run)(&mut src))
        }));
    }
    let replay_seconds = clock.elapsed().as_secs_f64();
    let clock = Instant::now();
    let report = mu2::score::first_kills(scorer, &mut store, jobs).map_err(|e| e.to_string())?;
    let score_seconds = clock.elapsed().as_secs_f64();
    let _ = report.write(&store.root().join("report.json"));
    let (killed_ids, viable) = own_kills(fixture, &report);
    let saved_at = |name: &str| {
        entries
            .iter()
            .find(|e| e.name == name)
            .map_or(0.0, |e| (e.meta.saved_at - started).max(0.0))
    };
    let mut times: Vec<f64> = report
        .mutants
        .iter()
        .filter(|m| killed_ids.contains(&m.id))
        .map(|m| m.killed_by.as_deref().map_or(0.0, saved_at))
        .collect();
    times.sort_by(f64::total_cmp);
    let kills_over_time = times.iter().enumerate().map(|(i, &t)| (t, i + 1)).collect();
    Ok(Run {
        fixture: fixture.name.to_string(),
        variant: String::new(),
        seed: 0,
        killed: killed_ids.len(),
        viable,
        killed_ids,
        coverage: 0,
        corpus: entries.len(),
        execs: 0,
        seconds: 0.0,
        replay_seconds,
        score_seconds,
        kills_over_time,
        plot_kills: Vec::new(),
    })
}

/// The fixture's detected mutants, and how many of its mutants are viable.
pub fn own_kills(fixture: &Fixture, report: &Report) -> (BTreeSet<String>, usize) {
    let mine = report
        .mutants
        .iter()
        .filter(|m| fixture.owns(&m.file, &m.function));
    let mut viable = 0;
    let mut killed = BTreeSet::new();
    for m in mine {
        if m.status != Status::Unviable {
            viable += 1;
        }
        if m.status.detected() {
            killed.insert(m.id.clone());
        }
    }
    (killed, viable)
}

/// `(elapsed, mutants_killed)` rows of a campaign's `plot_data.csv` (empty
/// if it is missing or has no such columns).
pub fn plot_kills(path: &Path) -> Vec<(f64, usize)> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut lines = text.lines();
    let Some(header) = lines.next() else {
        return Vec::new();
    };
    let col = |name: &str| header.split(',').position(|h| h == name);
    let (Some(t), Some(k)) = (col("elapsed"), col("mutants_killed")) else {
        return Vec::new();
    };
    lines
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some((f.get(t)?.parse().ok()?, f.get(k)?.parse().ok()?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mu2::guidance::Count;

    #[test]
    fn variants_read_back() {
        for v in ALL_VARIANTS {
            assert_eq!(Variant::parse(v).unwrap().name(), *v);
        }
        assert_eq!(
            Variant::parse("least-executed:10").unwrap().filter,
            Filter::LeastExecuted(Count::Fixed(10))
        );
        assert!(Variant::parse("bogus").is_none());
    }
}
