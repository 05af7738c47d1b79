//! Probes: which mutants a run of the original executes and infects, branch
//! hit counts; and mutant ids: unique, round-tripping, stable.

#![allow(dead_code)]

use std::collections::BTreeSet;

use mu2::probe::Trace;
use mu2::{Budget, Mutant, MutantId, Operator, Outcome};

const MODULE: &str = module_path!();

fn of(function: &str) -> Vec<&'static Mutant> {
    mu2::mutants()
        .iter()
        .filter(|m| m.module.starts_with(MODULE) && m.function == function)
        .collect()
}

fn one(function: &str, op: Operator, replacement: &str) -> &'static Mutant {
    let found: Vec<_> = of(function)
        .into_iter()
        .filter(|m| m.operator == op && m.replacement == replacement)
        .collect();
    assert_eq!(
        found.len(),
        1,
        "{function}: {op} -> {replacement}: {:#?}",
        of(function)
    );
    found[0]
}

fn record<R>(f: impl FnOnce() -> R) -> (Outcome<R>, Trace) {
    mu2::probe::record(Budget::default(), f)
}

/// Names of the mutants of `function` that `trace` infected.
fn infected(trace: &Trace, function: &str) -> BTreeSet<String> {
    of(function)
        .into_iter()
        .filter(|m| trace.infects(m))
        .map(|m| format!("{} {}", m.original, m.replacement))
        .collect()
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Branch probes hit in a run, as (index, count).
fn hits(trace: &Trace) -> Vec<(usize, u32)> {
    trace
        .hits()
        .iter()
        .enumerate()
        .filter(|(_, h)| **h > 0)
        .map(|(i, h)| (i, *h))
        .collect()
}

fn hit_set(trace: &Trace) -> BTreeSet<usize> {
    hits(trace).into_iter().map(|(i, _)| i).collect()
}

// ----- execution -----------------------------------------------------------

#[mu2::mutate(exclude(returns))]
fn branchy(x: i32) -> i32 {
    if x > 0 { x * 2 } else { x - 1 }
}

#[test]
fn execution_is_recorded_per_site() {
    let (out, t) = record(|| branchy(3));
    assert_eq!(out, Outcome::Returned(6));
    let ran = |r: &str| one("branchy", Operator::Math, r);
    assert!(t.ran(ran("/")), "`x * 2` ran");
    assert!(!t.ran(ran("+")), "`x - 1` did not");
    for m in of("branchy").iter().filter(|m| m.original == ">") {
        assert!(t.ran(m));
    }
    let (_, t) = record(|| branchy(-3));
    assert!(!t.ran(ran("/")) && t.ran(ran("+")));
    // Nothing outside the run is recorded.
    let (_, t) = record(|| 1 + 1);
    assert_eq!((t.executed().count(), t.infected().count()), (0, 0));
    assert!(t.hits().iter().all(|h| *h == 0));
    assert_eq!(t.hits().len(), mu2::branch_count());
    // Without probes, nothing is recorded and nothing changes.
    assert_eq!(branchy(3), 6);
}

// ----- infection: comparisons are exact ------------------------------------

#[mu2::mutate(only(conditionals_boundary, negate_conditionals))]
fn less(a: i32, b: i32) -> bool {
    a < b
}

#[mu2::mutate(only(conditionals_boundary, negate_conditionals))]
fn same(a: &str, b: &str) -> bool {
    a == b
}

#[test]
fn comparison_infection_is_exact() {
    // 1 < 2: `<=` agrees, `>=` does not; both ran.
    let (_, t) = record(|| less(1, 2));
    assert_eq!(infected(&t, "less"), names(&["< >="]));
    assert!(of("less").iter().all(|m| t.ran(m)));
    // 2 < 2: both differ.
    let (_, t) = record(|| less(2, 2));
    assert_eq!(infected(&t, "less"), names(&["< <=", "< >="]));
    // 3 < 2: `<=` agrees again.
    let (_, t) = record(|| less(3, 2));
    assert_eq!(infected(&t, "less"), names(&["< >="]));
    let (_, t) = record(|| same("a", "b"));
    assert_eq!(infected(&t, "same"), names(&["== !="]));
    let (_, t) = record(|| same("a", "a"));
    assert_eq!(infected(&t, "same"), names(&["== !="]));
}

// ----- infection: arithmetic -----------------------------------------------

#[mu2::mutate(only(math))]
fn mul(a: u8, b: u8) -> u8 {
    a * b
}

#[mu2::mutate(only(math))]
fn sub(a: u8, b: u8) -> u8 {
    a - b
}

#[mu2::mutate(only(math))]
fn add(a: u8, b: u8) -> u8 {
    a + b
}

#[mu2::mutate(only(math, increments))]
fn bump(mut a: u8, b: u8) -> u8 {
    a += b;
    a
}

#[mu2::mutate(only(invert_negatives))]
fn neg(a: i8) -> i8 {
    -a
}

#[test]
fn arithmetic_infection() {
    // 1 * 1 == 1 / 1: not infected.
    let (_, t) = record(|| mul(1, 1));
    assert!(infected(&t, "mul").is_empty());
    assert!(t.ran(one("mul", Operator::Math, "/")));
    // 2 * 3 != 2 / 3.
    let (_, t) = record(|| mul(2, 3));
    assert_eq!(infected(&t, "mul"), names(&["* /"]));
    // 5 / 0 panics: that differs from 5 * 0 = 0.
    let (_, t) = record(|| mul(5, 0));
    assert_eq!(infected(&t, "mul"), names(&["* /"]));
    // 200 + 100 overflows: that differs from 200 - 100.
    let (_, t) = record(|| sub(200, 100));
    assert_eq!(infected(&t, "sub"), names(&["- +"]));
    // 0 - 0 == 0 + 0.
    let (_, t) = record(|| sub(0, 0));
    assert!(infected(&t, "sub").is_empty());
    // Compound assignment: 4 += 0 is 4 -= 0.
    let (_, t) = record(|| bump(4, 0));
    assert!(infected(&t, "bump").is_empty());
    let (_, t) = record(|| bump(4, 1));
    assert_eq!(infected(&t, "bump"), names(&["+= -="]));
    // -0 == 0; -3 != 3.
    let (_, t) = record(|| neg(0));
    assert!(infected(&t, "neg").is_empty());
    let (_, t) = record(|| neg(3));
    assert_eq!(infected(&t, "neg"), names(&["-a a"]));
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "needs overflow checks (a debug build)"
)]
fn a_panicking_original_infects_the_alternatives_that_do_not() {
    // 250 + 10 overflows; 250 - 10 does not: the mutant is killable here.
    let (out, t) = record(|| add(250, 10));
    assert!(matches!(out, Outcome::Panicked(_)), "{out:?}");
    assert!(t.ran(one("add", Operator::Math, "-")));
    assert_eq!(infected(&t, "add"), names(&["+ -"]));
    // 0 - 1 overflows; 0 + 1 does not.
    let (_, t) = record(|| sub(0, 1));
    assert_eq!(infected(&t, "sub"), names(&["- +"]));
    // 200 += 100 overflows; 200 -= 100 does not.
    let (_, t) = record(|| bump(200, 100));
    assert_eq!(infected(&t, "bump"), names(&["+= -="]));
    // -(-128) overflows; -128 does not.
    let (_, t) = record(|| neg(i8::MIN));
    assert_eq!(infected(&t, "neg"), names(&["-a a"]));
}

