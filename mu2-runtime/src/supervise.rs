//! Supervision: hostile mutants cannot end a campaign.
//!
//! In-process protection stops loops and recursion (the step budget), but a
//! mutant can still take the whole process down: `std::process::abort`, an
//! allocation failure, a stack overflow outside annotated code, or a hang in
//! code that never ticks. So under `MU2=fuzz` and `MU2=score` the driver's
//! test re-runs itself as a *child process* and supervises it:
//!
//! - The child publishes, in a small memory-mapped *heartbeat* file, which
//!   mutant each of its threads is running and the input being judged
//!   (plain stores: no system call per mutant run).
//! - When the child dies, the mutant it was running is recorded in
//!   `<driver>/crashed.json` as CRASHED (a kill); when several were running on
//!   worker threads, each is re-run alone on the recorded input in a
//!   throw-away process to find the culprit. A child that stops making
//!   progress on one mutant is killed and that mutant recorded as hung.
//! - The child restarts and resumes from the corpus on disk; mutants in
//!   `crashed.json` are never run again. Nothing saved is lost.
//! - The child runs under an address-space limit (`MU2_MEMORY`, MiB), so a
//!   mutant that allocates without bound fails its allocation, aborts, and
//!   is counted as killed rather than exhausting the machine.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use memmap2::MmapMut;
use serde::{Deserialize, Serialize};

use crate::config::{Config, Mode};
use crate::driver::DriverInfo;
use crate::input::{Invalid, MAX_INPUT, Source};

/// Set in the child: the heartbeat file's path.
const CHILD: &str = "MU2_CHILD";
/// Set in an isolation run: `<heartbeat path>#<mutant index>`.
const ISOLATE: &str = "MU2_ISOLATE";
/// `0` runs the campaign in the test's own process (no protection from aborts).
const SUPERVISE: &str = "MU2_SUPERVISE";
/// How long one mutant may go without finishing before the child is killed.
const HANG_AFTER: Duration = Duration::from_secs(60);
/// Crashes in a row with no mutant to blame before the supervisor gives up.
const MAX_UNEXPLAINED: usize = 3;
/// Threads that can publish a slot: the main one and the workers.
const SLOTS: usize = 257;

// Heartbeat layout, in u64 words: magic, trials done, input length, then one
// slot per thread (0: idle, m + 1: running mutant m), then the input bytes.
const MAGIC: u64 = 0x6d75_3268_6561_7274;
/// What the child writes over the magic word once the driver runs in it.
const STARTED: u64 = MAGIC ^ 1;
const W_MAGIC: usize = 0;
const W_TRIALS: usize = 1;
const W_INPUT_LEN: usize = 2;
const W_SLOTS: usize = 3;
const HEADER_WORDS: usize = W_SLOTS + SLOTS;
const FILE_LEN: usize = HEADER_WORDS * 8 + MAX_INPUT;

/// The shared memory between a supervised child and its parent.
struct Heartbeat {
    map: MmapMut,
}

impl Heartbeat {
    fn create(path: &Path) -> std::io::Result<Heartbeat> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        file.set_len(FILE_LEN as u64)?;
        // Safety: the file is ours, sized above, and only ever accessed
        // through this map (and the other process's map of it) as words.
        let map = unsafe { MmapMut::map_mut(&file)? };
        let beat = Heartbeat { map };
        beat.word(W_MAGIC).store(MAGIC, Ordering::Relaxed);
        Ok(beat)
    }

    fn open(path: &Path) -> std::io::Result<Heartbeat> {
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)?;
        if file.metadata()?.len() != FILE_LEN as u64 {
            return Err(std::io::Error::other(format!(
                "{} is not a mu2 heartbeat file",
                path.display()
            )));
        }
        // Safety: as in `create`.
        let map = unsafe { MmapMut::map_mut(&file)? };
        Ok(Heartbeat { map })
    }

    fn word(&self, i: usize) -> &AtomicU64 {
        assert!(i < HEADER_WORDS);
        // Safety: the map is page-aligned and HEADER_WORDS * 8 bytes long at
        // least; AtomicU64 has the alignment and size of u64.
        unsafe { &*(self.map.as_ptr().add(i * 8) as *const AtomicU64) }
    }

    fn running(&self) -> Vec<usize> {
        (0..SLOTS)
            .map(|s| self.word(W_SLOTS + s).load(Ordering::Relaxed))
            .filter(|&v| v != 0)
            .map(|v| (v - 1) as usize)
            .collect()
    }

    fn input(&self) -> Vec<u8> {
        let len = (self.word(W_INPUT_LEN).load(Ordering::Relaxed) as usize).min(MAX_INPUT);
        self.map[HEADER_WORDS * 8..HEADER_WORDS * 8 + len].to_vec()
    }

    fn set_input(&mut self, bytes: &[u8]) {
        let len = bytes.len().min(MAX_INPUT);
        self.map[HEADER_WORDS * 8..HEADER_WORDS * 8 + len].copy_from_slice(&bytes[..len]);
        self.word(W_INPUT_LEN).store(len as u64, Ordering::Release);
    }
}

