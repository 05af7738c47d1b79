// The JSON fixture's target. This file is also `include!`d by the cargo-fuzz
// project (see `peers.rs`), so it uses only `mu2` and the fixture crate and
// has no inner doc comments. The generators are copied from the fixture's
// `tests/drivers.rs` (test files cannot be imported).

use json::{Map, Number, ParseError, Printer, Value};
use mu2::{Invalid, Source};

/// How deeply the generators nest arrays and objects (but for the slip that
/// nests around `PARSER_DEPTH`).
const MAX_DEPTH: u32 = 5;
/// The depth limit the drivers parse with. Well below the default (128): an
/// instrumented debug build needs about 8 KiB of stack a level, and 128
/// levels would exceed mu2's default stack budget (1 MiB), turning a
/// replay under plain `cargo test` into a timeout.
const PARSER_DEPTH: usize = 32;
/// The most elements (or members) of one array (or object).
const MAX_LEN: usize = 6;

// ---------------------------------------------------------------------------
// JSON text, from the grammar.

/// JSON text from the grammar of RFC 8259: valid most of the time, with a
/// deliberate slip now and then (a missing comma, a leading zero, a bad
/// escape, a raw control character, nesting past the depth limit, text cut
/// short...), so the error paths run too. All-zero bytes give `null`.
fn json_text(src: &mut Source) -> String {
    let mut out = String::new();
    whitespace(src, &mut out);
    if slip(src) {
        deep(src, &mut out);
    } else {
        value(src, &mut out);
    }
    whitespace(src, &mut out);
    if slip(src) {
        if src.bool() {
            // Cut short, anywhere.
            let mut cut = src.int_in_range(0..=out.len());
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
        } else {
            out.push_str(one_of(src, &["x", "]", ",", " 1", "}", "\"", "\0"]));
        }
    }
    out
}

/// A value nested in arrays or objects around the drivers' depth limit,
/// perhaps with an empty sibling at each level.
fn deep(src: &mut Source, out: &mut String) {
    let levels = src.int_in_range(PARSER_DEPTH - 8..=PARSER_DEPTH + 7);
    let (open, sibling, close) = *src.choose(&[("[", ",[]", "]"), ("{\"a\":", ",\"b\":{}", "}")]);
    let siblings = src.bool();
    out.push_str(&open.repeat(levels));
    value(src, out);
    for _ in 0..levels {
        if siblings {
            out.push_str(sibling);
        }
        out.push_str(close);
    }
}

/// Whether to make a slip here: about one choice in 32. Zero bytes (havoc's
/// zero runs, replay past the end) never slip.
fn slip(src: &mut Source) -> bool {
    src.int_in_range(0u8..=31) == 31
}

