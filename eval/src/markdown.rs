//! The report: `summary.md` with a table per fixture, the reliability
//! histogram (RQ3), the oracle comparison (RQ4) and the peer tools; the SVG
//! plots it links; and `runs.json` with every measurement.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::run::Run;
use crate::stats::{mann_whitney, mean, sd};
use crate::{Options, Results, svg};

/// `mean ± sd` of a field over runs.
fn pm(runs: &[&Run], f: impl Fn(&Run) -> f64, digits: usize) -> String {
    let xs: Vec<f64> = runs.iter().map(|r| f(r)).collect();
    format!("{:.*} ± {:.*}", digits, mean(&xs), digits, sd(&xs))
}

fn killed(runs: &[&Run]) -> Vec<f64> {
    runs.iter().map(|r| r.killed as f64).collect()
}

/// In how many of its runs each mutant is detected.
fn kill_counts<'r>(runs: &[&'r Run]) -> BTreeMap<&'r str, usize> {
    let mut counts = BTreeMap::new();
    for r in runs {
        for id in &r.killed_ids {
            *counts.entry(id.as_str()).or_default() += 1;
        }
    }
    counts
}

/// The runs of `fixture`, grouped by variant in the order they ran.
fn by_variant<'r>(runs: &'r [Run], fixture: &str) -> Vec<(String, Vec<&'r Run>)> {
    let mut groups: Vec<(String, Vec<&Run>)> = Vec::new();
    for r in runs.iter().filter(|r| r.fixture == fixture) {
        match groups.iter_mut().find(|g| g.0 == r.variant) {
            Some(g) => g.1.push(r),
            None => groups.push((r.variant.clone(), vec![r])),
        }
    }
    groups
}

fn save(opts: &Options, name: &str, text: &str) -> Result<(), String> {
    std::fs::write(opts.out.join(name), text).map_err(|e| format!("{name}: {e}"))
}

/// Writes the report files into `opts.out`.
pub fn write(results: &Results, opts: &Options) -> Result<(), String> {
    std::fs::create_dir_all(&opts.out).map_err(|e| e.to_string())?;
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# mu2 evaluation ({} profile)\n\n`{}`\n\n{} repetition(s) per variant, {} per campaign, {} worker thread(s).\n",
        results.profile, results.command, results.reps, results.budget, opts.jobs
    );
    let _ = writeln!(
        md,
        "*killed*: the fixture's mutants that the final corpus detects (killed, timed out or crashed) under `mu2::score::first_kills` (the same report as `mu2::score::score`: sound pruning, 10x budget; a mutant stops being run once an input kills it), mean ± sd over repetitions. \
         *p*: two-sided Mann-Whitney U test against `coverage` on killed (normal approximation with tie correction; not exact for small samples).\n"
    );
    for fixture in &opts.fixtures {
        let groups = by_variant(&results.runs, fixture.name);
        let mut libfuzzer: Vec<(String, Vec<&Run>)> = Vec::new();
        if let Some((_, Ok(runs))) = results.libfuzzer.iter().find(|l| l.0 == fixture.name) {
            libfuzzer.push(("libfuzzer".into(), runs.iter().collect()));
        }
        let all: Vec<&(String, Vec<&Run>)> = groups.iter().chain(libfuzzer.iter()).collect();
        let Some(first) = all.first().and_then(|g| g.1.first()) else {
            continue;
        };
        let _ = writeln!(
            md,
            "## {} ({} viable mutants)\n\n| variant | killed | branch coverage | corpus size | corpus replay (ms) | executions | U vs coverage | p |\n| --- | --- | --- | --- | --- | --- | --- | --- |",
            fixture.name, first.viable
        );
        let coverage = groups
            .iter()
            .find(|g| g.0 == "coverage")
            .map(|g| killed(&g.1));
        for (name, runs) in &all {
            let test = match &coverage {
                Some(c) if name != "coverage" => {
                    let t = mann_whitney(&killed(runs), c);
                    (format!("{:.1}", t.u), format!("{:.3}", t.p))
                }
                _ => ("—".into(), "—".into()),
            };
            let cov = if name == "libfuzzer" {
                "—".to_string()
            } else {
                pm(runs, |r| r.coverage as f64, 1)
            };
            let _ = writeln!(
                md,
                "| {name} | {} | {cov} | {} | {} | {} | {} | {} |",
                pm(runs, |r| r.killed as f64, 1),
                pm(runs, |r| r.corpus as f64, 1),
                pm(runs, |r| r.replay_seconds * 1e3, 2),
                pm(runs, |r| r.execs as f64, 0),
                test.0,
                test.1
            );
        }
        let dots: Vec<(String, Vec<f64>)> = all
            .iter()
            .map(|(n, runs)| (n.clone(), killed(runs)))
            .collect();
        let killed_svg = format!("{}-killed.svg", fixture.name);
        save(
            opts,
            &killed_svg,
            &svg::dot_plot(
                &format!("{}: mutants killed per run", fixture.name),
                "mutants killed",
                &dots,
            ),
        )?;
        let curves: Vec<svg::Series> = all
            .iter()
            .map(|(n, runs)| {
                let lines = runs
                    .iter()
                    .map(|r| {
                        r.kills_over_time
                            .iter()
                            .map(|&(t, k)| (t, k as f64))
                            .collect()
                    })
                    .collect();
                (n.clone(), lines)
            })
            .collect();
        let x_max = all
            .iter()
            .flat_map(|g| g.1.iter().map(|r| r.seconds))
            .fold(0.0, f64::max);
        let time_svg = format!("{}-kills-over-time.svg", fixture.name);
        save(
            opts,
            &time_svg,
            &svg::step_plot(
                &format!("{}: mutants killed by inputs saved so far", fixture.name),
                "seconds into the campaign",
                "mutants killed",
                x_max.max(1e-3),
                &curves,
            ),
        )?;
        let _ = writeln!(
            md,
            "\n![mutants killed]({killed_svg}) ![kills over time]({time_svg})\n"
        );
        reliability(&mut md, opts, fixture.name, &groups, results.reps)?;
    }
    oracles(&mut md, results);
    peers(&mut md, results);
    save(opts, "summary.md", &md)?;
    let json = serde_json::to_string_pretty(results).map_err(|e| e.to_string())?;
    save(opts, "runs.json", &json)
}

