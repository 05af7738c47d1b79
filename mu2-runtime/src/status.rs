//! The campaign's live status: a screen redrawn in place on a terminal, in
//! the spirit of Zest's, or a plain line every few seconds elsewhere (CI).
//!
//! It writes to the process's stderr handle directly: `cargo test` captures
//! what tests print with `println!`/`eprintln!`, and a campaign run through
//! `MU2=fuzz cargo test` must still be visible.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use crate::config::Guidance;
use crate::engine::{Limits, Settings};

const REDRAW_EVERY: Duration = Duration::from_millis(250);
const LINE_EVERY: Duration = Duration::from_secs(5);

/// The counters a campaign keeps.
#[derive(Clone, Debug)]
pub struct Stats {
    pub started: Instant,
    pub execs: u64,
    /// Inputs generated or mutated (seeds excluded): what `MU2_TRIALS` counts.
    pub trials: u64,
    pub valid: u64,
    pub invalid: u64,
    pub corpus: usize,
    pub favored: usize,
    pub coverage: usize,
    pub valid_coverage: usize,
    pub branches: usize,
    pub failures: usize,
    pub cursor: usize,
    pub cycles: u64,
    /// Mutants in the binary.
    pub mutants: usize,
    /// Mutants killed by the saved corpus.
    pub killed: usize,
    /// Mutants executed by some input.
    pub seen: usize,
    pub mutant_runs: u64,
    /// Mutants run per input, as a moving average.
    pub run_per_input: f64,
}

impl Stats {
    pub fn new(branches: usize, mutants: usize) -> Stats {
        Stats {
            started: Instant::now(),
            execs: 0,
            trials: 0,
            valid: 0,
            invalid: 0,
            corpus: 0,
            favored: 0,
            coverage: 0,
            valid_coverage: 0,
            branches,
            failures: 0,
            cursor: 0,
            cycles: 0,
            mutants,
            killed: 0,
            seen: 0,
            mutant_runs: 0,
            run_per_input: 0.0,
        }
    }

    /// Folds one input's number of mutant runs into the moving average.
    pub fn note_mutants_run(&mut self, n: usize) {
        const WEIGHT: f64 = 0.05;
        self.run_per_input = if self.mutant_runs == n as u64 {
            n as f64
        } else {
            self.run_per_input + WEIGHT * (n as f64 - self.run_per_input)
        };
    }

    fn execs_per_sec(&self) -> f64 {
        self.execs as f64 / self.started.elapsed().as_secs_f64().max(1e-9)
    }

    fn valid_percent(&self) -> f64 {
        100.0 * self.valid as f64 / (self.valid + self.invalid).max(1) as f64
    }
}

pub struct Status {
    name: String,
    guidance: Guidance,
    mutation: bool,
    limits: Limits,
    tty: bool,
    last: Instant,
    drawn: usize,
}

impl Status {
    pub fn new(name: &str, settings: &Settings) -> Status {
        let (guidance, limits, seed) = (settings.guidance, settings.limits, settings.seed);
        let mutation = matches!(guidance, Guidance::Mutation | Guidance::Split);
        let status = Status {
            name: name.to_string(),
            guidance,
            mutation,
            limits,
            tty: std::io::stderr().is_terminal(),
            last: Instant::now(),
            drawn: 0,
        };
        let pruning = if mutation {
            format!(
                " (opt {}, filter {}, {} jobs)",
                settings.opt.name(),
                settings.filter,
                settings.jobs
            )
        } else {
            String::new()
        };
        status.write(&format!(
            "mu2: fuzzing `{name}` with {} guidance{pruning}, MU2_SEED={seed}, {}\n",
            guidance.name(),
            status.budget_text()
        ));
        status
    }

    pub fn budget_text(&self) -> String {
        match (self.limits.time, self.limits.trials) {
            (None, None) => "until interrupted (Ctrl-C keeps everything saved)".into(),
            (Some(t), None) => format!("for {}", clock(t)),
            (None, Some(n)) => format!("for {n} trials"),
            (Some(t), Some(n)) => format!("for {} or {n} trials", clock(t)),
        }
    }

    fn left(&self, stats: &Stats) -> String {
        let time = self
            .limits
            .time
            .map(|t| clock(t.saturating_sub(stats.started.elapsed())));
        let trials = self
            .limits
            .trials
            .map(|t| format!("{} trials", t.saturating_sub(stats.trials)));
        match (time, trials) {
            (None, None) => "no limit".into(),
            (Some(t), None) => t,
            (None, Some(n)) => n,
            (Some(t), Some(n)) => format!("{t} or {n}"),
        }
    }

    /// Redraws when it is time to.
    pub fn update(&mut self, stats: &Stats) {
        let every = if self.tty { REDRAW_EVERY } else { LINE_EVERY };
        if self.last.elapsed() >= every {
            self.last = Instant::now();
            self.draw(stats);
        }
    }

    /// A message printed above the screen.
    pub fn warn(&mut self, message: &str) {
        self.clear();
        self.write(&format!("mu2: {message}\n"));
    }