// ----- infection: conservative cases ---------------------------------------

#[derive(Debug, Clone, PartialEq)]
struct Big(Vec<u8>);

impl std::ops::Add for Big {
    type Output = Big;
    fn add(mut self, o: Big) -> Big {
        self.0.extend(o.0);
        self
    }
}

impl std::ops::Sub for Big {
    type Output = Big;
    fn sub(self, _: Big) -> Big {
        self
    }
}

#[mu2::mutate(only(math))]
fn join(a: Big, b: Big) -> Big {
    a + b
}

#[mu2::mutate(only(math))]
fn concat(a: String, b: &str) -> String {
    a + b
}

#[mu2::mutate(only(void_calls, returns))]
fn effects(v: &mut Vec<u8>) -> bool {
    v.clear();
    v.is_empty()
}

#[test]
fn non_copy_operands_are_infected_conservatively() {
    // `Big + Big` cannot be evaluated twice: the viable `-` counts as
    // infected even where it would agree (empty + empty == empty - empty).
    let (out, t) = record(|| join(Big(vec![]), Big(vec![])));
    assert_eq!(out, Outcome::Returned(Big(vec![])));
    assert_eq!(infected(&t, "join"), names(&["+ -"]));
    // The unviable `String - &str` is recorded as unviable, not infected.
    let (_, t) = record(|| concat("a".into(), "b"));
    let m = one("concat", Operator::Math, "-");
    assert!(t.ran(m) && !t.infects(m) && t.unviable().contains(m.index));
    // A removed call and a replaced return value count as infected.
    let (_, t) = record(|| effects(&mut vec![]));
    assert_eq!(
        infected(&t, "effects"),
        names(&["v.clear(); ", "{ ... } true", "{ ... } false"])
    );
}