/// RQ3: for each nontrivial mutant (detected by some but not all runs of
/// some variant), in how many runs mutation and coverage guidance detect it.
fn reliability(
    md: &mut String,
    opts: &Options,
    fixture: &str,
    groups: &[(String, Vec<&Run>)],
    reps: u64,
) -> Result<(), String> {
    let mut nontrivial: BTreeSet<&str> = BTreeSet::new();
    for (_, runs) in groups {
        for (id, n) in kill_counts(runs) {
            if n < runs.len() {
                nontrivial.insert(id);
            }
        }
    }
    let compared: Vec<&(String, Vec<&Run>)> = groups
        .iter()
        .filter(|g| g.0 == "mutation" || g.0 == "coverage")
        .collect();
    let _ = writeln!(
        md,
        "### {fixture}: reliability (RQ3)\n\n{} nontrivial mutant(s) (detected by some but not all runs of some variant). How many of them each guidance detects in k of its {reps} runs:\n",
        nontrivial.len()
    );
    if compared.is_empty() || nontrivial.is_empty() {
        md.push_str("(nothing to compare)\n\n");
        return Ok(());
    }
    let categories: Vec<String> = (0..=reps).map(|k| k.to_string()).collect();
    let mut series = Vec::new();
    let _ = writeln!(
        md,
        "| k runs | {} |\n| --- | {} |",
        compared
            .iter()
            .map(|g| g.0.as_str())
            .collect::<Vec<_>>()
            .join(" | "),
        compared
            .iter()
            .map(|_| "---")
            .collect::<Vec<_>>()
            .join(" | ")
    );
    for (name, runs) in &compared {
        let counts = kill_counts(runs);
        let mut hist = vec![0.0; reps as usize + 1];
        for id in &nontrivial {
            let k = counts.get(id).copied().unwrap_or(0).min(reps as usize);
            hist[k] += 1.0;
        }
        series.push((name.clone(), hist));
    }
    for k in 0..=reps as usize {
        let row: Vec<String> = series.iter().map(|s| format!("{}", s.1[k])).collect();
        let _ = writeln!(md, "| {k} | {} |", row.join(" | "));
    }
    let name = format!("{fixture}-reliability.svg");
    save(
        opts,
        &name,
        &svg::bar_chart(
            &format!("{fixture}: nontrivial mutants by runs that detect them"),
            "detected in k runs",
            "mutants",
            &categories,
            &series,
        ),
    )?;
    let _ = writeln!(md, "\n![reliability]({name})\n");
    Ok(())
}

