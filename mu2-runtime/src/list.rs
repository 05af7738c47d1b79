//! What a test binary tells `cargo mu2` about itself: its drivers and its
//! mutants, as JSON on stdout, before any test runs.
//!
//! `cargo mu2` runs each test binary with `MU2_LIST=1`; a constructor that
//! runs before `main` prints the registry and exits, so listing never runs a
//! test. (A binary without mu2 ignores the variable; `cargo mu2` also passes
//! `--list`, so at worst libtest lists its tests.)

use serde::Serialize;

#[derive(Serialize)]
struct Listing<'a> {
    drivers: Vec<DriverLine<'a>>,
    mutants: Vec<MutantLine<'a>>,
}

#[derive(Serialize)]
struct DriverLine<'a> {
    name: &'a str,
    kind: &'a str,
    test: String,
    manifest_dir: &'a str,
}

#[derive(Serialize)]
struct MutantLine<'a> {
    id: String,
    file: &'a str,
    line: u32,
    column: u32,
    function: &'a str,
    operator: &'a str,
    original: &'a str,
    replacement: &'a str,
}

/// The registry as JSON.
pub fn listing() -> String {
    let drivers = crate::schema::DRIVERS
        .iter()
        .map(|d| DriverLine {
            name: d.info.name,
            kind: d.kind,
            test: d.info.test_name(),
            manifest_dir: d.info.manifest_dir,
        })
        .collect();
    let mutants = crate::schema::mutants()
        .iter()
        .filter(|m| m.compiled)
        .map(|m| MutantLine {
            id: m.id.to_string(),
            file: m.file,
            line: m.line,
            column: m.column,
            function: m.function,
            operator: m.operator.name(),
            original: m.original,
            replacement: m.replacement,
        })
        .collect();
    crate::json::to_string(&Listing { drivers, mutants }).expect("plain data serializes")
}

// Safety: runs before main; it only reads an environment variable, writes to
// stdout and exits, none of which needs more of std than the C runtime has
// set up by then.
#[ctor::ctor(unsafe)]
fn list_on_request() {
    if std::env::var_os("MU2_LIST").is_some() {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", listing());
        let _ = out.flush();
        std::process::exit(0);
    }
}
