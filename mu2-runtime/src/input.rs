//! Inputs as Zest sees them: a sequence of bytes that a generator consumes as
//! its random choices.
//!
//! Fuzzing mutates the bytes, not the generated values, so any generator
//! becomes mutable for free, and every value it produces is valid by
//! construction. A generator is any function that takes a [`Source`]:
//!
//! ```
//! use mu2_runtime::{Rng, Source, input::MAX_INPUT};
//!
//! // A hand-written generator: `fn(&mut Source) -> T`.
//! fn words(src: &mut Source) -> Vec<String> {
//!     let n = src.size(0..=5);
//!     (0..n).map(|_| src.string(1..=8, &['a', 'b', 'c'])).collect()
//! }
//!
//! // Generation: reads past the end come from the random stream...
//! let mut fresh = Source::new(Vec::new(), Some(Rng::seed(1)), MAX_INPUT);
//! let value = words(&mut fresh);
//! // ...and the saved input is just the bytes that were read.
//! let saved = fresh.into_bytes();
//! // Replay needs no randomness and gives the same value.
//! assert_eq!(words(&mut Source::replay(saved)), value);
//! ```

use std::fmt;
use std::ops::RangeInclusive;

use crate::rng::Rng;

/// The largest input, in bytes (Zest's default). Reads past it yield 0.
pub const MAX_INPUT: usize = 10_240;

/// The most fresh bytes [`Source::arbitrary`] appends when it finds none left.
const ARBITRARY_FRESH: usize = 1024;

/// The input could not be turned into a value (e.g. `arbitrary` ran out of
/// data or rejected it). The run counts as INVALID, like a failed
/// `mu2::assume!`: neither a pass nor a failure.
///
/// ```
/// use mu2_runtime::{Invalid, Source};
/// fn even(src: &mut Source) -> Result<u8, Invalid> {
///     let x = src.u8();
///     if x % 2 == 0 { Ok(x) } else { Err(Invalid) }
/// }
/// assert_eq!(even(&mut Source::replay(vec![3])), Err(Invalid));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Invalid;

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("INVALID: the input could not be generated")
    }
}

impl std::error::Error for Invalid {}

impl From<arbitrary::Error> for Invalid {
    fn from(_: arbitrary::Error) -> Invalid {
        Invalid
    }
}

/// The bytes of one input, read front to back by a generator.
///
/// Two modes, chosen by `fill` in [`Source::new`]:
///
/// - **generation** (`fill = Some(rng)`): reading past the end of the bytes
///   appends fresh random bytes, so a short (or empty, or freshly mutated)
///   input still generates a full value;
/// - **replay** (`fill = None`): reading past the end yields zeros, so the
///   same bytes always give the same value.
///
/// After a run, [`into_bytes`](Source::into_bytes) returns only the bytes
/// that were read: that is the input to save, and replaying it gives the
/// same value as the run did.
///
/// No source ever holds more than its `cap` bytes: reads past the cap yield
/// zeros in both modes.
///
/// ```
/// use mu2_runtime::{Rng, Source};
/// let mut src = Source::new(vec![1, 2, 3, 4], Some(Rng::seed(0)), 64);
/// assert_eq!(src.u16(), 0x0201);   // little-endian
/// assert_eq!(src.consumed(), 2);
/// assert_eq!(src.into_bytes(), vec![1, 2]); // trimmed to what was read
/// ```
#[derive(Clone, Debug)]
pub struct Source {
    bytes: Vec<u8>,
    pos: usize,
    fill: Option<Rng>,
    cap: usize,
    depth: u32,
    /// Set by `arbitrary`, which took all the rest: later reads yield 0 in
    /// both modes, so that generation and replay agree.
    closed: bool,
}

impl Source {
    /// A source over `bytes`, generating past their end from `fill` (or
    /// yielding zeros when `fill` is `None`), and never holding more than
    /// `cap` bytes: bytes beyond `cap` are dropped at once.
    pub fn new(mut bytes: Vec<u8>, fill: Option<Rng>, cap: usize) -> Source {
        bytes.truncate(cap);
        Source {
            bytes,
            pos: 0,
            fill,
            cap,
            depth: 0,
            closed: false,
        }
    }