// ----- infection: a user's operators are not called again -------------------

/// A point type whose `Sub` is written with its `Add` and whose `Add` with
/// its `Sub` (each calls the other's annotated code), and a counter of its
/// `PartialEq` calls kept in the value.
#[mu2::mutate(only(math))]
mod inverse {
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct P(pub i64);

    impl std::ops::Neg for P {
        type Output = P;
        fn neg(self) -> P {
            P(0 - self.0)
        }
    }

    impl std::ops::Add for P {
        type Output = P;
        fn add(self, o: P) -> P {
            P(self.0 + o.0)
        }
    }

    impl std::ops::Sub for P {
        type Output = P;
        fn sub(self, o: P) -> P {
            self + -o
        }
    }

    pub fn total(a: P, b: P) -> P {
        a + b
    }
}

#[test]
fn alternatives_on_user_types_are_not_evaluated() {
    use inverse::{P, total};
    // Evaluating `sub`'s `+` site's alternative `-` would be `sub` again,
    // an endless recursion: on a user's type no alternative is evaluated.
    let (out, _) = record(|| P(5) - P(2));
    assert_eq!(out, Outcome::Returned(P(3)));
    // `total`'s `-` would run `sub`, `neg` and `add`, and record their
    // sites as if the program had run them: it counts as infected instead.
    let (out, t) = record(|| total(P(1), P(2)));
    assert_eq!(out, Outcome::Returned(P(3)));
    assert_eq!(infected(&t, "total"), names(&["+ -"]));
    let method = |name: &str| -> Vec<&'static Mutant> {
        let found: Vec<_> = mu2::mutants()
            .iter()
            .filter(|m| m.module.ends_with("::inverse") && m.function.ends_with(name))
            .collect();
        assert!(!found.is_empty(), "no mutants in {name}");
        found
    };
    for f in [">::sub", ">::neg"] {
        assert!(method(f).iter().all(|m| !t.ran(m)), "{f} recorded");
    }
    // `add`'s own site ran, in the original.
    assert!(method(">::add").iter().all(|m| t.ran(m)));
    // No steps beyond the program's: as many as a run that evaluates
    // nothing (coverage probes only).
    let mut coverage = Trace::default();
    let budget = Budget::default();
    mu2::probe::record_with(&mut coverage, mu2::probe::Probes::Coverage, budget, || {
        total(P(1), P(2))
    });
    assert_eq!(t.steps(), coverage.steps());
}

// ----- logic and conditions ------------------------------------------------

#[mu2::mutate(only(boolean))]
fn and(a: bool, b: bool) -> bool {
    a && b
}

#[mu2::mutate(only(boolean))]
fn or(a: bool, b: bool) -> bool {
    a || b
}

#[mu2::mutate(only(remove_conditionals))]
fn choose(c: bool) -> u8 {
    if c { 1 } else { 2 }
}

#[test]
fn logic_infection() {
    let inf = |f: fn(bool, bool) -> bool, name, a, b| {
        let (out, t) = record(|| f(a, b));
        assert_eq!(out, Outcome::Returned(f(a, b)));
        // Cross-check with the mutant itself, where it could be evaluated.
        let m = one(
            name,
            Operator::Boolean,
            if name == "and" { "||" } else { "&&" },
        );
        assert!(t.ran(m));
        let differs = mu2::with_mutant(m.id, || f(a, b)) != f(a, b);
        (t.infects(m), differs)
    };
    // Right side evaluated: exact. `true && b` vs `true || b` differ iff !b.
    assert_eq!(inf(and, "and", true, true), (false, false));
    assert_eq!(inf(and, "and", true, false), (true, true));
    // `false || b` vs `false && b` differ iff b.
    assert_eq!(inf(or, "or", false, false), (false, false));
    assert_eq!(inf(or, "or", false, true), (true, true));
    // Short-circuited: the right side is unknown, so infected.
    assert!(inf(and, "and", false, false).0);
    assert!(inf(or, "or", true, true).0);

    // `if c`: the mutant `true` is infected when c is false, and back.
    let (_, t) = record(|| choose(true));
    assert_eq!(infected(&t, "choose"), names(&["c false"]));
    let (_, t) = record(|| choose(false));
    assert_eq!(infected(&t, "choose"), names(&["c true"]));
}

