//! Every registered target runs, is deterministic for the same bytes, and
//! owns mutants of its fixture: a new entry in `targets::all()` that points
//! at the wrong folder, or a target that fails on the all-zero input, is
//! caught here rather than by an evaluation that reports zero mutants.

use mu2::Source;
use mu2_eval::targets;

#[test]
fn every_target_runs_deterministically_and_owns_mutants() {
    // The harness runs targets on threads with mu2's run stack; the type
    // checker and the compiler recurse deeper than a test thread's 2 MiB
    // allows in an unoptimized build.
    std::thread::Builder::new()
        .stack_size(mu2::RUN_STACK)
        .spawn(check_every_target)
        .expect("a thread")
        .join()
        .expect("every target checks out");
}

fn check_every_target() {
    for fixture in targets::all() {
        // Named first: a target that overflows the stack aborts the process.
        eprintln!("checking {}", fixture.name);
        let run = |bytes: &[u8]| (fixture.run)(&mut Source::replay(bytes.to_vec()));
        assert!(run(&[]).is_ok(), "{}: the all-zero input", fixture.name);
        for seed in 0..50u8 {
            let bytes: Vec<u8> = (0..64u8)
                .map(|i| i.wrapping_mul(31).wrapping_add(seed.wrapping_mul(97)))
                .collect();
            assert_eq!(run(&bytes), run(&bytes), "{}: seed {seed}", fixture.name);
        }
        let owned = mu2::mutants()
            .iter()
            .filter(|m| fixture.owns(m.file, m.function))
            .count();
        assert!(
            owned > 0,
            "{}: no mutants under {}",
            fixture.name,
            fixture.dir
        );
        assert!(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(fixture.source)
                .is_file(),
            "{}: {}",
            fixture.name,
            fixture.source
        );
    }
}