/// The child's heartbeat, when this process is a supervised child.
static BEAT: OnceLock<std::sync::Mutex<Heartbeat>> = OnceLock::new();
/// A copy of the slots' base address, for lock-free stores from workers.
static SLOTS_BASE: OnceLock<usize> = OnceLock::new();

/// Whether this process is a supervised child.
pub(crate) fn is_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

/// In the child: maps the heartbeat and applies the memory limit.
fn start_child() {
    let Some(path) = std::env::var_os(CHILD) else {
        return;
    };
    match Heartbeat::open(Path::new(&path)) {
        Ok(beat) => {
            beat.word(W_MAGIC).store(STARTED, Ordering::Release);
            let _ = SLOTS_BASE.set(beat.word(W_SLOTS) as *const AtomicU64 as usize);
            let _ = BEAT.set(std::sync::Mutex::new(beat));
        }
        Err(e) => crate::status::say(&format!("mu2: cannot open the supervisor's heartbeat: {e}")),
    }
    limit_memory();
}

#[cfg(unix)]
fn limit_memory() {
    let mib: u64 = std::env::var("MU2_MEMORY")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(4096);
    let bytes = mib.saturating_mul(1 << 20);
    let limit = libc::rlimit {
        rlim_cur: bytes as libc::rlim_t,
        rlim_max: libc::RLIM_INFINITY,
    };
    // Safety: setrlimit reads the struct we pass and nothing else.
    if unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } != 0 {
        crate::status::say(
            "mu2: could not set the memory limit (MU2_MEMORY); continuing without it",
        );
    }
}

#[cfg(not(unix))]
fn limit_memory() {}

/// Publishes that thread `slot` runs `mutant` (or nothing, for `None`).
#[inline]
pub(crate) fn running(slot: usize, mutant: Option<usize>) {
    if let Some(&base) = SLOTS_BASE.get() {
        let slot = slot.min(SLOTS - 1);
        // Safety: `base` points at the slots of the live heartbeat map,
        // which is never unmapped while the process runs.
        let word = unsafe { &*(base as *const AtomicU64).add(slot) };
        word.store(mutant.map_or(0, |m| m as u64 + 1), Ordering::Release);
    }
}

/// Publishes the input the mutants are about to run on.
pub(crate) fn judging(bytes: &[u8]) {
    if let Some(beat) = BEAT.get() {
        if let Ok(mut beat) = beat.lock() {
            beat.set_input(bytes)
        }
    }
}

/// Publishes how many trials the campaign has run.
pub(crate) fn trials(n: u64) {
    if let Some(beat) = BEAT.get() {
        if let Ok(beat) = beat.lock() {
            beat.word(W_TRIALS).store(n, Ordering::Relaxed)
        }
    }
}

/// One line of `crashed.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crash {
    /// The mutant's id.
    pub id: String,
    /// `crash` (the process died) or `hang` (it stopped making progress).
    pub kind: String,
    /// How the process ended.
    pub status: String,
}

/// The mutants recorded as crashing for a driver.
pub fn crashes(root: &Path) -> Vec<Crash> {
    std::fs::read_to_string(root.join("crashed.json"))
        .ok()
        .and_then(|t| crate::json::from_str(&t).ok())
        .unwrap_or_default()
}