#[test]
fn known_mutants_are_skipped_and_the_rest_recorded_as_before() {
    let work = || {
        let mut r = 0;
        for x in 0..6 {
            r += branchy(x - 2) + less(x, 3) as i32 + mul(x as u8, 3) as i32;
            r += bump(x as u8, 2) as i32 + neg(x as i8) as i32 + choose(x > 2) as i32;
            r += covered::count_while(x as u32) as i32 + covered::sign(x - 2);
        }
        r
    };
    let (out, full) = record(work);
    let infected: Vec<usize> = full.infected().iter().collect();
    assert!(infected.len() > 10, "{infected:?}");
    // Every other infected mutant is known: whole sites and parts of sites.
    let mut known = mu2::Bits::new(mu2::mutants().len());
    infected.iter().step_by(2).for_each(|&m| known.insert(m));
    let mut seeded = Trace::default();
    let again = mu2::probe::record_known(&mut seeded, &known, Budget::default(), work);
    assert_eq!(again, out);
    assert_eq!(hits(&seeded), hits(&full));
    assert_eq!(seeded.steps(), full.steps());
    for m in 0..mu2::mutants().len() {
        if known.contains(m) {
            assert!(seeded.executed().contains(m) && seeded.infected().contains(m));
        } else {
            assert_eq!(
                seeded.executed().contains(m),
                full.executed().contains(m),
                "{m}"
            );
            assert_eq!(
                seeded.infected().contains(m),
                full.infected().contains(m),
                "{m}"
            );
            assert_eq!(
                seeded.unviable().contains(m),
                full.unviable().contains(m),
                "{m}"
            );
        }
    }
}

// ----- branch coverage -------------------------------------------------------

#[mu2::mutate]
mod covered {
    pub fn sign(x: i32) -> i32 {
        if x > 0 { 1 } else { -1 }
    }

    pub fn arm(x: u8) -> &'static str {
        match x {
            0 => "zero",
            1 | 2 => "small",
            _ => "big",
        }
    }

    pub fn count(n: u32) -> u32 {
        let mut s = 0;
        for i in 0..n {
            s += i;
        }
        s
    }

    pub fn count_while(n: u32) -> u32 {
        let mut i = 0;
        while i < n {
            i += 1;
        }
        i
    }

    pub fn both(a: bool, b: bool) -> bool {
        a && b
    }

    pub fn either(a: bool, b: bool) -> bool {
        a || b
    }

    pub fn question(r: Result<u8, ()>) -> Result<u8, ()> {
        let v = r?;
        Ok(v + 1)
    }

    pub fn question_option(o: Option<u8>) -> Option<u8> {
        Some(o? + 1)
    }

    pub fn if_let(o: Option<u8>) -> u8 {
        if let Some(x) = o {
            return x;
        }
        0
    }
}

