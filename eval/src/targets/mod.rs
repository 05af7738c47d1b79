//! The fixtures under evaluation: one [`Fixture`] entry each.
//!
//! Every fixture target returns its output as `Debug` text, so that one
//! `Target<String>` type covers all fixtures and the differential and
//! property (implicit-oracle) targets differ only in how outputs compare.
//! Adding a fixture is a dependency line in `eval/Cargo.toml`, a file here
//! with a `pub fn run(&mut Source) -> Result<String, Invalid>`, and one entry
//! in [`all`].

use mu2::engine::Target;
use mu2::{Invalid, Source};

/// The sort fixture (the paper's running example).
pub mod sort;

/// The JSON parser and printer fixture.
pub mod json;

/// The web-application descriptor (XML) reader fixture.
pub mod config;

/// The type checker fixture.
pub mod typecheck;

/// The optimizing compiler fixture.
pub mod compiler;

/// A fixture and the harness's target over it.
#[derive(Clone, Copy, Debug)]
pub struct Fixture {
    /// Its name on the command line and in the report (its crate name too).
    pub name: &'static str,
    /// The fixture's folder relative to the workspace root: its mutants are
    /// the ones whose file lies under it.
    pub dir: &'static str,
    /// The generator and the calls into the library.
    pub run: fn(&mut Source) -> Result<String, Invalid>,
    /// This target's source file, relative to the workspace root, for the
    /// cargo-fuzz project to `include!`.
    pub source: &'static str,
    /// Functions whose mutants are left out of the counts, because the
    /// target does not call them (see the target's doc).
    pub skip_functions: &'static [&'static str],
}

/// Every fixture the harness knows, in report order.
pub fn all() -> Vec<Fixture> {
    vec![
        Fixture {
            name: "sort",
            dir: "fixtures/sort/",
            run: sort::run,
            source: "eval/src/targets/sort.rs",
            skip_functions: &["median"],
        },
        Fixture {
            name: "json",
            dir: "fixtures/json/",
            run: json::run,
            source: "eval/src/targets/json.rs",
            skip_functions: &[],
        },
        Fixture {
            name: "config",
            dir: "fixtures/config/",
            run: config::run,
            source: "eval/src/targets/config.rs",
            skip_functions: &[],
        },
        Fixture {
            name: "typecheck",
            dir: "fixtures/typecheck/",
            run: typecheck::run,
            source: "eval/src/targets/typecheck.rs",
            skip_functions: &[],
        },
        Fixture {
            name: "compiler",
            dir: "fixtures/compiler/",
            run: compiler::run,
            source: "eval/src/targets/compiler.rs",
            skip_functions: &[],
        },
    ]
}

/// The fixture called `name`.
pub fn find(name: &str) -> Option<Fixture> {
    all().into_iter().find(|f| f.name == name)
}

impl Fixture {
    /// The differential target: outputs are compared with the original's.
    pub fn differential(&self) -> Target<String> {
        Target {
            name: format!("{}-diff", self.name),
            run: self.run,
            snapshot: Some(|o: &String| o.clone()),
            compare: |a, b| a == b,
        }
    }

    /// The implicit-oracle target on the same code: only panics (and
    /// timeouts) tell a mutant apart.
    pub fn property(&self) -> Target<String> {
        Target {
            name: format!("{}-prop", self.name),
            run: self.run,
            snapshot: None,
            compare: |_, _| true,
        }
    }

    /// Whether a mutant (by its file and function) belongs to this fixture's
    /// evaluated code.
    pub fn owns(&self, file: &str, function: &str) -> bool {
        let file = file.replace('\\', "/");
        file.starts_with(self.dir) && !self.skip_functions.contains(&function)
    }
}
