//! The tools users run today, side by side with mu2: cargo-mutants (mutation
//! testing of the fixture's own unit tests) and cargo-fuzz (libFuzzer on the
//! same target, its corpus scored by mu2's scorer).
//!
//! Either tool may be missing or fail to build on this machine; every
//! function here returns `Err` with the reason, which the report prints in
//! place of the numbers, rather than failing the evaluation.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::run::{Run, score_corpus};
use crate::targets::Fixture;

/// cargo-mutants' verdicts on one fixture.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MutantsOutcome {
    pub total: usize,
    pub caught: usize,
    pub missed: usize,
    pub unviable: usize,
    pub timeout: usize,
    pub seconds: f64,
}

fn succeeds(cmd: &mut Command) -> bool {
    cmd.output().is_ok_and(|o| o.status.success())
}

/// Whether `cargo <sub>` works, installing `crate_name` once if not.
fn ensure_tool(sub: &str, crate_name: &str) -> Result<(), String> {
    if succeeds(Command::new("cargo").args([sub, "--version"])) {
        return Ok(());
    }
    eprintln!("mu2-eval: {crate_name} is missing: `cargo install {crate_name} --locked`...");
    if succeeds(Command::new("cargo").args(["install", crate_name, "--locked"]))
        && succeeds(Command::new("cargo").args([sub, "--version"]))
    {
        Ok(())
    } else {
        Err(format!(
            "{crate_name} is not installed and `cargo install {crate_name} --locked` failed"
        ))
    }
}

/// The last lines of a tool's output, for the report.
fn tail(text: &[u8]) -> String {
    let text = String::from_utf8_lossy(text);
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(8)..].join("\n")
}

/// A dependency line of the workspace's `[workspace.dependencies]`, so a
/// copy of a fixture outside the workspace resolves the same versions.
fn workspace_dep(workspace: &Path, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(workspace.join("Cargo.toml")).ok()?;
    let deps = text.split("[workspace.dependencies]").nth(1)?;
    deps.lines()
        .take_while(|l| !l.starts_with('['))
        .find(|l| l.split('=').next().is_some_and(|k| k.trim() == name))
        .map(str::to_string)
}