#[test]
fn branch_hit_counts() {
    use covered::*;
    let branch_sets = |fs: &[&dyn Fn()]| -> Vec<BTreeSet<usize>> {
        fs.iter().map(|f| hit_set(&record(|| f()).1)).collect()
    };
    let disjoint = |sets: &[BTreeSet<usize>], what: &str| {
        for (i, a) in sets.iter().enumerate() {
            assert_eq!(a.len(), 1, "{what}: one probe per run: {sets:?}");
            for b in &sets[i + 1..] {
                assert!(a.is_disjoint(b), "{what}: {sets:?}");
            }
        }
    };
    // if / else: one probe each way.
    disjoint(&branch_sets(&[&|| _ = sign(1), &|| _ = sign(-1)]), "if");
    // match: one probe per arm, whichever pattern of an arm matched.
    let sets = branch_sets(&[&|| _ = arm(0), &|| _ = arm(1), &|| _ = arm(9)]);
    disjoint(&sets, "match");
    assert_eq!(sets[1], branch_sets(&[&|| _ = arm(2)])[0]);
    // && and ||: short-circuit and right side evaluated are two probes.
    disjoint(
        &branch_sets(&[&|| _ = both(false, true), &|| _ = both(true, true)]),
        "&&",
    );
    assert_eq!(
        branch_sets(&[&|| _ = both(true, false)])[0],
        branch_sets(&[&|| _ = both(true, true)])[0]
    );
    disjoint(
        &branch_sets(&[&|| _ = either(true, false), &|| _ = either(false, false)]),
        "||",
    );
    // ?: continue and break.
    disjoint(
        &branch_sets(&[&|| _ = question(Ok(1)), &|| _ = question(Err(()))]),
        "? on Result",
    );
    disjoint(
        &branch_sets(&[&|| _ = question_option(Some(1)), &|| {
            _ = question_option(None)
        }]),
        "? on Option",
    );
    disjoint(
        &branch_sets(&[&|| _ = if_let(Some(1)), &|| _ = if_let(None)]),
        "if let",
    );

    // Loops count their iterations.
    let (_, t) = record(|| count(5));
    assert_eq!(hits(&t).iter().map(|(_, h)| *h).collect::<Vec<_>>(), [5]);
    let (_, t) = record(|| count(0));
    assert!(hits(&t).is_empty());
    // `while i < n`: the condition is taken 3 times and not once; the body
    // runs 3 times.
    let (_, t) = record(|| count_while(3));
    let mut counts: Vec<_> = hits(&t).iter().map(|(_, h)| *h).collect();
    counts.sort();
    assert_eq!(counts, [1, 3, 3]);
    // Hit counts add up over calls within one run.
    let (_, t) = record(|| (sign(1), sign(2), sign(-1)));
    let mut counts: Vec<_> = hits(&t).iter().map(|(_, h)| *h).collect();
    counts.sort();
    assert_eq!(counts, [1, 2]);
    // Steps: the loop's iterations and the annotated call.
    let (_, t) = record(|| count(5));
    assert!(t.steps() >= 5, "{}", t.steps());
}

// ----- the budget --------------------------------------------------------------

#[mu2::mutate(only(increments))]
fn spin(n: i64) -> i64 {
    let mut i = 0;
    while i != n {
        i += 1;
    }
    i
}

#[mu2::mutate(only(math))]
fn deep(n: u64) -> u64 {
    if n == 0 { 0 } else { 1 + deep(n - 1) }
}

#[mu2::mutate(only(math))]
fn first_square_at_least(n: u64) -> u64 {
    (1u64..).find(|k| k * k >= n).unwrap()
}

/// Waits out what is left of a rate-limit interval (in milliseconds).
#[mu2::mutate(only(negate_conditionals))]
fn wait_out(elapsed: u64, interval: u64) -> u64 {
    if elapsed < interval {
        std::thread::sleep(std::time::Duration::from_millis(
            interval.wrapping_sub(elapsed),
        ));
    }
    elapsed
}

#[test]
fn a_sleep_past_the_wall_clock_budget_is_a_timeout() {
    use std::time::{Duration, Instant};
    let budget = Budget::UNLIMITED.wall(Duration::from_secs(5));
    // Sleeps that fit run as written, outside runs and in them.
    assert_eq!(wait_out(3, 5), 3);
    let started = Instant::now();
    assert_eq!(
        mu2::run_mutant(None, budget, || wait_out(3, 5)),
        Outcome::Returned(3)
    );
    assert!(started.elapsed() >= Duration::from_millis(2));
    // `<` -> `>=` wraps the interval around to 584 million years: the run
    // ends at once as a timeout, without waiting for its deadline.
    let m = one("wait_out", Operator::NegateConditionals, ">=");
    let started = Instant::now();
    let out = mu2::run_mutant(Some(m.id), budget, || wait_out(50, 2));
    assert_eq!(out, Outcome::Stopped(mu2::Stop::Timeout("time")));
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    // Without a wall-clock budget there is nothing to outlast.
    assert_eq!(
        mu2::run_mutant(None, Budget::UNLIMITED, || wait_out(3, 5)),
        Outcome::Returned(3)
    );
}

