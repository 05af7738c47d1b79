//! Each operator's mutants do what the operator says; unviable ones report
//! `Stop::Unviable`; the attribute's filters change what is listed; const
//! contexts, patterns, `unsafe`, macro bodies and tests are left alone.
//!
//! Mutants are found by their metadata (module, function, operator,
//! original, replacement), never by id.

#![allow(dead_code)]

use mu2::{Budget, Mutant, Operator, Outcome, Stop};

const MODULE: &str = module_path!();

/// All mutants of `function` in `module`.
fn of_in(module: &str, function: &str) -> Vec<&'static Mutant> {
    mu2::mutants()
        .iter()
        .filter(|m| m.module == module && m.function == function)
        .collect()
}

fn of(function: &str) -> Vec<&'static Mutant> {
    of_in(MODULE, function)
}

/// The one mutant of `function` with this operator, original and replacement.
fn one(function: &str, op: Operator, original: &str, replacement: &str) -> &'static Mutant {
    let found: Vec<_> = of(function)
        .into_iter()
        .filter(|m| m.operator == op && m.original == original && m.replacement == replacement)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{function}: {op} `{original}` -> `{replacement}` among {:#?}",
        of(function)
    );
    found[0]
}

/// `(operator, original, replacement)` of every mutant of `function`, sorted.
fn listing(function: &str) -> Vec<(Operator, String, String)> {
    listing_in(MODULE, function)
}

