//! The on-disk storage of a fuzzing campaign: the corpus, the failures, the
//! plot data and the log of one fuzz driver.
//!
//! ```text
//! <dir>/<driver>/
//!     .gitignore        ignores everything here except corpus/
//!     corpus/           id_000000, id_000000.json, id_000001, ...   (commit this)
//!     failures/         failure_000000, failure_000000.json, ...    (local)
//!     plot_data.csv     one row per status update                   (local)
//!     fuzz.log          one timestamped line per event               (local)
//! ```
//!
//! The corpus is meant to be committed: `cargo test` replays it as a
//! regression suite, so its files are plain (raw input bytes, pretty JSON
//! metadata next to each) and diff well.
//!
//! Everything is written as it goes, and each save stands on its own: a file
//! is written under a temporary name in the same folder and renamed into
//! place, the input bytes before their metadata. A campaign that is killed or
//! stopped with Ctrl-C keeps every input it had saved, and the next run
//! resumes from what is on disk, numbering new inputs after the highest id
//! there. Loading never deletes or changes a file: what it cannot use, it
//! skips with a [`Warning`].
//!
//! One process writes to a driver's folder at a time; two campaigns of the
//! same driver at once may pick the same new id.
//!
//! ```
//! use mu2_runtime::corpus::{Meta, Store};
//! # fn main() -> Result<(), mu2_runtime::corpus::StoreError> {
//! let dir = tempfile::tempdir().unwrap();
//! let mut store = Store::open(dir.path(), "parse")?;
//! let meta = Meta { reasons: vec!["+cov".into()], valid: true, ..Meta::default() };
//! assert_eq!(store.save(b"{\"a\": 1}", &meta)?, "id_000000");
//!
//! // A later run (or `cargo test`) picks it up.
//! let (entries, warnings) = Store::open(dir.path(), "parse")?.load()?;
//! assert_eq!(entries[0].bytes, b"{\"a\": 1}");
//! assert!(warnings.is_empty());
//! # Ok(())
//! # }
//! ```

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

const CORPUS: &str = "corpus";
const FAILURES: &str = "failures";
const PLOT: &str = "plot_data.csv";
const LOG: &str = "fuzz.log";
const GITIGNORE: &str = ".gitignore";
const INPUT: &str = "id_";
const FAILURE: &str = "failure_";
const JSON: &str = ".json";
const TMP: &str = ".tmp";