#[test]
fn budgets_stop_runaway_mutants() {
    // A closure's mutant makes `find` endless: closure calls count as steps.
    let m = one("first_square_at_least", Operator::Math, "/");
    let out = mu2::run_mutant(Some(m.id), Budget::default().steps(10_000), || {
        first_square_at_least(10)
    });
    assert_eq!(out, Outcome::Stopped(mu2::Stop::Timeout("steps")));
    assert_eq!(first_square_at_least(10), 4);

    let m = one("spin", Operator::Increments, "-=");
    let out = mu2::run_mutant(Some(m.id), Budget::default().steps(10_000), || spin(3));
    assert_eq!(out, Outcome::Stopped(mu2::Stop::Timeout("steps")));
    // The original within the same budget is fine.
    assert_eq!(
        mu2::run_mutant(None, Budget::default().steps(10_000), || spin(3)),
        Outcome::Returned(3)
    );
    let m = one("deep", Operator::Math, "+");
    let out = mu2::run_mutant(Some(m.id), Budget::default().depth(100), || deep(3));
    assert_eq!(out, Outcome::Stopped(mu2::Stop::Timeout("depth")));
    assert_eq!(deep(3), 3);
    // The stack budget stops recursion before the depth limit does.
    let deep_stack = Budget::default().depth(u32::MAX).stack(64 << 10);
    let out = mu2::run_mutant(Some(m.id), deep_stack, || deep(3));
    assert_eq!(out, Outcome::Stopped(mu2::Stop::Timeout("depth")));
    // The clock stops a loop long before a far step limit would; it is
    // read every few thousand steps, counted one by one or in chunks.
    let m = one("spin", Operator::Increments, "-=");
    let clock = Budget::UNLIMITED
        .steps(500_000_000)
        .wall(std::time::Duration::from_millis(50));
    let out = mu2::run_mutant(Some(m.id), clock, || spin(3));
    assert_eq!(out, Outcome::Stopped(mu2::Stop::Timeout("time")));
    // Probing runs under a budget too.
    let (out, _) = mu2::probe::record(Budget::default().steps(10), || spin(1_000));
    assert_eq!(out, Outcome::Stopped(mu2::Stop::Timeout("steps")));
}

// ----- ids --------------------------------------------------------------------

#[test]
fn ids_are_unique_and_round_trip() {
    let all = mu2::mutants();
    assert!(all.len() > 50);
    let ids: BTreeSet<MutantId> = all.iter().map(|m| m.id).collect();
    assert_eq!(ids.len(), all.len(), "ids are unique");
    for (i, m) in all.iter().enumerate() {
        assert_eq!(m.index, i);
        let back = mu2::mutant(m.id).expect("lookup by id");
        assert_eq!((back.index, back.id), (m.index, m.id));
        let parsed: MutantId = m.id.to_string().parse().unwrap();
        assert_eq!(parsed, m.id);
        assert_eq!(m.id.to_string().len(), 16);
    }
    assert!("not hex".parse::<MutantId>().is_err());
    assert_eq!(" 00000000000000ff ".parse::<MutantId>(), Ok(MutantId(255)));
    // The mutants of one annotated item are listed together.
    let twins: Vec<_> = all
        .iter()
        .filter(|m| m.function == "twins" && m.module == MODULE)
        .collect();
    assert_eq!(twins.len(), 2);
    assert_eq!(twins[0].index + 1, twins[1].index);
}

