//! Source locations and short source snippets for the mutant metadata.

use proc_macro2::{Span, TokenStream};

/// 1-based line and column of a span (0, 0 where the compiler cannot say).
pub fn location(span: Span) -> (u32, u32) {
    let start = span.start();
    if start.line == 0 {
        return (0, 0);
    }
    (start.line as u32, start.column as u32 + 1)
}

/// Source text of some tokens, as written where the compiler still has it,
/// shortened to one line.
pub fn snippet(tokens: &TokenStream) -> String {
    let mut text = unary(&tokens.to_string());
    for (from, to) in [
        (" . ", "."),
        (" ,", ","),
        (" ;", ";"),
        ("( ", "("),
        (" )", ")"),
        ("[ ", "["),
        (" ]", "]"),
        (" (", "("),
        (" [", "["),
        ("! ", "!"),
        (" ?", "?"),
        (":: ", "::"),
        (" ::", "::"),
    ] {
        text = text.replace(from, to);
    }
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > 60 {
        let short: String = text.chars().take(57).collect();
        format!("{short}...")
    } else {
        text
    }
}

/// Tokens as printed (`! * flag`, `& mut v`, `a == - b`) with each unary
/// `*`, `&`, `-` or `!` joined to what follows (`!*flag`, `&mut v`,
/// `a == -b`). An operator is unary at the start, after another operator,
/// or after an opening bracket or a comma.
fn unary(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let operator = |w: &str| !w.is_empty() && w.chars().all(|c| "=<>!&|+-*/%^,;:([{".contains(c));
    let mut out = String::new();
    let mut glue = false;
    for (i, w) in words.iter().enumerate() {
        if i > 0 && !glue {
            out.push(' ');
        }
        out.push_str(w);
        // `*`, or `(*` where a group opens with it.
        glue = match w.char_indices().last() {
            Some((at, '*' | '&' | '-' | '!')) if w[..at].chars().all(|c| "([{".contains(c)) => {
                at > 0 || i == 0 || operator(words[i - 1])
            }
            _ => false,
        };
    }
    out
}

/// A type or path as a short readable name (`Parser<'a>`, `Vec<T>`).
pub fn type_name(tokens: &TokenStream) -> String {
    let text = tokens.to_string();
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' {
            let prev = out.chars().last().unwrap_or(' ');
            let next = chars.peek().copied().unwrap_or(' ');
            let word = |c: char| c.is_alphanumeric() || c == '_' || c == '\'';
            if word(prev) && word(next) {
                out.push(' ');
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// FNV-1a: a hash that is the same in every build, for generated names.
pub fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::snippet;

    fn show(src: &str) -> String {
        snippet(&src.parse().unwrap())
    }

    #[test]
    fn snippets() {
        assert_eq!(show("! * b_flag"), "!*b_flag");
        assert_eq!(show("v . push (& mut x)"), "v.push(&mut x)");
        assert_eq!(show("a == - b && ! c"), "a == -b && !c");
        assert_eq!(show("a * b - c"), "a * b - c");
        assert_eq!(show("f (a , * b)"), "f(a, *b)");
        assert_eq!(show("x [i] & mask"), "x[i] & mask");
    }
}
