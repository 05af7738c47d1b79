//! The harness's quick path end to end on the sort fixture, with trial
//! budgets instead of time so it is fast and deterministic.

use mu2::{Invalid, Source};
use mu2_eval::run::{Budget, Variant};
use mu2_eval::stats::mann_whitney;
use mu2_eval::targets::Fixture;
use mu2_eval::{Options, evaluate, targets};

/// The sort target without its binary search: the search's looping mutant
/// uses its whole step budget each time it is scored, which in a debug build
/// takes seconds per run. The other sort mutants are scored as usual.
fn sorts_only(src: &mut Source) -> Result<String, Invalid> {
    let v = sort::generate::small_vec(src);
    Ok(if src.bool() {
        format!("{:?}", sort::insertion_sort(v))
    } else {
        format!("{:?}", sort::merge_sort(&v))
    })
}

fn sort_fixture() -> Fixture {
    Fixture {
        run: sorts_only,
        skip_functions: &["median", "binary_search"],
        ..targets::find("sort").unwrap()
    }
}

#[test]
fn the_quick_path_writes_a_sane_report_and_plots() {
    let out = tempfile::tempdir().unwrap();
    let opts = Options {
        fixtures: vec![sort_fixture()],
        variants: ["random", "coverage", "mutation", "least-executed:5"]
            .iter()
            .map(|v| Variant::parse(v).unwrap())
            .collect(),
        reps: 2,
        budget: Budget::Trials(300),
        out: out.path().to_path_buf(),
        peers: false,
        jobs: 2,
        command: "test".into(),
        ..Options::profile("quick").unwrap()
    };
    let results = evaluate(&opts).unwrap();

    assert_eq!(results.runs.len(), 4 * 2);
    for r in &results.runs {
        assert!(r.viable > 0 && r.killed <= r.viable, "{r:?}");
        assert!(r.corpus > 0 && r.execs > 0, "{r:?}");
        assert_eq!(r.killed, r.killed_ids.len());
    }
    // The mutants killed by the corpus only grow with guidance that runs them.
    let mean = |v: &str| {
        let k: Vec<f64> = results
            .runs
            .iter()
            .filter(|r| r.variant == v)
            .map(|r| r.killed as f64)
            .collect();
        mu2_eval::stats::mean(&k)
    };
    assert!(mean("mutation") > 0.0 && mean("coverage") >= 0.0);
    // RQ4: the implicit oracle never sees more than the differential one.
    let rq4 = &results.oracles[0];
    for (d, p) in rq4.differential.iter().zip(&rq4.property) {
        assert!(p.killed <= d.killed, "{} > {}", p.killed, d.killed);
    }

    let md = std::fs::read_to_string(out.path().join("summary.md")).unwrap();
    for v in [
        "| random |",
        "| coverage |",
        "| mutation |",
        "| least-executed:5 |",
    ] {
        assert!(md.contains(v), "{v} missing from\n{md}");
    }
    assert!(md.contains("## sort") && md.contains("RQ4") && md.contains("Not run"));
    for svg in ["sort-killed.svg", "sort-kills-over-time.svg"] {
        let text = std::fs::read_to_string(out.path().join(svg)).unwrap();
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    }
    assert!(out.path().join("runs.json").is_file());

    // The statistics the table relies on.
    let same = [3.0, 5.0, 8.0, 8.0, 9.0];
    assert!((mann_whitney(&same, &same).p - 1.0).abs() < 1e-9);
    let low: Vec<f64> = (0..10).map(f64::from).collect();
    let high: Vec<f64> = (20..30).map(f64::from).collect();
    assert!(mann_whitney(&low, &high).p < 0.001);
}