    /// Replays a saved input: `Source::new(bytes, None, MAX_INPUT)`.
    ///
    /// ```
    /// let mut src = mu2_runtime::Source::replay(vec![7]);
    /// assert_eq!((src.u8(), src.u8()), (7, 0)); // zeros past the end
    /// ```
    pub fn replay(bytes: Vec<u8>) -> Source {
        Source::new(bytes, None, MAX_INPUT)
    }

    /// How many bytes of the input have been read (zeros yielded past the
    /// end or the cap are not counted).
    pub fn consumed(&self) -> usize {
        self.pos
    }

    /// The input, trimmed to the bytes actually read: unread bytes of a
    /// mutated input carry no information, and saving them would only bloat
    /// the corpus.
    pub fn into_bytes(mut self) -> Vec<u8> {
        self.bytes.truncate(self.pos);
        self.bytes
    }

    /// Fills `out` from the input, extending it from `fill` when reading past
    /// its end (up to the cap), and with zeros past what is available.
    fn read_into(&mut self, out: &mut [u8]) {
        if self.closed {
            out.fill(0);
            return;
        }
        let avail = self.bytes.len() - self.pos;
        if avail < out.len()
            && let Some(rng) = &mut self.fill
        {
            let extra = (out.len() - avail).min(self.cap - self.bytes.len());
            let old = self.bytes.len();
            self.bytes.resize(old + extra, 0);
            rng.fill(&mut self.bytes[old..]);
        }
        let n = out.len().min(self.bytes.len() - self.pos);
        out[..n].copy_from_slice(&self.bytes[self.pos..self.pos + n]);
        out[n..].fill(0);
        self.pos += n;
    }

    fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut buf = [0; N];
        self.read_into(&mut buf);
        buf
    }

    /// One byte.
    pub fn u8(&mut self) -> u8 {
        self.array::<1>()[0]
    }

    /// Two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes(self.array())
    }

    /// Four bytes, little-endian.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.array())
    }

    /// Eight bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.array())
    }

    /// Four bytes, little-endian, two's complement.
    pub fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.array())
    }

    /// Eight bytes, little-endian, two's complement.
    pub fn i64(&mut self) -> i64 {
        i64::from_le_bytes(self.array())
    }

    /// One byte's low bit: a zero byte (what havoc's zero runs and replay
    /// past the end produce) is `false`.
    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// An integer in `range`, for any primitive integer type.
    ///
    /// It reads as few bytes as it can while staying near uniform: none for
    /// a single value, exactly enough when the number of values is a power of
    /// two (so `0..=255` reads one byte and `i64::MIN..=i64::MAX` eight),
    /// and otherwise the fewest bytes for which taking the remainder leaves
    /// every value within 1/64 (relative) of equally likely (`0..=2` reads
    /// one byte, `0..=9` two). How many bytes it reads depends only on the
    /// width of the range, never on the type or the platform. All-zero bytes
    /// give the range's start.
    ///
    /// ```
    /// let mut src = mu2_runtime::Source::replay(vec![5]);
    /// assert_eq!(src.int_in_range(-1i8..=1), 1); // -1 + 5 % 3, from one byte
    /// assert_eq!(src.consumed(), 1);
    /// assert_eq!(src.int_in_range(10u64..=10), 10); // reads nothing
    /// assert_eq!(src.consumed(), 1);
    /// ```
    ///
    /// # Panics
    ///
    /// When the range is empty (`start > end`).
    pub fn int_in_range<T: Int>(&mut self, range: RangeInclusive<T>) -> T {
        let (start, end) = range.into_inner();
        let (lo, hi) = (start.to_offset(), end.to_offset());
        assert!(lo <= hi, "Source::int_in_range: the range is empty");
        let width = hi - lo;
        if width == 0 {
            return start;
        }
        let n = bytes_for(width);
        let mut buf = [0u8; 16];
        self.read_into(&mut buf[..n]);
        let v = u128::from_le_bytes(buf);
        let offset = match width.checked_add(1) {
            Some(count) => v % count,
            None => v, // the full u128 / i128 range
        };
        T::from_offset(lo + offset)
    }

    /// An index in `0..n`, e.g. into a table of alternatives.
    ///
    /// # Panics
    ///
    /// When `n == 0`.
    pub fn index(&mut self, n: usize) -> usize {
        assert!(n > 0, "Source::index(0): there is nothing to choose from");
        self.int_in_range(0..=n - 1)
    }

    /// One of `items`.
    ///
    /// ```
    /// let mut src = mu2_runtime::Source::replay(vec![]);
    /// assert_eq!(*src.choose(&["+", "-", "*"]), "+"); // zeros pick the first
    /// ```
    ///
    /// # Panics
    ///
    /// When `items` is empty.
    pub fn choose<'t, T>(&mut self, items: &'t [T]) -> &'t T {
        &items[self.index(items.len())]
    }

    /// A collection size in `bounds`, biased toward small sizes.
    ///
    /// The distribution is log-uniform by octaves: with `span = end - start`
    /// and `b` the number of bits of `span`, it draws `e` uniformly in
    /// `0..=b`, then returns `start + k` with `k` uniform in
    /// `0..=min(span, 2^e - 1)`. So each power-of-two band of sizes is about
    /// equally likely: small collections (where most bugs show up, and which
    /// run fast) dominate, yet the largest sizes stay reachable. For
    /// `0..=100`, the mean is about 14 and `P(size < 8)` about 0.62; for
    /// `0..=10`, the mean is about 2.1. All-zero bytes give `start`.
    ///
    /// ```
    /// let mut src = mu2_runtime::Source::replay(vec![0, 0]);
    /// assert_eq!(src.size(2..=50), 2);
    /// ```
    ///
    /// # Panics
    ///
    /// When `bounds` is empty.
    pub fn size(&mut self, bounds: RangeInclusive<usize>) -> usize {
        let (lo, hi) = bounds.into_inner();
        assert!(lo <= hi, "Source::size: the bounds are empty");
        let span = hi - lo;
        if span == 0 {
            return lo;
        }
        let bits = usize::BITS - span.leading_zeros();
        let e = self.int_in_range(0..=bits);
        let limit = if e >= usize::BITS {
            span
        } else {
            span.min((1usize << e) - 1)
        };
        lo + self.int_in_range(0..=limit)
    }

    /// How many [`nest`](Source::nest) levels deep the generator is now.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Recursion with a depth bound: runs `deeper` one level deeper while
    /// the depth is below `max`, else `leaf`. Recursive generators (trees,
    /// expressions) call this at each recursive step, so no input, however
    /// mutated, can generate an unbounded value.
    ///
    /// ```
    /// use mu2_runtime::Source;
    /// enum Expr { Num(u8), Add(Box<Expr>, Box<Expr>) }
    /// fn expr(src: &mut Source) -> Expr {
    ///     src.nest(
    ///         4,
    ///         |s| if s.bool() { Expr::Add(Box::new(expr(s)), Box::new(expr(s))) } else { Expr::Num(s.u8()) },
    ///         |s| Expr::Num(s.u8()),
    ///     )
    /// }
    /// fn height(e: &Expr) -> u32 {
    ///     match e { Expr::Num(_) => 0, Expr::Add(a, b) => 1 + height(a).max(height(b)) }
    /// }
    /// // All-ones bytes always choose `Add`, yet the tree stops at 4 levels.
    /// assert_eq!(height(&expr(&mut Source::replay(vec![1; 64]))), 4);
    /// ```
    pub fn nest<R>(
        &mut self,
        max: u32,
        deeper: impl FnOnce(&mut Source) -> R,
        leaf: impl FnOnce(&mut Source) -> R,
    ) -> R {
        if self.depth < max {
            self.depth += 1;
            let r = deeper(self);
            self.depth -= 1;
            r
        } else {
            leaf(self)
        }
    }

    /// `n` raw bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut out = vec![0; n];
        self.read_into(&mut out);
        out
    }

    /// A string of characters from `alphabet`, its length drawn like
    /// [`size`](Source::size): handy for identifiers and tokens in grammar
    /// generators.
    ///
    /// ```
    /// let mut src = mu2_runtime::Source::replay(vec![0xff; 16]);
    /// let s = src.string(1..=4, &['x', 'y']);
    /// assert!((1..=4).contains(&s.len()) && s.chars().all(|c| c == 'x' || c == 'y'));
    /// ```
    ///
    /// # Panics
    ///
    /// When `alphabet` is empty or `len` is empty.
    pub fn string(&mut self, len: RangeInclusive<usize>, alphabet: &[char]) -> String {
        assert!(
            !alphabet.is_empty(),
            "Source::string: the alphabet is empty"
        );
        let n = self.size(len);
        (0..n).map(|_| *self.choose(alphabet)).collect()
    }

    /// Any `T: arbitrary::Arbitrary`, decoded from **all** the remaining
    /// bytes (`arbitrary_take_rest`, as `cargo fuzz` targets do).
    ///
    /// Why all: `arbitrary`'s encoding depends on the length of its data, so
    /// the bytes it was given cannot be trimmed to "what it read" and still
    /// decode the same. Taking the rest and marking it read keeps replay
    /// exact. If no bytes remain and this source generates, it first appends
    /// a random number (1 to 1024, within the cap) of fresh random bytes, so
    /// a fresh input is random.
    ///
    /// Call it last: once it has run, every later read yields zeros (in
    /// generation too, since the bytes a later read would append would be
    /// taken by this call on replay).
    ///
    /// ```
    /// use mu2_runtime::{Rng, Source};
    /// #[derive(Debug, PartialEq, arbitrary::Arbitrary)]
    /// struct Point { x: i16, y: i16, tags: Vec<u8> }
    ///
    /// let mut fresh = Source::new(vec![], Some(Rng::seed(5)), 10_240);
    /// let p: Point = fresh.arbitrary().unwrap();
    /// let saved = fresh.into_bytes();
    /// assert_eq!(Source::replay(saved).arbitrary::<Point>().unwrap(), p);
    /// ```
    ///
    /// # Errors
    ///
    /// [`Invalid`] when `arbitrary` fails (not enough data, or a value the
    /// type's `Arbitrary` implementation rejects).
    pub fn arbitrary<T: for<'a> arbitrary::Arbitrary<'a>>(&mut self) -> Result<T, Invalid> {
        if self.closed {
            return T::arbitrary_take_rest(arbitrary::Unstructured::new(&[]))
                .map_err(Invalid::from);
        }
        if self.pos == self.bytes.len()
            && let Some(rng) = &mut self.fill
        {
            let extra = (rng.below(ARBITRARY_FRESH) + 1).min(self.cap - self.bytes.len());
            let old = self.bytes.len();
            self.bytes.resize(old + extra, 0);
            rng.fill(&mut self.bytes[old..]);
        }
        let value = T::arbitrary_take_rest(arbitrary::Unstructured::new(&self.bytes[self.pos..]));
        self.pos = self.bytes.len();
        self.closed = true;
        value.map_err(Invalid::from)
    }
}