/// What [`Store::open`] writes to `<dir>/<driver>/.gitignore` when there is
/// none. The corpus is the regression suite, so it is the only thing worth
/// committing; failures, plot data and logs describe one machine's runs.
/// Temporary files of a save in progress stay ignored even inside `corpus/`.
pub const GITIGNORE_TEXT: &str = "\
# Written by mu2. Commit corpus/: `cargo test` replays it as a regression suite.
# failures/, plot_data.csv and fuzz.log are local to the machine that fuzzed.
*
!.gitignore
!corpus/
!corpus/**
corpus/.*.tmp
";

/// The first line of `plot_data.csv`: one column per field of [`PlotRow`],
/// in order.
pub const PLOT_HEADER: &str = "unix_time,elapsed,execs,execs_per_sec,corpus,favored,coverage,\
valid_coverage,valid_inputs,invalid_inputs,failures,mutants_total,mutants_killed,mutants_seen,\
mutants_run_per_input";

/// The current time in seconds since the Unix epoch, as [`Meta::saved_at`]
/// and [`Failure::found_at`] record it (0 if the clock is before 1970).
///
/// ```
/// assert!(mu2_runtime::corpus::now() > 1.7e9);
/// ```
pub fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// Why an input was saved and what the original program did with it: the
/// `id_NNNNNN.json` next to each input.
///
/// Every key may be missing and unknown keys are ignored, so corpora written
/// by older or newer versions of mu2 still load. The JSON is pretty-printed
/// with keys in the order below, so a committed corpus diffs readably:
///
/// ```
/// let meta: mu2_runtime::corpus::Meta =
///     serde_json::from_str(r#"{"reasons": ["+cov"], "valid": true, "from_the_future": 1}"#).unwrap();
/// assert_eq!(meta.reasons, ["+cov"]);
/// assert!(meta.valid && meta.kills.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Meta {
    /// Why it was saved: `"seed"`, `"+cov"`, `"+count"`, `"+valid"`, `"+mutants"`.
    pub reasons: Vec<String>,
    /// Seconds since the Unix epoch.
    pub saved_at: f64,
    /// Length of the input in bytes (the store keeps it equal to the file's).
    pub size: usize,
    /// Whether the input satisfied the driver's assumptions.
    pub valid: bool,
    /// The corpus input it was mutated from (`id_000003`).
    pub parent: Option<String>,
    /// The driver's output (its `Debug` text) when saved: replay compares
    /// against it to catch a behaviour change.
    pub output: Option<String>,
    /// The panic message, if the original panicked on this input.
    pub panicked: Option<String>,
    /// Ids of the mutants this input kills.
    pub kills: Vec<String>,
}

/// One input of the corpus, as [`Store::load`] found it.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The file name, `id_000012`: what [`Store::update`] takes.
    pub name: String,
    pub bytes: Vec<u8>,
    /// From `id_000012.json`, or the metadata of a seed (reasons `["seed"]`)
    /// when that file is missing or unreadable.
    pub meta: Meta,
}

/// A saved failure: the `failure_NNNNNN.json` next to each failing input.
///
/// Failures are told apart by `location` alone, so a bug found by a thousand
/// inputs is saved once.
///
/// ```
/// let f: mu2_runtime::corpus::Failure =
///     serde_json::from_str(r#"{"message": "overflow", "location": "src/lib.rs:3:5"}"#).unwrap();
/// assert_eq!((f.size, f.input_debug), (0, None));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    /// The panic message.
    #[serde(default)]
    pub message: String,
    /// `file:line:col` of the panic.
    pub location: String,
    /// Seconds since the Unix epoch.
    #[serde(default)]
    pub found_at: f64,
    /// Length of the input in bytes (the store keeps it equal to the file's).
    #[serde(default)]
    pub size: usize,
    /// The generated value (its `Debug` text), when the driver got that far.
    #[serde(default)]
    pub input_debug: Option<String>,
}

/// One line of `plot_data.csv`: the campaign's progress at one moment.
///
/// The mutant columns are written even while they are zero, so that every
/// `plot_data.csv` has the same columns ([`PLOT_HEADER`]).
#[derive(Clone, Debug, Default)]
pub struct PlotRow {
    /// Seconds since the Unix epoch.
    pub time: f64,
    /// Seconds since the campaign started.
    pub elapsed: f64,
    pub execs: u64,
    pub execs_per_sec: f64,
    pub corpus: usize,
    pub favored: usize,
    pub coverage: usize,
    pub valid_coverage: usize,
    pub valid_inputs: u64,
    pub invalid_inputs: u64,
    pub failures: usize,
    pub mutants_total: usize,
    pub mutants_killed: usize,
    pub mutants_seen: usize,
    pub mutants_run_per_input: f64,
}

/// A file that [`Store::load`] skipped, and why. The file is left as it was.
///
/// ```
/// let w = mu2_runtime::corpus::Warning { path: "mu2/d/corpus/notes.txt".into(), problem: "not an input".into() };
/// assert_eq!(w.to_string(), "mu2: skipping mu2/d/corpus/notes.txt: not an input");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub path: PathBuf,
    pub problem: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "mu2: skipping {}: {}", self.path.display(), self.problem)
    }
}

/// Why the store could not do what was asked. The message names the file
/// and suggests a way out; it has no `mu2:` prefix, so a caller can add its
/// own context (the driver's name) in front.
///
/// ```
/// use mu2_runtime::corpus::{Store, StoreError};
/// let dir = tempfile::tempdir().unwrap();
/// let err = Store::open(dir.path(), "../elsewhere").unwrap_err();
/// assert!(matches!(err, StoreError::BadDriverName { .. }));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// A file-system operation failed: `action` is what the store was doing
    /// ("create the folder", "save", ...), `path` the file or folder.
    Io {
        action: &'static str,
        path: PathBuf,
        source: io::Error,
    },
    /// The driver name cannot be a single folder name.
    BadDriverName { driver: String },
    /// [`Store::update`] was given a name that is not a saved input.
    NoSuchInput { name: String, corpus: PathBuf },
}

impl StoreError {
    fn io(action: &'static str, path: &Path, source: io::Error) -> StoreError {
        StoreError::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io {
                action,
                path,
                source,
            } => {
                write!(f, "cannot {action} {}: {source}", path.display())?;
                let hint = match source.kind() {
                    io::ErrorKind::PermissionDenied => {
                        "; check its permissions, or set MU2_DIR to a folder you can write to"
                    }
                    io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
                        "; the disk is full: free some space or set MU2_DIR to another disk \
                         (what was saved so far is kept)"
                    }
                    io::ErrorKind::ReadOnlyFilesystem => {
                        "; the file system is read-only: set MU2_DIR to a writable folder"
                    }
                    io::ErrorKind::NotADirectory | io::ErrorKind::AlreadyExists => {
                        "; a file is in the way of a folder mu2 needs: move it away"
                    }
                    _ => "",
                };
                f.write_str(hint)
            }
            StoreError::BadDriverName { driver } => write!(
                f,
                "the driver name {driver:?} cannot be a folder name under MU2_DIR: \
                 use a non-empty name without `/` or `\\`, other than `.` and `..`"
            ),
            StoreError::NoSuchInput { name, corpus } => write!(
                f,
                "{} has no input {name:?} (inputs are named id_NNNNNN); \
                 was it renamed or deleted while mu2 ran?",
                corpus.display()
            ),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The folder of one fuzz driver: where its campaign is saved as it goes and
/// resumed from.
///
/// ```
/// use mu2_runtime::corpus::{Failure, Meta, PlotRow, Store};
/// # fn main() -> Result<(), mu2_runtime::corpus::StoreError> {
/// let dir = tempfile::tempdir().unwrap();
/// let mut store = Store::open(dir.path(), "sort")?;
/// store.log("started")?;
/// let name = store.save(&[1, 2, 3], &Meta { reasons: vec!["+cov".into()], ..Meta::default() })?;
/// store.update(&name, &Meta { output: Some("[1, 2, 3]".into()), ..Meta::default() })?;
/// let boom = Failure { message: "boom".into(), location: "src/lib.rs:9:5".into(),
///                      found_at: 0.0, size: 0, input_debug: None };
/// assert_eq!(store.save_failure(&[7], &boom)?.as_deref(), Some("failure_000000"));
/// assert_eq!(store.save_failure(&[8], &boom)?, None); // same location: already known
/// store.plot(&PlotRow { execs: 1000, corpus: 1, ..PlotRow::default() })?;
/// assert!(store.root().join("plot_data.csv").exists());
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct Store {
    root: PathBuf,
    corpus: PathBuf,
    failures: PathBuf,
    next_input: u64,
    next_failure: u64,
    /// Dedup keys of the failures saved (see `failure_key`).
    failure_keys: HashSet<String>,
    plot: Option<File>,
    log: Option<File>,
}

impl Store {
    /// Opens (creating if needed) `dir/driver/` with its subfolders and
    /// `.gitignore`, and reads the ids and failure locations already there,
    /// so that new saves go after them. An existing `.gitignore` is left as
    /// the user may have edited it.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// let store = mu2_runtime::corpus::Store::open(dir.path(), "sort").unwrap();
    /// assert!(store.root().join("corpus").is_dir());
    /// assert!(store.root().join(".gitignore").is_file());
    /// ```
    pub fn open(dir: &Path, driver: &str) -> Result<Store, StoreError> {
        if driver.is_empty()
            || driver == "."
            || driver == ".."
            || driver.contains(['/', '\\', '\0'])
        {
            return Err(StoreError::BadDriverName {
                driver: driver.to_string(),
            });
        }
        let root = dir.join(driver);
        let corpus = root.join(CORPUS);
        let failures = root.join(FAILURES);
        for folder in [&corpus, &failures] {
            fs::create_dir_all(folder)
                .map_err(|e| StoreError::io("create the folder", folder, e))?;
        }
        let gitignore = root.join(GITIGNORE);
        let exists = fs::symlink_metadata(&gitignore).is_ok();
        if !exists {
            write_atomic(&root, GITIGNORE, GITIGNORE_TEXT.as_bytes())?;
        }
        let next_input = next_id(&corpus, INPUT)?;
        let next_failure = next_id(&failures, FAILURE)?;
        let (saved, _) = read_failures(&failures)?;
        let failure_keys = saved.iter().map(|(_, f)| failure_key(f)).collect();
        Ok(Store {
            root,
            corpus,
            failures,
            next_input,
            next_failure,
            failure_keys,
            plot: None,
            log: None,
        })
    }

    /// `dir/driver`, to tell the user where the campaign is.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `dir/driver/corpus`.
    pub fn corpus_dir(&self) -> &Path {
        &self.corpus
    }

    /// `dir/driver/failures`.
    pub fn failures_dir(&self) -> &Path {
        &self.failures
    }

    /// Every readable corpus entry in id order, and a warning per file
    /// skipped. Nothing is deleted or changed.
    ///
    /// An input without its `.json` (a file the user dropped in as
    /// `id_000100`, or a save cut short between the two files) loads as a
    /// seed: reasons `["seed"]`, saved at the file's modification time, no
    /// recorded output. So does an input whose `.json` cannot be read or
    /// parsed, with a warning about the `.json`. Skipped with a warning:
    /// metadata without its input, files named otherwise, folders, and the
    /// temporary file of a save that was cut short. Hidden files (`.gitkeep`,
    /// `.DS_Store`) are skipped silently. `size` is taken from the file, in
    /// case the input was edited by hand.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// let store = mu2_runtime::corpus::Store::open(dir.path(), "sort").unwrap();
    /// std::fs::write(store.corpus_dir().join("id_000000"), b"seed").unwrap();
    /// std::fs::write(store.corpus_dir().join("notes.txt"), b"mine").unwrap();
    /// let (entries, warnings) = store.load().unwrap();
    /// assert_eq!(entries[0].meta.reasons, ["seed"]);
    /// for w in &warnings { eprintln!("{w}"); } // mu2: skipping .../corpus/notes.txt: ...
    /// assert_eq!(warnings.len(), 1);
    /// ```
    pub fn load(&self) -> Result<(Vec<Entry>, Vec<Warning>), StoreError> {
        let mut warnings = Vec::new();
        let mut inputs = BTreeMap::new();
        let mut metas = BTreeMap::new();
        for (name, path) in scan(&self.corpus, INPUT, &mut warnings)? {
            match name {
                Name::Input(id, name) => {
                    inputs.insert((id, name), path);
                }
                Name::Json(base) => {
                    metas.insert(base, path);
                }
            }
        }
        let input_names: HashSet<&str> = inputs.keys().map(|(_, n)| n.as_str()).collect();
        for (base, path) in &metas {
            if !input_names.contains(base.as_str()) {
                warnings.push(Warning {
                    path: path.clone(),
                    problem: format!(
                        "metadata without its input `{base}` in the same folder; \
                         restore the input or delete this file"
                    ),
                });
            }
        }
        let mut entries = Vec::with_capacity(inputs.len());
        for ((_, name), path) in inputs {
            let bytes = match fs::read(&path) {
                Ok(bytes) => bytes,
                Err(e) => {
                    warnings.push(Warning {
                        path,
                        problem: format!("cannot read it: {e}"),
                    });
                    continue;
                }
            };
            let mut meta = match metas.get(&name) {
                None => seed_meta(&path),
                Some(json) => match read_json::<Meta>(json) {
                    Ok(meta) => meta,
                    Err(problem) => {
                        warnings.push(Warning {
                            path: json.clone(),
                            problem: format!(
                                "{problem}; its input `{name}` is loaded as a seed without \
                                 metadata (fix this file, or delete it and replay with \
                                 MU2_UPDATE=1 to record it anew)"
                            ),
                        });
                        seed_meta(&path)
                    }
                },
            };
            meta.size = bytes.len();
            entries.push(Entry { name, bytes, meta });
        }
        warnings.sort_by(|a, b| a.path.cmp(&b.path));
        Ok((entries, warnings))
    }

    /// Saves a new input under the next free id and returns its file name
    /// (`id_000012`). The bytes are in place before the metadata, and each
    /// file is complete before it gets its name, so an interrupted save
    /// leaves at worst an input without metadata, which loads as a seed.
    ///
    /// `size` is set to `bytes.len()`; a `saved_at` of 0 (the default)
    /// becomes the current time.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// use mu2_runtime::corpus::{Meta, Store};
    /// let mut store = Store::open(dir.path(), "sort").unwrap();
    /// assert_eq!(store.save(b"ab", &Meta::default()).unwrap(), "id_000000");
    /// assert_eq!(store.save(b"cd", &Meta::default()).unwrap(), "id_000001");
    /// ```
    pub fn save(&mut self, bytes: &[u8], meta: &Meta) -> Result<String, StoreError> {
        let name = claim(&self.corpus, INPUT, &mut self.next_input);
        let mut meta = meta.clone();
        meta.size = bytes.len();
        if !(meta.saved_at.is_finite() && meta.saved_at > 0.0) {
            meta.saved_at = now();
        }
        write_atomic(&self.corpus, &name, bytes)?;
        write_atomic(&self.corpus, &format!("{name}{JSON}"), &to_json(&meta))?;
        sync_dir(&self.corpus);
        Ok(name)
    }

    /// Rewrites the metadata of a saved input: replay with `MU2_UPDATE=1`
    /// records outputs anew, and mutation analysis adds kills. `size` is set
    /// to the input's length; the other fields are written as given.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// use mu2_runtime::corpus::{Meta, Store};
    /// let mut store = Store::open(dir.path(), "sort").unwrap();
    /// let name = store.save(b"ab", &Meta::default()).unwrap();
    /// store.update(&name, &Meta { output: Some("Ok(2)".into()), ..Meta::default() }).unwrap();
    /// assert!(store.update("id_000099", &Meta::default()).is_err());
    /// ```
    pub fn update(&self, name: &str, meta: &Meta) -> Result<(), StoreError> {
        let missing = || StoreError::NoSuchInput {
            name: name.to_string(),
            corpus: self.corpus.clone(),
        };
        if parse_id(name, INPUT).is_none() {
            return Err(missing());
        }
        let size = match fs::metadata(self.corpus.join(name)) {
            Ok(m) if m.is_file() => m.len() as usize,
            _ => return Err(missing()),
        };
        let mut meta = meta.clone();
        meta.size = size;
        write_atomic(&self.corpus, &format!("{name}{JSON}"), &to_json(&meta))?;
        sync_dir(&self.corpus);
        Ok(())
    }

    /// Saves a failing input and what went wrong, unless a failure at the
    /// same location (`file:line:col`) is saved already, in this run or an
    /// earlier one: then it writes nothing and returns `None`. Failures with
    /// no location are told apart by message instead.
    ///
    /// `size` is set to `bytes.len()`; a `found_at` of 0 becomes the current
    /// time.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// use mu2_runtime::corpus::{Failure, Store};
    /// let mut store = Store::open(dir.path(), "sort").unwrap();
    /// let f = Failure { message: "index out of bounds".into(), location: "src/lib.rs:4:9".into(),
    ///                   found_at: 0.0, size: 0, input_debug: Some("[3, 1]".into()) };
    /// assert_eq!(store.save_failure(b"x", &f).unwrap().as_deref(), Some("failure_000000"));
    /// assert_eq!(store.save_failure(b"y", &f).unwrap(), None);
    /// ```
    pub fn save_failure(
        &mut self,
        bytes: &[u8],
        failure: &Failure,
    ) -> Result<Option<String>, StoreError> {
        let key = failure_key(failure);
        if self.failure_keys.contains(&key) {
            return Ok(None);
        }
        let name = claim(&self.failures, FAILURE, &mut self.next_failure);
        let mut failure = failure.clone();
        failure.size = bytes.len();
        if !(failure.found_at.is_finite() && failure.found_at > 0.0) {
            failure.found_at = now();
        }
        write_atomic(&self.failures, &name, bytes)?;
        write_atomic(&self.failures, &format!("{name}{JSON}"), &to_json(&failure))?;
        sync_dir(&self.failures);
        self.failure_keys.insert(key);
        Ok(Some(name))
    }

    /// The saved failures in id order, as `(file name, failure)`. Files that
    /// cannot be used are left out; [`load_failures`](Self::load_failures)
    /// says which and why.
    pub fn failures(&self) -> Result<Vec<(String, Failure)>, StoreError> {
        Ok(self.load_failures()?.0)
    }

    /// The saved failures in id order, and a warning per file in `failures/`
    /// that was skipped (unparsable metadata, an input without metadata or
    /// the other way round, a foreign file). Nothing is deleted or changed.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// let store = mu2_runtime::corpus::Store::open(dir.path(), "sort").unwrap();
    /// let (failures, warnings) = store.load_failures().unwrap();
    /// assert!(failures.is_empty() && warnings.is_empty());
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn load_failures(&self) -> Result<(Vec<(String, Failure)>, Vec<Warning>), StoreError> {
        read_failures(&self.failures)
    }

    /// Appends one row to `plot_data.csv`, writing the [`PLOT_HEADER`] first
    /// if the file is new or empty. Each row is one write, so an interrupted
    /// campaign leaves whole rows.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// use mu2_runtime::corpus::{PlotRow, Store};
    /// let mut store = Store::open(dir.path(), "sort").unwrap();
    /// store.plot(&PlotRow { time: 1.7e9, execs: 10, ..PlotRow::default() }).unwrap();
    /// let text = std::fs::read_to_string(store.root().join("plot_data.csv")).unwrap();
    /// assert!(text.starts_with("unix_time,elapsed,execs,"));
    /// ```
    pub fn plot(&mut self, row: &PlotRow) -> Result<(), StoreError> {
        let path = self.root.join(PLOT);
        let (file, fresh) = appender(&mut self.plot, &path)?;
        let mut text = String::new();
        if fresh {
            text.push_str(PLOT_HEADER);
            text.push('\n');
        }
        text.push_str(&format!(
            "{:.3},{:.3},{},{:.1},{},{},{},{},{},{},{},{},{},{},{:.2}\n",
            row.time,
            row.elapsed,
            row.execs,
            row.execs_per_sec,
            row.corpus,
            row.favored,
            row.coverage,
            row.valid_coverage,
            row.valid_inputs,
            row.invalid_inputs,
            row.failures,
            row.mutants_total,
            row.mutants_killed,
            row.mutants_seen,
            row.mutants_run_per_input,
        ));
        file.write_all(text.as_bytes())
            .map_err(|e| StoreError::io("append to", &path, e))
    }

    /// Appends one line to `fuzz.log`, prefixed with the time in seconds
    /// since the Unix epoch. A line with line breaks stays one entry: its
    /// continuation lines are indented.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// let mut store = mu2_runtime::corpus::Store::open(dir.path(), "sort").unwrap();
    /// store.log("saved id_000000 (+cov)").unwrap();
    /// let text = std::fs::read_to_string(store.root().join("fuzz.log")).unwrap();
    /// assert!(text.ends_with(" saved id_000000 (+cov)\n"));
    /// ```
    pub fn log(&mut self, line: &str) -> Result<(), StoreError> {
        let path = self.root.join(LOG);
        let (file, _) = appender(&mut self.log, &path)?;
        let stamp = format!("{:.3} ", now());
        let indent = format!("\n{}", " ".repeat(stamp.len()));
        let text = format!("{stamp}{}\n", line.trim_end().replace('\n', &indent));
        file.write_all(text.as_bytes())
            .map_err(|e| StoreError::io("append to", &path, e))
    }
}

/// What a usable file in `corpus/` or `failures/` is.
enum Name {
    /// `id_000012` (or `failure_000012`): its number and name.
    Input(u64, String),
    /// `id_000012.json`: the name of its input.
    Json(String),
}

/// Lists `folder`, sorting out the files named `<prefix>N` and
/// `<prefix>N.json` and warning about the rest.
fn scan(
    folder: &Path,
    prefix: &str,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<(Name, PathBuf)>, StoreError> {
    let listing = fs::read_dir(folder).map_err(|e| StoreError::io("list", folder, e))?;
    let mut found = Vec::new();
    for item in listing {
        let item = item.map_err(|e| StoreError::io("list", folder, e))?;
        let path = item.path();
        let mut warn = |problem: String| {
            warnings.push(Warning {
                path: path.clone(),
                problem,
            })
        };
        let Some(name) = item.file_name().to_str().map(str::to_string) else {
            warn(format!(
                "its name is not valid UTF-8, so it is not a mu2 file \
                 (files here are named {prefix}NNNNNN and {prefix}NNNNNN.json)"
            ));
            continue;
        };
        if name.starts_with('.') {
            if name.ends_with(TMP) {
                warn(
                    "an unfinished save, left by a mu2 process that stopped while writing it; \
                     mu2 does not use it, and it can be deleted"
                        .to_string(),
                );
            }
            continue;
        }
        // Follows symbolic links: a link to an input is an input.
        match fs::metadata(&path) {
            Err(e) => {
                warn(format!("cannot read it: {e}"));
                continue;
            }
            Ok(m) if m.is_dir() => {
                warn(format!(
                    "a folder; mu2 reads only the files directly in {} \
                     ({prefix}NNNNNN and {prefix}NNNNNN.json)",
                    folder.display()
                ));
                continue;
            }
            Ok(_) => {}
        }
        if let Some(id) = parse_id(&name, prefix) {
            found.push((Name::Input(id, name), path));
        } else if let Some(base) = name
            .strip_suffix(JSON)
            .filter(|b| parse_id(b, prefix).is_some())
        {
            found.push((Name::Json(base.to_string()), path));
        } else {
            warn(format!(
                "not a mu2 file (files here are named {prefix}NNNNNN and {prefix}NNNNNN.json); \
                 to use it as an input, rename it to {prefix}NNNNNN with an unused number"
            ));
        }
    }
    Ok(found)
}

#[allow(clippy::type_complexity)]
fn read_failures(folder: &Path) -> Result<(Vec<(String, Failure)>, Vec<Warning>), StoreError> {
    let mut warnings = Vec::new();
    let mut inputs = BTreeMap::new();
    let mut metas = BTreeMap::new();
    for (name, path) in scan(folder, FAILURE, &mut warnings)? {
        match name {
            Name::Input(id, name) => {
                inputs.insert(name, (id, path));
            }
            Name::Json(base) => {
                metas.insert(base, path);
            }
        }
    }
    let mut found = Vec::new();
    for (base, path) in metas {
        let Some((id, _)) = inputs.remove(&base) else {
            warnings.push(Warning {
                path,
                problem: format!("a failure without its input `{base}` in the same folder"),
            });
            continue;
        };
        match read_json::<Failure>(&path) {
            Ok(failure) => found.push((id, base, failure)),
            Err(problem) => warnings.push(Warning { path, problem }),
        }
    }
    for (name, (_, path)) in inputs {
        warnings.push(Warning {
            path,
            problem: format!("a failing input without its metadata `{name}{JSON}`"),
        });
    }
    found.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    warnings.sort_by(|a, b| a.path.cmp(&b.path));
    Ok((
        found.into_iter().map(|(_, n, f)| (n, f)).collect(),
        warnings,
    ))
}

/// How many inputs (`id_NNNNNN` files) `<dir>/<driver>/corpus/` holds, without
/// creating or changing anything: 0 when the folder does not exist.
pub fn saved_inputs(dir: &Path, driver: &str) -> usize {
    fs::read_dir(dir.join(driver).join(CORPUS)).map_or(0, |listing| {
        listing
            .filter_map(Result::ok)
            .filter(|item| {
                item.file_name()
                    .to_str()
                    .is_some_and(|n| parse_id(n, INPUT).is_some())
            })
            .count()
    })
}

/// The number in `id_000012` (for prefix `id_`): digits only, at least one.
fn parse_id(name: &str, prefix: &str) -> Option<u64> {
    let digits = name.strip_prefix(prefix)?;
    if digits.is_empty() || digits.len() > 18 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// One past the highest id of any `<prefix>N` or `<prefix>N.json` in
/// `folder`, usable or not, so that nothing there is ever overwritten.
fn next_id(folder: &Path, prefix: &str) -> Result<u64, StoreError> {
    let listing = fs::read_dir(folder).map_err(|e| StoreError::io("list", folder, e))?;
    let mut next = 0;
    for item in listing {
        let item = item.map_err(|e| StoreError::io("list", folder, e))?;
        let name = item.file_name();
        let Some(name) = name.to_str() else { continue };
        let base = name.strip_suffix(JSON).unwrap_or(name);
        if let Some(id) = parse_id(base, prefix) {
            next = next.max(id + 1);
        }
    }
    Ok(next)
}

/// The next name in `folder` whose input and metadata are both unused.
fn claim(folder: &Path, prefix: &str, next: &mut u64) -> String {
    loop {
        let name = format!("{prefix}{:06}", *next);
        *next += 1;
        let taken = |n: &str| fs::symlink_metadata(folder.join(n)).is_ok();
        if !taken(&name) && !taken(&format!("{name}{JSON}")) {
            return name;
        }
    }
}

/// The key failures are deduplicated by.
fn failure_key(failure: &Failure) -> String {
    if failure.location.is_empty() {
        format!("?: {}", failure.message)
    } else {
        failure.location.clone()
    }
}

/// Metadata for an input saved without any: a seed, as of the file's time.
fn seed_meta(path: &Path) -> Meta {
    let saved_at = fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0.0, |d| d.as_secs_f64());
    Meta {
        reasons: vec!["seed".to_string()],
        saved_at,
        ..Meta::default()
    }
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read it: {e}"))?;
    crate::json::from_slice(&bytes).map_err(|e| format!("not valid mu2 metadata: {e}"))
}

fn to_json<T: Serialize>(value: &T) -> Vec<u8> {
    // Plain structs of strings and numbers: serializing cannot fail.
    let mut json = crate::json::to_string_pretty(value)
        .expect("metadata serializes to JSON")
        .into_bytes();
    json.push(b'\n');
    json
}

/// Writes `folder/name` whole or not at all: to a hidden temporary file in
/// the same folder (so the rename stays on one file system), flushed to
/// disk, then renamed over.
fn write_atomic(folder: &Path, name: &str, data: &[u8]) -> Result<(), StoreError> {
    let path = folder.join(name);
    let tmp = folder.join(format!(".{name}.{}{TMP}", std::process::id()));
    let written = File::create(&tmp)
        .and_then(|mut f| {
            f.write_all(data)?;
            f.sync_all()
        })
        .and_then(|()| fs::rename(&tmp, &path));
    written.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        StoreError::io("save", &path, e)
    })
}

/// Makes the renames in `folder` survive a power cut, where the platform
/// allows. Best effort: some file systems refuse to sync a folder, and the
/// files themselves are already complete.
fn sync_dir(folder: &Path) {
    #[cfg(unix)]
    if let Ok(dir) = File::open(folder) {
        let _ = dir.sync_all();
    }
    #[cfg(not(unix))]
    let _ = folder;
}

/// The append handle in `slot`, opened on first use; `true` if the file was
/// new or empty then.
fn appender<'a>(
    slot: &'a mut Option<File>,
    path: &Path,
) -> Result<(&'a mut File, bool), StoreError> {
    let mut fresh = false;
    if slot.is_none() {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| StoreError::io("open", path, e))?;
        let len = file
            .metadata()
            .map_err(|e| StoreError::io("open", path, e))?
            .len();
        fresh = len == 0;
        *slot = Some(file);
    }
    Ok((slot.as_mut().expect("opened above"), fresh))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(reason: &str) -> Meta {
        Meta {
            reasons: vec![reason.to_string()],
            saved_at: 1_700_000_000.5,
            size: 0,
            valid: true,
            parent: Some("id_000000".into()),
            output: Some("Ok([1, 2])".into()),
            panicked: None,
            kills: vec!["m1f2".into()],
        }
    }

    fn failure(location: &str, message: &str) -> Failure {
        Failure {
            message: message.into(),
            location: location.into(),
            found_at: 1_700_000_001.0,
            size: 0,
            input_debug: Some("[3, 1]".into()),
        }
    }

    /// Every file under `dir` with its bytes, relative paths sorted.
    fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        fn walk(base: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
            for item in fs::read_dir(dir).unwrap() {
                let path = item.unwrap().path();
                if path.is_dir() {
                    out.push((
                        path.strip_prefix(base).unwrap().to_path_buf(),
                        b"<dir>".to_vec(),
                    ));
                    walk(base, &path, out);
                } else {
                    let bytes = fs::read(&path).unwrap();
                    out.push((path.strip_prefix(base).unwrap().to_path_buf(), bytes));
                }
            }
        }
        let mut out = Vec::new();
        walk(dir, dir, &mut out);
        out.sort();
        out
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn corpus_round_trips_bytes_and_metadata() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "drv").unwrap();
        assert_eq!(store.root(), dir.path().join("drv"));
        let a = store.save(b"\x00\xffraw", &meta("+cov")).unwrap();
        let b = store.save(b"", &meta("+count")).unwrap();
        assert_eq!((a.as_str(), b.as_str()), ("id_000000", "id_000001"));

        let (entries, warnings) = store.load().unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].name, "id_000000");
        assert_eq!(entries[0].bytes, b"\x00\xffraw");
        assert_eq!(
            entries[0].meta,
            Meta {
                size: 5,
                ..meta("+cov")
            }
        );
        assert_eq!(entries[1].bytes, b"");
        assert_eq!(
            entries[1].meta,
            Meta {
                size: 0,
                ..meta("+count")
            }
        );

        // Pretty, keys in declaration order, trailing newline; no temp files left.
        let json = fs::read_to_string(store.corpus_dir().join("id_000000.json")).unwrap();
        assert!(
            json.starts_with("{\n  \"reasons\": [\n    \"+cov\"\n  ],\n  \"saved_at\": "),
            "{json}"
        );
        let keys = [
            "reasons", "saved_at", "size", "valid", "parent", "output", "panicked", "kills",
        ];
        let at: Vec<usize> = keys
            .iter()
            .map(|k| json.find(&format!("\"{k}\"")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{json}");
        assert!(json.ends_with("}\n"));
        assert_eq!(
            names(store.corpus_dir()),
            ["id_000000", "id_000000.json", "id_000001", "id_000001.json"]
        );
    }

    #[test]
    fn save_sets_size_and_fills_in_a_missing_time() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "drv").unwrap();
        let before = now();
        store
            .save(
                b"abc",
                &Meta {
                    size: 99,
                    ..Meta::default()
                },
            )
            .unwrap();
        let (entries, _) = store.load().unwrap();
        assert_eq!(entries[0].meta.size, 3);
        assert!(entries[0].meta.saved_at >= before.floor());
    }

    #[test]
    fn a_save_is_visible_to_a_fresh_open_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut writer = Store::open(dir.path(), "drv").unwrap();
        writer.save(b"first", &meta("+cov")).unwrap();
        // The writer is still alive: nothing is buffered in it.
        let (entries, warnings) = Store::open(dir.path(), "drv").unwrap().load().unwrap();
        assert!(warnings.is_empty());
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].bytes, b"first");
        assert_eq!(entries[0].meta.reasons, ["+cov"]);
        writer.save(b"second", &meta("+cov")).unwrap();
        assert_eq!(
            Store::open(dir.path(), "drv")
                .unwrap()
                .load()
                .unwrap()
                .0
                .len(),
            2
        );
    }

    #[test]
    fn ids_continue_after_the_highest_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        {
            let mut store = Store::open(dir.path(), "drv").unwrap();
            store.save(b"a", &meta("seed")).unwrap();
            store.save(b"b", &meta("+cov")).unwrap();
        }
        let mut store = Store::open(dir.path(), "drv").unwrap();
        assert_eq!(store.save(b"c", &meta("+cov")).unwrap(), "id_000002");

        // A gap, and metadata whose input is gone: neither is reused.
        fs::write(store.corpus_dir().join("id_000007"), b"dropped").unwrap();
        fs::write(store.corpus_dir().join("id_000009.json"), b"{}").unwrap();
        let before = snapshot(dir.path());
        let mut store = Store::open(dir.path(), "drv").unwrap();
        assert_eq!(store.save(b"d", &meta("+cov")).unwrap(), "id_000010");
        let after = snapshot(dir.path());
        for file in &before {
            assert!(after.contains(file), "{:?} changed", file.0);
        }

        // Numbers past six digits sort as numbers.
        fs::write(store.corpus_dir().join("id_1000000"), b"big").unwrap();
        let mut store = Store::open(dir.path(), "drv").unwrap();
        assert_eq!(store.save(b"e", &meta("+cov")).unwrap(), "id_1000001");
        let (entries, _) = store.load().unwrap();
        let order: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(
            order,
            [
                "id_000000",
                "id_000001",
                "id_000002",
                "id_000007",
                "id_000010",
                "id_1000000",
                "id_1000001"
            ]
        );
    }

    #[test]
    fn an_input_without_metadata_loads_as_a_seed() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), "drv").unwrap();
        fs::write(store.corpus_dir().join("id_000000"), b"user seed").unwrap();
        let (entries, warnings) = store.load().unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].bytes, b"user seed");
        let m = &entries[0].meta;
        assert_eq!(m.reasons, ["seed"]);
        assert_eq!(m.size, 9);
        assert!(m.saved_at > 1.0e9, "file time, got {}", m.saved_at);
        assert_eq!(
            (m.parent.as_ref(), m.output.as_ref(), m.panicked.as_ref()),
            (None, None, None)
        );
        assert!(m.kills.is_empty());
        // Loading did not write the missing metadata.
        assert_eq!(names(store.corpus_dir()), ["id_000000"]);
    }

    #[test]
    fn bad_files_are_warned_about_skipped_and_left_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "drv").unwrap();
        store.save(b"good", &meta("+cov")).unwrap(); // id_000000
        let c = store.corpus_dir().to_path_buf();
        fs::write(c.join("id_000001"), b"input of bad json").unwrap();
        fs::write(c.join("id_000001.json"), b"{\"reasons\": [\"+cov\"").unwrap();
        fs::write(c.join("id_000002.json"), b"{\"reasons\": [\"+cov\"]}").unwrap();
        fs::write(c.join("notes.txt"), b"my notes").unwrap();
        fs::write(c.join("id_12x"), b"almost").unwrap();
        fs::create_dir(c.join("old")).unwrap();
        fs::write(c.join("old").join("id_000005"), b"nested").unwrap();
        fs::create_dir(c.join("id_000003")).unwrap();
        fs::write(c.join(".gitkeep"), b"").unwrap();
        fs::write(c.join(".id_000004.123.tmp"), b"half").unwrap();
        let before = snapshot(dir.path());

        let (entries, warnings) = store.load().unwrap();

        assert_eq!(snapshot(dir.path()), before, "loading changed a file");
        let loaded: Vec<(&str, &[u8], &[String])> = entries
            .iter()
            .map(|e| {
                (
                    e.name.as_str(),
                    e.bytes.as_slice(),
                    e.meta.reasons.as_slice(),
                )
            })
            .collect();
        assert_eq!(
            loaded,
            [
                ("id_000000", &b"good"[..], &["+cov".to_string()][..]),
                (
                    "id_000001",
                    &b"input of bad json"[..],
                    &["seed".to_string()][..]
                ),
            ]
        );
        let warned: Vec<(PathBuf, String)> = warnings
            .iter()
            .map(|w| (w.path.clone(), w.to_string()))
            .collect();
        let expect = [
            (".id_000004.123.tmp", "unfinished save"),
            ("id_000001.json", "not valid mu2 metadata"),
            ("id_000002.json", "without its input `id_000002`"),
            ("id_000003", "a folder"),
            ("id_12x", "not a mu2 file"),
            ("notes.txt", "not a mu2 file"),
            ("old", "a folder"),
        ];
        assert_eq!(warned.len(), expect.len(), "{warned:#?}");
        for ((path, text), (file, problem)) in warned.iter().zip(expect) {
            assert_eq!(path, &c.join(file));
            assert!(
                text.starts_with(&format!("mu2: skipping {}: ", c.join(file).display())),
                "{text}"
            );
            assert!(text.contains(problem), "{text}");
        }
        // Saving afterwards does not touch them either.
        assert_eq!(store.save(b"new", &meta("+cov")).unwrap(), "id_000004");
        let after = snapshot(dir.path());
        for file in &before {
            assert!(after.contains(file), "{:?} changed", file.0);
        }
    }

    #[test]
    fn metadata_from_other_versions_loads() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), "drv").unwrap();
        let c = store.corpus_dir();
        fs::write(c.join("id_000000"), b"x").unwrap();
        // Older: no kills, no panicked. Newer: a key this version does not know.
        fs::write(
            c.join("id_000000.json"),
            br#"{"reasons": ["+valid"], "saved_at": 5, "size": 1, "valid": true, "output": "3", "heat": 0.5}"#,
        )
        .unwrap();
        let (entries, warnings) = store.load().unwrap();
        assert!(warnings.is_empty(), "{warnings:?}");
        let m = &entries[0].meta;
        assert_eq!(m.reasons, ["+valid"]);
        assert_eq!(m.saved_at, 5.0);
        assert_eq!(m.output.as_deref(), Some("3"));
        assert!(m.valid && m.kills.is_empty() && m.panicked.is_none());
    }

    #[test]
    fn update_rewrites_metadata_of_saved_inputs_only() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "drv").unwrap();
        let name = store.save(b"abcd", &meta("+cov")).unwrap();
        let new = Meta {
            output: Some("Err(Empty)".into()),
            kills: vec!["a".into(), "b".into()],
            ..meta("+cov")
        };
        store.update(&name, &new).unwrap();
        let (entries, _) = Store::open(dir.path(), "drv").unwrap().load().unwrap();
        assert_eq!(
            entries[0].meta,
            Meta {
                size: 4,
                ..new.clone()
            }
        );
        assert_eq!(entries[0].bytes, b"abcd");

        fs::write(store.corpus_dir().join("notes.txt"), b"mine").unwrap();
        for bad in ["id_000001", "notes.txt", "../id_000000", "id_000000.json"] {
            let err = store.update(bad, &new).unwrap_err();
            assert!(
                matches!(err, StoreError::NoSuchInput { .. }),
                "{bad}: {err}"
            );
        }
        assert!(!store.corpus_dir().join("id_000001.json").exists());
        assert!(!store.corpus_dir().join("notes.txt.json").exists());
    }

    #[test]
    fn failures_are_deduplicated_by_location_across_runs() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "drv").unwrap();
        let first = store
            .save_failure(b"one", &failure("src/lib.rs:3:5", "overflow"))
            .unwrap();
        assert_eq!(first.as_deref(), Some("failure_000000"));
        let files = snapshot(store.failures_dir());
        assert_eq!(
            store
                .save_failure(b"two", &failure("src/lib.rs:3:5", "other text"))
                .unwrap(),
            None
        );
        assert_eq!(
            snapshot(store.failures_dir()),
            files,
            "a duplicate wrote something"
        );
        let second = store
            .save_failure(b"three", &failure("src/lib.rs:9:1", "oob"))
            .unwrap();
        assert_eq!(second.as_deref(), Some("failure_000001"));

        let mut store = Store::open(dir.path(), "drv").unwrap();
        assert_eq!(
            store
                .save_failure(b"four", &failure("src/lib.rs:3:5", "again"))
                .unwrap(),
            None
        );
        assert_eq!(
            store
                .save_failure(b"five", &failure("src/lib.rs:9:1", "again"))
                .unwrap(),
            None
        );
        let third = store
            .save_failure(b"six", &failure("src/main.rs:1:1", "new"))
            .unwrap();
        assert_eq!(third.as_deref(), Some("failure_000002"));

        let saved = store.failures().unwrap();
        let got: Vec<(&str, &str, usize)> = saved
            .iter()
            .map(|(n, f)| (n.as_str(), f.location.as_str(), f.size))
            .collect();
        assert_eq!(
            got,
            [
                ("failure_000000", "src/lib.rs:3:5", 3),
                ("failure_000001", "src/lib.rs:9:1", 5),
                ("failure_000002", "src/main.rs:1:1", 3)
            ]
        );
        assert_eq!(
            saved[0].1,
            Failure {
                size: 3,
                ..failure("src/lib.rs:3:5", "overflow")
            }
        );
        assert_eq!(
            fs::read(store.failures_dir().join("failure_000001")).unwrap(),
            b"three"
        );
        // Failures never go to the corpus.
        assert!(store.load().unwrap().0.is_empty());
    }

    #[test]
    fn failures_without_location_are_told_apart_by_message() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "drv").unwrap();
        assert!(
            store
                .save_failure(b"a", &failure("", "x"))
                .unwrap()
                .is_some()
        );
        assert!(
            store
                .save_failure(b"b", &failure("", "x"))
                .unwrap()
                .is_none()
        );
        assert!(
            store
                .save_failure(b"c", &failure("", "y"))
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn unusable_failure_files_are_warned_about_and_left_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(dir.path(), "drv").unwrap();
        store
            .save_failure(b"ok", &failure("a.rs:1:1", "m"))
            .unwrap();
        let f = store.failures_dir().to_path_buf();
        fs::write(f.join("failure_000001"), b"x").unwrap();
        fs::write(f.join("failure_000001.json"), b"not json").unwrap();
        fs::write(f.join("failure_000002"), b"no meta").unwrap();
        fs::write(
            f.join("failure_000003.json"),
            br#"{"location": "b.rs:2:2"}"#,
        )
        .unwrap();
        let before = snapshot(dir.path());
        let mut store = Store::open(dir.path(), "drv").unwrap();
        let (saved, warnings) = store.load_failures().unwrap();
        assert_eq!(saved.len(), 1);
        let warned: Vec<PathBuf> = warnings.iter().map(|w| w.path.clone()).collect();
        assert_eq!(
            warned,
            [
                f.join("failure_000001.json"),
                f.join("failure_000002"),
                f.join("failure_000003.json")
            ]
        );
        assert_eq!(snapshot(dir.path()), before);
        assert_eq!(
            store
                .save_failure(b"z", &failure("c.rs:3:3", "m"))
                .unwrap()
                .as_deref(),
            Some("failure_000004")
        );
    }

    #[test]
    fn plot_header_is_written_once_and_rows_appended_across_runs() {
        let dir = tempfile::tempdir().unwrap();
        let row = |execs| PlotRow {
            time: 1_700_000_000.25,
            elapsed: 1.5,
            execs,
            execs_per_sec: 1234.56,
            corpus: 3,
            favored: 2,
            coverage: 40,
            valid_coverage: 30,
            valid_inputs: 90,
            invalid_inputs: 10,
            failures: 1,
            mutants_total: 50,
            mutants_killed: 20,
            mutants_seen: 45,
            mutants_run_per_input: 2.5,
        };
        {
            let mut store = Store::open(dir.path(), "drv").unwrap();
            store.plot(&row(100)).unwrap();
            store.plot(&row(200)).unwrap();
        }
        let mut store = Store::open(dir.path(), "drv").unwrap();
        store.plot(&row(300)).unwrap();
        let text = fs::read_to_string(dir.path().join("drv").join("plot_data.csv")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert_eq!(lines[0], PLOT_HEADER);
        assert_eq!(
            lines[1],
            "1700000000.250,1.500,100,1234.6,3,2,40,30,90,10,1,50,20,45,2.50"
        );
        assert!(lines[3].contains(",300,"));
        let columns = PLOT_HEADER.split(',').count();
        assert_eq!(columns, 15);
        assert!(lines.iter().all(|l| l.split(',').count() == columns));
        assert!(text.ends_with('\n'));

        // An empty file (say, truncated by hand) gets the header again.
        fs::write(store.root().join("plot_data.csv"), b"").unwrap();
        let mut store = Store::open(dir.path(), "drv").unwrap();
        store.plot(&row(1)).unwrap();
        let text = fs::read_to_string(store.root().join("plot_data.csv")).unwrap();
        assert!(text.starts_with(PLOT_HEADER));
        assert_eq!(text.lines().count(), 2);
    }

    #[test]
    fn log_appends_timestamped_lines() {
        let dir = tempfile::tempdir().unwrap();
        {
            let mut store = Store::open(dir.path(), "drv").unwrap();
            store.log("started").unwrap();
            store.log("panicked:\nat src/lib.rs:1:1\n").unwrap();
        }
        Store::open(dir.path(), "drv")
            .unwrap()
            .log("resumed")
            .unwrap();
        let text = fs::read_to_string(dir.path().join("drv").join("fuzz.log")).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        let (stamp, rest) = lines[0].split_once(' ').unwrap();
        assert!(stamp.parse::<f64>().unwrap() > 1.0e9);
        assert_eq!(rest, "started");
        assert!(lines[1].ends_with(" panicked:"));
        assert_eq!(lines[2].trim_start(), "at src/lib.rs:1:1");
        assert_eq!(
            lines[2].len() - lines[2].trim_start().len(),
            stamp.len() + 1
        );
        assert!(lines[3].ends_with(" resumed"));
    }

    #[test]
    fn gitignore_keeps_only_the_corpus_and_is_not_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), "drv").unwrap();
        let path = store.root().join(".gitignore");
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(text, GITIGNORE_TEXT);
        let rules: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(
            rules,
            [
                "*",
                "!.gitignore",
                "!corpus/",
                "!corpus/**",
                "corpus/.*.tmp"
            ]
        );
        assert!(
            text.lines()
                .next()
                .unwrap()
                .starts_with("# Written by mu2. Commit corpus/")
        );

        fs::write(&path, b"# mine\n*\n").unwrap();
        drop(Store::open(dir.path(), "drv").unwrap());
        assert_eq!(fs::read(&path).unwrap(), b"# mine\n*\n");
        assert_eq!(names(store.root()), [".gitignore", "corpus", "failures"]);
    }

    #[test]
    fn drivers_have_separate_folders_and_bad_names_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut a = Store::open(dir.path(), "a").unwrap();
        let mut b = Store::open(dir.path(), "b").unwrap();
        a.save(b"1", &meta("+cov")).unwrap();
        assert_eq!(b.save(b"2", &meta("+cov")).unwrap(), "id_000000");
        for bad in ["", ".", "..", "a/b", "..\\x"] {
            let err = Store::open(dir.path(), bad).unwrap_err();
            assert!(matches!(err, StoreError::BadDriverName { .. }), "{bad:?}");
            assert!(err.to_string().contains("MU2_DIR"));
        }
    }

    #[test]
    fn saved_inputs_counts_inputs_only_and_creates_nothing() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(saved_inputs(dir.path(), "drv"), 0);
        assert!(!dir.path().join("drv").exists());
        let mut store = Store::open(dir.path(), "drv").unwrap();
        assert_eq!(saved_inputs(dir.path(), "drv"), 0);
        store.save(b"a", &meta("+cov")).unwrap();
        store.save(b"b", &meta("+cov")).unwrap();
        fs::write(store.corpus_dir().join("notes.txt"), b"x").unwrap();
        assert_eq!(saved_inputs(dir.path(), "drv"), 2);
    }

    #[test]
    fn errors_name_the_path_and_a_way_out() {
        let dir = tempfile::tempdir().unwrap();
        // A file where the driver's folder should be.
        fs::write(dir.path().join("drv"), b"in the way").unwrap();
        let err = Store::open(dir.path(), "drv").unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(&dir.path().join("drv").display().to_string()),
            "{text}"
        );
        assert!(std::error::Error::source(&err).is_some());
        assert_eq!(fs::read(dir.path().join("drv")).unwrap(), b"in the way");

        let full = StoreError::io(
            "save",
            Path::new("mu2/drv/corpus/id_000001"),
            io::Error::from(io::ErrorKind::StorageFull),
        );
        let text = full.to_string();
        assert!(
            text.starts_with("cannot save mu2/drv/corpus/id_000001: "),
            "{text}"
        );
        assert!(text.contains("disk is full"), "{text}");
        let denied = StoreError::io(
            "create the folder",
            Path::new("/x"),
            io::ErrorKind::PermissionDenied.into(),
        );
        assert!(denied.to_string().contains("MU2_DIR"));
    }
}
