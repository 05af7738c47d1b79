//! Runs one workload in one mode in a loop, for a profiler:
//!
//! ```sh
//! cargo build --release -p mu2-bench --example profile
//! valgrind --tool=callgrind target/release/examples/profile insertion_sort probes 2000
//! ```
//!
//! Modes: `plain`, `off`, `probes`, `mutant` (a mutant of another function
//! active, so the code does the original's work with the switch on).

use std::hint::black_box;

use mu2::Budget;
use mu2::probe::{self, Trace};
use mu2_bench::fixtures::sort::{annotated, plain};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let workload = args.get(1).map_or("insertion_sort", |s| s.as_str());
    let mode = args.get(2).map_or("probes", |s| s.as_str());
    let n: usize = args.get(3).map_or(1000, |s| s.parse().unwrap());
    let v: Vec<i32> = (0..50).map(|i| (i * 7919 % 101) - 50).collect();
    let mut sorted = v.clone();
    sorted.sort();
    let run: fn(&[i32], bool) -> usize = match workload {
        "insertion_sort" => |v, a| {
            let f = if a {
                annotated::insertion_sort
            } else {
                plain::insertion_sort
            };
            f(black_box(v.to_vec())).len()
        },
        "merge_sort" => |v, a| {
            let f = if a {
                annotated::merge_sort
            } else {
                plain::merge_sort
            };
            f(black_box(v)).len()
        },
        "binary_search" => |v, a| {
            let f = if a {
                annotated::binary_search
            } else {
                plain::binary_search
            };
            (-60..60).filter_map(|x| f(black_box(v), x)).count()
        },
        other => panic!("unknown workload {other}"),
    };
    let input: &[i32] = if workload == "binary_search" {
        &sorted
    } else {
        &v
    };
    // A mutant of another sort function: switched on, but none of its sites runs.
    let other = mu2::mutants()
        .iter()
        .find(|m| {
            m.module.ends_with("::sort::annotated")
                && !m.function.contains(workload.split('_').next().unwrap())
        })
        .unwrap()
        .id;
    let mut trace = Trace::default();
    let mut total = 0;
    for _ in 0..n {
        total += match mode {
            "plain" => run(input, false),
            "off" => run(input, true),
            "probes" => probe::record_into(&mut trace, Budget::default(), || run(input, true))
                .returned()
                .unwrap(),
            "mutant" => mu2::run_mutant(Some(other), Budget::default(), || run(input, true))
                .returned()
                .unwrap(),
            other => panic!("unknown mode {other}"),
        };
    }
    println!("{total}");
}
