//! The entry points that `#[mu2::mutate]`'s generated code calls, one per
//! kind of site. Each first looks at the switch as the call saw it at entry
//! ([`Here`]): when no mutant of this unit is active and no probe is on,
//! the original runs and nothing else happens. Otherwise the site runs the
//! active alternative, or runs the original while recording execution,
//! infection and coverage.
//!
//! Arguments common to all: `h` is the switch as the enclosing function (or
//! closure) saw it, `m` the unit-local index of the site's first mutant,
//! `b` the unit-local index of the site's first branch probe.
//!
//! The entry points are `#[inline(always)]` in optimized builds only
//! (`cfg_attr(not(debug_assertions), ..)`, here and in `switch`): rustc
//! inlines `inline(always)` even without optimization, and every inlined
//! site then keeps its own copies of its locals in the caller's frame.
//! Debug frames grew 20 to 90 times, and recursion that the plain code
//! survives overflowed a 2 MiB test thread.

use std::time::{Duration, Instant};

use crate::kind::{
    Asg, AsgAlt, AsgDup, BinAlt, BinDup, CmpAlt, Cmps, Ops, Un, UnAlt, UnDup, builtin,
};
use crate::outcome::{self, Stop};
use crate::probe;
use crate::schema;
use crate::switch::{self, BUDGET, INFECT, PROBE};
pub use crate::switch::{Fuel, Here, elsewhere, here};

