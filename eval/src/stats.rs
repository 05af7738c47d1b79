//! Summary statistics and the Mann-Whitney U test.
//!
//! The U test is the paper's choice for comparing fuzzers over repeated runs
//! (it assumes no distribution of the kill counts). It is computed with the
//! normal approximation, with the variance corrected for ties and a
//! continuity correction; the exact small-sample distribution is not
//! tabulated, so with very few repetitions (fewer than about 5 per side) the
//! p-value is a rough guide only.

/// The arithmetic mean (0 for no values).
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// The sample standard deviation (n - 1 in the denominator; 0 for fewer
/// than two values).
pub fn sd(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    (ss / (xs.len() - 1) as f64).sqrt()
}

/// The outcome of a two-sided Mann-Whitney U test of `a` against `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UTest {
    /// U of the first sample: how often a value of `a` beats one of `b`
    /// (ties count a half).
    pub u: f64,
    /// The two-sided p-value, by the normal approximation.
    pub p: f64,
}

/// Two-sided Mann-Whitney U test, normal approximation with tie and
/// continuity corrections. With an empty sample, or all values tied (no
/// information), p is 1.
pub fn mann_whitney(a: &[f64], b: &[f64]) -> UTest {
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    if a.is_empty() || b.is_empty() {
        return UTest { u: 0.0, p: 1.0 };
    }
    // Midranks of the pooled sample.
    let mut pooled: Vec<(f64, bool)> = a
        .iter()
        .map(|&x| (x, true))
        .chain(b.iter().map(|&x| (x, false)))
        .collect();
    pooled.sort_by(|x, y| x.0.total_cmp(&y.0));
    let n = pooled.len();
    let (mut rank_a, mut ties) = (0.0, 0.0);
    let mut i = 0;
    while i < n {
        let mut j = i;
        while j + 1 < n && pooled[j + 1].0 == pooled[i].0 {
            j += 1;
        }
        let t = (j - i + 1) as f64;
        let midrank = (i + j) as f64 / 2.0 + 1.0;
        rank_a += midrank * pooled[i..=j].iter().filter(|p| p.1).count() as f64;
        ties += t * t * t - t;
        i = j + 1;
    }
    let u = rank_a - n1 * (n1 + 1.0) / 2.0;
    let mu = n1 * n2 / 2.0;
    let nn = n1 + n2;
    let var = n1 * n2 / 12.0 * ((nn + 1.0) - ties / (nn * (nn - 1.0)));
    if var <= 0.0 {
        return UTest { u, p: 1.0 };
    }
    let z = ((u - mu).abs() - 0.5).max(0.0) / var.sqrt();
    UTest {
        u,
        p: (2.0 * normal_sf(z)).min(1.0),
    }
}

/// The standard normal's upper tail, P(Z > z), via `erfc`.
fn normal_sf(z: f64) -> f64 {
    0.5 * erfc(z / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' Chebyshev fit,
/// relative error below 1.2e-7: plenty for a p-value).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_sd() {
        assert_eq!(mean(&[]), 0.0);
        assert_eq!(mean(&[1.0, 2.0, 3.0]), 2.0);
        assert!((sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) - 2.138).abs() < 1e-3);
        assert_eq!(sd(&[5.0]), 0.0);
    }

    #[test]
    fn erfc_matches_known_values() {
        assert!((erfc(0.0) - 1.0).abs() < 1e-7);
        assert!((erfc(1.0) - 0.157_299_2).abs() < 1e-6);
        assert!((erfc(-1.0) - 1.842_700_8).abs() < 1e-6);
    }

    #[test]
    fn identical_samples_give_p_one() {
        let a = [3.0, 4.0, 5.0, 6.0, 7.0];
        let t = mann_whitney(&a, &a);
        assert!((t.p - 1.0).abs() < 1e-9, "{t:?}");
        assert_eq!(t.u, 12.5);
        // All tied: no information.
        assert_eq!(mann_whitney(&[1.0; 4], &[1.0; 4]).p, 1.0);
    }

    #[test]
    fn separated_samples_give_small_p() {
        let a: Vec<f64> = (1..=10).map(f64::from).collect();
        let b: Vec<f64> = (11..=20).map(f64::from).collect();
        let t = mann_whitney(&a, &b);
        assert_eq!(t.u, 0.0);
        // Normal approximation with continuity correction: z = 3.742.
        assert!((t.p - 1.827e-4).abs() < 1e-5, "{t:?}");
        assert_eq!(mann_whitney(&b, &a).p, t.p);
    }

    #[test]
    fn ties_shrink_the_variance() {
        let a = [1.0, 1.0, 2.0, 2.0, 2.0];
        let b = [2.0, 3.0, 3.0, 3.0, 3.0];
        let t = mann_whitney(&a, &b);
        assert!(t.p < 0.05, "{t:?}");
    }
}
