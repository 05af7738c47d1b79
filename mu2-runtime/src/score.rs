//! Scoring a corpus (`MU2=score`): every saved input against every mutant.
//!
//! Only sound pruning is used (a mutant is run on an input only if the input
//! executes and infects it, which cannot lose a kill), never a filter, and
//! every run gets ten times the campaign's budget, as the paper does, so a
//! slow mutant is not mistaken for a looping one. Each input's metadata is
//! updated with the mutants it kills, and `<driver>/report.json` is written.

use crate::bits::Bits;
use crate::config::Config;
use crate::corpus::{Store, StoreError};
use crate::engine::Target;
use crate::input::{MAX_INPUT, Source};
use crate::oracle::{Observed, Verdict, decide};
use crate::pool::Pool;
use crate::probe::{self, Trace};
use crate::report::{MutantReport, Report, Status};
use crate::switch::Budget;

/// The campaign's wall-clock limit per mutant run, which scoring scales by ten.
const CAMPAIGN_WALL: std::time::Duration = std::time::Duration::from_secs(1);

/// Scores `store`'s corpus for `target` with `jobs` workers, and records in
/// each saved input's metadata every mutant it kills.
///
/// ```no_run
/// # fn demo(target: mu2_runtime::engine::Target<u32>) -> Result<(), mu2_runtime::corpus::StoreError> {
/// let mut store = mu2_runtime::corpus::Store::open("target/mu2".as_ref(), &target.name)?;
/// let report = mu2_runtime::score::score(&target, &mut store, 2)?;
/// println!("{:.1}%", report.summary.score());
/// # Ok(()) }
/// ```
pub fn score<O: Send>(
    target: &Target<O>,
    store: &mut Store,
    jobs: usize,
) -> Result<Report, StoreError> {
    crate::switch::on_run_stack(move || score_here(target, store, jobs, Matrix::EveryInput))
}

/// The same report as [`score`], computed faster: once a mutant is killed,
/// later inputs do not run it. Each input's metadata is left as it was,
/// since which later inputs would also kill a mutant is not computed. For
/// experiments that need only the score and each mutant's first killer.
///
/// ```no_run
/// # fn demo(target: mu2_runtime::engine::Target<u32>) -> Result<(), mu2_runtime::corpus::StoreError> {
/// let mut store = mu2_runtime::corpus::Store::open("target/mu2".as_ref(), &target.name)?;
/// let report = mu2_runtime::score::first_kills(&target, &mut store, 2)?;
/// # Ok(()) }
/// ```
pub fn first_kills<O: Send>(
    target: &Target<O>,
    store: &mut Store,
    jobs: usize,
) -> Result<Report, StoreError> {
    crate::switch::on_run_stack(move || score_here(target, store, jobs, Matrix::FirstKills))
}

/// How much of the input-by-mutant kill matrix scoring computes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Matrix {
    /// Every infected mutant on every input: each input's kills are known.
    EveryInput,
    /// A mutant until its first kill: the report, and nothing more.
    FirstKills,
}