impl Here {
    /// Branch coverage is on.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn probing(self) -> bool {
        self.mode & PROBE != 0
    }

    /// Execution and infection are recorded too.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn infecting(self) -> bool {
        self.mode & INFECT != 0
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn executed(self, m: u32, count: u32) {
        probe::executed(self.mutant_base + m, count)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn infected(self, m: u32) {
        probe::infected(self.mutant_base + m)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn unviable(self, m: u32) {
        probe::unviable(self.mutant_base + m)
    }

    /// The `count` mutants from `m` are all infected in this run already,
    /// so evaluating their alternatives again would record nothing new.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn settled(self, m: u32, count: u32) -> bool {
        probe::settled(self.mutant_base + m, count)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn hit(self, b: u32) {
        probe::hit(self.branch_base + b)
    }
}

/// The active alternative was found unviable for this site's types.
#[cold]
#[inline(never)]
fn unviable(h: Here, mutant: u32) -> ! {
    h.unviable(mutant);
    let index = (h.mutant_base + mutant) as usize;
    outcome::stop(Stop::Unviable(schema::mutants()[index].id))
}

/// Evaluates the original or an alternative on copies, for infection;
/// `None` if it panicked. Only probe runs evaluate alternatives, and they
/// are quiet (`probe::record_with` installs the hook and sets the switch
/// quiet before the run), so this is a bare `catch_unwind`.
#[cfg_attr(not(debug_assertions), inline(always))]
fn evaluate<R>(f: impl FnOnce() -> R) -> Option<R> {
    debug_assert!(
        switch::quiet(),
        "alternatives are evaluated in quiet runs only"
    );
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
}

/// Whether nothing is switched on for this thread: no mutant, no probe, no
/// budget. The original code may then run exactly as written, so a function
/// can test this once at entry and run an uninstrumented copy of its body
/// (`if ::mu2::__rt::idle() { original } else { rewritten }`), which is
/// what keeps plain calls at the speed of unannotated code (see
/// docs/benchmarks.md).
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn idle() -> bool {
    switch::mode() == 0
}

/// Runs an annotated function's instrumented part out of line. The
/// function keeps only the `idle()` test and the body as written, which is
/// then small enough for the optimizer to inline where the plain function
/// was inlined, with no register saves for the instrumented body on the
/// plain path. Generated code calls it with a `move` closure that holds
/// everything after the test, its return type written out so that every
/// `return` in the body coerces to it as it did in the function.
///
/// ```
/// fn first(v: &mut Vec<i32>) -> Option<&mut i32> {
///     mu2_runtime::__rt::outlined(move || -> Option<&mut i32> { v.first_mut() })
/// }
/// assert_eq!(first(&mut vec![3]), Some(&mut 3));
/// ```
#[inline(never)]
pub fn outlined<R>(body: impl FnOnce() -> R) -> R {
    body()
}

/// `std::process::exit(code)` in annotated code, as rewritten by the macro.
/// With nothing switched on it exits, as written. In a run (a mutant, the
/// probes, a budget) it panics instead: a mutant or an input that reaches
/// `exit` (a condition forced `true` in front of it, say) then fails that
/// run, and the fuzzer, the scorer or the user's test harness goes on,
/// instead of the whole process ending with it.
///
/// ```no_run
/// // What `std::process::exit(3)` becomes inside `#[mu2::mutate]` code:
/// mu2_runtime::__rt::exit(3);
/// ```
#[cold]
#[inline(never)]
pub fn exit(code: i32) -> ! {
    if switch::mode() == 0 {
        std::process::exit(code)
    }
    panic!(
        "mu2: `process::exit({code})` reached in a run with a mutant, probes or a budget on; \
         the run stops here instead of the process"
    )
}

/// `std::thread::sleep(duration)` in annotated code, as rewritten by the
/// macro. Outside runs, and in runs without a wall-clock budget, it sleeps
/// as written. In a run with one, a sleep that would end after the budget
/// does ends the run at once with a TIMEOUT instead: a mutant that computes
/// an endless delay (an unsigned subtraction that wraps around) must not
/// stall the fuzzer, and no waiting would change the verdict.
///
/// ```
/// // What `std::thread::sleep(d)` becomes inside `#[mu2::mutate]` code:
/// mu2_runtime::__rt::sleep(std::time::Duration::from_millis(1));
/// ```
pub fn sleep(duration: Duration) {
    let Some(deadline) = switch::deadline() else {
        return std::thread::sleep(duration);
    };
    let now = Instant::now();
    let left = deadline.saturating_duration_since(now);
    if duration <= left {
        return std::thread::sleep(duration);
    }
    if std::thread::panicking() {
        // A destructor while unwinding: stopping again would abort.
        return std::thread::sleep(left);
    }
    outcome::stop(Stop::Timeout("time"))
}

/// `l op r` for an arithmetic or bitwise operator.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn bin<L, R, O, const N: usize>(
    h: Here,
    m: u32,
    l: L,
    r: R,
    orig: fn(L, R) -> O,
    kinds: fn(&Ops<L, R, O>) -> (Option<BinDup<L, R, O>>, [BinAlt<L, R, O>; N]),
) -> O {
    if let Some(k) = h.choice(m, N as u32) {
        return match kinds(&Ops::NEW).1[k as usize] {
            Some(alt) => alt(l, r),
            None => unviable(h, m + k),
        };
    }
    if !h.infecting() || h.settled(m, N as u32) {
        return orig(l, r);
    }
    h.executed(m, N as u32);
    let (dup, alts) = kinds(&Ops::NEW);
    let Some(dup) = dup.filter(|_| builtin::<L>() && builtin::<R>()) else {
        // Without copies the alternatives cannot run side-effect free, and
        // on a user's type they would run its code (a `Sub` written as
        // `self + -rhs` would recurse through this site, and the code they
        // call would record probes of a run that never happened): count
        // every viable one as infected, which keeps pruning sound.
        for (j, alt) in alts.iter().enumerate() {
            match alt {
                Some(_) => h.infected(m + j as u32),
                None => h.unviable(m + j as u32),
            }
        }
        return orig(l, r);
    };
    let (lc, rc) = ((dup.l)(&l), (dup.r)(&r));
    // The original on copies first: it may panic (an overflow), and then
    // an alternative that does not is infected all the same.
    let out = evaluate(|| orig((dup.l)(&lc), (dup.r)(&rc)));
    for (j, alt) in alts.iter().enumerate() {
        let j = m + j as u32;
        match alt {
            None => h.unviable(j),
            Some(alt) => {
                let v = evaluate(|| alt((dup.l)(&lc), (dup.r)(&rc)));
                if differ(v.as_ref(), out.as_ref(), dup.eq) {
                    h.infected(j)
                }
            }
        }
    }
    orig(l, r)
}

