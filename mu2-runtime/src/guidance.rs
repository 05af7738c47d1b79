//! Which mutants an input is run against (Mu2, Algorithm 3).
//!
//! `killable = surviving ∩ executed-by-x ∩ infected-by-x`, then an optional
//! filter. Execution and infection pruning are *sound*: a mutant whose site
//! the input never ran, or whose alternatives never produced a different
//! value on it, cannot behave differently on it, so skipping it loses no kill.
//! The filters are not sound; they trade kills for speed, as in the paper.

use std::fmt;

use crate::bits::Bits;
use crate::probe::Trace;
use crate::rng::Rng;

/// How much the probes prune (`MU2_OPT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    /// Run every surviving mutant on every input.
    None,
    /// Only those whose site the input executed.
    Execution,
    /// Only those the input also infected.
    Infection,
}

impl Opt {
    pub fn parse(text: &str) -> Option<Opt> {
        match text.trim() {
            "none" => Some(Opt::None),
            "execution" => Some(Opt::Execution),
            "infection" => Some(Opt::Infection),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Opt::None => "none",
            Opt::Execution => "execution",
            Opt::Infection => "infection",
        }
    }
}

/// How many: a number, or a percentage of the mutants seen so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Count {
    Fixed(usize),
    Percent(f64),
}

impl Count {
    fn parse(text: &str) -> Option<Count> {
        let text = text.trim();
        match text.strip_suffix('%') {
            Some(p) => p
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|p| *p > 0.0 && *p <= 100.0)
                .map(Count::Percent),
            None => text
                .parse::<usize>()
                .ok()
                .filter(|&k| k > 0)
                .map(Count::Fixed),
        }
    }

    fn of(self, seen: usize) -> usize {
        match self {
            Count::Fixed(k) => k,
            Count::Percent(p) => ((p / 100.0 * seen as f64).ceil() as usize).max(1),
        }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Count::Fixed(k) => write!(f, "{k}"),
            Count::Percent(p) => write!(f, "{p}%"),
        }
    }
}

/// The optional filter after pruning (`MU2_FILTER`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Filter {
    /// Every killable mutant.
    All,
    /// The K least-executed: never-run mutants first, in list order, then by
    /// ascending run count (Mu2-OPT uses K = 10).
    LeastExecuted(Count),
    /// K chosen at random.
    Random(Count),
}

impl Filter {
    /// `least-executed:10`, `least-executed:5%`, `random:10`, `random:10%`, `10`
    /// (K least-executed), `10%`, or `all`.
    ///
    /// ```
    /// use mu2_runtime::guidance::{Count, Filter};
    /// assert_eq!(Filter::parse("least-executed:10"), Some(Filter::LeastExecuted(Count::Fixed(10))));
    /// assert_eq!(Filter::parse("random:5%"), Some(Filter::Random(Count::Percent(5.0))));
    /// assert_eq!(Filter::parse("least-executed:0"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Filter> {
        let text = text.trim();
        if text == "all" || text == "none" {
            return Some(Filter::All);
        }
        match text.split_once(':') {
            Some(("least-executed", k)) => Count::parse(k).map(Filter::LeastExecuted),
            Some(("random", k)) => Count::parse(k).map(Filter::Random),
            Some(_) => None,
            None => Count::parse(text).map(Filter::LeastExecuted),
        }
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Filter::All => write!(f, "all"),
            Filter::LeastExecuted(k) => write!(f, "least-executed:{k}"),
            Filter::Random(k) => write!(f, "random:{k}"),
        }
    }
}

/// Chooses the mutants to run on each input, and remembers how often each
/// ran (for k-least-executed) and which were ever executed (seen).
pub struct Selector {
    opt: Opt,
    filter: Filter,
    runs: Vec<u64>,
    seen: Bits,
    rng: Rng,
    candidates: Vec<usize>,
}

impl Selector {
    pub fn new(mutants: usize, opt: Opt, filter: Filter, seed: u64) -> Selector {
        Selector {
            opt,
            filter,
            runs: vec![0; mutants],
            seen: Bits::new(mutants),
            rng: Rng::seed(seed),
            candidates: Vec::new(),
        }
    }

    /// Mutants executed by at least one input so far.
    pub fn seen(&self) -> &Bits {
        &self.seen
    }

    /// How often each mutant was chosen.
    pub fn runs(&self) -> &[u64] {
        &self.runs
    }