fn record(root: &Path, new: &[Crash]) -> std::io::Result<()> {
    let mut all = crashes(root);
    for c in new {
        if !all.iter().any(|a| a.id == c.id) {
            all.push(c.clone())
        }
    }
    let path = root.join("crashed.json");
    let tmp = root.join(".crashed.json.tmp");
    std::fs::write(
        &tmp,
        crate::json::to_string_pretty(&all).map_err(std::io::Error::other)? + "\n",
    )?;
    std::fs::rename(tmp, path)
}

/// Dense indices of the mutants recorded as crashing.
pub(crate) fn crashed_indices(root: &Path) -> Vec<usize> {
    let all = crate::schema::mutants();
    crashes(root)
        .iter()
        .filter_map(|c| c.id.parse().ok())
        .filter_map(|id| crate::schema::mutant(id))
        .map(|m| m.index)
        .filter(|&i| i < all.len())
        .collect()
}

/// In an isolation run: runs the one mutant on the recorded input and exits.
/// Returns only when this process is not an isolation run.
pub(crate) fn isolate_if_asked<O>(run: fn(&mut Source) -> Result<O, Invalid>) {
    let Ok(spec) = std::env::var(ISOLATE) else {
        return;
    };
    let (path, mutant) = spec
        .rsplit_once('#')
        .expect("MU2_ISOLATE is set by mu2 itself");
    let beat = Heartbeat::open(Path::new(path)).expect("the heartbeat copy exists");
    let mutant: u32 = mutant.parse().expect("a mutant index");
    let mut src = Source::new(beat.input(), None, MAX_INPUT);
    limit_memory();
    let _ = crate::run_at(Some(mutant), crate::Budget::default().scaled(10), || {
        run(&mut src)
    });
    std::process::exit(0);
}

/// Runs the driver's campaign (or scoring) in a supervised child unless this
/// process is that child; returns whether it did. The child runs the same
/// test, so everything else (`MU2_*`, the seed) carries over.
pub(crate) fn supervise(info: &DriverInfo, config: &Config, root: &Path) -> bool {
    if is_child() {
        start_child();
        return false;
    }
    if std::env::var(SUPERVISE).is_ok_and(|v| v.trim() == "0")
        || !matches!(config.mode, Mode::Fuzz | Mode::Score)
    {
        return false;
    }
    if let Err(e) = parent(info, config, root) {
        panic!(
            "mu2: driver `{}`: supervising the campaign failed: {e}",
            info.name
        );
    }
    true
}

fn test_name(info: &DriverInfo) -> String {
    info.test_name()
}

fn describe(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                libc::SIGABRT => "SIGABRT (abort)",
                libc::SIGSEGV => "SIGSEGV (stack overflow or bad memory access)",
                libc::SIGKILL => "SIGKILL",
                libc::SIGBUS => "SIGBUS",
                libc::SIGILL => "SIGILL",
                _ => "a signal",
            };
            return format!("killed by signal {signal}: {name}");
        }
    }
    match status.code() {
        Some(code) => format!("exit code {code}"),
        None => "ended abnormally".into(),
    }
}

