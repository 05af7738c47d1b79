//! Run-time overhead of a meta-mutant against the same code without
//! `#[mu2::mutate]`, measured side by side in one process.
//!
//! `build.rs` compiles each fixture twice into this crate (`plain` and
//! `annotated`). For each workload every variant below is timed on the same
//! inputs, interleaved: each round times every variant once (in a rotated
//! order), and the figure reported is the median over rounds. Ratios are
//! against `plain` from the same run.
//!
//! - `plain`: the code without the attribute.
//! - (a) `off`: the annotated code called directly: no mutant, probes off.
//! - (b) `probes`: `probe::record_into(&mut trace, Budget::default(), ..)` on
//!   the annotated code, with one reused `Trace`: the original run with every
//!   probe on (execution, infection, coverage, step budget).
//! - (c) `mutant`: `run_mutant(Some(id), Budget::default(), ..)` on the
//!   annotated code, for every mutant of the workload whose site runs on the
//!   inputs and which returns the original's result on all of them (so it does
//!   the same work as the original); the median over those mutants is
//!   reported, with the range, and the median over every mutant that merely
//!   returns normally.
//! - `probe shell` / `mutant shell`: the same two calls wrapping the *plain*
//!   code: the fixed cost per run of the wrapper alone (switch set-up,
//!   `catch_unwind`, trace reset, the budget's clock read), for reading (b)
//!   and (c).
//!
//! Run with `cargo bench -p mu2-bench` (`-- --quick` for fewer rounds).

use std::hint::black_box;
use std::time::Instant;

use mu2::probe::{self, Probes, Trace};
use mu2::{Budget, Mutant, Outcome};
use mu2_bench::fixtures::json;
use mu2_bench::fixtures::sort::{annotated, plain};

/// Goals, as ratios to `plain`.
const GOAL_OFF: f64 = 1.3;
const GOAL_PROBES: f64 = 3.0;
const GOAL_MUTANT: f64 = 1.3;

/// A deterministic generator (splitmix64), so every run times the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

/// One function under test, on one sample's worth of inputs.
struct Workload<I, O, P = O> {
    name: &'static str,
    /// The annotated module (a suffix of the mutants' module path) and the
    /// functions in it whose mutants apply (all of them when empty).
    module: &'static str,
    functions: &'static [&'static str],
    inputs: Vec<I>,
    plain: fn(I) -> P,
    annotated: fn(I) -> O,
}

impl<I, O, P> Workload<I, O, P> {
    fn owns(&self, m: &Mutant) -> bool {
        m.module.contains(self.module)
            && (self.functions.is_empty() || self.functions.contains(&m.function))
    }
}

/// Times `run` over `inputs`: the inputs are made beforehand and the outputs
/// dropped afterwards, so only the calls are timed. Nanoseconds per call.
#[inline(never)]
fn sample<I, O>(inputs: Vec<I>, mut run: impl FnMut(I) -> O) -> f64 {
    let n = inputs.len();
    let mut outs = Vec::with_capacity(n);
    let start = Instant::now();
    for x in inputs {
        outs.push(black_box(run(black_box(x))));
    }
    let elapsed = start.elapsed();
    drop(black_box(outs));
    elapsed.as_nanos() as f64 / n as f64
}

fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

struct Row {
    name: &'static str,
    plain: f64,
    off: f64,
    fast: f64,
    probes: f64,
    coverage: f64,
    probe_shell: f64,
    mutant_shell: f64,
    /// With a mutant of another function active.
    elsewhere: f64,
    /// Each mutant returning the original's result, described, and its time.
    same: Vec<(String, f64)>,
    /// Each other mutant that returns normally.
    other: Vec<f64>,
    mutants: usize,
    executed: usize,
    /// Ratios (a), (b), (c) from the fastest round of each variant instead
    /// of the median: other load on the machine only ever adds time.
    by_min: [f64; 3],
}

