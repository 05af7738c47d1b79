//! What the macro knows about the code it rewrote, and the registry of every
//! mutant in the binary.
//!
//! `#[mu2::mutate]` emits one [`Unit`] per annotated item (and per nested
//! inline module): a `static` of plain data naming every mutation site, its
//! source location and its alternatives. The units are collected at link time
//! into one distributed slice, so [`mutants`] lists every mutant of the binary
//! before any of the code has run. That is what lets a report say NO_COVERAGE.
//!
//! Within a process each mutant also has a dense index (its position in
//! [`mutants`]); the switch and the probes use it. Across processes a mutant
//! is named by its [`MutantId`], a hash of where it is and what it does.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// The mutation operators, in PIT's terms.
///
/// ```
/// use mu2_runtime::Operator;
/// assert_eq!(Operator::from_name("math"), Some(Operator::Math));
/// assert_eq!(Operator::Math.name(), "math");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Operator {
    /// `<` <-> `<=`, `>` <-> `>=`.
    ConditionalsBoundary,
    /// `==` <-> `!=`, `<` -> `>=`, `<=` -> `>`, `>` -> `<=`, `>=` -> `<`.
    NegateConditionals,
    /// An `if` / `while` condition replaced by `true` or `false`.
    RemoveConditionals,
    /// `+` <-> `-`, `*` <-> `/`, `%` -> `*`, `&` <-> `|`, `^` -> `&`, `<<` <-> `>>`,
    /// and the compound assignments.
    Math,
    /// `x += k` <-> `x -= k` for a literal `k`.
    Increments,
    /// `-x` -> `x`.
    InvertNegatives,
    /// `&&` <-> `||`, `!b` -> `b`.
    Boolean,
    /// A call statement whose value is discarded is removed.
    VoidCalls,
    /// A function's result replaced by a constant of its type.
    Returns,
}

impl Operator {
    /// Every operator, in a stable order.
    pub const ALL: [Operator; 9] = [
        Operator::ConditionalsBoundary,
        Operator::NegateConditionals,
        Operator::RemoveConditionals,
        Operator::Math,
        Operator::Increments,
        Operator::InvertNegatives,
        Operator::Boolean,
        Operator::VoidCalls,
        Operator::Returns,
    ];

    /// The name used in attributes (`#[mu2::mutate(only(math))]`), reports and filters.
    pub const fn name(self) -> &'static str {
        match self {
            Operator::ConditionalsBoundary => "conditionals_boundary",
            Operator::NegateConditionals => "negate_conditionals",
            Operator::RemoveConditionals => "remove_conditionals",
            Operator::Math => "math",
            Operator::Increments => "increments",
            Operator::InvertNegatives => "invert_negatives",
            Operator::Boolean => "boolean",
            Operator::VoidCalls => "void_calls",
            Operator::Returns => "returns",
        }
    }

    /// The operator with this [`name`](Operator::name), if any.
    pub fn from_name(name: &str) -> Option<Operator> {
        Operator::ALL.into_iter().find(|op| op.name() == name)
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One alternative at a site: what the code becomes when this mutant is active.
#[doc(hidden)]
#[derive(Debug)]
pub struct Alt {
    pub operator: Operator,
    pub replacement: &'static str,
}

/// One mutation site: a place in the source with one or more alternatives.
#[doc(hidden)]
#[derive(Debug)]
pub struct Site {
    pub line: u32,
    pub column: u32,
    pub function: &'static str,
    pub original: &'static str,
    pub alts: &'static [Alt],
    /// False when a `#[cfg]` inside the annotated item configures the
    /// site's code out of this build.
    pub compiled: bool,
}

/// Everything one `#[mu2::mutate]` expansion contributes. Generated code
/// builds it with [`Unit::new`]; only the runtime reads it.
#[doc(hidden)]
pub struct Unit {
    file: &'static str,
    module: &'static str,
    sites: &'static [Site],
    branches: u32,
    /// How many mutants the sites have (the sum of their alternatives).
    mutants: u32,
    /// Dense index of this unit's first mutant; `u32::MAX` until the registry is built.
    mutant_base: AtomicU32,
    /// Dense index of this unit's first branch probe.
    branch_base: AtomicU32,
}

impl Unit {
    pub const fn new(
        file: &'static str,
        module: &'static str,
        sites: &'static [Site],
        branches: u32,
    ) -> Unit {
        let mut mutants = 0;
        let mut i = 0;
        while i < sites.len() {
            mutants += sites[i].alts.len() as u32;
            i += 1;
        }
        Unit {
            file,
            module,
            sites,
            branches,
            mutants,
            mutant_base: AtomicU32::new(u32::MAX),
            branch_base: AtomicU32::new(u32::MAX),
        }
    }

    #[inline(always)]
    pub(crate) fn mutant_base(&self) -> u32 {
        self.mutant_base.load(Ordering::Relaxed)
    }

    #[inline(always)]
    pub(crate) fn branch_base(&self) -> u32 {
        self.branch_base.load(Ordering::Relaxed)
    }

    #[inline(always)]
    pub(crate) fn mutant_count(&self) -> u32 {
        self.mutants
    }
}

#[doc(hidden)]
#[linkme::distributed_slice]
pub static UNITS: [&'static Unit];

/// Every `#[mu2::diff]` / `#[mu2::fuzz]` driver in the binary, registered by
/// the driver macro so `cargo mu2 list` can find them without running tests.
#[doc(hidden)]
#[linkme::distributed_slice]
pub static DRIVERS: [crate::driver::DriverEntry];

/// A mutant's name across processes: the same for the same source.
///
/// It hashes the file, module, enclosing function, operator, original and
/// replacement text, and the mutant's ordinal among its identical siblings in
/// that function, so edits elsewhere in the file do not rename it.
///
/// ```
/// let id: mu2_runtime::MutantId = "00000000000000ff".parse().unwrap();
/// assert_eq!(id.to_string(), "00000000000000ff");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MutantId(pub u64);

impl fmt::Display for MutantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl std::str::FromStr for MutantId {
    type Err = String;
    fn from_str(s: &str) -> Result<MutantId, String> {
        u64::from_str_radix(s.trim(), 16)
            .map(MutantId)
            .map_err(|_| format!("`{s}` is not a mutant id (expected up to 16 hex digits)"))
    }
}

/// One mutant of the binary, as listed by [`mutants`].
///
/// ```
/// for m in mu2_runtime::mutants() {
///     println!("{} {}:{} {} `{}` -> `{}`", m.id, m.file, m.line, m.operator, m.original, m.replacement);
/// }
/// ```
#[derive(Clone, Debug)]
pub struct Mutant {
    /// Stable across processes for the same source.
    pub id: MutantId,
    /// Position in [`mutants`]; valid in this process only.
    pub index: usize,
    pub file: &'static str,
    pub module: &'static str,
    pub line: u32,
    pub column: u32,
    /// The enclosing function, as `name` or `Type::name`.
    pub function: &'static str,
    pub operator: Operator,
    pub original: &'static str,
    pub replacement: &'static str,
    /// False when a `#[cfg(..)]` inside the annotated item leaves the
    /// mutant's code out of this build (`#[cfg(windows)]` on Linux): it is
    /// listed, so that ids and indices do not depend on the build, but it
    /// can never run, and reports and scores leave it out.
    pub compiled: bool,
}

impl fmt::Display for Mutant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{} in {}: {} `{}` -> `{}`",
            self.file,
            self.line,
            self.column,
            self.function,
            self.operator,
            self.original,
            self.replacement
        )
    }
}