fn parent(info: &DriverInfo, config: &Config, root: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(root)?;
    let exe = std::env::current_exe()?;
    let beat_path = root.join(".heartbeat");
    let started = Instant::now();
    let mut trials_done = 0u64;
    let mut restarts = 0u64;
    let mut unexplained = 0;
    loop {
        let beat = Heartbeat::create(&beat_path)?;
        let mut cmd = Command::new(&exe);
        cmd.arg(test_name(info))
            .args(["--exact", "--nocapture", "--test-threads=1", "--quiet"])
            .env(CHILD, &beat_path);
        if let Some(t) = config.time {
            let left = t.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Ok(());
            }
            cmd.env("MU2_TIME", format!("{}ms", left.as_millis().max(1)));
        }
        if let Some(t) = config.trials {
            if trials_done >= t {
                return Ok(());
            }
            cmd.env("MU2_TRIALS", (t - trials_done).to_string());
        }
        if let (Some(seed), true) = (config.seed, restarts > 0) {
            cmd.env("MU2_SEED", seed.wrapping_add(restarts).to_string());
        }
        let mut child = cmd.spawn()?;
        let (status, hung) = watch(&mut child, &beat)?;
        trials_done += beat.word(W_TRIALS).load(Ordering::Relaxed);
        if beat.word(W_MAGIC).load(Ordering::Acquire) != STARTED
            && hung.is_none()
            && status.success()
        {
            panic!(
                "mu2: driver `{}`: re-running it as the test `{}` of {} ran nothing. Is the driver defined inside a function, or renamed? Set MU2_SUPERVISE=0 to run the campaign in this process instead.",
                info.name,
                test_name(info),
                exe.display()
            );
        }
        if status.success() {
            return Ok(());
        }
        if status.code() == Some(101) && hung.is_none() {
            // libtest's "a test failed": the child finished and reported
            // (failures found, or an error it explained above).
            panic!(
                "mu2: driver `{}`: the campaign reported a failure (see its output above)",
                info.name
            );
        }
        let how = describe(status);
        let suspects = match hung {
            Some(m) => vec![m],
            None => beat.running(),
        };
        let culprits = if suspects.len() <= 1 {
            suspects
        } else {
            isolate(&exe, info, root, &beat, &suspects)?
        };
        if culprits.is_empty() {
            unexplained += 1;
            crate::status::say(&format!(
                "mu2: the campaign's process died ({how}) while no mutant was running: the original code may have crashed on an input"
            ));
            if unexplained >= MAX_UNEXPLAINED {
                panic!(
                    "mu2: driver `{}`: the campaign's process died {unexplained} times ({how}) outside any mutant run; the original code crashes (an abort, a stack overflow, or out of memory?). The last input it was judging is in {}",
                    info.name,
                    save_input(root, &beat.input())?.display()
                );
            }
        } else {
            unexplained = 0;
            let mutants = crate::schema::mutants();
            let kind = if hung.is_some() { "hang" } else { "crash" };
            let new: Vec<Crash> = culprits
                .iter()
                .map(|&m| Crash {
                    id: mutants[m].id.to_string(),
                    kind: kind.into(),
                    status: how.clone(),
                })
                .collect();
            for m in &culprits {
                crate::status::say(&format!(
                    "mu2: mutant {} took the process down ({how}): CRASHED; restarting",
                    mutants[*m]
                ));
            }
            record(root, &new)?;
        }
        restarts += 1;
    }
}

/// Waits for the child, killing it if one mutant runs far too long.
fn watch(
    child: &mut std::process::Child,
    beat: &Heartbeat,
) -> std::io::Result<(ExitStatus, Option<usize>)> {
    let mut last = vec![0u64; SLOTS];
    let mut since = vec![Instant::now(); SLOTS];
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok((status, None));
        }
        std::thread::sleep(Duration::from_millis(50));
        for s in 0..SLOTS {
            let v = beat.word(W_SLOTS + s).load(Ordering::Acquire);
            if v != last[s] {
                last[s] = v;
                since[s] = Instant::now();
            } else if v != 0 && since[s].elapsed() > HANG_AFTER {
                let _ = child.kill();
                return Ok((child.wait()?, Some((v - 1) as usize)));
            }
        }
    }
}

/// Runs each suspect alone on the recorded input; returns those that crash.
fn isolate(
    exe: &Path,
    info: &DriverInfo,
    root: &Path,
    beat: &Heartbeat,
    suspects: &[usize],
) -> std::io::Result<Vec<usize>> {
    let copy = root.join(".heartbeat.crash");
    std::fs::copy(root.join(".heartbeat"), &copy)?;
    let _ = beat;
    let mut culprits = Vec::new();
    for &m in suspects {
        let status = Command::new(exe)
            .arg(test_name(info))
            .args(["--exact", "--nocapture", "--test-threads=1", "--quiet"])
            .env(ISOLATE, format!("{}#{m}", copy.display()))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()?;
        if !status.success() {
            culprits.push(m);
        }
    }
    let _ = std::fs::remove_file(copy);
    Ok(culprits)
}

fn save_input(root: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let path = root.join("crash-input");
    std::fs::write(&path, bytes)?;
    Ok(path)
}
