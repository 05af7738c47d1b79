//! A fixed-size bit set over dense indices (mutants, branches).

/// A set of dense indices.
///
/// ```
/// let mut s = mu2_runtime::Bits::new(100);
/// s.insert(3);
/// s.insert(64);
/// assert!(s.contains(64) && !s.contains(4));
/// assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 64]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits {
    words: Vec<u64>,
    len: usize,
}

impl Bits {
    /// An empty set that can hold `0..len`.
    pub fn new(len: usize) -> Bits {
        Bits {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    /// The capacity: indices `0..len()` fit.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Empties the set and makes it hold `0..len`.
    pub fn reset(&mut self, len: usize) {
        self.words.clear();
        self.words.resize(len.div_ceil(64), 0);
        self.len = len;
    }

    #[inline]
    pub fn insert(&mut self, i: usize) {
        if let Some(w) = self.words.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    #[inline]
    pub fn remove(&mut self, i: usize) {
        if let Some(w) = self.words.get_mut(i / 64) {
            *w &= !(1 << (i % 64));
        }
    }

    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(wi * 64 + b)
            })
        })
    }

    /// The words, for the probes' raw view of a trace being recorded.
    pub(crate) fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    /// Becomes the members of `a` that are not in `b`.
    ///
    /// ```
    /// use mu2_runtime::Bits;
    /// let (mut a, mut b, mut d) = (Bits::new(70), Bits::new(70), Bits::new(0));
    /// a.insert(3);
    /// a.insert(68);
    /// b.insert(3);
    /// d.set_difference(&a, &b);
    /// assert_eq!(d.iter().collect::<Vec<_>>(), [68]);
    /// ```
    pub fn set_difference(&mut self, a: &Bits, b: &Bits) {
        self.len = a.len;
        self.words.clear();
        self.words.extend(
            a.words
                .iter()
                .enumerate()
                .map(|(i, w)| w & !b.words.get(i).copied().unwrap_or(0)),
        );
    }

    /// Adds every member of `other`.
    pub fn union_with(&mut self, other: &Bits) {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
            self.len = self.len.max(other.len);
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }
}
