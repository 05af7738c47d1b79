//! Runs one workload in one mode in a loop, for a profiler:
//!
//! ```sh
//! cargo build --release -p mu2-bench --example profile
//! valgrind --tool=callgrind target/release/examples/profile insertion_sort probes 2000
//! ```
//!
//! Workloads: `insertion_sort`, `merge_sort`, `binary_search`, `json_parse`.
//! Modes: `plain`, `off`, `probes`, `mutant` (a mutant of another function
//! active, so the code does the original's work with the switch on), `here`
//! (a mutant of the workload's own code that gives the same result).

use std::hint::black_box;

use mu2::Budget;
use mu2::probe::{self, Trace};
use mu2_bench::fixtures::json;
use mu2_bench::fixtures::sort::{annotated, plain};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let workload = args.get(1).map_or("insertion_sort", |s| s.as_str());
    let mode = args.get(2).map_or("probes", |s| s.as_str());
    let n: usize = args.get(3).map_or(1000, |s| s.parse().unwrap());
    let v: Vec<i32> = (0..50).map(|i| (i * 7919 % 101) - 50).collect();
    let mut sorted = v.clone();
    sorted.sort();
    if workload == "json_parse" {
        return json_parse(mode, n);
    }
    let run: fn(&[i32], bool) -> usize = match workload {
        "insertion_sort" => |v, a| {
            let f = if a {
                annotated::insertion_sort
            } else {
                plain::insertion_sort
            };
            checksum(&f(black_box(v.to_vec())))
        },
        "merge_sort" => |v, a| {
            let f = if a {
                annotated::merge_sort
            } else {
                plain::merge_sort
            };
            checksum(&f(black_box(v)))
        },
        "binary_search" => |v, a| {
            let f = if a {
                annotated::binary_search
            } else {
                plain::binary_search
            };
            (-60..60).filter_map(|x| f(black_box(v), x)).sum()
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
    let own = |m: &mu2::Mutant| m.function.contains(workload.split('_').next().unwrap());
    repeat(
        mode,
        n,
        other,
        own,
        || run(input, true),
        || run(input, false),
    );
}

/// The first mutant for which `own` holds whose site `annotated` runs and
/// whose run gives the original's result.
fn same_result_mutant(
    own: impl Fn(&mu2::Mutant) -> bool,
    annotated: impl Fn() -> usize,
) -> mu2::MutantId {
    let want = annotated();
    let (_, ran) = probe::record(Budget::default(), &annotated);
    let m = mu2::mutants()
        .iter()
        .filter(|m| own(m) && ran.ran(m))
        .find(|m| {
            mu2::run_mutant(Some(m.id), Budget::default(), &annotated).returned() == Some(want)
        })
        .expect("a same-result mutant of the workload");
    eprintln!(
        "mutant here: {}:{} {} -> {}",
        m.line, m.column, m.original, m.replacement
    );
    m.id
}

/// The sorted output, folded into one number that any difference changes.
fn checksum(v: &[i32]) -> usize {
    v.iter()
        .fold(v.len(), |h, &x| h.wrapping_mul(31).wrapping_add(x as usize))
}

/// Runs `annotated` (or `plain`) `n` times in `mode`: `other` is the
/// mutant switched on in mode `mutant`; in mode `here`, the first mutant
/// for which `own` holds (one of the workload's own functions) whose run
/// runs and gives the original's result.
fn repeat(
    mode: &str,
    n: usize,
    other: mu2::MutantId,
    own: impl Fn(&mu2::Mutant) -> bool,
    annotated: impl Fn() -> usize,
    plain: impl Fn() -> usize,
) {
    // Searched for in mode `here` only: it runs every candidate once.
    let here = (mode == "here").then(|| same_result_mutant(&own, &annotated));
    let mut trace = Trace::default();
    let mut total = 0;
    for _ in 0..n {
        total += match mode {
            "plain" => plain(),
            "off" => annotated(),
            "probes" => probe::record_into(&mut trace, Budget::default(), &annotated)
                .returned()
                .unwrap(),
            "mutant" => mu2::run_mutant(Some(other), Budget::default(), &annotated)
                .returned()
                .unwrap(),
            "here" => mu2::run_mutant(here, Budget::default(), &annotated)
                .returned()
                .unwrap(),
            other => panic!("unknown mode {other}"),
        };
    }
    println!("{total}");
}

/// One call: parse 16 texts from the json fixture's own generator (on
/// fixed bytes). The mutant switched on is one of the printer's, which
/// parsing never runs.
fn json_parse(mode: &str, n: usize) {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let texts: Vec<String> = (0..16)
        .map(|_| {
            let bytes = (0..2048)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            json::plain::generate::json_text(&mut mu2::Source::replay(bytes))
        })
        .collect();
    let other = mu2::mutants()
        .iter()
        .find(|m| m.module.contains("::json::annotated") && m.file.ends_with("print.rs"))
        .expect("a mutant in the json printer")
        .id;
    let count = |parse: fn(&str) -> Result<json::annotated::Value, json::annotated::ParseError>| {
        texts.iter().filter(|t| parse(black_box(t)).is_ok()).count()
    };
    repeat(
        mode,
        n,
        other,
        |m| m.file.ends_with("parse.rs"),
        || count(json::annotated::parse),
        || {
            texts
                .iter()
                .filter(|t| json::plain::parse(black_box(t)).is_ok())
                .count()
        },
    );
}