/// Whether an alternative's result differs from the original's; `None`
/// for a panic, which only another panic matches.
#[cfg_attr(not(debug_assertions), inline(always))]
fn differ<O>(alt: Option<&O>, orig: Option<&O>, eq: fn(&O, &O) -> bool) -> bool {
    match (alt, orig) {
        (Some(a), Some(o)) => !eq(a, o),
        (None, None) => false,
        _ => true,
    }
}

/// `l op= r`. The right side comes first because it is evaluated first for
/// primitive types, and so that `x += x` borrows as it did.
///
/// The place comes as `&raw mut place`: a field of a `#[repr(packed)]`
/// struct can be assigned but not borrowed.
///
/// This is a safe function taking a raw pointer because its only caller is
/// code `#[mu2::mutate]` generates, always with `&raw mut` of a live place
/// the compiler just checked as mutably borrowable; generated code cannot
/// contain `unsafe` blocks (crates with `#![forbid(unsafe_code)]` must still
/// build). It is hidden (`__rt`) and not an API.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn assign<L, R, const N: usize>(
    h: Here,
    m: u32,
    r: R,
    l: *mut L,
    orig: fn(&mut L, R),
    kinds: fn(&Asg<L, R>) -> (Option<AsgDup<L, R>>, [AsgAlt<L, R>; N]),
) {
    let mut moved = None;
    // SAFETY: `l` is `&raw mut` of a place the caller may assign (borrowck
    // checked it as a mutable borrow), made just before this call, after
    // the right side was evaluated: nothing else uses the place meanwhile.
    let place = unsafe { place_mut(l, &mut moved) };
    // Called once, not in a closure per branch: a closure called twice was
    // outlined, and every assignment site became a function call.
    assign_to(h, m, r, place, orig, kinds)
}

/// The place `p` points to, as a reference when `p` is aligned, else as a
/// copy kept in `moved`, written back when `moved` drops (also when the
/// assignment panics).
///
/// # Safety
///
/// `p` must be valid for reads and writes, and not be used by anything
/// else while the reference lives.
#[cfg_attr(not(debug_assertions), inline(always))]
unsafe fn place_mut<'a, L>(p: *mut L, moved: &'a mut Option<WriteBack<L>>) -> &'a mut L {
    if p.is_aligned() {
        // SAFETY: aligned, and valid and unaliased per the contract.
        return unsafe { &mut *p };
    }
    // SAFETY: valid for reads; the value is moved back by `WriteBack`.
    let v = unsafe { p.read_unaligned() };
    &mut moved.insert(WriteBack(p, std::mem::ManuallyDrop::new(v))).1
}

/// A value read from an unaligned place, moved back there when dropped.
struct WriteBack<L>(*mut L, std::mem::ManuallyDrop<L>);

