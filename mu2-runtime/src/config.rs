//! Settings of a driver run, read from `MU2_*` environment variables, with
//! errors that name the variable and say what it takes.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::guidance::{Filter, Opt};

/// What a driver does when `cargo test` runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `MU2` unset: replay the saved corpus as a regression suite.
    Replay,
    /// `MU2=fuzz`: run a campaign.
    Fuzz,
    /// `MU2=score`: run every saved input against every mutant and write the report.
    Score,
    /// `MU2=repro`: replay the input file `MU2_INPUT` and tell what it does.
    Repro,
}

/// How new inputs are chosen and kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guidance {
    /// Mu2: Zest's loop, also saving an input that is first to kill a mutant.
    Mutation,
    /// Zest: mutate saved inputs; save on new coverage.
    Coverage,
    /// Coverage guidance for the first half of the budget, mutation for the second.
    Split,
    /// Fresh random inputs with no feedback (a baseline).
    Random,
}

impl Guidance {
    pub fn name(self) -> &'static str {
        match self {
            Guidance::Mutation => "mutation",
            Guidance::Coverage => "coverage",
            Guidance::Split => "split",
            Guidance::Random => "random",
        }
    }
}

/// A bad `MU2_*` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub variable: &'static str,
    pub value: String,
    pub expected: &'static str,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "mu2: {}={:?} is not valid: expected {}",
            self.variable, self.value, self.expected
        )
    }
}

impl std::error::Error for ConfigError {}

/// Everything a driver run is told by its environment.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub mode: Mode,
    pub guidance: Guidance,
    pub time: Option<Duration>,
    pub trials: Option<u64>,
    /// `None`: a seed is drawn from the clock and printed, so the run can be repeated.
    pub seed: Option<u64>,
    pub dir: PathBuf,
    pub update: bool,
    /// Pruning of the mutants run per input (`MU2_OPT`).
    pub opt: Opt,
    /// The filter after pruning (`MU2_FILTER`).
    pub filter: Filter,
    /// Worker threads for mutant runs (`MU2_JOBS`).
    pub jobs: usize,
    /// The input file to replay (`MU2_INPUT`, with `MU2=repro`).
    pub input: Option<PathBuf>,
}

impl Config {
    /// Reads the `MU2_*` variables; relative `MU2_DIR`s are taken from `crate_root`.
    pub fn from_env(crate_root: &Path) -> Result<Config, ConfigError> {
        Config::from_vars(crate_root, |name| std::env::var(name).ok())
    }

    /// Like [`from_env`](Config::from_env) with another source of variables.
    ///
    /// ```
    /// use mu2_runtime::config::{Config, Mode};
    /// let vars = |name: &str| (name == "MU2").then(|| "fuzz".to_string());
    /// let config = Config::from_vars(std::path::Path::new("/crate"), vars).unwrap();
    /// assert_eq!(config.mode, Mode::Fuzz);
    /// assert_eq!(config.dir, std::path::Path::new("/crate/mu2"));
    /// ```
    pub fn from_vars(
        crate_root: &Path,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let get = |name: &str| var(name).filter(|v| !v.trim().is_empty());
        let error = |variable, value: String, expected| ConfigError {
            variable,
            value,
            expected,
        };
        let mode = match get("MU2").as_deref().map(str::trim) {
            None | Some("replay") => Mode::Replay,
            Some("fuzz") => Mode::Fuzz,
            Some("score") => Mode::Score,
            Some("repro") => Mode::Repro,
            Some(other) => {
                return Err(error(
                    "MU2",
                    other.into(),
                    "`fuzz` (run a campaign), `score` (score the saved corpus), or unset to replay the saved corpus",
                ));
            }
        };
        let guidance = match get("MU2_GUIDANCE").as_deref().map(str::trim) {
            None | Some("mutation") | Some("mu2") => Guidance::Mutation,
            Some("coverage") | Some("zest") => Guidance::Coverage,
            Some("split") => Guidance::Split,
            Some("random") => Guidance::Random,
            Some(other) => {
                return Err(error(
                    "MU2_GUIDANCE",
                    other.into(),
                    "`mutation`, `coverage`, `split` or `random`",
                ));
            }
        };
        let opt = match get("MU2_OPT") {
            None => Opt::Infection,
            Some(v) => Opt::parse(&v)
                .ok_or_else(|| error("MU2_OPT", v.clone(), "`none`, `execution` or `infection`"))?,
        };
        let filter = match get("MU2_FILTER") {
            None => Filter::All,
            Some(v) => Filter::parse(&v).ok_or_else(|| {
                error(
                    "MU2_FILTER",
                    v.clone(),
                    "`least-executed:K`, `random:K` (K a number or a percentage such as `10%`), or `all`",
                )
            })?,
        };
        let jobs = match get("MU2_JOBS") {
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(v) => v
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| {
                    error("MU2_JOBS", v.clone(), "a positive whole number of threads")
                })?,
        };
        let time = match get("MU2_TIME") {
            None => None,
            Some(v) => Some(parse_duration(&v).ok_or_else(|| {
                error(
                    "MU2_TIME",
                    v.clone(),
                    "a duration such as `30s`, `5m`, `1h` or `1h30m`",
                )
            })?),
        };
        let trials = match get("MU2_TRIALS") {
            None => None,
            Some(v) => Some(
                v.trim()
                    .replace('_', "")
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| error("MU2_TRIALS", v.clone(), "a positive whole number"))?,
            ),
        };
        let seed = match get("MU2_SEED") {
            None => None,
            Some(v) => Some(
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| error("MU2_SEED", v.clone(), "a whole number (0 to 2^64-1)"))?,
            ),
        };
        let dir = match get("MU2_DIR") {
            None => crate_root.join("mu2"),
            Some(v) => crate_root.join(v.trim()),
        };
        let update = match get("MU2_UPDATE").as_deref().map(str::trim) {
            None | Some("0") | Some("false") | Some("no") => false,
            Some("1") | Some("true") | Some("yes") => true,
            Some(other) => return Err(error("MU2_UPDATE", other.into(), "`1` or `0`")),
        };
        let input = get("MU2_INPUT").map(|v| crate_root.join(v.trim()));
        if mode == Mode::Repro && input.is_none() {
            return Err(error(
                "MU2_INPUT",
                String::new(),
                "the path of an input file to replay with MU2=repro",
            ));
        }
        Ok(Config {
            input,
            mode,
            guidance,
            time,
            trials,
            seed,
            dir,
            update,
            opt,
            filter,
            jobs,
        })
    }
}