/// How many bytes `int_in_range` reads for a range of `width + 1` values
/// (see there).
fn bytes_for(width: u128) -> usize {
    let bits = (128 - width.leading_zeros()) as usize;
    let exact = width.checked_add(1).is_none_or(u128::is_power_of_two);
    let needed = if exact { bits } else { bits + 6 };
    needed.div_ceil(8).min(16)
}

mod sealed {
    pub trait Sealed {}
}

/// The primitive integer types, for [`Source::int_in_range`]. Sealed.
pub trait Int: Copy + sealed::Sealed {
    /// An order-preserving map onto `u128` (signed types have their sign
    /// bit flipped).
    #[doc(hidden)]
    fn to_offset(self) -> u128;
    /// The inverse of `to_offset`, for values it produced (or between two of
    /// them).
    #[doc(hidden)]
    fn from_offset(offset: u128) -> Self;
}

macro_rules! unsigned {
    ($($t:ty)*) => {$(
        impl sealed::Sealed for $t {}
        impl Int for $t {
            #[inline]
            fn to_offset(self) -> u128 {
                self as u128
            }
            #[inline]
            fn from_offset(offset: u128) -> Self {
                offset as $t
            }
        }
    )*};
}

macro_rules! signed {
    ($($t:ty)*) => {$(
        impl sealed::Sealed for $t {}
        impl Int for $t {
            #[inline]
            fn to_offset(self) -> u128 {
                (self as i128 as u128) ^ (1 << 127)
            }
            #[inline]
            fn from_offset(offset: u128) -> Self {
                (offset ^ (1 << 127)) as i128 as $t
            }
        }
    )*};
}