/// An id names a mutant by what it is, not where the linker put it: it is a
/// hash of the file, module, function, operator, original and replacement
/// texts, and the mutant's ordinal among identical siblings. Corpora and
/// reports saved by one build are read by the next, so the scheme is
/// pinned here.
#[test]
fn ids_are_a_function_of_the_source() {
    fn fnv(parts: &[&str]) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for part in parts {
            for b in part.bytes().chain([0xff]) {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    }
    fn mix(a: u64, b: u64) -> u64 {
        let mut x = a ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^= x >> 31;
        x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x ^ (x >> 29)
    }
    let mut ordinals = std::collections::HashMap::new();
    for m in mu2::mutants() {
        let key = fnv(&[
            m.file,
            m.module,
            m.function,
            m.operator.name(),
            m.original,
            m.replacement,
        ]);
        let ordinal = ordinals.entry(key).or_insert(0u64);
        assert_eq!(m.id, MutantId(mix(key, *ordinal)), "{m}");
        *ordinal += 1;
    }
}

#[mu2::mutate(only(math))]
fn twins(a: i32) -> (i32, i32) {
    (a + 1, a + 1)
}

mod copy {
    #[mu2::mutate(only(math))]
    pub fn twins(a: i32) -> (i32, i32) {
        (a + 1, a + 1)
    }
}

#[test]
fn identical_sites_have_distinct_ids() {
    let here: Vec<_> = mu2::mutants()
        .iter()
        .filter(|m| m.function == "twins")
        .collect();
    assert_eq!(here.len(), 4);
    let ids: BTreeSet<_> = here.iter().map(|m| m.id).collect();
    assert_eq!(ids.len(), 4);
    // And each is the one it names.
    let first = here.iter().find(|m| m.module == MODULE).unwrap();
    assert_eq!(mu2::with_mutant(first.id, || twins(1)), (0, 2));
    assert_eq!(copy::twins(1), (2, 2));
}

/// The same binary lists the same ids in every process.
#[test]
fn ids_are_the_same_in_another_process() {
    const VAR: &str = "MU2_PROBES_TEST_PRINT_IDS";
    let listing = || {
        mu2::mutants()
            .iter()
            .map(|m| format!("{} {}\n", m.id, m))
            .collect::<String>()
    };
    if std::env::var_os(VAR).is_some() {
        print!("BEGIN\n{}END\n", listing());
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "ids_are_the_same_in_another_process",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(VAR, "1")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let start = stdout.find("BEGIN\n").unwrap() + "BEGIN\n".len();
    let end = stdout.find("END\n").unwrap();
    assert_eq!(&stdout[start..end], listing());
}

// ----- code a `cfg` configures out ------------------------------------------

#[mu2::mutate(exclude(returns))]
mod configured {
    #[cfg(any())]
    pub fn never(x: i32) -> i32 {
        x + 1
    }

    #[cfg(all())]
    pub fn always(x: i32) -> i32 {
        x * 2
    }

    pub fn parts(mut x: i32, k: u8) -> (i32, i32) {
        #[cfg(any())]
        {
            x -= 100;
        }
        #[cfg(all())]
        {
            x += 1;
        }
        let y = match k {
            #[cfg(any())]
            0 => x / 3,
            _ => x % 5,
        };
        (x, y)
    }
}

#[test]
fn mutants_configured_out_are_listed_but_not_compiled() {
    assert_eq!(configured::always(2), 4);
    assert_eq!(configured::parts(1, 0), (2, 2));
    let of_module: Vec<&Mutant> = mu2::mutants()
        .iter()
        .filter(|m| m.module.ends_with("::configured"))
        .collect();
    let compiled = |original: &str| -> Vec<bool> {
        of_module
            .iter()
            .filter(|m| m.original == original)
            .map(|m| m.compiled)
            .collect()
    };
    // `x + 1` in `never`, `x -= 100`, `x / 3`: configured out.
    assert_eq!(compiled("+"), [false]);
    assert_eq!(compiled("-="), [false]);
    assert_eq!(compiled("/"), [false]);
    // `x * 2`, `x += 1`, `x % 5`: in the build.
    assert_eq!(compiled("*"), [true]);
    assert_eq!(compiled("+="), [true]);
    assert_eq!(compiled("%"), [true]);
    // `cargo mu2` is told only of the ones in the build, and a report
    // (here of an empty corpus) counts only those.
    let listing = mu2_runtime::list::listing();
    let dir = tempfile::tempdir().unwrap();
    let target = mu2_runtime::engine::Target {
        name: "configured".to_string(),
        run: |_: &mut mu2::Source| Ok(configured::always(1)),
        snapshot: None,
        compare: |_, _| true,
    };
    let mut store = mu2_runtime::corpus::Store::open(dir.path(), &target.name).unwrap();
    let report = mu2_runtime::score::first_kills(&target, &mut store, 1).unwrap();
    for m in &of_module {
        let id = m.id.to_string();
        assert_eq!(listing.contains(&id), m.compiled, "{m}");
        assert_eq!(report.mutants.iter().any(|r| r.id == id), m.compiled, "{m}");
    }
}