/// `500ms`, `30s`, `5m`, `1h`, `1h30m`, `90` (seconds).
///
/// ```
/// use std::time::Duration;
/// use mu2_runtime::config::parse_duration;
/// assert_eq!(parse_duration("1h30m"), Some(Duration::from_secs(5400)));
/// assert_eq!(parse_duration("250ms"), Some(Duration::from_millis(250)));
/// assert_eq!(parse_duration("soon"), None);
/// ```
pub fn parse_duration(text: &str) -> Option<Duration> {
    let text = text.trim();
    if let Ok(secs) = text.parse::<f64>() {
        return (secs.is_finite() && secs > 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let mut total = Duration::ZERO;
    let mut rest = text;
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit() && c != '.')?;
        if digits == 0 {
            return None;
        }
        let value: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let seconds = match &rest[..unit_len] {
            "ms" => value / 1000.0,
            "s" => value,
            "m" => value * 60.0,
            "h" => value * 3600.0,
            "d" => value * 86400.0,
            _ => return None,
        };
        total += Duration::from_secs_f64(seconds);
        rest = &rest[unit_len..];
    }
    (total > Duration::ZERO).then_some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_vars(Path::new("/c"), move |name| {
            vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn defaults_replay_into_the_crates_mu2_folder() {
        let c = with(&[]).unwrap();
        assert_eq!(c.mode, Mode::Replay);
        assert_eq!(c.guidance, Guidance::Mutation);
        assert_eq!((c.opt, c.filter), (Opt::Infection, Filter::All));
        assert!(c.jobs >= 1);
        assert_eq!(c.dir, Path::new("/c/mu2"));
        assert_eq!(
            (c.time, c.trials, c.seed, c.update),
            (None, None, None, false)
        );
    }

    #[test]
    fn reads_every_variable() {
        let c = with(&[
            ("MU2", "fuzz"),
            ("MU2_GUIDANCE", "random"),
            ("MU2_TIME", "2m"),
            ("MU2_TRIALS", "1_000"),
            ("MU2_SEED", "7"),
            ("MU2_DIR", "out"),
            ("MU2_UPDATE", "1"),
            ("MU2_OPT", "execution"),
            ("MU2_FILTER", "least-executed:10"),
            ("MU2_JOBS", "3"),
        ])
        .unwrap();
        assert_eq!(c.mode, Mode::Fuzz);
        assert_eq!(c.guidance, Guidance::Random);
        assert_eq!(c.time, Some(Duration::from_secs(120)));
        assert_eq!(c.trials, Some(1000));
        assert_eq!(c.seed, Some(7));
        assert_eq!(c.dir, Path::new("/c/out"));
        assert!(c.update);
        assert_eq!(c.opt, Opt::Execution);
        assert_eq!(
            c.filter,
            Filter::LeastExecuted(crate::guidance::Count::Fixed(10))
        );
        assert_eq!(c.jobs, 3);
    }

    #[test]
    fn bad_values_name_the_variable_and_what_it_takes() {
        for (var, value) in [
            ("MU2", "fuz"),
            ("MU2_TIME", "10 minutes"),
            ("MU2_TRIALS", "-3"),
            ("MU2_SEED", "abc"),
            ("MU2_GUIDANCE", "zest2"),
            ("MU2_UPDATE", "maybe"),
            ("MU2_OPT", "sound"),
            ("MU2_FILTER", "least:3"),
            ("MU2_JOBS", "0"),
        ] {
            let e = with(&[(var, value)]).unwrap_err();
            assert_eq!(e.variable, var);
            let text = e.to_string();
            assert!(
                text.contains(var) && text.contains(value) && text.contains("expected"),
                "{text}"
            );
        }
    }
}