fn listing_in(module: &str, function: &str) -> Vec<(Operator, String, String)> {
    let mut v: Vec<_> = of_in(module, function)
        .into_iter()
        .map(|m| {
            (
                m.operator,
                m.original.to_string(),
                m.replacement.to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

fn run<R>(m: &Mutant, f: impl FnOnce() -> R) -> R {
    mu2::with_mutant(m.id, f)
}

fn quiet<R>(m: &Mutant, f: impl FnOnce() -> R) -> Outcome<R> {
    mu2::run_mutant(Some(m.id), Budget::default(), f)
}

// ----- conditionals_boundary and negate_conditionals -------------------------

#[mu2::mutate(only(conditionals_boundary, negate_conditionals))]
fn lt(a: i32, b: i32) -> bool {
    a < b
}
#[mu2::mutate(only(conditionals_boundary, negate_conditionals))]
fn le(a: i32, b: i32) -> bool {
    a <= b
}
#[mu2::mutate(only(conditionals_boundary, negate_conditionals))]
fn gt(a: i32, b: i32) -> bool {
    a > b
}
#[mu2::mutate(only(conditionals_boundary, negate_conditionals))]
fn ge(a: i32, b: i32) -> bool {
    a >= b
}
#[mu2::mutate(only(conditionals_boundary, negate_conditionals))]
fn eq(a: &str, b: &str) -> bool {
    a == b
}
#[mu2::mutate(only(conditionals_boundary, negate_conditionals))]
fn ne(a: f64, b: f64) -> bool {
    a != b
}

#[test]
fn conditionals_boundary() {
    use Operator::ConditionalsBoundary as B;
    let cases: [(&str, &str, &str, fn(i32, i32) -> bool); 4] = [
        ("lt", "<", "<=", lt),
        ("le", "<=", "<", le),
        ("gt", ">", ">=", gt),
        ("ge", ">=", ">", ge),
    ];
    for (name, original, replacement, f) in cases {
        let m = one(name, B, original, replacement);
        // Differs from the original on equal operands only.
        assert_eq!(run(m, || f(2, 2)), !f(2, 2), "{m}");
        assert_eq!(run(m, || f(1, 2)), f(1, 2), "{m}");
        assert_eq!(run(m, || f(2, 1)), f(2, 1), "{m}");
    }
    // Nothing else is a boundary mutant.
    assert!(of("eq").iter().chain(&of("ne")).all(|m| m.operator != B));
}

#[test]
fn negate_conditionals() {
    use Operator::NegateConditionals as N;
    let cases: [(&str, &str, &str, fn(i32, i32) -> bool); 4] = [
        ("lt", "<", ">=", lt),
        ("le", "<=", ">", le),
        ("gt", ">", "<=", gt),
        ("ge", ">=", "<", ge),
    ];
    for (name, original, replacement, f) in cases {
        let m = one(name, N, original, replacement);
        for (a, b) in [(1, 2), (2, 2), (2, 1)] {
            assert_eq!(run(m, || f(a, b)), !f(a, b), "{m} on {a}, {b}");
        }
    }
    let m = one("eq", N, "==", "!=");
    assert!(run(m, || eq("a", "b")));
    assert!(!run(m, || eq("a", "a")));
    let m = one("ne", N, "!=", "==");
    assert!(run(m, || ne(1.0, 1.0)));
    assert!(!run(m, || ne(1.0, 2.0)));
    // The mutant is `==` itself: false for NaN, as `NaN != NaN` is true.
    assert!(!run(m, || ne(f64::NAN, f64::NAN)));
    assert!(ne(f64::NAN, f64::NAN));
}

// ----- remove_conditionals --------------------------------------------------

#[mu2::mutate(only(remove_conditionals))]
fn pick(c: bool) -> i32 {
    if c { 1 } else { 2 }
}

#[mu2::mutate(only(remove_conditionals))]
fn count_to(n: u32) -> u32 {
    let mut i = 0;
    while i < n {
        i += 1;
    }
    i
}

#[test]
fn remove_conditionals() {
    use Operator::RemoveConditionals as R;
    let yes = one("pick", R, "c", "true");
    let no = one("pick", R, "c", "false");
    assert_eq!((pick(true), pick(false)), (1, 2));
    assert_eq!((run(yes, || pick(true)), run(yes, || pick(false))), (1, 1));
    assert_eq!((run(no, || pick(true)), run(no, || pick(false))), (2, 2));

    let never = one("count_to", R, "i < n", "false");
    assert_eq!(run(never, || count_to(5)), 0);
    let always = one("count_to", R, "i < n", "true");
    // `while true` never ends: the budget stops it.
    assert_eq!(
        quiet(always, || count_to(5)),
        Outcome::Stopped(Stop::Timeout("steps"))
    );
    let stop = std::panic::catch_unwind(|| run(always, || count_to(5))).unwrap_err();
    assert!(matches!(
        stop.downcast_ref::<Stop>(),
        Some(Stop::Timeout(_))
    ));
    assert_eq!(listing("count_to").len(), 2);
}

// ----- math -----------------------------------------------------------------

#[mu2::mutate(only(math))]
fn arith(a: i32, b: i32) -> [i32; 5] {
    [a + b, a - b, a * b, a / b, a % b]
}

#[mu2::mutate(only(math))]
fn bits(a: u8, b: u8) -> [u8; 5] {
    [a & b, a | b, a ^ b, a << b, a >> b]
}

#[mu2::mutate(only(math))]
fn compound(mut a: i32, b: i32) -> i32 {
    a += b;
    a *= b;
    a -= b;
    a /= b;
    a %= b + 3;
    a
}

#[test]
fn math() {
    use Operator::Math as M;
    let (a, b) = (7, 3);
    let table = [
        ("+", "-", a - b),
        ("-", "+", a + b),
        ("*", "/", a / b),
        ("/", "*", a * b),
        ("%", "*", a * b),
    ];
    for (k, (original, replacement, expected)) in table.into_iter().enumerate() {
        let m = one("arith", M, original, replacement);
        let mut want = arith(a, b);
        want[k] = expected;
        assert_eq!(run(m, || arith(a, b)), want, "{m}");
    }
    let (a, b) = (0b1100u8, 2u8);
    let table = [
        ("&", "|", a | b),
        ("|", "&", a & b),
        ("^", "&", a & b),
        ("<<", ">>", a >> b),
        (">>", "<<", a << b),
    ];
    for (k, (original, replacement, expected)) in table.into_iter().enumerate() {
        let m = one("bits", M, original, replacement);
        let mut want = bits(a, b);
        want[k] = expected;
        assert_eq!(run(m, || bits(a, b)), want, "{m}");
    }
    // Compound assignments with a non-literal right side are math.
    assert_eq!(compound(5, 2), 1); // 7, 14, 12, 6, 6 % 5
    let m = one("compound", M, "+=", "-=");
    assert_eq!(run(m, || compound(5, 2)), 2); // 3, 6, 4, 2, 2 % 5
    let m = one("compound", M, "*=", "/=");
    assert_eq!(run(m, || compound(5, 2)), 0); // 7, 3, 1, 0, 0 % 5
    let m = one("compound", M, "-=", "+=");
    assert_eq!(run(m, || compound(5, 2)), 3); // 7, 14, 16, 8, 8 % 5
    let m = one("compound", M, "/=", "*=");
    assert_eq!(run(m, || compound(5, 2)), 4); // 7, 14, 12, 24, 24 % 5
    let m = one("compound", M, "%=", "*=");
    assert_eq!(run(m, || compound(5, 2)), 30); // 6 * 5
    // `b + 3` is a site of its own.
    let m = one("compound", M, "+", "-");
    assert_eq!(run(m, || compound(5, 2)), 0); // 6 % -1
    assert!(of("compound").iter().all(|m| m.operator == M));
}

// ----- increments -----------------------------------------------------------

#[mu2::mutate(only(increments, math))]
fn steps(mut x: i64, k: i64) -> i64 {
    x += 1;
    x -= 3;
    x += k;
    x
}

#[test]
fn increments() {
    use Operator::Increments as I;
    assert_eq!(steps(10, 5), 13);
    let up = one("steps", I, "+=", "-=");
    assert_eq!(run(up, || steps(10, 5)), 11);
    let down = one("steps", I, "-=", "+=");
    assert_eq!(run(down, || steps(10, 5)), 19);
    // `x += k` is not an increment: its right side is not a literal.
    assert_eq!(
        of("steps").iter().filter(|m| m.operator == I).count(),
        2,
        "{:#?}",
        of("steps")
    );
    let math = one("steps", Operator::Math, "+=", "-=");
    assert_eq!(run(math, || steps(10, 5)), 3);
}

// ----- invert_negatives -----------------------------------------------------

#[mu2::mutate(only(invert_negatives))]
fn negs(x: i32, y: f64) -> (i32, f64, i32) {
    (-x, -y, -5)
}

#[test]
fn invert_negatives() {
    use Operator::InvertNegatives as I;
    let m = one("negs", I, "-x", "x");
    assert_eq!(run(m, || negs(3, 1.5)), (3, -1.5, -5));
    let m = one("negs", I, "-y", "y");
    assert_eq!(run(m, || negs(3, 1.5)), (-3, 1.5, -5));
    // A negative literal is not a site.
    assert_eq!(listing("negs").len(), 2, "{:#?}", listing("negs"));
}

// ----- boolean --------------------------------------------------------------

#[mu2::mutate(only(boolean))]
fn logic(a: bool, b: bool) -> (bool, bool, bool, u8) {
    (!a, a && b, a || b, !0b1010u8)
}

#[test]
fn boolean() {
    use Operator::Boolean as B;
    let m = one("logic", B, "!a", "a");
    assert_eq!(run(m, || logic(true, false)).0, true);
    let m = one("logic", B, "&&", "||");
    assert_eq!(run(m, || logic(true, false)).1, true);
    assert_eq!(run(m, || logic(false, false)).1, false);
    let m = one("logic", B, "||", "&&");
    assert_eq!(run(m, || logic(true, false)).2, false);
    assert_eq!(run(m, || logic(true, true)).2, true);
    // `!` on an integer is bitwise, and its mutant drops it all the same.
    let m = one("logic", B, "!0b1010u8", "0b1010u8");
    assert_eq!(run(m, || logic(true, true)).3, 0b1010);
    assert_eq!(logic(true, true).3, !0b1010u8);
}

// ----- void_calls -----------------------------------------------------------

#[mu2::mutate(only(void_calls))]
fn push_two(v: &mut Vec<i32>) {
    v.push(1);
    v.push(2);
}

fn helper(v: &mut Vec<i32>, x: i32) -> usize {
    v.push(x);
    v.len()
}

#[mu2::mutate(only(void_calls))]
fn calls(v: &mut Vec<i32>) -> usize {
    helper(v, 7);
    v.sort();
    v.len()
}

#[test]
fn void_calls() {
    use Operator::VoidCalls as V;
    let first = one("push_two", V, "v.push(1);", "");
    let mut v = vec![];
    run(first, || push_two(&mut v));
    assert_eq!(v, [2]);
    let second = one("push_two", V, "v.push(2);", "");
    let mut v = vec![];
    run(second, || push_two(&mut v));
    assert_eq!(v, [1]);

    let f = one("calls", V, "helper(v, 7);", "");
    let mut v = vec![3];
    assert_eq!(run(f, || calls(&mut v)), 1);
    let s = one("calls", V, "v.sort();", "");
    let mut v = vec![3];
    assert_eq!(run(s, || calls(&mut v)), 2);
    assert_eq!(v, [3, 7]);
    // The tail expression `v.len()` is a value, not a call statement.
    assert_eq!(listing("calls").len(), 2);
}

// ----- returns --------------------------------------------------------------

#[derive(Debug, Default, PartialEq)]
struct Point {
    x: i32,
}

#[derive(Debug, PartialEq)]
struct NoDefault(i32);

mod returning {
    use super::*;

    #[mu2::mutate(only(returns))]
    pub fn flag() -> bool {
        false
    }
    #[mu2::mutate(only(returns))]
    pub fn int() -> u16 {
        7
    }
    #[mu2::mutate(only(returns))]
    pub fn float() -> f32 {
        7.5
    }
    #[mu2::mutate(only(returns))]
    pub fn option() -> Option<i32> {
        Some(3)
    }
    #[mu2::mutate(only(returns))]
    pub fn string() -> String {
        "abc".to_string()
    }
    #[mu2::mutate(only(returns))]
    pub fn vector() -> Vec<u8> {
        vec![1, 2]
    }
    #[mu2::mutate(only(returns))]
    pub fn point() -> Point {
        Point { x: 4 }
    }
    #[mu2::mutate(only(returns))]
    pub fn result() -> Result<Vec<i32>, String> {
        Err("no".into())
    }
    #[mu2::mutate(only(returns))]
    pub fn side(v: &mut Vec<i32>) {
        v.push(1);
    }
    #[mu2::mutate(only(returns))]
    pub fn no_default() -> NoDefault {
        NoDefault(1)
    }
    #[mu2::mutate(only(returns))]
    pub fn result_no_default() -> Result<NoDefault, String> {
        Ok(NoDefault(2))
    }
    #[mu2::mutate(only(returns))]
    pub fn generic<T: Clone>(t: &T) -> T {
        t.clone()
    }
    #[mu2::mutate(only(returns))]
    pub fn iter() -> impl Iterator<Item = u8> {
        [1u8].into_iter()
    }
    #[mu2::mutate(only(returns))]
    pub fn never() -> ! {
        panic!("never")
    }

    #[derive(Debug, PartialEq)]
    pub struct Origin(pub i32);

    // `Default::default()` for `default()` would only call itself.
    #[mu2::mutate(only(returns))]
    impl Default for Origin {
        fn default() -> Self {
            Origin(0)
        }
    }

    #[mu2::mutate(only(returns))]
    impl Origin {
        pub fn default() -> Self {
            Origin(1)
        }
    }

    // A type whose `Default` holds only for `'static`: no `Default` mutant
    // for other lifetimes (it would not borrow-check); `Cow` keeps its own.
    pub struct Words<'a>(pub Vec<&'a str>);

    impl Default for Words<'static> {
        fn default() -> Self {
            Words(vec![])
        }
    }

    #[mu2::mutate(only(returns))]
    pub fn words(s: &str) -> Words<'_> {
        Words(s.split(' ').collect())
    }

    #[mu2::mutate(only(returns))]
    pub fn cow(s: &str) -> std::borrow::Cow<'_, str> {
        s.into()
    }

    #[mu2::mutate(only(returns))]
    pub fn some_words(s: &str) -> Option<Words<'_>> {
        Some(words(s))
    }

    pub struct Lexer<'a>(pub &'a str);

    #[mu2::mutate(only(returns))]
    impl<'a> Iterator for Lexer<'a> {
        type Item = &'a str;
        fn next(&mut self) -> Option<Self::Item> {
            let (word, rest) = self.0.split_once(' ').unwrap_or((self.0, ""));
            self.0 = rest;
            (!word.is_empty()).then_some(word)
        }
    }
}