unsigned!(u8 u16 u32 u64 u128 usize);
signed!(i8 i16 i32 i64 i128 isize);

#[cfg(test)]
mod tests {
    use super::*;

    /// A generating source without a cap, so that statistical tests with
    /// many draws never run into the zeros past it.
    fn fresh(seed: u64) -> Source {
        Source::new(Vec::new(), Some(Rng::seed(seed)), usize::MAX)
    }

    fn words(src: &mut Source) -> Vec<String> {
        let n = src.size(0..=6);
        (0..n)
            .map(|_| src.string(0..=10, &['a', 'b', 'c', 'd', '_', '0']))
            .collect()
    }

    #[test]
    fn same_seed_same_bytes_and_value() {
        let (mut a, mut b) = (fresh(3), fresh(3));
        let (va, vb) = (words(&mut a), words(&mut b));
        assert_eq!(va, vb);
        assert_eq!(a.into_bytes(), b.into_bytes());
        let (mut c, mut d) = (fresh(3), fresh(4));
        assert_ne!(c.bytes(32), d.bytes(32));
    }

    #[test]
    fn generation_extends_and_into_bytes_trims() {
        let mut src = fresh(1);
        let b = src.bytes(10);
        assert_eq!(src.consumed(), 10);
        let saved = src.into_bytes();
        assert_eq!(saved, b);

        // Given bytes are read first; unread ones are dropped.
        let mut src = Source::new(vec![9, 8, 7, 6, 5], Some(Rng::seed(1)), MAX_INPUT);
        assert_eq!(src.u8(), 9);
        assert_eq!(src.u16(), u16::from_le_bytes([8, 7]));
        assert_eq!(src.into_bytes(), vec![9, 8, 7]);

        // A read that straddles the end takes the rest and appends the remainder.
        let mut src = Source::new(vec![1, 2], Some(Rng::seed(2)), MAX_INPUT);
        let x = src.u32();
        assert_eq!(x.to_le_bytes()[..2], [1, 2]);
        assert_eq!(src.consumed(), 4);
        assert_eq!(src.into_bytes()[..], x.to_le_bytes());
    }

    #[test]
    fn replay_of_trimmed_bytes_gives_the_same_value() {
        for seed in 0..50 {
            let mut src = fresh(seed);
            let value = words(&mut src);
            let used = src.consumed();
            let saved = src.into_bytes();
            assert_eq!(saved.len(), used);
            let mut again = Source::replay(saved.clone());
            assert_eq!(words(&mut again), value, "seed {seed}");
            assert_eq!(again.consumed(), saved.len());
        }
    }

    #[test]
    fn replay_past_the_end_yields_zeros() {
        let mut src = Source::replay(vec![0xab]);
        assert_eq!(src.u8(), 0xab);
        assert_eq!(src.u64(), 0);
        assert!(!src.bool());
        assert_eq!(src.int_in_range(5i32..=9), 5);
        assert_eq!(src.size(3..=100), 3);
        assert_eq!(src.consumed(), 1);
        assert_eq!(src.into_bytes(), vec![0xab]);
    }

    #[derive(Debug, PartialEq, arbitrary::Arbitrary)]
    enum Shape {
        Dot,
        Line(u8, u8),
        Poly(Vec<(i16, i16)>),
    }

    #[derive(Debug, PartialEq, arbitrary::Arbitrary)]
    struct Scene {
        name: String,
        scale: u32,
        shapes: Vec<Shape>,
    }