/// RQ4: the same property-target campaigns under both scorers.
fn oracles(md: &mut String, results: &Results) {
    if results.oracles.is_empty() {
        return;
    }
    md.push_str("## Differential vs implicit oracle (RQ4)\n\nMutation-guided campaigns on a *property* target (outputs ignored: only panics and timeouts fail), each final corpus scored twice. The `mutation` rows of the tables above are the differential target's own campaigns.\n\n| fixture | differential campaign, differential scorer | property campaign, differential scorer | property campaign, property scorer |\n| --- | --- | --- | --- |\n");
    for o in &results.oracles {
        let own: Vec<&Run> = results
            .runs
            .iter()
            .filter(|r| r.fixture == o.fixture && r.variant == "mutation")
            .collect();
        let own = if own.is_empty() {
            "—".to_string()
        } else {
            pm(&own, |r| r.killed as f64, 1)
        };
        let d: Vec<&Run> = o.differential.iter().collect();
        let p: Vec<&Run> = o.property.iter().collect();
        let _ = writeln!(
            md,
            "| {} | {own} | {} | {} |",
            o.fixture,
            pm(&d, |r| r.killed as f64, 1),
            pm(&p, |r| r.killed as f64, 1)
        );
    }
    md.push('\n');
}

/// cargo-mutants and libFuzzer next to mu2's own corpora.
fn peers(md: &mut String, results: &Results) {
    if results.mutants.is_empty() && results.libfuzzer.is_empty() {
        md.push_str("## Peer tools\n\nNot run (pass `--peers`, or use `--profile full`).\n");
        return;
    }
    md.push_str("## Peer tools\n\ncargo-mutants runs the fixture's own unit tests against its mutants (a plain copy: `#[mu2::mutate]` lines stripped, tests that use mu2 left out); its mutants and operators differ from mu2's, so compare the scores loosely. mu2's row: the `mutation` variant's corpora, scored by the same scorer as the tables above.\n\n| fixture | tool | mutants | caught | missed | unviable | timeout | score | wall time (s) |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (fixture, m) in &results.mutants {
        match m {
            Ok(m) => {
                let viable = (m.caught + m.missed + m.timeout).max(1);
                let _ = writeln!(
                    md,
                    "| {fixture} | cargo-mutants (unit tests) | {} | {} | {} | {} | {} | {:.1}% | {:.1} |",
                    m.total,
                    m.caught,
                    m.missed,
                    m.unviable,
                    m.timeout,
                    100.0 * (m.caught + m.timeout) as f64 / viable as f64,
                    m.seconds
                );
            }
            Err(e) => {
                let _ = writeln!(
                    md,
                    "| {fixture} | cargo-mutants | not run: {} | | | | | | |",
                    e.lines().next().unwrap_or("")
                );
            }
        }
        let own: Vec<&Run> = results
            .runs
            .iter()
            .filter(|r| &r.fixture == fixture && r.variant == "mutation")
            .collect();
        if let Some(first) = own.first() {
            let k = mean(&killed(&own));
            let _ = writeln!(
                md,
                "| {fixture} | mu2 corpus (mutation), scoring | {} | {k:.1} | {:.1} | | | {:.1}% | {} (scoring) |",
                first.viable,
                first.viable as f64 - k,
                100.0 * k / first.viable.max(1) as f64,
                pm(&own, |r| r.score_seconds, 2)
            );
        }
    }
    for (fixture, f) in &results.libfuzzer {
        match f {
            Ok(_) => {
                let _ = writeln!(
                    md,
                    "\nlibFuzzer on {fixture}: see the `libfuzzer` row of its table (cargo-fuzz, `--sanitizer none`, same wall-clock budget; corpus scored by mu2's scorer)."
                );
            }
            Err(e) => {
                let _ = writeln!(md, "\nlibFuzzer on {fixture}: not run: {e}");
            }
        }
    }
    md.push('\n');
}