#[test]
fn returns() {
    use Operator::Returns as R;
    use returning::*;
    let module = format!("{MODULE}::returning");
    let r = |function: &str, replacement: &str| -> &'static Mutant {
        let found: Vec<_> = of_in(&module, function)
            .into_iter()
            .filter(|m| m.operator == R && m.replacement == replacement)
            .collect();
        assert_eq!(found.len(), 1, "{function} -> {replacement}");
        found[0]
    };
    assert!(run(r("flag", "true"), flag));
    assert!(!run(r("flag", "false"), flag));
    assert_eq!(run(r("int", "0"), int), 0);
    assert_eq!(run(r("int", "1"), int), 1);
    assert_eq!(run(r("float", "0.0"), float), 0.0);
    assert_eq!(run(r("float", "1.0"), float), 1.0);
    assert_eq!(run(r("option", "None"), option), None);
    assert_eq!(run(r("string", "String::new()"), string), "");
    assert_eq!(run(r("vector", "vec![]"), vector), Vec::<u8>::new());
    assert_eq!(
        run(r("point", "Default::default()"), point),
        Point::default()
    );
    assert_eq!(
        run(r("result", "Ok(Default::default())"), result),
        Ok(vec![])
    );
    let mut v = vec![];
    run(r("side", "()"), || side(&mut v));
    assert!(v.is_empty(), "the unit mutant returns before the body runs");

    // No Default: unviable, reported as such when run.
    let m = r("no_default", "Default::default()");
    assert_eq!(quiet(m, no_default), Outcome::Stopped(Stop::Unviable(m.id)));
    let m = r("result_no_default", "Ok(Default::default())");
    assert_eq!(
        quiet(m, result_no_default),
        Outcome::Stopped(Stop::Unviable(m.id))
    );
    let m = r("generic", "Default::default()");
    assert_eq!(
        quiet(m, || generic(&5)),
        Outcome::Stopped(Stop::Unviable(m.id))
    );
    let stop = std::panic::catch_unwind(|| run(m, || generic(&5))).unwrap_err();
    assert_eq!(stop.downcast_ref::<Stop>(), Some(&Stop::Unviable(m.id)));

    // Nothing to return instead of `impl Trait` or `!`.
    assert!(of_in(&module, "iter").is_empty());
    assert!(of_in(&module, "never").is_empty());
    assert!(of_in(&module, "<Origin as Default>::default").is_empty());
    assert_eq!(
        run(r("Origin::default", "Default::default()"), Origin::default),
        Origin(0)
    );
    assert!(of_in(&module, "words").is_empty());
    assert_eq!(run(r("cow", "Default::default()"), || cow("x")), "");
    assert!(run(r("some_words", "None"), || some_words("x")).is_none());
    let next = r("<Lexer<'a> as Iterator>::next", "None");
    assert_eq!(Lexer("a b").count(), 2);
    assert_eq!(run(next, || Lexer("a b").count()), 0);
    // Each function has only its return mutants, one or two.
    assert_eq!(listing_in(&module, "flag").len(), 2);
    assert_eq!(listing_in(&module, "option").len(), 1);
}