pub(crate) struct Registry {
    pub(crate) mutants: Vec<Mutant>,
    pub(crate) by_id: HashMap<MutantId, usize, IdHash>,
    pub(crate) branches: usize,
}

static REGISTRY: OnceLock<Registry> = OnceLock::new();

/// Hashing for maps keyed by [`MutantId`]: ids are hashes already, so the
/// id itself is the hash (`run_mutant` looks one up per run; SipHash was a
/// noticeable part of a short run's fixed cost).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct IdHash;

impl std::hash::BuildHasher for IdHash {
    type Hasher = IdHasher;
    fn build_hasher(&self) -> IdHasher {
        IdHasher(0)
    }
}

#[derive(Debug)]
pub(crate) struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
    fn write(&mut self, bytes: &[u8]) {
        // Not reached for `MutantId` (a `u64`); kept correct for any key.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
}

pub(crate) fn registry() -> &'static Registry {
    REGISTRY.get_or_init(|| build(&UNITS))
}

/// Every mutant in this binary, in a stable order: by file, then by
/// annotated item in source order; within an item the mutants of one
/// function are together, but not sorted by line (a condition's
/// `true`/`false` mutants come after those inside its branches). Sort by
/// [`Mutant::line`] and [`Mutant::column`] for a report.
///
/// Available before any annotated code runs, so mutants that no input ever
/// reaches can still be reported.
pub fn mutants() -> &'static [Mutant] {
    &registry().mutants
}

/// The mutant with this id, if this binary has it.
pub fn mutant(id: MutantId) -> Option<&'static Mutant> {
    let reg = registry();
    reg.by_id.get(&id).map(|&i| &reg.mutants[i])
}

/// How many branch probes the annotated code has in all.
pub fn branch_count() -> usize {
    registry().branches
}

fn build(units: &[&'static Unit]) -> Registry {
    let mut units: Vec<&'static Unit> = units.to_vec();
    // Link order is not stable between builds; source order is.
    units.sort_by_key(|u| {
        let first = u
            .sites
            .first()
            .map(|s| (s.line, s.column))
            .unwrap_or((0, 0));
        (u.file, first, u.module)
    });
    units.dedup_by(|a, b| std::ptr::eq(*a, *b));

    let mut mutants = Vec::new();
    let mut by_id = HashMap::default();
    let mut ordinals: HashMap<u64, u32> = HashMap::new();
    let mut branches = 0u32;
    for unit in units {
        unit.mutant_base
            .store(mutants.len() as u32, Ordering::Relaxed);
        unit.branch_base.store(branches, Ordering::Relaxed);
        branches += unit.branches;
        for site in unit.sites {
            for alt in site.alts {
                let key = fnv(&[
                    unit.file,
                    unit.module,
                    site.function,
                    alt.operator.name(),
                    site.original,
                    alt.replacement,
                ]);
                let ordinal = ordinals.entry(key).or_insert(0);
                let mut id = MutantId(mix(key, *ordinal as u64));
                *ordinal += 1;
                while by_id.contains_key(&id) {
                    id = MutantId(mix(id.0, 1));
                }
                by_id.insert(id, mutants.len());
                mutants.push(Mutant {
                    id,
                    index: mutants.len(),
                    file: unit.file,
                    module: unit.module,
                    line: site.line,
                    column: site.column,
                    function: site.function,
                    operator: alt.operator,
                    original: site.original,
                    replacement: alt.replacement,
                    compiled: site.compiled,
                });
            }
        }
        debug_assert_eq!(
            mutants.len() as u32,
            unit.mutant_base() + unit.mutant_count()
        );
    }
    Registry {
        mutants,
        by_id,
        branches: branches as usize,
    }
}

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
