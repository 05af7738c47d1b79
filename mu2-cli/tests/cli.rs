//! `cargo mu2` on a crate it has never seen: what a new user meets first.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cargo_mu2(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-mu2"))
        .arg("mu2")
        .args(args)
        .current_dir(dir)
        // Shared across runs of this test, so the crate's dependencies build once.
        .env("CARGO_TARGET_DIR", workspace().join("target/cli-test"))
        .output()
        .expect("cargo-mu2 runs")
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A fresh crate with one annotated function and one driver.
fn held_out_crate(dir: &Path) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"heldout\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[workspace]\n\n[dependencies]\nmu2 = {{ path = {:?} }}\n",
            workspace()
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        "#[mu2::mutate]\npub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {\n    if x < lo { lo } else if x > hi { hi } else { x }\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("tests/drivers.rs"),
        "#[mu2::diff]\nfn clamps(x: i8) -> i32 {\n    heldout::clamp(x as i32, -10, 10)\n}\n",
    )
    .unwrap();
}

#[test]
fn a_new_user_lists_fuzzes_scores_and_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    held_out_crate(dir);

    let out = cargo_mu2(dir, &["--debug", "list"]);
    assert!(out.status.success(), "{}", text(&out));
    let listing = text(&out);
    assert!(
        listing.contains("clamps") && listing.contains("src/lib.rs"),
        "{listing}"
    );

    let out = cargo_mu2(dir, &["--debug", "fuzz", "clamp"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out));
    assert!(
        text(&out).contains("The drivers are: clamps"),
        "{}",
        text(&out)
    );

    let out = cargo_mu2(
        dir,
        &[
            "--debug", "fuzz", "clamps", "--trials", "300", "--seed", "1",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let out = cargo_mu2(dir, &["--debug", "score", "clamps"]);
    assert!(out.status.success(), "{}", text(&out));
    let out = cargo_mu2(dir, &["--debug", "score", "clamps", "--min-score", "100"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a survivor (`<` -> `<=` at the clamp's edge) fails the gate: {}",
        text(&out)
    );

    let out = cargo_mu2(dir, &["--debug", "report"]);
    assert!(out.status.success(), "{}", text(&out));
    let html = std::fs::read_to_string(dir.join("target/mu2/mu2-report.html")).unwrap();
    assert!(
        html.contains("Survived mutants") && html.contains("<svg"),
        "the page shows survivors and a plot"
    );
    assert!(
        dir.join("target/mu2/clamps.csv").is_file() && dir.join("target/mu2/clamps.json").is_file()
    );

    let out = cargo_mu2(dir, &["--debug", "fuzz", "clamps", "--time", "soon"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out));
    assert!(text(&out).contains("expected a duration"), "{}", text(&out));
}

#[test]
fn a_crate_without_mu2_gets_told_what_to_add() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"plain\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    let out = cargo_mu2(dir, &["list"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("depends on `mu2`"), "{}", text(&out));
}