/// The mutants of `w` worth timing in mode (c): those whose site runs on the
/// inputs and that return normally on all of them. The first list returns
/// the original's result on every input; the second does not.
fn pick_mutants<I: Clone, O: PartialEq, P>(
    w: &Workload<I, O, P>,
) -> (Vec<&'static Mutant>, Vec<&'static Mutant>, usize, usize) {
    let all: Vec<&'static Mutant> = mu2::mutants().iter().filter(|m| w.owns(m)).collect();
    let mut trace = Trace::default();
    let mut executed = vec![false; mu2::mutants().len()];
    let mut expected = Vec::new();
    for x in &w.inputs {
        let out = probe::record_into(&mut trace, Budget::default(), || (w.annotated)(x.clone()));
        expected.push(out.returned().expect("the original returns"));
        for i in trace.executed().iter() {
            executed[i] = true;
        }
    }
    let budget = Budget::default().steps(1_000_000);
    let (mut same, mut other) = (Vec::new(), Vec::new());
    let mut ran = 0;
    for m in all.iter().copied() {
        if !executed[m.index] {
            continue;
        }
        ran += 1;
        let mut all_same = true;
        let mut all_returned = true;
        for (x, want) in w.inputs.iter().zip(&expected) {
            match mu2::run_mutant(Some(m.id), budget, || (w.annotated)(x.clone())) {
                Outcome::Returned(got) => all_same &= got == *want,
                _ => {
                    all_returned = false;
                    break;
                }
            }
        }
        if all_returned && all_same {
            same.push(m);
        } else if all_returned {
            other.push(m);
        }
    }
    (same, other, all.len(), ran)
}

