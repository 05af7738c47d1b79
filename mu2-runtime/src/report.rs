//! The mutation report of a scored corpus: `<driver>/report.json`.
//!
//! External tools read this file; its field names are a contract:
//! `{"driver", "summary": {"total", "killed", "survived", "no_coverage",
//! "timed_out", "unviable", "crashed"}, "mutants": [{"id", "file", "line",
//! "column", "function", "operator", "original", "replacement", "status",
//! "killed_by"}]}`.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// What became of one mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    /// Some saved input kills it: a different output, panic or validity.
    Killed,
    /// Saved inputs execute it, and none kills it.
    Survived,
    /// No saved input executes its site.
    NoCoverage,
    /// Some saved input makes it run out of its budget, and none kills it otherwise.
    TimedOut,
    /// Its replacement does not type-check for the types at its site.
    Unviable,
    /// It brought the process down (an abort, say).
    Crashed,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Killed => "KILLED",
            Status::Survived => "SURVIVED",
            Status::NoCoverage => "NO_COVERAGE",
            Status::TimedOut => "TIMED_OUT",
            Status::Unviable => "UNVIABLE",
            Status::Crashed => "CRASHED",
        }
    }

    /// Whether the corpus detects the mutant.
    pub fn detected(self) -> bool {
        matches!(self, Status::Killed | Status::TimedOut | Status::Crashed)
    }
}

/// Counts by status.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub total: usize,
    pub killed: usize,
    pub survived: usize,
    pub no_coverage: usize,
    pub timed_out: usize,
    pub unviable: usize,
    pub crashed: usize,
}

impl Summary {
    /// Detected mutants over all viable ones, as a percentage.
    ///
    /// ```
    /// let s = mu2_runtime::report::Summary { total: 10, killed: 6, timed_out: 1, unviable: 3, ..Default::default() };
    /// assert_eq!(s.score(), 100.0);
    /// ```
    pub fn score(&self) -> f64 {
        let viable = self.total - self.unviable;
        let detected = self.killed + self.timed_out + self.crashed;
        if viable == 0 {
            100.0
        } else {
            100.0 * detected as f64 / viable as f64
        }
    }
}

/// One mutant's line in the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MutantReport {
    pub id: String,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub function: String,
    pub operator: String,
    pub original: String,
    pub replacement: String,
    pub status: Status,
    /// The corpus file that first detects it (for KILLED, TIMED_OUT, CRASHED).
    pub killed_by: Option<String>,
}

/// The report of one driver's corpus.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub driver: String,
    pub summary: Summary,
    pub mutants: Vec<MutantReport>,
}

impl Report {
    /// Builds the summary from the mutants' statuses.
    pub fn new(driver: &str, mutants: Vec<MutantReport>) -> Report {
        let mut summary = Summary {
            total: mutants.len(),
            ..Summary::default()
        };
        for m in &mutants {
            *match m.status {
                Status::Killed => &mut summary.killed,
                Status::Survived => &mut summary.survived,
                Status::NoCoverage => &mut summary.no_coverage,
                Status::TimedOut => &mut summary.timed_out,
                Status::Unviable => &mut summary.unviable,
                Status::Crashed => &mut summary.crashed,
            } += 1;
        }
        Report {
            driver: driver.to_string(),
            summary,
            mutants,
        }
    }

    /// Writes the report as pretty JSON, atomically (temp file, then rename).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let text = crate::json::to_string_pretty(self).map_err(std::io::Error::other)?;
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, text + "\n")?;
        std::fs::rename(&tmp, path)
    }

    /// Reads a report written by [`write`](Report::write).
    pub fn read(path: &Path) -> std::io::Result<Report> {
        let text = std::fs::read_to_string(path)?;
        crate::json::from_str(&text).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{}: not a mu2 report: {e}", path.display()),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_keeps_the_contracts_names() {
        let m = MutantReport {
            id: "00000000000000ff".into(),
            file: "src/lib.rs".into(),
            line: 3,
            column: 9,
            function: "f".into(),
            operator: "math".into(),
            original: "+".into(),
            replacement: "-".into(),
            status: Status::NoCoverage,
            killed_by: None,
        };
        let report = Report::new("d", vec![m]);
        let json: serde_json::Value = serde_json::to_value(&report).unwrap();
        assert_eq!(json["driver"], "d");
        for key in [
            "total",
            "killed",
            "survived",
            "no_coverage",
            "timed_out",
            "unviable",
            "crashed",
        ] {
            assert!(json["summary"].get(key).is_some(), "{key}");
        }
        assert_eq!(json["summary"]["no_coverage"], 1);
        let m = &json["mutants"][0];
        for key in [
            "id",
            "file",
            "line",
            "column",
            "function",
            "operator",
            "original",
            "replacement",
            "status",
            "killed_by",
        ] {
            assert!(m.get(key).is_some(), "{key}");
        }
        assert_eq!(m["status"], "NO_COVERAGE");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        report.write(&path).unwrap();
        assert_eq!(Report::read(&path).unwrap(), report);
    }
}