// ----- unviable operator mutants -------------------------------------------

#[mu2::mutate(only(math))]
fn concat(a: String, b: &str) -> String {
    a + b
}

#[mu2::mutate(only(math))]
fn generic_sum<T: std::ops::Add<Output = T>>(a: T, b: T) -> T {
    a + b
}

#[mu2::mutate(only(math))]
fn append(mut s: String, t: &str) -> String {
    s += t;
    s
}

#[mu2::mutate(only(invert_negatives))]
fn neg_ref(x: &i32) -> i32 {
    -x
}

#[test]
fn unviable_mutants_stop_when_run() {
    use Operator::{InvertNegatives, Math};
    let cases: [(&Mutant, fn()); 4] = [
        (one("concat", Math, "+", "-"), || {
            drop(concat("a".into(), "b"))
        }),
        (one("generic_sum", Math, "+", "-"), || {
            _ = generic_sum(1u8, 2u8)
        }),
        (one("append", Math, "+=", "-="), || {
            drop(append("a".into(), "b"))
        }),
        // `-&i32` is an `i32`: `x` alone is a `&i32`, not the same type.
        (one("neg_ref", InvertNegatives, "-x", "x"), || {
            _ = neg_ref(&1)
        }),
    ];
    for (m, f) in cases {
        assert_eq!(quiet(m, f), Outcome::Stopped(Stop::Unviable(m.id)), "{m}");
        let stop = std::panic::catch_unwind(|| run(m, f)).unwrap_err();
        assert_eq!(stop.downcast_ref::<Stop>(), Some(&Stop::Unviable(m.id)));
    }
    // The originals still run.
    assert_eq!(concat("a".into(), "b"), "ab");
    assert_eq!(generic_sum(1.5, 2.0), 3.5);
    assert_eq!(append("a".into(), "b"), "ab");
    assert_eq!(neg_ref(&1), -1);
    // In generic code the bounds decide, not the type it runs with:
    // `Duration` has `-`, but `T: Add` does not promise it.
    let m = one("generic_sum", Math, "+", "-");
    let secs = std::time::Duration::from_secs;
    assert_eq!(
        quiet(m, || generic_sum(secs(3), secs(1))),
        Outcome::Stopped(Stop::Unviable(m.id))
    );
}

