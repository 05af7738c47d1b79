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

/// A fresh crate with one annotated function and one driver. Tests that run
/// at once name their crates apart: cargo would give two packages of one name
/// the same test binary in the shared target folder.
fn held_out_crate(dir: &Path, name: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n[workspace]\n\n[dependencies]\nmu2 = {{ path = {:?} }}\n",
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
        format!(
            "#[mu2::diff]\nfn clamps(x: i8) -> i32 {{\n    {name}::clamp(x as i32, -10, 10)\n}}\n"
        ),
    )
    .unwrap();
}

#[test]
fn a_new_user_lists_fuzzes_scores_and_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    held_out_crate(dir, "heldout");

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

    // Nothing to score before a campaign: say where it looked, and what to run.
    let out = cargo_mu2(dir, &["--debug", "score", "clamps"]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out));
    let told = text(&out);
    assert!(
        told.contains("no saved corpus to score")
            && told.contains(&format!(
                "mu2{}clamps{}corpus",
                std::path::MAIN_SEPARATOR,
                std::path::MAIN_SEPARATOR
            ))
            && told.contains("cargo mu2 fuzz clamps"),
        "{told}"
    );
    assert!(
        !dir.join("mu2").exists(),
        "a failed score leaves nothing behind"
    );

    // A campaign ends with the score of the corpus it grew and the report's path.
    let out = cargo_mu2(
        dir,
        &[
            "--debug", "fuzz", "clamps", "--trials", "300", "--seed", "1",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("clamps: mutation score"), "{}", text(&out));
    assert!(
        !stdout.contains("running 1 test") && !stdout.contains("test result"),
        "libtest's chatter is left out: {stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "HTML report: {}",
            dir.join("target/mu2/mu2-report.html").display()
        )),
        "{}",
        text(&out)
    );
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

/// The `<svg>...</svg>` elements of a page.
fn svgs(html: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg") {
        let end = start + rest[start..].find("</svg>").expect("a closed svg") + "</svg>".len();
        found.push(&rest[start..end]);
        rest = &rest[end..];
    }
    found
}

#[test]
fn campaigns_of_one_driver_share_the_plots() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    held_out_crate(dir, "heldout_campaigns");

    for (guidance, campaign) in [("coverage", "target/zest"), ("mutation", "target/mu2run")] {
        let out = cargo_mu2(
            dir,
            &[
                "--debug",
                "fuzz",
                "clamps",
                "--trials",
                "300",
                "--seed",
                "1",
                "--guidance",
                guidance,
                "--dir",
                campaign,
            ],
        );
        assert!(out.status.success(), "{}", text(&out));
        assert!(dir.join(campaign).join("clamps/plot_data.csv").is_file());
    }
    assert!(!dir.join("mu2").exists(), "--dir keeps the campaigns apart");

    // Labels default to each campaign's guidance.
    let out = cargo_mu2(
        dir,
        &[
            "--debug",
            "report",
            "clamps",
            "--campaign",
            "target/zest",
            "--campaign",
            "target/mu2run",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("campaign `coverage`") && stdout.contains("campaign `mutation`"),
        "{stdout}"
    );
    let html = std::fs::read_to_string(dir.join("target/mu2/mu2-report.html")).unwrap();
    let plots = svgs(&html);
    assert_eq!(plots.len(), 2, "mutants killed and coverage over time");
    for svg in &plots {
        assert!(svg.contains(">coverage</text>"), "{svg}");
        assert!(svg.contains(">mutation</text>"), "{svg}");
    }
    let coverage_plot = plots[1];
    assert_eq!(
        coverage_plot.matches("<polyline").count(),
        2,
        "one line per campaign: {coverage_plot}"
    );

    // Labels given on the command line, `--compare` as another name, and
    // the driver's own folder accepted as well.
    let out = cargo_mu2(
        dir,
        &[
            "--debug",
            "report",
            "clamps",
            "--campaign",
            "Zest=target/zest",
            "--compare",
            "Mu2=target/mu2run/clamps",
            "--out",
            "target/compare",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    let html = std::fs::read_to_string(dir.join("target/compare/mu2-report.html")).unwrap();
    for svg in svgs(&html) {
        assert!(
            svg.contains(">Zest</text>") && svg.contains(">Mu2</text>"),
            "{svg}"
        );
    }

    // A folder with no campaign in it is a usage error that says what was expected.
    let out = cargo_mu2(
        dir,
        &[
            "--debug",
            "report",
            "clamps",
            "--campaign",
            "target/nothing",
        ],
    );
    assert_eq!(out.status.code(), Some(4), "{}", text(&out));
    assert!(
        text(&out).contains("no campaign of `clamps` in target/nothing"),
        "{}",
        text(&out)
    );
}
