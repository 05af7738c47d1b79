//! Every registered target runs, is deterministic for the same bytes, and
//! owns mutants of its fixture: a new entry in `targets::all()` that points
//! at the wrong folder, or a target that fails on the all-zero input, is
//! caught here rather than by an evaluation that reports zero mutants.

use mu2::Source;
use mu2_eval::targets;

#[test]
fn every_target_runs_deterministically_and_owns_mutants() {
    for fixture in targets::all() {
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
