//! Zest's havoc mutation on the raw bytes of an input.
//!
//! Because generators read inputs as a stream of choices, overwriting a few
//! bytes changes a few decisions deep inside the generated value while the
//! rest of it stays put: small structural mutations, with no knowledge of
//! the value's type.

use crate::rng::Rng;

/// Mean number of mutations per child (Zest's `MEAN_MUTATION_COUNT`).
const MEAN_MUTATIONS: f64 = 8.0;
/// Mean length of each overwritten run (Zest's `MEAN_MUTATION_SIZE`).
const MEAN_RUN: f64 = 4.0;
/// Probability that all of a child's runs are zeros instead of random bytes.
/// Zero bytes decode to the smallest choices (first alternative, `start` of
/// a range, shortest size), so these children simplify the value.
const ZERO_CHANCE: f64 = 0.1;

/// A child of `parent`, never longer than `cap` bytes.
///
/// The number of mutations is geometric with mean 8; each overwrites a run
/// of geometric length (mean 4) at a uniformly random offset; with
/// probability 0.1 all of this child's runs write zeros, otherwise random
/// bytes. Offsets range over `0..=len` (the current length, capped), so a
/// run may start at the end and extend the input: an empty parent still
/// gets a non-empty child. The child does not have to be long enough for
/// the generator: reading past its end appends fresh random bytes
/// ([`Source`](crate::Source) in generation mode).
///
/// Like Zest, it does not guarantee a change: a random run can rewrite the
/// bytes that were there (about 1 in 256 per byte), and a zero run can land
/// on zeros.
///
/// ```
/// use mu2_runtime::{Rng, havoc};
/// let parent = b"hello, world".to_vec();
/// let child = havoc(&parent, &mut Rng::seed(1), 10_240);
/// assert_ne!(child, parent);
/// assert!(child.len() >= parent.len());
/// ```
pub fn havoc(parent: &[u8], rng: &mut Rng, cap: usize) -> Vec<u8> {
    mutate(parent, rng, cap).0
}

/// `havoc`, also saying how many mutations it made and whether they wrote
/// zeros (for tests).
fn mutate(parent: &[u8], rng: &mut Rng, cap: usize) -> (Vec<u8>, usize, bool) {
    let count = rng.geometric(MEAN_MUTATIONS);
    let zeros = rng.chance(ZERO_CHANCE);
    let mut child = parent[..parent.len().min(cap)].to_vec();
    if cap == 0 {
        return (child, count, zeros);
    }
    for _ in 0..count {
        let offset = rng.below((child.len() + 1).min(cap));
        let end = offset.saturating_add(rng.geometric(MEAN_RUN)).min(cap);
        if end > child.len() {
            child.resize(end, 0);
        }
        let run = &mut child[offset..end];
        if zeros {
            run.fill(0);
        } else {
            rng.fill(run);
        }
    }
    (child, count, zeros)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_parent(len: usize, seed: u64) -> Vec<u8> {
        let mut v = vec![0; len];
        Rng::seed(seed).fill(&mut v);
        v
    }

    #[test]
    fn same_seed_same_child() {
        let parent = random_parent(50, 1);
        for seed in 0..20 {
            assert_eq!(
                havoc(&parent, &mut Rng::seed(seed), 100),
                havoc(&parent, &mut Rng::seed(seed), 100)
            );
        }
    }

    #[test]
    fn children_differ_from_the_parent_and_each_other() {
        let parent = random_parent(100, 2);
        let mut rng = Rng::seed(3);
        let children: Vec<Vec<u8>> = (0..1000)
            .map(|_| havoc(&parent, &mut rng, 10_240))
            .collect();
        let changed = children.iter().filter(|c| **c != parent).count();
        assert!(changed >= 985, "only {changed} of 1000 changed");
        let distinct: std::collections::HashSet<_> = children.iter().collect();
        assert!(distinct.len() >= 985);
        // Runs overwrite: the child is never shorter than the parent.
        assert!(children.iter().all(|c| c.len() >= parent.len()));
        // ... and sometimes extends it.
        assert!(children.iter().any(|c| c.len() > parent.len()));
    }

    #[test]
    fn an_empty_parent_gets_a_nonempty_child() {
        let mut rng = Rng::seed(4);
        for _ in 0..200 {
            let child = havoc(&[], &mut rng, 10_240);
            assert!(!child.is_empty());
        }
    }

    #[test]
    fn cap_is_respected() {
        let mut rng = Rng::seed(5);
        for _ in 0..500 {
            assert!(havoc(&random_parent(10, 6), &mut rng, 12).len() <= 12);
            assert_eq!(havoc(&random_parent(64, 6), &mut rng, 64).len(), 64);
            // A parent over the cap is cut to it.
            assert_eq!(havoc(&random_parent(80, 6), &mut rng, 64).len(), 64);
            assert!(havoc(&[], &mut rng, 1).len() <= 1);
            assert!(havoc(&random_parent(5, 6), &mut rng, 0).is_empty());
        }
    }

    #[test]
    fn mutation_count_has_mean_8_and_a_tenth_write_zeros() {
        let parent = random_parent(64, 7);
        let mut rng = Rng::seed(8);
        let n = 5000;
        let (mut total, mut zero_children) = (0, 0);
        for _ in 0..n {
            let (_, count, zeros) = mutate(&parent, &mut rng, 10_240);
            assert!(count >= 1);
            total += count;
            zero_children += zeros as usize;
        }
        let mean = total as f64 / n as f64;
        assert!((7.6..8.4).contains(&mean), "mean mutations {mean}");
        let share = zero_children as f64 / n as f64;
        assert!((0.085..0.115).contains(&share), "zero children {share}");
    }

    #[test]
    fn zero_children_write_only_zeros() {
        // Seen from the outside: on a parent with no zero bytes, about a
        // tenth of the children change bytes only to zero.
        let parent = vec![0xff; 64];
        let mut rng = Rng::seed(9);
        let n = 5000;
        let only_zeros = (0..n)
            .filter(|_| {
                let child = havoc(&parent, &mut rng, 10_240);
                let changed: Vec<u8> = child
                    .iter()
                    .enumerate()
                    .filter(|&(i, &b)| parent.get(i) != Some(&b))
                    .map(|(_, &b)| b)
                    .collect();
                !changed.is_empty() && changed.iter().all(|&b| b == 0)
            })
            .count();
        let share = only_zeros as f64 / n as f64;
        assert!((0.085..0.12).contains(&share), "{share}");
    }
}