    /// The final screen, left in place on a terminal. Elsewhere the caller's
    /// summary line follows, so nothing is repeated here.
    pub fn finish(&mut self, stats: &Stats) {
        if self.tty {
            self.draw(stats);
            self.drawn = 0;
        }
    }

    fn clear(&mut self) {
        if self.tty && self.drawn > 0 {
            self.write(&format!("\x1b[{}A\x1b[J", self.drawn));
            self.drawn = 0;
        }
    }

    fn draw(&mut self, stats: &Stats) {
        let elapsed = clock(stats.started.elapsed());
        let mutants = format!(
            "{} killed of {} ({} seen), {:.1} run per input",
            stats.killed, stats.mutants, stats.seen, stats.run_per_input
        );
        if !self.tty {
            let mutants = if self.mutation {
                format!(", mutants {mutants}")
            } else {
                String::new()
            };
            self.write(&format!(
                "mu2 {}: {elapsed} elapsed, {} execs ({:.0}/s), corpus {} ({} favored), coverage {}/{}, valid {:.1}%, failures {}{mutants}, left {}\n",
                self.name,
                stats.execs,
                stats.execs_per_sec(),
                stats.corpus,
                stats.favored,
                stats.coverage,
                stats.branches,
                stats.valid_percent(),
                stats.failures,
                self.left(stats),
            ));
            return;
        }
        let mut lines = vec![
            format!("mu2 - {} ({} guidance)", self.name, self.guidance.name()),
            format!(
                "  elapsed      {elapsed:<14} left       {}",
                self.left(stats)
            ),
            format!(
                "  executions   {:<14} execs/s    {:.0}",
                stats.execs,
                stats.execs_per_sec()
            ),
            format!(
                "  corpus       {:<14} cycles     {}",
                format!("{} ({} favored)", stats.corpus, stats.favored),
                stats.cycles
            ),
            format!(
                "  coverage     {:<14} valid      {}",
                format!("{} / {}", stats.coverage, stats.branches),
                stats.valid_coverage
            ),
            format!(
                "  valid inputs {:<14} failures   {} unique",
                format!("{:.1}%", stats.valid_percent()),
                stats.failures
            ),
        ];
        if self.mutation {
            lines.push(format!("  mutants      {mutants}"));
        }
        self.clear();
        self.write(&(lines.join("\n") + "\n"));
        self.drawn = lines.len();
    }

    fn write(&self, text: &str) {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes());
        let _ = err.flush();
    }
}

/// A counter with rate and time left, for long work such as scoring.
pub(crate) struct Progress {
    what: &'static str,
    total: usize,
    done: usize,
    started: Instant,
    last: Instant,
    tty: bool,
}

impl Progress {
    pub(crate) fn new(what: &'static str, total: usize) -> Progress {
        Progress {
            what,
            total,
            done: 0,
            started: Instant::now(),
            last: Instant::now(),
            tty: std::io::stderr().is_terminal(),
        }
    }

    pub(crate) fn step(&mut self) {
        self.done += 1;
        let every = if self.tty { REDRAW_EVERY } else { LINE_EVERY };
        if self.last.elapsed() >= every {
            self.last = Instant::now();
            self.show();
        }
    }

    fn show(&self) {
        let line = progress_line(self.what, self.done, self.total, self.started.elapsed());
        let mut err = std::io::stderr().lock();
        let _ = if self.tty {
            write!(err, "\r\x1b[K{line}")
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }

    pub(crate) fn finish(&self) {
        if self.tty && self.done > 0 {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}

/// `mu2: scoring 120/450 inputs (35.0/s, about 0:09 left)`.
fn progress_line(what: &str, done: usize, total: usize, elapsed: Duration) -> String {
    let rate = done as f64 / elapsed.as_secs_f64().max(1e-9);
    let left = total.saturating_sub(done) as f64 / rate.max(1e-9);
    format!(
        "mu2: {what} {done}/{total} inputs ({rate:.1}/s, about {} left)",
        clock(Duration::try_from_secs_f64(left).unwrap_or(Duration::MAX))
    )
}

/// Prints a line on the process's stderr, past `cargo test`'s capture.
pub(crate) fn say(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
    let _ = err.flush();
}

/// `1:02:03`, `2:03`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_tells_count_rate_and_time_left() {
        assert_eq!(
            progress_line("scoring", 120, 450, Duration::from_secs(4)),
            "mu2: scoring 120/450 inputs (30.0/s, about 0:11 left)"
        );
        assert_eq!(
            progress_line("scoring", 450, 450, Duration::from_secs(15)),
            "mu2: scoring 450/450 inputs (30.0/s, about 0:00 left)"
        );
        // Nothing done yet: no rate, and no panic on an unbounded estimate.
        assert!(
            progress_line("scoring", 0, 10, Duration::ZERO)
                .starts_with("mu2: scoring 0/10 inputs (0.0/s")
        );
    }
}