    /// The mutants to run on the input that produced `trace`, of those in
    /// `surviving`, into `chosen` (in ascending index order, so results are
    /// merged the same way whatever the number of worker threads).
    pub fn select(&mut self, surviving: &Bits, trace: &Trace, chosen: &mut Vec<usize>) {
        chosen.clear();
        self.seen.union_with(trace.executed());
        self.candidates.clear();
        self.candidates
            .extend(surviving.iter().filter(|&m| match self.opt {
                Opt::None => true,
                Opt::Execution => trace.executed().contains(m),
                Opt::Infection => trace.executed().contains(m) && trace.infected().contains(m),
            }));
        match self.filter {
            Filter::All => chosen.extend_from_slice(&self.candidates),
            Filter::LeastExecuted(k) => {
                let k = k.of(self.seen.count());
                // A stable sort keeps list order among equal counts, so
                // never-run mutants come first in list order.
                let runs = &self.runs;
                self.candidates.sort_by_key(|&m| runs[m]);
                chosen.extend(self.candidates.iter().take(k));
            }
            Filter::Random(k) => {
                let k = k.of(self.seen.count()).min(self.candidates.len());
                for i in 0..k {
                    let j = i + self.rng.below(self.candidates.len() - i);
                    self.candidates.swap(i, j);
                }
                chosen.extend(self.candidates.iter().take(k));
            }
        }
        chosen.sort_unstable();
        for &m in chosen.iter() {
            self.runs[m] += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(n: usize, members: &[usize]) -> Bits {
        let mut b = Bits::new(n);
        for &m in members {
            b.insert(m)
        }
        b
    }

    #[test]
    fn pruning_levels_narrow_the_candidates() {
        let trace = Trace::synthetic(bits(6, &[1, 2, 3]), bits(6, &[2]));
        let surviving = bits(6, &[0, 1, 2, 3, 4]);
        let mut chosen = Vec::new();
        for (opt, expected) in [
            (Opt::None, vec![0, 1, 2, 3, 4]),
            (Opt::Execution, vec![1, 2, 3]),
            (Opt::Infection, vec![2]),
        ] {
            Selector::new(6, opt, Filter::All, 0).select(&surviving, &trace, &mut chosen);
            assert_eq!(chosen, expected, "{opt:?}");
        }
    }

    #[test]
    fn least_executed_takes_never_run_mutants_first_then_the_least_run() {
        let mut s = Selector::new(5, Opt::Execution, Filter::LeastExecuted(Count::Fixed(2)), 0);
        let all = bits(5, &[0, 1, 2, 3, 4]);
        let trace = Trace::synthetic(all.clone(), all.clone());
        let mut chosen = Vec::new();
        s.select(&all, &trace, &mut chosen);
        assert_eq!(chosen, vec![0, 1]);
        s.select(&all, &trace, &mut chosen);
        assert_eq!(chosen, vec![2, 3]);
        s.select(&all, &trace, &mut chosen);
        assert_eq!(chosen, vec![0, 4]);
        assert_eq!(s.runs(), &[2, 1, 1, 1, 1]);
    }

    #[test]
    fn filters_never_run_more_than_k() {
        let n = 50;
        let all = bits(n, &(0..n).collect::<Vec<_>>());
        let trace = Trace::synthetic(all.clone(), all.clone());
        let mut chosen = Vec::new();
        for filter in [
            Filter::LeastExecuted(Count::Fixed(7)),
            Filter::Random(Count::Fixed(7)),
            Filter::Random(Count::Percent(10.0)),
        ] {
            let mut s = Selector::new(n, Opt::Infection, filter, 3);
            for _ in 0..20 {
                s.select(&all, &trace, &mut chosen);
                assert!(chosen.len() <= 7, "{filter}: {}", chosen.len());
                assert!(chosen.windows(2).all(|w| w[0] < w[1]));
            }
        }
    }

    #[test]
    fn filters_parse_and_print() {
        for text in [
            "least-executed:10",
            "least-executed:5%",
            "random:3",
            "random:10%",
            "all",
        ] {
            assert_eq!(Filter::parse(text).unwrap().to_string(), text);
        }
        assert_eq!(
            Filter::parse("10"),
            Some(Filter::LeastExecuted(Count::Fixed(10)))
        );
        for bad in ["least:10", "random:", "random:-1", "110%", "x"] {
            assert_eq!(Filter::parse(bad), None, "{bad}");
        }
    }
}