/// One of some pieces of text.
fn one_of(src: &mut Source, pieces: &[&'static str]) -> &'static str {
    pieces[src.index(pieces.len())]
}

fn whitespace(src: &mut Source, out: &mut String) {
    if src.int_in_range(0u8..=3) == 3 {
        let n = src.size(1..=4);
        for _ in 0..n {
            out.push(*src.choose(&[' ', '\n', '\t', '\r']));
        }
    }
}

fn value(src: &mut Source, out: &mut String) {
    let compound = src.depth() < MAX_DEPTH && src.int_in_range(0u8..=2) == 2;
    if compound {
        if src.bool() {
            src.nest(MAX_DEPTH, |s| array(s, out), |_| ());
        } else {
            src.nest(MAX_DEPTH, |s| object(s, out), |_| ());
        }
        return;
    }
    match src.int_in_range(0u8..=7) {
        0 => literal(src, out, "null"),
        1 => literal(src, out, "true"),
        2 => literal(src, out, "false"),
        3 | 4 => number(src, out),
        5 | 6 => string(src, out),
        _ => {
            if slip(src) {
                // Not a value at all.
                out.push_str(one_of(
                    src,
                    &["'a'", "+1", ".5", "NaN", "undefined", "\u{a0}0", ""],
                ));
            } else {
                number(src, out);
            }
        }
    }
}

fn literal(src: &mut Source, out: &mut String, word: &str) {
    if slip(src) {
        // Misspelled or cut short.
        let cut = src.int_in_range(1..=word.len() - 1);
        out.push_str(&word[..cut]);
        if src.bool() {
            out.push(*src.choose(&['x', 'E', '1']));
        }
    } else {
        out.push_str(word);
    }
}

fn digits(src: &mut Source, out: &mut String, len: std::ops::RangeInclusive<usize>) {
    let n = src.size(len);
    for _ in 0..n {
        out.push(char::from(b'0' + src.int_in_range(0u8..=9)));
    }
}

fn number(src: &mut Source, out: &mut String) {
    if src.bool() {
        out.push('-');
    }
    match src.int_in_range(0u8..=3) {
        0 => out.push('0'),
        1 if slip(src) => out.push_str("01"),
        _ => {
            out.push(char::from(b'1' + src.int_in_range(0u8..=8)));
            // Up to 21 digits: past i64 sometimes.
            digits(src, out, 0..=20);
        }
    }
    if src.int_in_range(0u8..=3) == 3 {
        out.push('.');
        let len = if slip(src) { 0..=0 } else { 1..=8 };
        digits(src, out, len);
    }
    if src.int_in_range(0u8..=3) == 3 {
        out.push(*src.choose(&['e', 'E']));
        out.push_str(one_of(src, &["", "+", "-"]));
        // Up to three digits: past the range of f64 sometimes.
        let len = if slip(src) { 0..=0 } else { 1..=3 };
        digits(src, out, len);
    }
}

/// Characters for strings: plain, needing an escape, and non-ASCII (two,
/// three and four bytes of UTF-8).
const CHARS: &[char] = &[
    'a', 'b', 'z', 'A', '0', ' ', '/', '\'', '"', '\\', 'é', 'ß', '中', '€', '😀', '𝄞', '\u{7f}',
];

fn string(src: &mut Source, out: &mut String) {
    out.push('"');
    let n = src.size(0..=10);
    for _ in 0..n {
        match src.int_in_range(0u8..=3) {
            0 | 1 => match *src.choose(CHARS) {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c => out.push(c),
            },
            2 => escape(src, out),
            _ => unicode_escape(src, out),
        }
    }
    if !slip(src) {
        out.push('"');
    }
}

fn escape(src: &mut Source, out: &mut String) {
    if slip(src) {
        // A bad escape, or a raw control character.
        out.push_str(one_of(
            src,
            &["\\x", "\\U", "\\'", "\\\u{e9}", "\n", "\t", "\u{1}"],
        ));
    } else {
        out.push_str(one_of(
            src,
            &["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"],
        ));
    }
}

fn hex4(src: &mut Source, out: &mut String, unit: u16) {
    let upper = src.bool();
    let hex = if upper {
        format!("\\u{unit:04X}")
    } else {
        format!("\\u{unit:04x}")
    };
    out.push_str(&hex);
}

fn unicode_escape(src: &mut Source, out: &mut String) {
    match src.int_in_range(0u8..=3) {
        // Anything in the BMP but a surrogate.
        0 | 1 => {
            let unit = src.u16();
            let unit = if (0xD800..=0xDFFF).contains(&unit) {
                unit - 0xD000
            } else {
                unit
            };
            hex4(src, out, unit);
        }
        // ASCII, controls included.
        2 => {
            let unit = src.int_in_range(0u16..=0x7f);
            hex4(src, out, unit);
        }
        // A surrogate pair.
        _ => {
            let high = src.int_in_range(0xD800u16..=0xDBFF);
            let low = src.int_in_range(0xDC00u16..=0xDFFF);
            hex4(src, out, high);
            if slip(src) {
                // Unpaired.
                return;
            }
            hex4(src, out, low);
        }
    }
    if slip(src) {
        out.push_str(one_of(src, &["\\u12", "\\ud800", "\\udc00", "\\uZZZZ"]));
    }
}

fn separator(src: &mut Source, out: &mut String, sep: char) {
    whitespace(src, out);
    if !slip(src) {
        out.push(sep);
    }
    whitespace(src, out);
}

fn array(src: &mut Source, out: &mut String) {
    out.push('[');
    whitespace(src, out);
    let n = src.size(0..=MAX_LEN);
    for i in 0..n {
        if i > 0 {
            separator(src, out, ',');
        }
        value(src, out);
    }
    whitespace(src, out);
    if slip(src) {
        // A trailing comma, no end, or the wrong end.
        let comma = src.bool();
        if comma {
            out.push(',');
            whitespace(src, out);
        }
        out.push_str(one_of(src, &["]", "", "}"]));
    } else {
        out.push(']');
    }
}

/// Keys from a small pool, so that a slip can repeat one.
const KEYS: &[&str] = &["a", "b", "id", "name", "é", "", "\\n", "\\u0041"];

fn object(src: &mut Source, out: &mut String) {
    out.push('{');
    whitespace(src, out);
    let n = src.size(0..=MAX_LEN);
    let mut used = Vec::new();
    for i in 0..n {
        if i > 0 {
            separator(src, out, ',');
        }
        let key = *src.choose(KEYS);
        if used.contains(&key) && !slip(src) {
            // A fresh key instead of a duplicate.
            out.push_str(&format!("\"k{i}\""));
        } else if slip(src) {
            out.push_str(one_of(src, &["k", "1", "'k'", "null"]));
        } else {
            used.push(key);
            out.push('"');
            out.push_str(key);
            out.push('"');
        }
        separator(src, out, ':');
        value(src, out);
    }
    whitespace(src, out);
    if slip(src) {
        let comma = src.bool();
        if comma {
            out.push(',');
            whitespace(src, out);
        }
        out.push_str(one_of(src, &["}", "", "]"]));
    } else {
        out.push('}');
    }
}

// ---------------------------------------------------------------------------
// Value trees.

/// A value tree: every kind of number (integers of every size, floats from
/// arbitrary bits, and round ones), strings of any characters (controls,
/// quotes, non-BMP), nested arrays and objects.
fn json_value(src: &mut Source) -> Value {
    let compound = src.depth() < MAX_DEPTH && src.int_in_range(0u8..=2) == 2;
    if compound {
        return src.nest(
            MAX_DEPTH,
            |s| {
                let n = s.size(0..=MAX_LEN);
                if s.bool() {
                    Value::Array((0..n).map(|_| json_value(s)).collect())
                } else {
                    let mut map = Map::new();
                    for _ in 0..n {
                        let key = any_string(s);
                        map.insert(key, json_value(s));
                    }
                    Value::Object(map)
                }
            },
            |_| Value::Null,
        );
    }
    match src.int_in_range(0u8..=7) {
        0 => Value::Null,
        1 => Value::Bool(src.bool()),
        2 => Value::from(src.int_in_range(-1000i64..=1000)),
        3 => Value::from(src.i64()),
        4 => {
            let bits = src.u64();
            Value::Number(Number::from_f64(f64::from_bits(bits)).unwrap_or(Number::from(0)))
        }
        5 => {
            let round = [
                0.0,
                -0.0,
                0.5,
                1.0,
                -2.0,
                1e16,
                1e-7,
                1e300,
                5e-324,
                f64::MAX,
            ];
            Value::Number(Number::from_f64(*src.choose(&round)).unwrap())
        }
        _ => Value::String(any_string(src)),
    }
}

fn any_string(src: &mut Source) -> String {
    let n = src.size(0..=8);
    (0..n)
        .map(|_| match src.int_in_range(0u8..=3) {
            0 => *src.choose(CHARS),
            1 => char::from(src.int_in_range(0u8..=0x7f)),
            2 => *src.choose(&['\n', '\r', '\t', '\u{8}', '\u{c}', '\0', '\u{1f}']),
            _ => char::from_u32(src.int_in_range(0x80u32..=0x10FFFF)).unwrap_or('\u{FFFD}'),
        })
        .collect()
}

/// The printers the round trip goes through.
fn printers() -> [Printer; 3] {
    [
        Printer::compact(),
        Printer::pretty(),
        Printer::compact().indent(1).ascii(true),
    ]
}

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
