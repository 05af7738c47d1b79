//! Compile errors under `#[mu2::mutate]`: a user's type error is reported
//! at the user's code, and misuse of the attribute gets a clear message at
//! the right place. Annotated code that compiles cleanly stays free of
//! warnings.
//!
//! The expected `.stderr` files depend on the rustc version; regenerate them
//! with `TRYBUILD=overwrite cargo test -p mu2 --test compile_fail`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui-pass/*.rs");
}