    #[test]
    fn arbitrary_replays_exactly() {
        let mut distinct = std::collections::HashSet::new();
        for seed in 0..50 {
            let mut src = fresh(seed);
            let scene: Scene = src.arbitrary().expect("random bytes decode");
            let saved = src.into_bytes();
            assert!((1..=ARBITRARY_FRESH).contains(&saved.len()));
            let mut again = Source::replay(saved);
            assert_eq!(again.arbitrary::<Scene>(), Ok(scene));
            distinct.insert(again.into_bytes());
        }
        assert!(distinct.len() > 45, "fresh inputs are random");
    }

    #[test]
    fn arbitrary_takes_the_rest_and_closes_the_source() {
        // A generator that reads a byte, then an arbitrary value, then more.
        fn mixed(src: &mut Source) -> (u8, Result<Vec<u16>, Invalid>, u32) {
            (src.u8(), src.arbitrary(), src.u32())
        }
        for seed in 0..20 {
            let mut src = fresh(seed);
            let value = mixed(&mut src);
            assert_eq!(value.2, 0, "reads after arbitrary yield 0");
            let saved = src.into_bytes();
            assert!(saved.len() >= 2);
            assert_eq!(mixed(&mut Source::replay(saved)), value);
        }
        // Given bytes: all of the rest is taken.
        // (`arbitrary`'s take-rest encoding: a "keep going" bool before each element.)
        let given = vec![7, 1, 1, 0, 1, 2, 0, 0, 0xaa];
        let mut src = Source::new(given.clone(), Some(Rng::seed(0)), MAX_INPUT);
        assert_eq!(src.u8(), 7);
        let v: Vec<u16> = src.arbitrary().unwrap();
        assert_eq!(v, vec![1, 2]);
        assert_eq!(src.consumed(), given.len(), "even the byte arbitrary left");
        assert_eq!(src.into_bytes(), given);
    }

