//! What pruning buys: the same mutation-guided campaign (same seed, same
//! number of trials) under `MU2_OPT=none`, `execution`, `infection`, and
//! with the `least-executed:10` filter, side by side in one run.
//!
//! ```sh
//! cargo run --release -p mu2-bench --bin pruning [-- TRIALS]
//! ```
//!
//! For each setting it prints the mutants run per input, inputs per second,
//! and mutants killed, with ratios against `none` (the paper's Table 1 saw
//! 3.6x to 77x fewer mutant runs from sound pruning).

use mu2::config::Guidance;
use mu2::corpus::Store;
use mu2::engine::{Campaign, Limits, Settings, Summary, Target};
use mu2::guidance::{Count, Filter, Opt};
use mu2::{Invalid, Source};
use mu2_bench::fixtures::sort::annotated as sort;

/// Every function of the sort fixture on one generated vector.
fn sort_all(src: &mut Source) -> Result<(Vec<i32>, Vec<i32>, Option<usize>), Invalid> {
    let v: Vec<i32> = src.arbitrary()?;
    let sorted = sort::insertion_sort(v.clone());
    let needle = v.first().copied().unwrap_or(0);
    Ok((
        sorted.clone(),
        sort::merge_sort(&v),
        sort::binary_search(&sorted, needle),
    ))
}

fn run(opt: Opt, filter: Filter, trials: u64) -> Summary {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../target/mu2-pruning/{}", opt.name()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::open(&dir, &format!("sort_all_{}", filter).replace(':', "_"))
        .expect("a corpus folder");
    let target = Target {
        name: "sort_all".into(),
        run: sort_all,
        snapshot: None,
        compare: |a, b| a == b,
    };
    let settings = Settings {
        guidance: Guidance::Mutation,
        limits: Limits {
            time: None,
            trials: Some(trials),
        },
        seed: 7,
        opt,
        filter,
        jobs: 1,
    };
    Campaign::new(target, store, settings)
        .run()
        .expect("the campaign runs")
}

fn main() {
    let trials: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let settings = [
        ("none", Opt::None, Filter::All),
        ("execution", Opt::Execution, Filter::All),
        ("infection", Opt::Infection, Filter::All),
        (
            "infection + least-executed:10",
            Opt::Infection,
            Filter::LeastExecuted(Count::Fixed(10)),
        ),
    ];
    let results: Vec<(&str, Summary)> = settings
        .iter()
        .map(|&(name, opt, filter)| (name, run(opt, filter, trials)))
        .collect();
    let base = &results[0].1;
    let per_input = |s: &Summary| s.mutant_runs as f64 / trials as f64;
    let rate = |s: &Summary| trials as f64 / s.elapsed.as_secs_f64();
    println!(
        "\nsort fixture (insertion sort, merge sort, binary search), {trials} trials, 1 job, seed 7\n"
    );
    println!(
        "{:<32} {:>14} {:>10} {:>12} {:>10} {:>8}",
        "setting", "mutants/input", "vs none", "inputs/s", "vs none", "killed"
    );
    for (name, s) in &results {
        println!(
            "{:<32} {:>14.2} {:>9.1}x {:>12.0} {:>9.1}x {:>8}",
            name,
            per_input(s),
            per_input(base) / per_input(s).max(1e-9),
            rate(s),
            rate(s) / rate(base),
            s.killed
        );
    }
}
