//! The greybox loop end to end: what a user of `MU2=fuzz cargo test` relies on.
//! Campaigns here are driven through the library API with an explicit
//! `Config`, since environment variables are shared by parallel tests.

use std::path::Path;

use mu2::config::{Config, Guidance, Mode};
use mu2::corpus::Store;
use mu2::driver::{Driver, DriverInfo, drive};
use mu2::engine::{Campaign, Limits, Settings, Summary, Target};
use mu2::{Invalid, Source};

/// A bug behind four exact bytes: each correct byte reaches a new branch,
/// which coverage guidance can climb and blind random generation cannot.
#[mu2::mutate]
fn magic(data: &[u8]) -> u32 {
    let mut score = 0;
    if data.len() >= 4 && data[0] == b'M' {
        score += 1;
        if data[1] == b'U' {
            score += 1;
            if data[2] == b'2' {
                score += 1;
                if data[3] == b'!' {
                    panic!("the magic bug");
                }
            }
        }
    }
    score
}

fn run_magic(src: &mut Source) -> Result<u32, Invalid> {
    let data: Vec<u8> = src.arbitrary()?;
    Ok(magic(&data))
}

fn target() -> Target<u32> {
    Target {
        name: "magic".into(),
        run: run_magic,
        snapshot: Some(|o: &u32| format!("{o:?}")),
        compare: |a, b| a == b,
    }
}

fn campaign(dir: &Path, guidance: Guidance, trials: u64, seed: u64) -> Summary {
    let store = Store::open(dir, "magic").unwrap();
    let settings = Settings {
        guidance,
        limits: Limits {
            time: None,
            trials: Some(trials),
        },
        seed,
        ..Settings::default()
    };
    Campaign::new(target(), store, settings).run().unwrap()
}

fn corpus_bytes(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let (entries, _) = Store::open(dir, "magic").unwrap().load().unwrap();
    entries.into_iter().map(|e| (e.name, e.bytes)).collect()
}

#[test]
fn coverage_guidance_finds_the_bug_behind_magic_bytes_and_random_does_not() {
    let trials = 200_000;
    let guided = tempfile::tempdir().unwrap();
    let summary = campaign(guided.path(), Guidance::Coverage, trials, 7);
    assert!(
        summary
            .failures
            .iter()
            .any(|(_, f)| f.message.contains("the magic bug")),
        "coverage guidance did not find the bug in {trials} trials: {summary:?}"
    );
    let failure = &summary.failures[0].1;
    assert!(failure.location.contains("fuzz_loop.rs"), "{failure:?}");

    let blind = tempfile::tempdir().unwrap();
    let summary = campaign(blind.path(), Guidance::Random, trials, 7);
    assert!(
        summary.failures.is_empty(),
        "random found {:?}",
        summary.failures
    );
}

#[test]
fn the_same_seed_grows_the_same_corpus() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    campaign(a.path(), Guidance::Coverage, 3_000, 42);
    campaign(b.path(), Guidance::Coverage, 3_000, 42);
    let (ca, cb) = (corpus_bytes(a.path()), corpus_bytes(b.path()));
    assert!(ca.len() > 1);
    assert_eq!(ca, cb);
}

#[test]
fn a_campaign_resumes_from_its_corpus() {
    let dir = tempfile::tempdir().unwrap();
    campaign(dir.path(), Guidance::Coverage, 2_000, 1);
    let before = corpus_bytes(dir.path());
    let summary = campaign(dir.path(), Guidance::Coverage, 2_000, 2);
    let after = corpus_bytes(dir.path());
    // Nothing saved is lost or rewritten, and the second run starts from it.
    assert_eq!(&after[..before.len()], &before[..]);
    assert!(summary.corpus >= before.len());
}

fn info() -> DriverInfo {
    DriverInfo {
        name: "magic",
        manifest_dir: env!("CARGO_MANIFEST_DIR"),
        module: module_path!(),
    }
}

fn config(dir: &Path, mode: Mode, update: bool) -> Config {
    Config {
        mode,
        guidance: Guidance::Coverage,
        time: None,
        trials: Some(2_000),
        seed: Some(3),
        dir: dir.to_path_buf(),
        update,
        opt: mu2::guidance::Opt::Infection,
        filter: mu2::guidance::Filter::All,
        jobs: 1,
        input: None,
    }
}

fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> Option<String> {
    std::panic::catch_unwind(f).err().map(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// The same driver as `run_magic`, after a "regression": every score is off by one.
fn run_magic_changed(src: &mut Source) -> Result<u32, Invalid> {
    let data: Vec<u8> = src.arbitrary()?;
    Ok(magic(&data) + 1)
}

#[test]
fn replay_detects_a_changed_output_and_update_accepts_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A campaign builds the corpus (a found failure would fail the test; 2,000
    // trials cannot find the four bytes).
    drive(
        info(),
        &config(d, Mode::Fuzz, false),
        Driver::diff(run_magic),
    );
    assert!(corpus_bytes(d).len() > 1);
    // Replaying the same code passes.
    assert_eq!(
        panic_message(|| drive(
            info(),
            &config(d, Mode::Replay, false),
            Driver::diff(run_magic)
        )),
        None
    );
    // Changed code: the replay fails and names the input file.
    let message = panic_message(|| {
        drive(
            info(),
            &config(d, Mode::Replay, false),
            Driver::diff(run_magic_changed),
        )
    })
    .expect("a changed output fails the replay");
    assert!(
        message.contains("the output changed") && message.contains("id_"),
        "{message}"
    );
    assert!(message.contains("MU2_UPDATE=1"), "{message}");
    // MU2_UPDATE=1 records the new outputs; then the new code replays clean.
    drive(
        info(),
        &config(d, Mode::Replay, true),
        Driver::diff(run_magic_changed),
    );
    assert_eq!(
        panic_message(|| drive(
            info(),
            &config(d, Mode::Replay, false),
            Driver::diff(run_magic_changed)
        )),
        None
    );
}

#[test]
fn a_corrupt_corpus_file_is_skipped_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    drive(
        info(),
        &config(d, Mode::Fuzz, false),
        Driver::diff(run_magic),
    );
    let saved = corpus_bytes(d);
    let corrupt = d.join("magic/corpus/id_000001.json");
    std::fs::write(&corrupt, b"{ this is not json").unwrap();
    // Replay still passes on everything else...
    assert_eq!(
        panic_message(|| drive(
            info(),
            &config(d, Mode::Replay, false),
            Driver::diff(run_magic)
        )),
        None
    );
    // ...and a campaign still resumes; the corrupt file is left as it was.
    drive(
        info(),
        &config(d, Mode::Fuzz, false),
        Driver::diff(run_magic),
    );
    assert_eq!(std::fs::read(&corrupt).unwrap(), b"{ this is not json");
    let after = corpus_bytes(d);
    assert!(after.len() >= saved.len() - 1);
}

fn run_fragile(src: &mut Source) -> Result<(), Invalid> {
    let x: u8 = src.arbitrary()?;
    assert!(x < 200, "x is too large: {x}");
    Ok(())
}

#[test]
fn a_new_driver_without_a_corpus_still_tests_something() {
    let dir = tempfile::tempdir().unwrap();
    let info = DriverInfo {
        name: "fragile",
        manifest_dir: env!("CARGO_MANIFEST_DIR"),
        module: module_path!(),
    };
    let message = panic_message(|| {
        drive(
            info,
            &config(dir.path(), Mode::Replay, false),
            Driver::fuzz(run_fragile),
        )
    })
    .expect("a short random run finds x >= 200");
    assert!(
        message.contains("no corpus yet") && message.contains("x is too large"),
        "{message}"
    );
    // The failing input is kept.
    let failures: Vec<_> = std::fs::read_dir(dir.path().join("fragile/failures"))
        .unwrap()
        .collect();
    assert!(!failures.is_empty());
}

/// Output whose Debug text changes from one run to the next: a `HashMap`
/// prints in the order of its per-map random hash keys.
fn run_tally(src: &mut Source) -> Result<std::collections::HashMap<u8, u32>, Invalid> {
    let data: Vec<u8> = src.arbitrary()?;
    let mut tally = std::collections::HashMap::new();
    for (i, b) in data.iter().enumerate() {
        *tally.entry(b % 16).or_insert(0) += magic(&data[i..]) + 1;
    }
    Ok(tally)
}

#[test]
fn output_text_that_changes_between_runs_is_not_recorded_and_the_user_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), "tally").unwrap();
    let target = Target {
        name: "tally".into(),
        run: run_tally,
        snapshot: Some(|o: &std::collections::HashMap<u8, u32>| format!("{o:?}")),
        compare: |a, b| a == b,
    };
    let settings = Settings {
        guidance: Guidance::Coverage,
        limits: Limits {
            time: None,
            trials: Some(2_000),
        },
        seed: 3,
        ..Settings::default()
    };
    Campaign::new(target, store, settings).run().unwrap();
    let (entries, _) = Store::open(dir.path(), "tally").unwrap().load().unwrap();
    let unstable: Vec<_> = entries.iter().filter(|e| e.meta.output.is_none()).collect();
    // Inputs with several distinct keys print in a different order each run.
    assert!(!unstable.is_empty(), "no input was found unstable");
    // One-key inputs print the same every time, and keep their output.
    assert!(
        entries.iter().any(|e| e.meta.output.is_some()),
        "stable outputs are recorded"
    );
    let log = std::fs::read_to_string(dir.path().join("tally").join("fuzz.log")).unwrap();
    assert_eq!(
        log.matches("gave different output text").count(),
        1,
        "{log}"
    );
    assert!(log.contains("BTreeMap"), "{log}");

    // The magic driver's output is stable: every saved input records it.
    let dir = tempfile::tempdir().unwrap();
    campaign(dir.path(), Guidance::Coverage, 2_000, 3);
    let (entries, _) = Store::open(dir.path(), "magic").unwrap().load().unwrap();
    assert!(!entries.is_empty());
    assert!(entries.iter().all(|e| e.meta.output.is_some()));
}