// ----- attribute arguments --------------------------------------------------

#[mu2::mutate(only(math))]
fn only_math(a: i32, b: i32) -> bool {
    a + b > 0 && !(a * b < 0)
}

#[mu2::mutate(exclude(math, returns, remove_conditionals))]
fn excluded(a: i32, b: i32) -> bool {
    if a + b > 0 { a > 1 } else { !(a * b < 0) }
}

#[mu2::mutate]
mod filtered {
    #[mu2::mutate(skip)]
    pub fn skipped(a: i32) -> i32 {
        a + 1
    }

    #[mu2::mutate(only(returns))]
    pub fn narrowed(a: i32) -> i32 {
        a + 1
    }

    pub fn statements(a: i32) -> i32 {
        #[mu2::mutate(skip)]
        let b = a + 1;
        #[mu2::mutate(skip)]
        {
            let _ = b * 2;
        }
        b - 1
    }

    pub struct S;

    impl S {
        #[mu2::mutate(skip)]
        pub fn skipped_method(&self) -> i32 {
            1 + 1
        }

        pub fn method(&self) -> i32 {
            2 + 2
        }
    }

    #[mu2::mutate(skip)]
    pub mod skipped_module {
        pub fn f() -> i32 {
            1 + 1
        }
    }
}

#[test]
fn only_and_exclude() {
    let ops = |f: &str| {
        let mut v: Vec<_> = of(f).iter().map(|m| m.operator).collect();
        v.sort();
        v.dedup();
        v
    };
    assert_eq!(ops("only_math"), [Operator::Math]);
    assert_eq!(listing("only_math").len(), 2);
    assert_eq!(
        ops("excluded"),
        [
            Operator::ConditionalsBoundary,
            Operator::NegateConditionals,
            Operator::Boolean
        ]
    );
    // `>`, `>` and `<` with two mutants each, and `!`.
    assert_eq!(of("excluded").len(), 7, "{:#?}", listing("excluded"));
}