/// The fixture's manifest, standalone: workspace inheritance replaced by
/// the workspace's values, `mu2` by a path.
fn standalone_manifest(workspace: &Path, fixture_dir: &Path, manifest: &str) -> String {
    let mut out = String::new();
    for line in manifest.lines() {
        let t = line.trim();
        let key = t.split(['.', '=']).next().unwrap_or("").trim();
        if let Some(rel) = relative_path_dep(t) {
            // A sibling fixture (`typecheck = { path = "../typecheck" }`):
            // the copy lives elsewhere, so point at the original.
            let abs = fixture_dir.join(rel);
            out.push_str(&line.replacen(&format!("{rel:?}"), &format!("{abs:?}"), 1));
            out.push('\n');
        } else if t.starts_with("edition.workspace") {
            out.push_str("edition = \"2024\"\n");
        } else if key == "mu2" && t.contains("workspace") {
            out.push_str(&format!("mu2 = {{ path = {:?} }}\n", workspace));
        } else if t.contains(".workspace = true") {
            match workspace_dep(workspace, key) {
                Some(dep) => out.push_str(&format!("{dep}\n")),
                None => out.push_str(&format!("{line}\n")),
            }
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str("\n[workspace]\n");
    out
}

/// The relative path of a `path = "..."` dependency on this manifest line.
fn relative_path_dep(line: &str) -> Option<&str> {
    let rest = &line[line.find("path = \"")? + "path = \"".len()..];
    let path = &rest[..rest.find('"')?];
    Path::new(path).is_relative().then_some(path)
}

/// Copies `from` to `to`, leaving out `target/` and `mu2/` (corpora), and
/// in `.rs` files the `#[mu2::mutate]` attribute lines, so cargo-mutants
/// sees plain code. Test files that use mu2 (drivers, mutant tests) are left
/// out: they need the attribute; the fixture's own unit tests stay.
fn plain_copy(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        let (src, dst) = (entry.path(), to.join(&name));
        if entry.file_type()?.is_dir() {
            if name != "target" && name != "mu2" {
                plain_copy(&src, &dst)?;
            }
        } else if src.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&src)?;
            let in_tests = src.components().any(|c| c.as_os_str() == "tests");
            if in_tests && text.contains("mu2::") {
                continue;
            }
            let kept: Vec<&str> = text
                .lines()
                .filter(|l| !l.trim_start().starts_with("#[mu2::mutate"))
                .collect();
            std::fs::write(&dst, kept.join("\n") + "\n")?;
        } else {
            std::fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}

/// Runs cargo-mutants on a plain copy of the fixture with its unit tests.
pub fn cargo_mutants(
    workspace: &Path,
    fixture: &Fixture,
    work: &Path,
) -> Result<MutantsOutcome, String> {
    ensure_tool("mutants", "cargo-mutants")?;
    let copy = work.join(fixture.name);
    let _ = std::fs::remove_dir_all(&copy);
    plain_copy(&workspace.join(fixture.dir), &copy).map_err(|e| e.to_string())?;
    let manifest = std::fs::read_to_string(copy.join("Cargo.toml")).map_err(|e| e.to_string())?;
    std::fs::write(
        copy.join("Cargo.toml"),
        standalone_manifest(workspace, &workspace.join(fixture.dir), &manifest),
    )
    .map_err(|e| e.to_string())?;
    let output = work.join(format!("{}-out", fixture.name));
    let clock = Instant::now();
    let out = Command::new("cargo")
        .args([
            "mutants",
            "--no-shuffle",
            "-j",
            "2",
            "--timeout",
            "20",
            "-d",
        ])
        .arg(&copy)
        .arg("--output")
        .arg(&output)
        .output()
        .map_err(|e| format!("could not run cargo mutants: {e}"))?;
    let seconds = clock.elapsed().as_secs_f64();
    let outcomes = output.join("mutants.out/outcomes.json");
    let text = std::fs::read_to_string(&outcomes).map_err(|_| {
        format!(
            "cargo mutants wrote no outcomes.json (exit {:?}):\n{}",
            out.status.code(),
            tail(&out.stderr)
        )
    })?;
    let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let mut result = MutantsOutcome {
        seconds,
        ..MutantsOutcome::default()
    };
    for o in json["outcomes"].as_array().into_iter().flatten() {
        if o["scenario"] == "Baseline" {
            continue;
        }
        result.total += 1;
        match o["summary"].as_str().unwrap_or("") {
            "CaughtMutant" => result.caught += 1,
            "MissedMutant" => result.missed += 1,
            "Unviable" => result.unviable += 1,
            "Timeout" => result.timeout += 1,
            _ => {}
        }
    }
    if result.total == 0 {
        return Err(format!(
            "cargo mutants tested no mutants (exit {:?}):\n{}",
            out.status.code(),
            tail(&out.stdout)
        ));
    }
    Ok(result)
}

/// A cargo-fuzz project whose target is the harness's own target for the
/// fixture (its source file `include!`d), reading libFuzzer's bytes through
/// `mu2::Source::replay`: exactly what the scorer replays later.
fn write_fuzz_project(
    workspace: &Path,
    fixture: &Fixture,
    root: &Path,
) -> std::io::Result<PathBuf> {
    let fuzz = root.join("fuzz");
    std::fs::create_dir_all(fuzz.join("fuzz_targets"))?;
    std::fs::write(
        fuzz.join("Cargo.toml"),
        format!(
            r#"[package]
name = "mu2-eval-libfuzzer"
version = "0.0.0"
edition = "2024"
publish = false

[package.metadata]
cargo-fuzz = true

[dependencies]
libfuzzer-sys = "0.4"
mu2 = {{ path = {ws:?} }}
{name} = {{ path = {dir:?} }}

[[bin]]
name = "target"
path = "fuzz_targets/target.rs"
test = false
doc = false

[workspace]
"#,
            ws = workspace,
            name = fixture.name,
            dir = workspace.join(fixture.dir),
        ),
    )?;
    std::fs::write(
        fuzz.join("fuzz_targets/target.rs"),
        format!(
            "#![no_main]\n#[allow(dead_code)]\nmod target {{ include!({:?}); }}\n\
             libfuzzer_sys::fuzz_target!(|data: &[u8]| {{\n    \
             let _ = std::hint::black_box(target::run(&mut mu2::Source::replay(data.to_vec())));\n}});\n",
            workspace.join(fixture.source)
        ),
    )?;
    Ok(fuzz)
}

/// Runs libFuzzer `reps` times for `seconds` each (after one build, not
/// counted) and scores each final corpus with the differential scorer.
pub fn cargo_fuzz(
    workspace: &Path,
    fixture: &Fixture,
    seconds: f64,
    reps: u64,
    work: &Path,
    jobs: usize,
) -> Result<Vec<Run>, String> {
    ensure_tool("fuzz", "cargo-fuzz")?;
    let root = work.join(format!("{}-libfuzzer", fixture.name));
    let fuzz = write_fuzz_project(workspace, fixture, &root).map_err(|e| e.to_string())?;
    let cargo_fuzz = |args: &[&str]| {
        let mut cmd = Command::new("cargo");
        cmd.current_dir(&root).arg("fuzz").arg(args[0]);
        cmd.args(["--sanitizer", "none", "--fuzz-dir"]).arg(&fuzz);
        cmd.args(&args[1..]);
        cmd
    };
    let built = cargo_fuzz(&["build", "-O", "target"])
        .output()
        .map_err(|e| format!("could not run cargo fuzz: {e}"))?;
    if !built.status.success() {
        return Err(format!("cargo fuzz build failed:\n{}", tail(&built.stderr)));
    }
    let mut runs = Vec::new();
    for rep in 0..reps {
        let corpus = root.join(format!("corpus-{rep}"));
        let _ = std::fs::remove_dir_all(&corpus);
        std::fs::create_dir_all(&corpus).map_err(|e| e.to_string())?;
        let started = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        let corpus_arg = corpus.to_string_lossy().into_owned();
        let out = cargo_fuzz(&[
            "run",
            "-O",
            "target",
            &corpus_arg,
            "--",
            &format!("-max_total_time={}", seconds.ceil() as u64),
            &format!("-seed={}", rep + 1),
            "-print_final_stats=1",
        ])
        .output()
        .map_err(|e| format!("could not run cargo fuzz: {e}"))?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let execs = stderr
            .lines()
            .find_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
            .and_then(|v| v.trim().parse::<u64>().ok());
        let Some(execs) = execs else {
            return Err(format!("cargo fuzz run failed:\n{}", tail(&out.stderr)));
        };
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let driver = format!("{}-libfuzzer", fixture.name);
        import_corpus(&corpus, &dir.path().join(&driver).join("corpus"))
            .map_err(|e| e.to_string())?;
        let mut run = score_corpus(
            fixture,
            &fixture.differential(),
            dir.path(),
            &driver,
            jobs,
            started,
        )?;
        run.variant = "libfuzzer".into();
        run.seed = rep + 1;
        run.execs = execs;
        run.seconds = seconds;
        runs.push(run);
    }
    Ok(runs)
}

/// libFuzzer's corpus files as mu2 seeds (`id_NNNNNN`, no metadata), with
/// their modification times kept: the store reads a seed's save time from
/// it, which gives libFuzzer a kills-over-time curve too.
fn import_corpus(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    let mut files: Vec<(SystemTime, PathBuf)> = std::fs::read_dir(from)?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    files.sort();
    for (i, (modified, path)) in files.iter().enumerate() {
        let dst = to.join(format!("id_{i:06}"));
        std::fs::copy(path, &dst)?;
        std::fs::File::options()
            .write(true)
            .open(&dst)?
            .set_modified(*modified)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixture_manifest_becomes_standalone() {
        let ws = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let text = "[package]\nname = \"sort\"\nedition.workspace = true\n\n[dependencies]\nmu2.workspace = true\n\n[dev-dependencies]\narbitrary.workspace = true\n";
        let out = standalone_manifest(ws, &ws.join("fixtures/sort"), text);
        assert!(out.contains("edition = \"2024\""), "{out}");
        assert!(out.contains("mu2 = { path = "), "{out}");
        assert!(out.contains("arbitrary = { version"), "{out}");
        assert!(out.trim_end().ends_with("[workspace]"));
    }

    #[test]
    fn a_sibling_fixture_dependency_points_at_the_original() {
        let ws = Path::new("/w");
        let text = "[dependencies]\ntypecheck = { path = \"../typecheck\" }\nother = { path = \"/abs\" }\n";
        let out = standalone_manifest(ws, &ws.join("fixtures/compiler"), text);
        assert!(
            out.contains("typecheck = { path = \"/w/fixtures/compiler/../typecheck\" }"),
            "{out}"
        );
        assert!(out.contains("other = { path = \"/abs\" }"), "{out}");
    }
}