fn bench<I: Clone, O: PartialEq, P>(w: &Workload<I, O, P>, rounds: usize) -> Row {
    let (same, other, mutants, executed) = pick_mutants(w);
    let budget = Budget::default();
    let mut trace = Trace::default();
    let (pf, af) = (w.plain, w.annotated);
    // A mutant of some other function: active, but none of its sites runs
    // here. One of the same module when there is one.
    let elsewhere = mu2::mutants()
        .iter()
        .filter(|m| !w.owns(m))
        .max_by_key(|m| m.module.contains(w.module))
        .expect("another annotated function")
        .id;

    // The variants, timed in turn in every round; then the workload's mutants.
    const FIXED: usize = 8;
    let timed: Vec<&Mutant> = same.iter().chain(&other).copied().collect();
    let nv = FIXED + timed.len();
    let mut times = vec![Vec::with_capacity(rounds); nv];
    for round in 0..rounds + 1 {
        for k in 0..nv {
            // Rotate the order, so that no variant always runs first or last.
            let v = (k + round) % nv;
            let inputs = w.inputs.clone();
            let t = match v {
                0 => sample(inputs, pf),
                1 => sample(inputs, af),
                // What `#[mu2::mutate]` would give with a test at function
                // entry and an uninstrumented copy of the body.
                2 => sample(inputs, |x| {
                    if mu2::__rt::idle() {
                        black_box(pf(x));
                    } else {
                        black_box(af(x));
                    }
                }),
                3 => sample(inputs, |x| probe::record_into(&mut trace, budget, || af(x))),
                4 => sample(inputs, |x| {
                    probe::record_with(&mut trace, Probes::Coverage, budget, || af(x))
                }),
                5 => sample(inputs, |x| probe::record_into(&mut trace, budget, || pf(x))),
                6 => sample(inputs, |x| {
                    mu2::run_mutant(Some(elsewhere), budget, || pf(x))
                }),
                7 => sample(inputs, |x| {
                    mu2::run_mutant(Some(elsewhere), budget, || af(x))
                }),
                _ => {
                    let id = timed[v - FIXED].id;
                    sample(inputs, |x| mu2::run_mutant(Some(id), budget, || af(x)))
                }
            };
            // Round 0 warms caches and the registry; it is not counted.
            if round > 0 {
                times[v].push(t);
            }
        }
    }
    let min: Vec<f64> = times
        .iter()
        .map(|t| t.iter().copied().fold(f64::INFINITY, f64::min))
        .collect();
    let mut same_min: Vec<f64> = min[FIXED..FIXED + same.len()].to_vec();
    let c_min = if same_min.is_empty() {
        min[7]
    } else {
        min[7].max(median(&mut same_min))
    };
    let by_min = [min[1] / min[0], min[3] / min[0], c_min / min[0]];
    let mut med: Vec<f64> = times.iter_mut().map(|t| median(t)).collect();
    let rest = med.split_off(FIXED);
    let (s, o) = rest.split_at(same.len());
    Row {
        name: w.name,
        plain: med[0],
        off: med[1],
        fast: med[2],
        probes: med[3],
        coverage: med[4],
        probe_shell: med[5],
        mutant_shell: med[6],
        elsewhere: med[7],
        same: same
            .iter()
            .zip(s)
            .map(|(m, &t)| {
                (
                    format!(
                        "{} line {}: `{}` -> `{}`",
                        m.function, m.line, m.original, m.replacement
                    ),
                    t,
                )
            })
            .collect(),
        other: o.to_vec(),
        mutants,
        executed,
        by_min,
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `-- --quick` runs fewer rounds.
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 7 } else { 31 };
    let started = Instant::now();

    let mut rng = Rng(0x5eed);
    let vectors: Vec<Vec<i32>> = (0..64)
        .map(|_| {
            let n = rng.range(10, 100) as usize;
            (0..n).map(|_| rng.range(-1000, 1000) as i32).collect()
        })
        .collect();
    let sorted: Vec<Vec<i32>> = vectors
        .iter()
        .map(|v| {
            let mut s = v.clone();
            s.sort();
            s
        })
        .collect();
    let mut queries: Vec<(&[i32], i32)> = Vec::new();
    for s in &sorted {
        for q in 0..16 {
            // Half present, half (most likely) absent.
            let x = if q % 2 == 0 {
                s[rng.range(0, s.len() as i64 - 1) as usize]
            } else {
                rng.range(-1100, 1100) as i32
            };
            queries.push((s.as_slice(), x));
        }
    }

    // JSON texts from the fixture's own grammar-directed generator, on
    // fixed random bytes.
    let texts: Vec<String> = (0..64)
        .map(|_| {
            let bytes = (0..4096).map(|_| rng.next() as u8).collect();
            json::plain::generate::json_text(&mut mu2::Source::replay(bytes))
        })
        .collect();

    let rows = vec![
        bench(
            &Workload {
                name: "insertion_sort",
                module: "::sort::annotated",
                functions: &["insertion_sort"],
                inputs: vectors.clone(),
                plain: plain::insertion_sort,
                annotated: annotated::insertion_sort,
            },
            rounds,
        ),
        bench(
            &Workload {
                name: "merge_sort",
                module: "::sort::annotated",
                functions: &["merge_sort", "merge"],
                inputs: vectors.iter().map(|v| v.as_slice()).collect(),
                plain: plain::merge_sort,
                annotated: annotated::merge_sort,
            },
            rounds,
        ),
        bench(
            &Workload {
                name: "binary_search",
                module: "::sort::annotated",
                functions: &["binary_search"],
                inputs: queries,
                plain: |(a, x)| plain::binary_search(a, x),
                annotated: |(a, x)| annotated::binary_search(a, x),
            },
            rounds,
        ),
        bench(
            &Workload {
                name: "json_parse",
                module: "::json::annotated",
                functions: &[],
                inputs: texts.iter().map(|t| t.as_str()).collect(),
                plain: json::plain::parse,
                annotated: json::annotated::parse,
            },
            rounds,
        ),
    ];

    report(&rows, rounds, &vectors);
    println!(
        "\n(took {:.1} s; load average {})",
        started.elapsed().as_secs_f64(),
        std::fs::read_to_string("/proc/loadavg").map_or("unknown".into(), |l| {
            l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
        })
    );
}

