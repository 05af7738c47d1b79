//! Benchmarks of mu2 (see docs/benchmarks.md).
//!
//! [`fixtures`] holds every self-contained fixture crate compiled twice by
//! `build.rs`: `fixtures::<name>::plain` (the `#[mu2::mutate]` attributes
//! removed) and `fixtures::<name>::annotated` (as written, so a
//! meta-mutant). Both live in this crate and are built with the same
//! profile, so their speeds compare directly.
//!
//! - `benches/overhead.rs` (`cargo bench -p mu2-bench`): run-time overhead.
//! - `src/bin/build_time.rs` (`cargo run --release -p mu2-bench --bin build_time`):
//!   build time and expansion size of each fixture with and without the attribute.

pub mod fixtures {
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}

/// The generated copies of the fixtures, for tools that rebuild them elsewhere.
pub mod generated {
    /// Where `build.rs` wrote the copies: the `src/` tree of fixture `name`
    /// is in `<OUT_DIR>/<name>/crate-plain/` and `<OUT_DIR>/<name>/crate-annotated/`.
    pub const OUT_DIR: &str = env!("OUT_DIR");
}
