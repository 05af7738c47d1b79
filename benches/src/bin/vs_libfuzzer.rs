//! Coverage-guided executions per second: mu2 against cargo-fuzz (libFuzzer,
//! `--sanitizer none`, stable), on the same function and input type, for the
//! same wall-clock time, one after the other in one run.
//!
//! ```sh
//! cargo run --release -p mu2-bench --bin vs_libfuzzer [-- SECONDS]
//! ```
//!
//! The function is the sort fixture's `insertion_sort` over `Vec<i32>`:
//! libFuzzer runs the plain copy (it instruments the code itself), mu2 the
//! `#[mu2::mutate]` copy (its probes are the instrumentation). Both decode the
//! input with `arbitrary`. cargo-fuzz is installed with `cargo install` when
//! missing; if it cannot be had, the libFuzzer column says so.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use mu2::config::Guidance;
use mu2::corpus::Store;
use mu2::engine::{Campaign, Limits, Settings, Target};
use mu2::{Invalid, Source};
use mu2_bench::fixtures::sort::annotated;

fn run_mu2(src: &mut Source) -> Result<Vec<i32>, Invalid> {
    Ok(annotated::insertion_sort(src.arbitrary()?))
}

fn mu2_rate(seconds: u64, dir: &Path) -> f64 {
    let store = Store::open(dir, "insertion_sort").expect("a temporary corpus folder");
    let target = Target {
        name: "insertion_sort".into(),
        run: run_mu2,
        snapshot: None,
        compare: |a, b| a == b,
    };
    let limits = Limits {
        time: Some(Duration::from_secs(seconds)),
        trials: None,
    };
    let settings = Settings {
        guidance: Guidance::Coverage,
        limits,
        seed: 1,
        ..Settings::default()
    };
    let summary = Campaign::new(target, store, settings)
        .run()
        .expect("the campaign runs");
    summary.execs as f64 / summary.elapsed.as_secs_f64()
}

fn cargo_fuzz_available() -> Result<(), String> {
    let ok = |out: std::io::Result<std::process::Output>| out.is_ok_and(|o| o.status.success());
    if ok(Command::new("cargo").args(["fuzz", "--version"]).output()) {
        return Ok(());
    }
    eprintln!("cargo-fuzz is missing: installing it with `cargo install cargo-fuzz --locked`...");
    if ok(Command::new("cargo")
        .args(["install", "cargo-fuzz", "--locked"])
        .output())
    {
        Ok(())
    } else {
        Err("cargo-fuzz could not be installed (`cargo install cargo-fuzz --locked` failed)".into())
    }
}

/// A cargo-fuzz project whose target sorts with the plain fixture copy.
fn write_fuzz_project(root: &Path) -> std::io::Result<PathBuf> {
    let fuzz = root.join("fuzz");
    std::fs::create_dir_all(fuzz.join("fuzz_targets"))?;
    std::fs::write(
        fuzz.join("Cargo.toml"),
        r#"[package]
name = "mu2-vs-libfuzzer"
version = "0.0.0"
edition = "2021"
publish = false

[package.metadata]
cargo-fuzz = true

[dependencies]
libfuzzer-sys = "0.4"

[[bin]]
name = "insertion_sort"
path = "fuzz_targets/insertion_sort.rs"
test = false
doc = false

[workspace]
"#,
    )?;
    let plain = Path::new(mu2_bench::generated::OUT_DIR).join("sort.plain.rs");
    std::fs::write(
        fuzz.join("fuzz_targets/insertion_sort.rs"),
        format!(
            "#![no_main]\n#[allow(dead_code)]\nmod sort {{ include!({plain:?}); }}\n\
             libfuzzer_sys::fuzz_target!(|v: Vec<i32>| {{ std::hint::black_box(sort::insertion_sort(v)); }});\n"
        ),
    )?;
    Ok(fuzz)
}

fn libfuzzer_rate(seconds: u64, root: &Path) -> Result<f64, String> {
    cargo_fuzz_available()?;
    let fuzz =
        write_fuzz_project(root).map_err(|e| format!("could not write the fuzz project: {e}"))?;
    let corpus = root.join("corpus");
    std::fs::create_dir_all(&corpus).map_err(|e| e.to_string())?;
    let out = Command::new("cargo")
        .current_dir(root)
        .args(["fuzz", "run", "--sanitizer", "none", "--fuzz-dir"])
        .arg(&fuzz)
        .arg("insertion_sort")
        .arg(&corpus)
        .args([
            "--",
            &format!("-max_total_time={seconds}"),
            "-print_final_stats=1",
        ])
        .output()
        .map_err(|e| format!("could not run cargo fuzz: {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stat = |name: &str| {
        stderr
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_start_matches(':').trim().parse::<f64>().ok())
    };
    match (stat("stat::number_of_executed_units"), out.status.success()) {
        (Some(units), true) => Ok(units / seconds as f64),
        _ => Err(format!(
            "cargo fuzz failed; its last lines:\n{}",
            stderr
                .lines()
                .rev()
                .take(15)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect::<Vec<_>>()
                .join("\n")
        )),
    }
}

fn main() {
    let seconds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let work = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/mu2-vs-libfuzzer");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).expect("a work folder under target/");

    println!("insertion_sort over Vec<i32>, coverage-guided, {seconds} s each");
    let libfuzzer = libfuzzer_rate(seconds, &work.join("libfuzzer"));
    let ours = mu2_rate(seconds, &work.join("mu2"));
    println!();
    println!("{:<34} {:>14}", "fuzzer", "execs/s");
    match &libfuzzer {
        Ok(rate) => println!(
            "{:<34} {:>14.0}",
            "libFuzzer (cargo fuzz, no sanitizer)", rate
        ),
        Err(e) => println!(
            "{:<34} {:>14}\n  ({e})",
            "libFuzzer (cargo fuzz, no sanitizer)", "n/a"
        ),
    }
    println!("{:<34} {:>14.0}", "mu2 (coverage guidance)", ours);
    if let Ok(rate) = libfuzzer {
        let ratio = ours / rate;
        println!(
            "mu2 / libFuzzer: {ratio:.2} (goal: at least 0.50: {})",
            if ratio >= 0.5 { "met" } else { "NOT met" }
        );
    }
}