impl<L> Drop for WriteBack<L> {
    fn drop(&mut self) {
        // SAFETY: moves the value read in `place_mut` back where it came from.
        unsafe {
            self.0
                .write_unaligned(std::mem::ManuallyDrop::take(&mut self.1))
        }
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn assign_to<L, R, const N: usize>(
    h: Here,
    m: u32,
    r: R,
    l: &mut L,
    orig: fn(&mut L, R),
    kinds: fn(&Asg<L, R>) -> (Option<AsgDup<L, R>>, [AsgAlt<L, R>; N]),
) {
    if let Some(k) = h.choice(m, N as u32) {
        return match kinds(&Asg::NEW).1[k as usize] {
            Some(alt) => alt(l, r),
            None => unviable(h, m + k),
        };
    }
    if !h.infecting() || h.settled(m, N as u32) {
        return orig(l, r);
    }
    h.executed(m, N as u32);
    let (dup, alts) = kinds(&Asg::NEW);
    // As in `bin`: copies of primitives only.
    let Some(dup) = dup.filter(|_| builtin::<L>() && builtin::<R>()) else {
        for (j, alt) in alts.iter().enumerate() {
            match alt {
                Some(_) => h.infected(m + j as u32),
                None => h.unviable(m + j as u32),
            }
        }
        return orig(l, r);
    };
    let (lc, rc) = ((dup.l)(l), (dup.r)(&r));
    let run = |f: fn(&mut L, R)| {
        evaluate(|| {
            let mut v = (dup.l)(&lc);
            f(&mut v, (dup.r)(&rc));
            v
        })
    };
    // The original on copies first, as in `bin`.
    let out = run(orig);
    for (j, alt) in alts.iter().enumerate() {
        let j = m + j as u32;
        match alt {
            None => h.unviable(j),
            Some(alt) => {
                if differ(run(*alt).as_ref(), out.as_ref(), dup.eq) {
                    h.infected(j)
                }
            }
        }
    }
    orig(l, r)
}

/// `-x` or `!x`, whose one alternative is `x`.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn un<X, O>(
    h: Here,
    m: u32,
    x: X,
    orig: fn(X) -> O,
    kinds: fn(&Un<X, O>) -> (Option<UnDup<X, O>>, [UnAlt<X, O>; 1]),
) -> O {
    if h.choice(m, 1).is_some() {
        return match kinds(&Un::NEW).1[0] {
            Some(alt) => alt(x),
            None => unviable(h, m),
        };
    }
    if !h.infecting() || h.settled(m, 1) {
        return orig(x);
    }
    h.executed(m, 1);
    let (dup, [alt]) = kinds(&Un::NEW);
    // As in `bin`: copies of primitives only.
    match (dup.filter(|_| builtin::<X>()), alt) {
        (_, None) => {
            h.unviable(m);
            orig(x)
        }
        (None, Some(_)) => {
            h.infected(m);
            orig(x)
        }
        (Some(dup), Some(alt)) => {
            // The original on a copy first, as in `bin`.
            let out = evaluate(|| orig((dup.x)(&x)));
            let v = evaluate(|| alt((dup.x)(&x)));
            if differ(v.as_ref(), out.as_ref(), dup.eq) {
                h.infected(m)
            }
            orig(x)
        }
    }
}

/// A comparison operator. The original is named at each site for a reader
/// of the expansion; the alternatives are listed after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn order<L: ?Sized + PartialOrd<R>, R: ?Sized>(op: Cmp, l: &L, r: &R) -> bool {
    match op {
        Cmp::Lt => l < r,
        Cmp::Le => l <= r,
        Cmp::Gt => l > r,
        Cmp::Ge => l >= r,
        Cmp::Eq => l == r,
        Cmp::Ne => l != r,
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn equal<L: ?Sized + PartialEq<R>, R: ?Sized>(op: Cmp, l: &L, r: &R) -> bool {
    match op {
        Cmp::Ne => l != r,
        _ => l == r,
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn compare<L: ?Sized, R: ?Sized>(
    h: Here,
    m: u32,
    alts: &'static [Cmp],
    l: &L,
    r: &R,
    orig: fn(&L, &R) -> bool,
    eval: fn(&Cmps<L, R>) -> CmpAlt<L, R>,
) -> bool {
    if let Some(k) = h.choice(m, alts.len() as u32) {
        return match eval(&Cmps::NEW) {
            Some(eval) => eval(alts[k as usize], l, r),
            None => unviable(h, m + k),
        };
    }
    let out = orig(l, r);
    if h.infecting() && !h.settled(m, alts.len() as u32) {
        h.executed(m, alts.len() as u32);
        let Some(eval) = eval(&Cmps::NEW) else {
            for j in 0..alts.len() as u32 {
                h.unviable(m + j)
            }
            return out;
        };
        if !(builtin::<L>() && builtin::<R>()) {
            // A user's `PartialEq` or `PartialOrd` may have effects (a
            // count of comparisons in a `Cell`), so it is not called again.
            // A negated comparison always differs (exact for `==`, `!=`
            // and total orders); a boundary one differs on equal operands
            // only, which would take another call to see: every
            // alternative counts as infected, which keeps pruning sound.
            for j in 0..alts.len() as u32 {
                h.infected(m + j)
            }
            return out;
        }
        // Builtin comparisons of primitives: evaluating them again has no
        // side effects, so infection is exact here.
        // Every alternative in one unwind scope: a comparison seldom panics
        // (never for primitives). When one does, each is tried on its own.
        let differ = evaluate(|| {
            let mut differ = 0u32;
            for (j, &alt) in alts.iter().enumerate() {
                differ |= ((eval(alt, l, r) != out) as u32) << j;
            }
            differ
        });
        for (j, &alt) in alts.iter().enumerate() {
            let differs = match differ {
                Some(bits) => bits & (1 << j) != 0,
                None => evaluate(|| eval(alt, l, r)) != Some(out),
            };
            if differs {
                h.infected(m + j as u32)
            }
        }
    }
    out
}

/// `l < r`, `l <= r`, `l > r` or `l >= r`.
#[cfg_attr(not(debug_assertions), inline(always))]
///
/// `eval` yields the evaluator of the alternatives (`kind::OrdYes`). It is
/// picked by the types rather than required by a bound here, so that a
/// comparison that does not type-check is reported once, at the user's
/// operator, and not again at the attribute.
pub fn ord<L: ?Sized, R: ?Sized>(
    h: Here,
    m: u32,
    _op: Cmp,
    alts: &'static [Cmp],
    l: &L,
    r: &R,
    orig: fn(&L, &R) -> bool,
    eval: fn(&Cmps<L, R>) -> CmpAlt<L, R>,
) -> bool {
    compare(h, m, alts, l, r, orig, eval)
}

/// `l == r` or `l != r`.
#[cfg_attr(not(debug_assertions), inline(always))]
/// `eval` as for [`ord`], from `kind::EqYes`.
pub fn eq<L: ?Sized, R: ?Sized>(
    h: Here,
    m: u32,
    _op: Cmp,
    alts: &'static [Cmp],
    l: &L,
    r: &R,
    orig: fn(&L, &R) -> bool,
    eval: fn(&Cmps<L, R>) -> CmpAlt<L, R>,
) -> bool {
    compare(h, m, alts, l, r, orig, eval)
}

/// The left side of `a && b` (`and`) or `a || b`. Returns the result when the
/// right side is not needed, `None` when it must be evaluated (then the
/// generated code passes it through [`logic_rhs`]). Branch `b`: short-circuit;
/// `b + 1`: right side evaluated.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn logic(h: Here, m: u32, b: u32, and: bool, lhs: bool) -> Option<bool> {
    let flipped = h.choice(m, 1).is_some();
    let and = and != flipped;
    let short = if and { !lhs } else { lhs };
    if h.probing() && !flipped {
        h.hit(b + !short as u32);
    }
    if h.infecting() && !flipped && !h.settled(m, 1) {
        h.executed(m, 1);
        if short {
            // The mutant's value would depend on the right side, which the
            // original never evaluates: count it as infected.
            h.infected(m)
        }
    }
    short.then_some(lhs)
}

/// The right side of a logical operator whose left side did not decide it.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn logic_rhs(h: Here, m: u32, and: bool, rhs: bool) -> bool {
    if h.infecting() && h.choice(m, 1).is_none() {
        // Original `a && b` with `a` true is `b`; the mutant `a || b` is `true`.
        // Original `a || b` with `a` false is `b`; the mutant `a && b` is `false`.
        if rhs != and {
            h.infected(m)
        }
    }
    rhs
}

/// An `if` or `while` condition, whose alternatives are `true` and `false`.
/// Branch `b`: taken; `b + 1`: not taken.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn cond(h: Here, m: u32, b: u32, c: bool) -> bool {
    if let Some(k) = h.choice(m, 2) {
        return k == 0;
    }
    if h.probing() {
        h.hit(b + !c as u32);
    }
    // Settled once both values were seen: each infects one alternative.
    if h.infecting() && !h.settled(m, 2) {
        h.executed(m, 2);
        h.infected(m + c as u32);
    }
    c
}

/// An `if` / `while` condition with coverage only (remove-conditionals off).
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn branch(h: Here, b: u32, c: bool) -> bool {
    if h.probing() {
        h.hit(b + !c as u32)
    }
    c
}

/// Whether to make a call statement (`v.push(x);`) whose alternative is to
/// remove it.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn keep(h: Here, m: u32) -> bool {
    if h.choice(m, 1).is_some() {
        return false;
    }
    if h.infecting() && !h.settled(m, 1) {
        h.executed(m, 1);
        h.infected(m);
    }
    true
}

