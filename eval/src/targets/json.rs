// The JSON fixture's target. This file is also `include!`d by the cargo-fuzz
// project (see `peers.rs`), so it uses only `mu2` and the fixture crate and
// has no inner doc comments. The generators are the fixture's own
// (`json::generate`), as its drivers use them.

use json::generate::{PARSER_DEPTH, json_text, json_value, printers};
use json::{ParseError, Value};
use mu2::{Invalid, Source};

fn parse(text: &str) -> Result<Value, ParseError> {
    json::Parser::new(text).max_depth(PARSER_DEPTH).parse()
}

/// Either the parser on grammar-directed text (the value tree or the error
/// with its position), or a value tree printed three ways and parsed back:
/// together they reach the parser, the printer and the values.
pub fn run(src: &mut Source) -> Result<String, Invalid> {
    Ok(if src.bool() {
        let value = json_value(src);
        let trips: Vec<_> = printers()
            .iter()
            .map(|p| {
                let text = p.print(&value);
                let back = json::parse(&text);
                (text, back)
            })
            .collect();
        format!("{trips:?}")
    } else {
        format!("{:?}", parse(&json_text(src)))
    })
}