#[test]
fn skip_on_items_and_statements() {
    let module = format!("{MODULE}::filtered");
    assert!(of_in(&module, "skipped").is_empty());
    assert!(of_in(&module, "S::skipped_method").is_empty());
    assert!(of_in(&format!("{module}::skipped_module"), "f").is_empty());
    assert_eq!(
        listing_in(&module, "narrowed"),
        [
            (Operator::Returns, "{ ... }".into(), "0".into()),
            (Operator::Returns, "{ ... }".into(), "1".into())
        ]
    );
    assert_eq!(listing_in(&module, "S::method").len(), 3);
    // Only the tail `b - 1` (and the return value) is mutated.
    let originals: Vec<_> = of_in(&module, "statements")
        .iter()
        .map(|m| m.original)
        .collect();
    assert_eq!(
        originals.iter().filter(|o| **o == "-").count(),
        1,
        "{originals:?}"
    );
    assert!(
        !originals.contains(&"+") && !originals.contains(&"*"),
        "{originals:?}"
    );
    assert_eq!(filtered::skipped(1), 2);
    assert_eq!(filtered::statements(1), 1);
    assert_eq!(filtered::S.skipped_method() + filtered::S.method(), 6);
}

// ----- what is not mutated ---------------------------------------------------

#[mu2::mutate]
mod untouched {
    pub const K: i32 = 2 + 3;
    pub static S: i32 = 4 * 5;

    pub const fn const_fn(a: i32) -> i32 {
        a + 1
    }

    pub fn consts_and_lengths(a: i32) -> usize {
        const LOCAL: usize = 1 + 2;
        static LOCAL_STATIC: usize = 3 - 1;
        let arr = [0u8; LOCAL * 2];
        let typed: [u8; 2 + 1] = [1; 3];
        let inline = const { 10 - 1 };
        arr.len() + typed.len() + inline + LOCAL_STATIC + a as usize
    }