/// At function entry: which of the `n` return-value alternatives is active.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn ret(h: Here, m: u32, n: u32) -> Option<u32> {
    if let Some(k) = h.choice(m, n) {
        return Some(k);
    }
    if h.infecting() && !h.settled(m, n) {
        h.executed(m, n);
        for k in 0..n {
            h.infected(m + k)
        }
    }
    None
}

/// The value of a return-value alternative that needs a trait (`Default`).
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn made<T>(h: Here, mutant: u32, make: Option<fn() -> T>) -> T {
    match make {
        Some(make) => make(),
        None => unviable(h, mutant),
    }
}

/// A branch probe: a match arm, an `if let` branch.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn hit(h: Here, b: u32) {
    if h.probing() {
        h.hit(b)
    }
}

/// A loop body: a branch probe and one step of the budget, counted in the
/// enclosing body's local `fuel`.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn tick(h: Here, b: u32, fuel: &mut Fuel) {
    if h.mode & PROBE != 0 {
        h.hit(b)
    }
    fuel.tick()
}

/// A closure call: one step of the budget, as an annotated function call
/// is. A closure's mutant can make the iterator that calls it endless
/// (`(1..).find(|k| k * k >= n)` with `/` for `*`), and the loop is then in
/// code without ticks of its own.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn step() {
    if switch::mode() & BUDGET != 0 {
        switch::tick()
    }
}

/// Guard for one annotated call against the depth budget.
pub struct Depth(bool);

impl Drop for Depth {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn drop(&mut self) {
        if self.0 {
            switch::leave()
        }
    }
}

/// At function entry: counts the call against the budget.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn enter() -> Depth {
    Depth(switch::mode() & BUDGET != 0 && switch::enter())
}

/// Wrapper for the operand of `?`: records whether it continued or broke.
pub struct Q<T>(pub T);

impl<T, E> Q<Result<T, E>> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn __mu2_q(self, h: Here, b: u32) -> Result<T, E> {
        if h.probing() {
            h.hit(b + self.0.is_err() as u32)
        }
        self.0
    }
}

impl<T> Q<Option<T>> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub fn __mu2_q(self, h: Here, b: u32) -> Option<T> {
        if h.probing() {
            h.hit(b + self.0.is_none() as u32)
        }
        self.0
    }
}

/// Any other `Try` type: the operand is counted as reaching the `?`.
pub trait QOther<T> {
    fn __mu2_q(self, h: Here, b: u32) -> T;
}

impl<T> QOther<T> for Q<T> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn __mu2_q(self, h: Here, b: u32) -> T {
        hit(h, b);
        self.0
    }
}