fn score_here<O: Send>(
    target: &Target<O>,
    store: &mut Store,
    jobs: usize,
    matrix: Matrix,
) -> Result<Report, StoreError> {
    let (entries, warnings) = store.load()?;
    for w in &warnings {
        crate::status::say(&w.to_string());
    }
    let mutants = crate::schema::mutants();
    let n = mutants.len();
    let budget = Budget::default().on_run_stack().wall(CAMPAIGN_WALL);
    let mut executed = Bits::new(n);
    let mut unviable = Bits::new(n);
    let mut timed_out: Vec<Option<String>> = vec![None; n];
    let mut killed: Vec<Option<String>> = vec![None; n];
    let mut trace = Trace::default();
    let mut crashed = Bits::new(n);
    for m in crate::supervise::crashed_indices(store.root()) {
        crashed.insert(m);
    }
    // Mutants still worth running: not unviable, crashed or timed out (a
    // timeout costs the whole budget, and it is detected already), nor,
    // for first kills only, killed. Once seen, the others are `known` to
    // the probes, which then skip their infection checks.
    let mut pending = Bits::new(n);
    (0..n)
        .filter(|&m| !crashed.contains(m))
        .for_each(|m| pending.insert(m));
    let mut known = Bits::new(n);
    let mut progress = crate::status::Progress::new("scoring", entries.len());
    std::thread::scope(|scope| {
        let pool = Pool::new(scope, target.run, jobs);
        for mut entry in entries {
            let mut src = Source::new(entry.bytes.clone(), None, MAX_INPUT);
            let run = target.run;
            known.set_difference(&executed, &pending);
            let outcome =
                probe::record_known(&mut trace, &known, budget.scaled(10), || run(&mut src));
            let observed = Observed::of(outcome);
            executed.union_with(trace.executed());
            for m in trace.unviable().iter() {
                unviable.insert(m);
                pending.remove(m);
            }
            let chosen: Vec<usize> = trace
                .executed()
                .iter()
                .filter(|&m| trace.infected().contains(m) && pending.contains(m))
                .collect();
            let mutant_budget = budget.for_mutant(trace.steps()).scaled(10);
            crate::supervise::judging(&entry.bytes);
            let mut kills = Vec::new();
            for (m, outcome) in pool.run(&entry.bytes, &chosen, mutant_budget) {
                match decide(&observed, outcome, target.compare) {
                    Verdict::Unviable => {
                        unviable.insert(m);
                        pending.remove(m);
                    }
                    Verdict::Killed => {
                        killed[m].get_or_insert_with(|| entry.name.clone());
                        kills.push(mutants[m].id.to_string());
                        if matrix == Matrix::FirstKills {
                            pending.remove(m);
                        }
                    }
                    Verdict::TimedOut => {
                        timed_out[m].get_or_insert_with(|| entry.name.clone());
                        kills.push(mutants[m].id.to_string());
                        pending.remove(m);
                    }
                    Verdict::Survived => {}
                }
            }
            kills.sort();
            if matrix == Matrix::EveryInput && entry.meta.kills != kills {
                entry.meta.kills = kills;
                store.update(&entry.name, &entry.meta)?;
            }
            progress.step();
        }
        Ok::<(), StoreError>(())
    })?;
    progress.finish();
    let reports = mutants
        .iter()
        .filter(|m| m.compiled)
        .map(|m| {
            let i = m.index;
            let (status, by) = if unviable.contains(i) {
                (Status::Unviable, None)
            } else if crashed.contains(i) {
                (Status::Crashed, None)
            } else if let Some(by) = &killed[i] {
                (Status::Killed, Some(by.clone()))
            } else if let Some(by) = &timed_out[i] {
                (Status::TimedOut, Some(by.clone()))
            } else if !executed.contains(i) {
                (Status::NoCoverage, None)
            } else {
                (Status::Survived, None)
            };
            MutantReport {
                id: m.id.to_string(),
                file: m.file.to_string(),
                line: m.line,
                column: m.column,
                function: m.function.to_string(),
                operator: m.operator.name().to_string(),
                original: m.original.to_string(),
                replacement: m.replacement.to_string(),
                status,
                killed_by: by,
            }
        })
        .collect();
    Ok(Report::new(&target.name, reports))
}

/// `MU2=score` for one driver: scores, writes the report, prints a summary.
pub(crate) fn score_driver<O: Send>(target: Target<O>, mut store: Store, config: &Config) {
    let name = target.name.clone();
    let report = match score(&target, &mut store, config.jobs) {
        Ok(r) => r,
        Err(e) => panic!("mu2: driver `{name}`: {e}"),
    };
    let path = store.root().join("report.json");
    if let Err(e) = report.write(&path) {
        panic!(
            "mu2: driver `{name}`: could not write {}: {e}",
            path.display()
        );
    }
    let s = &report.summary;
    let mut text = format!(
        "mu2: `{name}`: {} mutants: {} killed, {} survived, {} no coverage, {} timed out, {} unviable, {} crashed; mutation score {:.1}%\nmu2: report: {}",
        s.total,
        s.killed,
        s.survived,
        s.no_coverage,
        s.timed_out,
        s.unviable,
        s.crashed,
        s.score(),
        path.display()
    );
    let survived: Vec<_> = report
        .mutants
        .iter()
        .filter(|m| m.status == Status::Survived)
        .collect();
    if !survived.is_empty() {
        text.push_str("\nmu2: survived (no saved input tells these apart from the original):");
        for m in survived.iter().take(20) {
            text.push_str(&format!(
                "\n  {}:{}:{} in {}: {} `{}` -> `{}`",
                m.file, m.line, m.column, m.function, m.operator, m.original, m.replacement
            ));
        }
        if survived.len() > 20 {
            text.push_str(&format!(
                "\n  ... and {} more in the report",
                survived.len() - 20
            ));
        }
    }
    crate::status::say(&text);
}
