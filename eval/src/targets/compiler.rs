// The compiler fixture's target. This file is also `include!`d by the
// cargo-fuzz project (see `peers.rs`), so it uses only `mu2` and the fixture
// crate and has no inner doc comments. The programs come from the type
// checker's generator, which the compiler re-exports with its front end
// (`compiler::typecheck::generate`), as the fixture's drivers use it.

use compiler::{Limits, interp, lower, opt, vm};
use mu2::{Invalid, Source};

/// A generated program, compiled, optimized and run: the run (what it
/// printed, how it ended, the globals, its steps) and the optimizer's
/// report, or why it did not compile. The reference interpreter runs it
/// too, and a disagreement panics, so the property target (which only sees
/// panics) checks that optimizing keeps the program's meaning.
pub fn run(src: &mut Source) -> Result<String, Invalid> {
    let text = compiler::typecheck::generate::program(src);
    let limits = Limits {
        fuel: 5_000,
        ..Limits::default()
    };
    let typed = match compiler::check(&text) {
        Ok(typed) => typed,
        Err(e) => return Ok(format!("{e}")),
    };
    let mut module = lower::lower(&typed);
    let report = opt::optimize(&mut module);
    let optimized = vm::run(&module, limits);
    let reference = interp::run(&typed, limits);
    assert!(
        optimized.agrees_with(&reference),
        "optimized {optimized:?}\nreference {reference:?}"
    );
    Ok(format!("{optimized:?} {report:?}"))
}