    #[test]
    fn arbitrary_failure_is_invalid() {
        #[derive(Debug)]
        struct Picky;
        impl<'a> arbitrary::Arbitrary<'a> for Picky {
            fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
                match u.bytes(4)? {
                    b"OKAY" => Ok(Picky),
                    _ => Err(arbitrary::Error::IncorrectFormat),
                }
            }
        }
        assert!(
            Source::replay(b"OKAY".to_vec())
                .arbitrary::<Picky>()
                .is_ok()
        );
        assert_eq!(
            Source::replay(b"NOPE".to_vec())
                .arbitrary::<Picky>()
                .unwrap_err(),
            Invalid
        );
        assert_eq!(
            Source::replay(vec![]).arbitrary::<Picky>().unwrap_err(),
            Invalid
        );
    }

    #[test]
    fn cap_is_respected() {
        let mut src = Source::new(Vec::new(), Some(Rng::seed(1)), 16);
        let b = src.bytes(100);
        assert!(b[16..].iter().all(|&x| x == 0));
        assert_eq!(src.u64(), 0);
        assert_eq!(src.consumed(), 16);
        let saved = src.into_bytes();
        assert_eq!(saved, b[..16]);

        // Given bytes beyond the cap are dropped.
        let mut src = Source::new(vec![1; 10], Some(Rng::seed(1)), 4);
        assert_eq!(src.bytes(6), vec![1, 1, 1, 1, 0, 0]);
        assert_eq!(src.into_bytes().len(), 4);

        // arbitrary's fresh bytes too.
        let mut src = Source::new(vec![1, 2], Some(Rng::seed(1)), 5);
        src.bytes(2);
        let _: Vec<u8> = src.arbitrary().unwrap();
        assert!(src.into_bytes().len() <= 5);
        for seed in 0..20 {
            let mut src = Source::new(vec![], Some(Rng::seed(seed)), 0);
            let v: Vec<u8> = src.arbitrary().unwrap();
            assert!(v.is_empty());
            assert!(src.into_bytes().is_empty());
        }
    }

    #[test]
    fn bytes_read_per_range() {
        fn used<T: Int>(range: RangeInclusive<T>) -> usize {
            let mut src = Source::replay(vec![0x5a; 32]);
            src.int_in_range(range);
            src.consumed()
        }
        assert_eq!(used(0u8..=0), 0);
        assert_eq!(used(0u8..=1), 1);
        assert_eq!(used(0u8..=2), 1);
        assert_eq!(used(0u8..=255), 1);
        assert_eq!(used(0u32..=9), 2);
        assert_eq!(used(0u64..=255), 1);
        assert_eq!(used(-128i16..=127), 1);
        assert_eq!(used(0u16..=u16::MAX), 2);
        assert_eq!(used(i64::MIN..=i64::MAX), 8);
        assert_eq!(used(u128::MIN..=u128::MAX), 16);
        assert_eq!(used(0u128..=u128::MAX - 1), 16);
        // The same width reads the same bytes whatever the type.
        assert_eq!(used(0usize..=1000), used(-500i64..=500));
    }

    #[test]
    fn int_in_range_stays_in_range_for_every_type() {
        macro_rules! check {
            ($src:expr, $($t:ty),*) => {$(
                let ranges: [RangeInclusive<$t>; 6] = [
                    <$t>::MIN..=<$t>::MAX,
                    <$t>::MIN..=<$t>::MIN,
                    <$t>::MAX..=<$t>::MAX,
                    <$t>::MIN..=<$t>::MIN + 3,
                    <$t>::MAX - 100..=<$t>::MAX,
                    (<$t>::MIN / 2 + <$t>::MAX / 4)..=(<$t>::MAX / 2 + 7),
                ];
                for r in ranges {
                    for _ in 0..200 {
                        let x = $src.int_in_range(r.clone());
                        assert!(r.contains(&x), "{} {x} not in {r:?}", stringify!($t));
                    }
                }
            )*};
        }
        let mut src = fresh(7);
        check!(
            src, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
        );
        // The extremes are reachable.
        let mut src = Source::replay(vec![0; 8]);
        assert_eq!(src.int_in_range(i64::MIN..=i64::MAX), i64::MIN);
        let mut src = Source::replay(vec![0xff; 8]);
        assert_eq!(src.int_in_range(i64::MIN..=i64::MAX), i64::MAX);
        let mut src = Source::replay(vec![0xff; 16]);
        assert_eq!(src.int_in_range(i128::MIN..=i128::MAX), i128::MAX);
    }

    /// Chi-square statistic of `counts` against the uniform distribution.
    fn chi_square(counts: &[u32]) -> f64 {
        let total: u32 = counts.iter().sum();
        let expected = total as f64 / counts.len() as f64;
        counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum()
    }

    #[test]
    fn int_in_range_is_near_uniform() {
        let mut src = fresh(11);
        // 10 values (two bytes each), 9 degrees of freedom: p = 0.001 at 27.9.
        let mut counts = [0u32; 10];
        for _ in 0..30_000 {
            counts[src.int_in_range(0u8..=9) as usize] += 1;
        }
        assert!(chi_square(&counts) < 27.9, "{counts:?}");
        // 3 values in one byte (relative bias 1/85).
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[(src.int_in_range(-1i32..=1) + 1) as usize] += 1;
        }
        assert!(chi_square(&counts) < 13.8, "{counts:?}");
        // The full i64 range, bucketed by its top 4 bits: 15 dof, p = 0.001 at 37.7.
        let mut counts = [0u32; 16];
        for _ in 0..16_000 {
            let x = src.int_in_range(i64::MIN..=i64::MAX);
            counts[((x as u64 ^ (1 << 63)) >> 60) as usize] += 1;
        }
        assert!(chi_square(&counts) < 37.7, "{counts:?}");
        // A range just above a power of 256 (the worst case for plain
        // remainders: 0..=128 in one byte would make 127 values twice as
        // likely as the other two).
        let mut counts = [0u32; 129];
        for _ in 0..64_500 {
            counts[src.int_in_range(0u16..=128) as usize] += 1;
        }
        // 128 dof: p = 0.001 at about 183.
        assert!(chi_square(&counts) < 183.0, "{}", chi_square(&counts));
    }

    #[test]
    #[should_panic(expected = "empty")]
    fn empty_range_panics() {
        #[allow(clippy::reversed_empty_ranges)]
        Source::replay(vec![]).int_in_range(3u8..=2);
    }

    #[test]
    fn index_and_choose() {
        let mut src = fresh(2);
        let items = ['p', 'q', 'r', 's', 't'];
        let mut seen = [false; 5];
        for _ in 0..500 {
            let i = src.index(5);
            seen[i] = true;
            assert!(items.contains(src.choose(&items)));
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(src.index(1), 0);
    }

    #[test]
    fn size_is_within_bounds_and_small_biased() {
        let mut src = fresh(4);
        let draws = 20_000;
        let sizes: Vec<usize> = (0..draws).map(|_| src.size(0..=100)).collect();
        assert!(sizes.iter().all(|&s| s <= 100));
        assert!(sizes.contains(&0) && sizes.contains(&100));
        let mean = sizes.iter().sum::<usize>() as f64 / draws as f64;
        assert!((12.5..15.0).contains(&mean), "mean {mean}");
        let small = sizes.iter().filter(|&&s| s < 8).count() as f64 / draws as f64;
        assert!((0.59..0.65).contains(&small), "P(size < 8) = {small}");

        for bounds in [
            5..=5,
            3..=4,
            1..=1000,
            0..=usize::MAX,
            usize::MAX - 2..=usize::MAX,
        ] {
            for _ in 0..300 {
                assert!(bounds.contains(&src.size(bounds.clone())));
            }
        }
        let mut src = Source::replay(vec![]);
        assert_eq!(src.size(7..=7), 7);
        assert_eq!(src.consumed(), 0);
    }

    #[test]
    fn string_uses_the_alphabet() {
        let mut src = fresh(8);
        for _ in 0..200 {
            let s = src.string(2..=5, &['é', 'z']);
            let n = s.chars().count();
            assert!((2..=5).contains(&n));
            assert!(s.chars().all(|c| c == 'é' || c == 'z'));
        }
    }

    #[derive(Debug)]
    enum Tree {
        Leaf,
        Node(Vec<Tree>),
    }

    fn tree(src: &mut Source) -> Tree {
        src.nest(
            3,
            |s| {
                if s.index(4) == 0 {
                    Tree::Leaf
                } else {
                    let n = s.size(1..=3);
                    Tree::Node((0..n).map(|_| tree(s)).collect())
                }
            },
            |_| Tree::Leaf,
        )
    }

    fn height(t: &Tree) -> u32 {
        match t {
            Tree::Leaf => 0,
            Tree::Node(kids) => 1 + kids.iter().map(height).max().unwrap_or(0),
        }
    }

    #[test]
    fn nest_bounds_depth() {
        let mut tallest = 0;
        for seed in 0..100 {
            let mut src = fresh(seed);
            let t = tree(&mut src);
            assert_eq!(src.depth(), 0, "depth is restored");
            assert!(height(&t) <= 3);
            tallest = tallest.max(height(&t));
        }
        assert_eq!(tallest, 3, "the bound is reached");
        // Depth as seen inside.
        let mut src = Source::replay(vec![]);
        let seen = src.nest(
            1,
            |s| (s.depth(), s.nest(1, |_| 99, |s| s.depth())),
            |_| (0, 0),
        );
        assert_eq!(seen, (1, 1));
    }

    #[test]
    fn int_reads_are_little_endian() {
        let mut src = Source::replay((1..=26).collect());
        assert_eq!(src.u8(), 1);
        assert_eq!(src.u16(), 0x0302);
        assert_eq!(src.u32(), 0x07060504);
        assert_eq!(src.u64(), 0x0f0e0d0c0b0a0908);
        assert_eq!(src.i32(), i32::from_le_bytes([16, 17, 18, 19]));
        assert_eq!(
            src.i64(),
            i64::from_le_bytes([20, 21, 22, 23, 24, 25, 26, 0])
        );
        assert_eq!(src.consumed(), 26);
    }
}