    pub fn patterns(a: i32) -> i32 {
        match a {
            -5..=-1 => 1,
            0 | 1 => 2,
            x @ 2..=9 => x,
            _ => 0,
        }
    }

    // Not even outside the block: the safe code may uphold what it assumes.
    pub fn unsafe_block(a: i32, v: &[i32]) -> i32 {
        let i = if a > 0 { a as usize - 1 } else { 0 };
        let p = &a as *const i32;
        let x = unsafe { *p + 1 - 1 };
        if i < v.len() {
            x + unsafe { *v.get_unchecked(i) }
        } else {
            x
        }
    }

    pub fn unsafe_in_closure(a: i32) -> i32 {
        let f = |x: i32| unsafe { *(&x as *const i32) + 1 };
        f(a) * 2
    }

    pub fn unsafe_in_nested_fn_only(a: i32) -> i32 {
        fn inner(x: i32) -> i32 {
            unsafe { *(&x as *const i32) }
        }
        inner(a) + 1
    }

    pub unsafe fn unsafe_fn(a: i32) -> i32 {
        a + 1
    }

    pub fn macros(a: i32) -> Vec<i32> {
        assert!(a + 1 > a - 1);
        let s = format!("{}", a * 2);
        vec![a + 1, s.len() as i32]
    }

    #[cfg(test)]
    pub fn cfg_test(a: i32) -> i32 {
        a + 1
    }

    #[test]
    fn a_test_inside() {
        assert_eq!(1 + 1, 2);
    }
}

#[test]
fn const_contexts_patterns_unsafe_macros_and_tests_are_not_mutated() {
    let module = format!("{MODULE}::untouched");
    let all: Vec<_> = mu2::mutants()
        .iter()
        .filter(|m| m.module == module)
        .collect();
    let in_fn = |f: &str| -> Vec<(Operator, &str)> {
        all.iter()
            .filter(|m| m.function == f)
            .map(|m| (m.operator, m.original))
            .collect()
    };
    for f in ["const_fn", "unsafe_fn", "cfg_test", "a_test_inside"] {
        assert!(in_fn(f).is_empty(), "{f}: {:?}", in_fn(f));
    }
    // Only the value `arr.len() + ...` sums and the return value are mutated.
    let c = in_fn("consts_and_lengths");
    assert!(
        c.iter()
            .all(|(op, o)| *op == Operator::Returns || *o == "+"),
        "{c:?}"
    );
    assert_eq!(c.iter().filter(|(_, o)| *o == "+").count(), 4, "{c:?}");
    // Patterns hold no sites: only the return value.
    assert!(
        in_fn("patterns")
            .iter()
            .all(|(op, _)| *op == Operator::Returns)
    );
    assert!(
        in_fn("unsafe_block").is_empty(),
        "{:?}",
        in_fn("unsafe_block")
    );
    assert!(in_fn("unsafe_in_closure").is_empty());
    assert!(in_fn("unsafe_in_nested_fn_only::inner").is_empty());
    assert!(
        in_fn("unsafe_in_nested_fn_only")
            .iter()
            .any(|(_, o)| *o == "+")
    );
    // Macro arguments are left alone; the `vec!` result is a return value.
    assert!(
        in_fn("macros")
            .iter()
            .all(|(op, _)| *op == Operator::Returns)
    );
    // Module-level const and static items have no function and no mutants.
    assert!(all.iter().all(|m| !m.function.is_empty()));
    assert_eq!((untouched::K, untouched::S), (5, 20));
    assert_eq!(untouched::consts_and_lengths(1), 6 + 3 + 9 + 2 + 1);
    assert_eq!(untouched::patterns(-3) + untouched::patterns(5), 6);
    assert_eq!(untouched::unsafe_block(2, &[5, 6]), 8);
    assert_eq!(untouched::unsafe_in_closure(1), 4);
    assert_eq!(untouched::unsafe_in_nested_fn_only(1), 2);
    // A function with an `unsafe` block still has its branch probes.
    let (_, t) = mu2::probe::record(mu2::Budget::default(), || {
        untouched::unsafe_block(2, &[5, 6])
    });
    assert!(t.hits().iter().any(|h| *h > 0));
}

// ----- metadata and the switch -----------------------------------------------

