//! The campaign's live status: a screen redrawn in place on a terminal, in
//! the spirit of Zest's, or a plain line every few seconds elsewhere (CI).
//!
//! It writes to the process's stderr handle directly: `cargo test` captures
//! what tests print with `println!`/`eprintln!`, and a campaign run through
//! `MU2=fuzz cargo test` must still be visible.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use crate::config::Guidance;
use crate::engine::Limits;

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
}

impl Stats {
    pub fn new(branches: usize) -> Stats {
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
        }
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
    limits: Limits,
    tty: bool,
    last: Instant,
    drawn: usize,
}

impl Status {
    pub fn new(name: &str, guidance: Guidance, limits: Limits, seed: u64) -> Status {
        let status = Status {
            name: name.to_string(),
            guidance,
            limits,
            tty: std::io::stderr().is_terminal(),
            last: Instant::now(),
            drawn: 0,
        };
        status.write(&format!(
            "mu2: fuzzing `{name}` with {} guidance, MU2_SEED={seed}, {}\n",
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
        if !self.tty {
            self.write(&format!(
                "mu2 {}: {elapsed} elapsed, {} execs ({:.0}/s), corpus {} ({} favored), coverage {}/{}, valid {:.1}%, failures {}, left {}\n",
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
        let lines = [
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
