//! Branch coverage with hit-count buckets, as AFL and Zest keep it.
//!
//! A run's branch hit counts are folded into buckets (1, 2, 3, 4-7, 8-15,
//! 16-31, 32-127, 128+). The campaign's map remembers, per branch, which
//! buckets any saved input has reached: a run that reaches a new branch says
//! `+cov`, one that reaches a new bucket of a known branch says `+count`.

/// The bucket of a hit count, as a bit (0 for no hits).
///
/// ```
/// use mu2_runtime::coverage::bucket;
/// assert_eq!(bucket(0), 0);
/// assert_eq!(bucket(5), bucket(7));
/// assert_ne!(bucket(3), bucket(4));
/// ```
pub fn bucket(hits: u32) -> u8 {
    match hits {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 4,
        4..=7 => 8,
        8..=15 => 16,
        16..=31 => 32,
        32..=127 => 64,
        _ => 128,
    }
}

/// What a run added to a coverage map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gain {
    /// Branches no earlier run had reached.
    pub new_branches: Vec<usize>,
    /// Whether some known branch reached a new hit-count bucket.
    pub new_counts: bool,
}

impl Gain {
    pub fn any(&self) -> bool {
        !self.new_branches.is_empty() || self.new_counts
    }
}

/// The union of the buckets reached by the runs merged into it.
#[derive(Clone, Debug, Default)]
pub struct CoverageMap {
    buckets: Vec<u8>,
    branches: usize,
}

impl CoverageMap {
    pub fn new(branches: usize) -> CoverageMap {
        CoverageMap {
            buckets: vec![0; branches],
            branches: 0,
        }
    }

    /// Branches reached at least once.
    pub fn branches(&self) -> usize {
        self.branches
    }

    /// What `hits` would add, without adding it.
    pub fn gain(&self, hits: &[u32]) -> Gain {
        let mut gain = Gain::default();
        for (i, (&h, &seen)) in hits.iter().zip(&self.buckets).enumerate() {
            let b = bucket(h);
            if b & !seen != 0 {
                if seen == 0 {
                    gain.new_branches.push(i)
                } else {
                    gain.new_counts = true
                }
            }
        }
        gain
    }

    /// Adds a run's hits to the map.
    pub fn merge(&mut self, hits: &[u32]) {
        for (seen, &h) in self.buckets.iter_mut().zip(hits) {
            let b = bucket(h);
            if b != 0 && *seen == 0 {
                self.branches += 1
            }
            *seen |= b;
        }
    }
}

/// Branches a run reached (hit at least once).
pub fn reached(hits: &[u32]) -> usize {
    hits.iter().filter(|&&h| h > 0).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_branches_and_new_counts_are_told_apart() {
        let mut map = CoverageMap::new(3);
        let first = [1, 0, 0];
        assert_eq!(map.gain(&first).new_branches, vec![0]);
        map.merge(&first);
        assert!(!map.gain(&first).any());
        // Same branch, hit 5 times: a new bucket, not a new branch.
        let more = [5, 0, 0];
        let g = map.gain(&more);
        assert!(g.new_counts && g.new_branches.is_empty());
        map.merge(&more);
        // 6 hits is in the same bucket as 5.
        assert!(!map.gain(&[6, 0, 0]).any());
        assert_eq!(map.gain(&[0, 0, 2]).new_branches, vec![2]);
        assert_eq!(map.branches(), 1);
    }
}