#[mu2::mutate(only(math))]
fn located(a: i32) -> i32 {
    a + 1
}
const LOCATED_LINE: u32 = line!() - 2;

#[test]
fn metadata_points_at_the_source() {
    let m = one("located", Operator::Math, "+", "-");
    assert!(m.file.ends_with("operators.rs"), "{}", m.file);
    assert_eq!((m.line, m.column), (LOCATED_LINE, 7));
    assert_eq!(m.module, MODULE);
    assert_eq!(mu2::mutant(m.id).map(|x| x.index), Some(m.index));
    assert_eq!(&mu2::mutants()[m.index].id, &m.id);
    let shown = m.to_string();
    assert!(
        shown.contains("operators.rs") && shown.contains("math") && shown.contains("`+` -> `-`"),
        "{shown}"
    );
}

#[test]
fn impl_and_trait_functions_are_named_by_their_owner() {
    #[allow(dead_code)]
    trait Area {
        fn area(&self) -> u32;
        fn double(&self) -> u32 {
            self.area() * 2
        }
    }
    struct Sq(u32);
    #[mu2::mutate(only(math))]
    impl Area for Sq {
        fn area(&self) -> u32 {
            self.0 * self.0
        }
    }
    #[mu2::mutate(only(math))]
    impl Sq {
        fn side(&self) -> u32 {
            self.0 + 0
        }
    }
    let area = one("<Sq as Area>::area", Operator::Math, "*", "/");
    assert_eq!(run(area, || Sq(3).area()), 1);
    let side = one("Sq::side", Operator::Math, "+", "-");
    assert_eq!(run(side, || Sq(3).side()), 3);
    assert_eq!(Sq(3).double(), 18);
}

#[test]
fn the_switch_is_per_call_and_per_thread() {
    let m = one("located", Operator::Math, "+", "-");
    assert_eq!(mu2::active_mutant(), None);
    assert_eq!(located(1), 2);
    let (inside, value) = run(m, || (mu2::active_mutant(), located(1)));
    assert_eq!((inside, value), (Some(m.id), 0));
    // Other threads run the original.
    assert_eq!(
        run(m, || std::thread::spawn(|| located(1)).join().unwrap()),
        2
    );
    // Nested: the inner setting wins, the outer comes back.
    let boundary = one("lt", Operator::ConditionalsBoundary, "<", "<=");
    let (a, b, c) = run(m, || {
        let inner = run(boundary, || (located(1), lt(2, 2)));
        (inner, located(1), lt(2, 2))
    });
    assert_eq!((a, b, c), ((2, true), 0, false));
    assert_eq!(mu2::active_mutant(), None);
    // After a panic too.
    let _ = std::panic::catch_unwind(|| run(m, || panic!("boom")));
    assert_eq!((mu2::active_mutant(), located(1)), (None, 2));
    // run_mutant(None, ..) runs the original, quietly.
    assert_eq!(
        mu2::run_mutant(None, Budget::default(), || located(1)),
        Outcome::Returned(2)
    );
    let Outcome::Panicked(p) =
        mu2::run_mutant(None, Budget::default(), || -> i32 { panic!("quiet {}", 1) })
    else {
        panic!("expected a panic")
    };
    assert_eq!(p.message, "quiet 1");
}

#[test]
fn an_unknown_id_is_a_clear_panic() {
    let missing = (0..u64::MAX)
        .map(mu2::MutantId)
        .find(|id| mu2::mutant(*id).is_none())
        .unwrap();
    let err = std::panic::catch_unwind(|| mu2::with_mutant(missing, || ())).unwrap_err();
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        msg.contains(&missing.to_string()) && msg.contains("mu2::mutants()"),
        "{msg}"
    );
}

#[mu2::mutate]
fn read_bytes(n: usize) -> std::io::Result<Vec<u8>> {
    Ok(vec![1; n])
}

#[test]
fn a_qualified_result_gets_an_ok_default_mutant() {
    let m = mu2::mutants()
        .iter()
        .find(|m| m.function == "read_bytes" && m.operator == mu2::Operator::Returns)
        .expect("a returns mutant for io::Result<Vec<u8>>");
    assert_eq!(m.replacement, "Ok(Default::default())");
    assert_eq!(
        mu2::with_mutant(m.id, || read_bytes(3).unwrap()),
        Vec::<u8>::new()
    );
}