fn report(rows: &[Row], rounds: usize, vectors: &[Vec<i32>]) {
    let len: usize = vectors.iter().map(|v| v.len()).sum::<usize>() / vectors.len();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!(
        "mu2 meta-mutant overhead: median ns per call over {rounds} interleaved rounds; \
         {} vectors of 10..=100 elements (mean {len}), binary_search: 16 queries per vector; {cores} cores",
        vectors.len()
    );
    println!();
    println!(
        "| workload | plain | (a) no mutant, probes off | (b) original, all probes | (c) mutant run: same-result mutants (median) | (c) mutant run: mutant elsewhere |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    let mut worst = [0f64; 3];
    let mut worst_min = [0f64; 3];
    for r in rows {
        for (w, m) in worst_min.iter_mut().zip(r.by_min) {
            *w = w.max(m);
        }
        let x = |t: f64| format!("{t:.0} ns = {:.2}x", t / r.plain);
        let mut same: Vec<f64> = r.same.iter().map(|(_, t)| *t).collect();
        let c = (!same.is_empty()).then(|| median(&mut same));
        println!(
            "| {} | {:.0} ns | {} | {} | {} | {} |",
            r.name,
            r.plain,
            x(r.off),
            x(r.probes),
            c.map_or("-".into(), |c| format!("{} (of {})", x(c), r.same.len())),
            x(r.elsewhere),
        );
        worst[0] = worst[0].max(r.off / r.plain);
        worst[1] = worst[1].max(r.probes / r.plain);
        worst[2] = worst[2].max(r.elsewhere / r.plain);
        if let Some(c) = c {
            worst[2] = worst[2].max(c / r.plain);
        }
    }
    println!();
    println!(
        "| workload | (a) with a test at entry (prototype) | coverage probes only | fixed cost per run: record_into / run_mutant | (b) less fixed cost | (c) elsewhere, less fixed cost | other mutants returning normally (median) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let inner = |t: f64, shell: f64| (t - (shell - r.plain)) / r.plain;
        let mut other = r.other.clone();
        let o = (!other.is_empty()).then(|| median(&mut other));
        println!(
            "| {} | {:.2}x | {:.2}x | {:.0} ns / {:.0} ns | {:.2}x | {:.2}x | {} |",
            r.name,
            r.fast / r.plain,
            r.coverage / r.plain,
            r.probe_shell - r.plain,
            r.mutant_shell - r.plain,
            inner(r.probes, r.probe_shell),
            inner(r.elsewhere, r.mutant_shell),
            o.map_or("-".into(), |o| format!(
                "{:.2}x (of {})",
                o / r.plain,
                r.other.len()
            )),
        );
    }
    println!();
    for r in rows {
        println!(
            "{}: {} mutants, {} with their site run on these inputs, {} return the original's result on all of them, {} others return normally",
            r.name,
            r.mutants,
            r.executed,
            r.same.len(),
            r.other.len()
        );
        for (name, t) in &r.same {
            println!("  {:.2}x  {name}", t / r.plain);
        }
    }
    println!();
    let verdict = |name: &str, k: usize, goal: f64| {
        let (med, min) = (worst[k], worst_min[k]);
        println!(
            "goal {name}: worst {med:.2}x by medians, {min:.2}x by fastest rounds (goal <= {goal}x): {}",
            if med <= goal && min <= goal {
                "MET"
            } else if min <= goal {
                "MET by fastest rounds only"
            } else {
                "MISSED"
            }
        )
    };
    verdict("(a) no mutant, probes off", 0, GOAL_OFF);
    verdict("(b) original, every probe on", 1, GOAL_PROBES);
    verdict("(c) a mutant run", 2, GOAL_MUTANT);
}
