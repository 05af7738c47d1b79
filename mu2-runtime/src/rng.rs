//! The fuzzer's one source of randomness: seedable, and the same stream for
//! the same seed on every platform, so a campaign can be replayed from its
//! seed alone.

use rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A deterministic random stream (xoshiro256++ seeded through SplitMix64).
///
/// Everything the fuzzer decides at random (which parent, how to mutate it,
/// the fresh bytes a generator reads past the end of its input) comes from
/// one of these, so a run is reproducible from its seed. Only integer
/// arithmetic and exactly rounded `f64` operations (no `ln`, `exp`) turn the
/// raw words into values, so the stream does not depend on the platform's
/// math library either.
///
/// ```
/// use mu2_runtime::Rng;
/// let (mut a, mut b) = (Rng::seed(42), Rng::seed(42));
/// assert_eq!(a.next_u64(), b.next_u64());
/// let d = a.below(6);
/// assert!(d < 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(Xoshiro256PlusPlus);

/// 2^-53: turns the top 53 bits of a word into a fraction of one, exactly.
const UNIT: f64 = 1.0 / (1u64 << 53) as f64;

impl Rng {
    /// The stream for `seed`. Nearby seeds give unrelated streams (the seed
    /// is scrambled by SplitMix64 first).
    pub fn seed(seed: u64) -> Rng {
        Rng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n`, without modulo bias (Lemire's multiply-and-reject),
    /// and the same value on 32- and 64-bit targets.
    ///
    /// # Panics
    ///
    /// When `n == 0`.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0): the range 0..0 is empty");
        let n = n as u64;
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as usize
    }

    /// `true` with probability `p` (`p <= 0` never, `p >= 1` always). Draws
    /// one word whatever `p` is.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 * UNIT) < p
    }

    /// A count `>= 1`, geometrically distributed with the given mean: Zest
    /// draws its number of mutations (mean 8) and the length of each
    /// overwritten run (mean 4) this way, so small values are common and
    /// large ones possible. `P(X > k) = (1 - 1/mean)^k`. A mean of 1 or less
    /// (or NaN) gives 1. Draws one word whatever `mean` is.
    ///
    /// ```
    /// let mut rng = mu2_runtime::Rng::seed(1);
    /// let n = rng.geometric(8.0);
    /// assert!(n >= 1);
    /// ```
    pub fn geometric(&mut self, mean: f64) -> usize {
        // u in (0, 1]; X = the least k >= 1 with q^k <= u, i.e. inverse
        // transform sampling, computed with squarings instead of `ln` so the
        // result is bit-identical everywhere.
        let u = ((self.next_u64() >> 11) + 1) as f64 * UNIT;
        if mean.is_nan() || mean <= 1.0 {
            return 1;
        }
        let q = 1.0 - 1.0 / mean;
        // powers[i] = q^(2^i), while it is still above u.
        let mut powers = [0.0f64; 64];
        let mut len = 0;
        let mut p = q;
        while len < 64 && p > u {
            powers[len] = p;
            len += 1;
            p *= p;
        }
        // The largest m with q^m > u, built bit by bit from the top.
        let mut t = 1.0f64;
        let mut m: u64 = 0;
        for i in (0..len).rev() {
            if t * powers[i] > u {
                t *= powers[i];
                m |= 1 << i;
            }
        }
        usize::try_from(m.saturating_add(1)).unwrap_or(usize::MAX)
    }

    /// Fills `buf` with random bytes: each word in little-endian order, so
    /// the bytes are the same on every platform.
    pub fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let word = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }

    /// A child stream, independent of this one and of other children: e.g.
    /// one per worker or per generated input, so that what one consumer draws
    /// does not shift what the others see. Advances this stream by one word.
    ///
    /// ```
    /// let mut parent = mu2_runtime::Rng::seed(3);
    /// let mut a = parent.fork();
    /// let mut b = parent.fork();
    /// assert_ne!(a.next_u64(), b.next_u64());
    /// ```
    pub fn fork(&mut self) -> Rng {
        // Through SplitMix64 again, not a copy of this state: seeding
        // xoshiro with its own raw output risks correlated streams.
        Rng::seed(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_pinned_values() {
        let mut a = Rng::seed(0);
        let mut b = Rng::seed(0);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..8).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        // Pinned, so that a change of algorithm or seeding (which would make
        // old campaigns irreproducible) fails here.
        assert_eq!(
            &xs[..3],
            &[0x53175d61490b23df, 0x61da6f3dc380d507, 0x5c0fdf91ec9a7bfc]
        );
        let mut c = Rng::seed(1);
        assert_ne!(c.next_u64(), xs[0]);
    }

    #[test]
    fn fill_is_the_little_endian_words() {
        let mut a = Rng::seed(9);
        let mut b = Rng::seed(9);
        let mut buf = [0u8; 13];
        a.fill(&mut buf);
        let w0 = b.next_u64().to_le_bytes();
        let w1 = b.next_u64().to_le_bytes();
        assert_eq!(&buf[..8], &w0);
        assert_eq!(&buf[8..], &w1[..5]);
        // Both consumed two words.
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn below_is_in_range_and_uniform() {
        let mut rng = Rng::seed(5);
        assert_eq!(rng.below(1), 0);
        let n = 7;
        let draws = 35_000;
        let mut counts = [0u32; 7];
        for _ in 0..draws {
            counts[rng.below(n)] += 1;
        }
        let expected = draws as f64 / n as f64;
        let chi: f64 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        // 6 degrees of freedom: p = 0.001 at 22.5.
        assert!(chi < 22.5, "chi-square {chi}, counts {counts:?}");
        for _ in 0..1000 {
            assert!(rng.below(usize::MAX) < usize::MAX);
        }
    }

    #[test]
    #[should_panic(expected = "empty")]
    fn below_zero_panics() {
        Rng::seed(0).below(0);
    }

    #[test]
    fn chance_matches_p() {
        let mut rng = Rng::seed(6);
        let hits = (0..20_000).filter(|_| rng.chance(0.1)).count();
        assert!((1_800..2_200).contains(&hits), "{hits}");
        assert!((0..100).all(|_| !rng.chance(0.0)));
        assert!((0..100).all(|_| rng.chance(1.0)));
        assert!((0..100).all(|_| !rng.chance(f64::NAN)));
    }

    #[test]
    fn geometric_has_the_mean_and_shape() {
        let mut rng = Rng::seed(7);
        for mean in [8.0, 4.0, 1.5] {
            let draws = 20_000;
            let xs: Vec<usize> = (0..draws).map(|_| rng.geometric(mean)).collect();
            assert!(xs.iter().all(|&x| x >= 1));
            let avg = xs.iter().sum::<usize>() as f64 / draws as f64;
            assert!((avg - mean).abs() < mean * 0.05, "mean {mean}: got {avg}");
            // P(X = 1) = 1/mean.
            let ones = xs.iter().filter(|&&x| x == 1).count() as f64 / draws as f64;
            assert!(
                (ones - 1.0 / mean).abs() < 0.02,
                "mean {mean}: P(1) = {ones}"
            );
        }
        assert_eq!(rng.geometric(1.0), 1);
        assert_eq!(rng.geometric(0.5), 1);
        assert_eq!(rng.geometric(f64::NAN), 1);
        // A huge mean neither hangs nor overflows.
        assert!(rng.geometric(1e300) >= 1);
        assert!(rng.geometric(f64::INFINITY) >= 1);
    }

    #[test]
    fn forks_are_distinct_and_reproducible() {
        let mut p1 = Rng::seed(11);
        let mut p2 = Rng::seed(11);
        let mut a1 = p1.fork();
        let mut b1 = p1.fork();
        let mut a2 = p2.fork();
        let xa: Vec<u64> = (0..4).map(|_| a1.next_u64()).collect();
        let xb: Vec<u64> = (0..4).map(|_| b1.next_u64()).collect();
        let xa2: Vec<u64> = (0..4).map(|_| a2.next_u64()).collect();
        assert_eq!(xa, xa2);
        assert_ne!(xa, xb);
        let xp: Vec<u64> = (0..4).map(|_| p1.next_u64()).collect();
        assert_ne!(xp, xa);
        assert_ne!(xp, xb);
    }
}
