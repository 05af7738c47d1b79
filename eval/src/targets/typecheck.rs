// The type checker fixture's target. This file is also `include!`d by the
// cargo-fuzz project (see `peers.rs`), so it uses only `mu2` and the fixture
// crate and has no inner doc comments. The generator is the fixture's own
// (`typecheck::generate`), as its drivers use it.

use mu2::{Invalid, Source};

/// A generated program (mostly well-typed, now and then with a type or
/// syntax error), checked: the typed tree and the type errors, or the
/// syntax error. As the fixture's `checks` driver.
pub fn run(src: &mut Source) -> Result<String, Invalid> {
    let text = typecheck::generate::program(src);
    Ok(format!("{:?}", typecheck::check_source(&text)))
}
