//! How a run ends: it returns, it panics, or mu2 stops it (timeout, unviable
//! mutant). Also the one panic hook mu2 installs, which keeps mutant panics
//! quiet and remembers where each panic happened.

use std::cell::RefCell;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use crate::schema::MutantId;
use crate::switch;

/// Why mu2 stopped a run by unwinding it. Carried as the panic payload, so a
/// caller of [`with_mutant`](crate::with_mutant) can tell it apart:
///
/// ```
/// # fn main() {
/// let payload: Box<dyn std::any::Any + Send> = Box::new(mu2_runtime::Stop::Timeout("steps"));
/// assert!(matches!(payload.downcast_ref(), Some(mu2_runtime::Stop::Timeout(_))));
/// # }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The step, depth or wall-clock budget ran out (`"steps"`, `"depth"`, `"time"`).
    Timeout(&'static str),
    /// The active mutant's replacement does not type-check for the types at
    /// this site, so it has no behaviour to run.
    Unviable(MutantId),
    /// The input broke an assumption (`mu2::assume!`): it is invalid, not a
    /// failure (JQF's INVALID).
    Invalid,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Timeout("steps") => write!(
                f,
                "TIMEOUT: the step budget ran out (a loop that does not end?)"
            ),
            Stop::Timeout("depth") => write!(
                f,
                "TIMEOUT: the call-depth budget ran out (recursion that does not end?)"
            ),
            Stop::Timeout(what) => write!(f, "TIMEOUT: the {what} budget ran out"),
            Stop::Invalid => write!(
                f,
                "INVALID: the input does not satisfy an assumption (mu2::assume!)"
            ),
            Stop::Unviable(id) => write!(
                f,
                "UNVIABLE: mutant {id} does not type-check for the types at its site, so it cannot run"
            ),
        }
    }
}

/// Ends the current run as invalid (what `mu2::assume!` calls).
#[doc(hidden)]
#[cold]
pub fn assumption_failed() -> ! {
    stop(Stop::Invalid)
}

pub(crate) fn stop(s: Stop) -> ! {
    // resume_unwind skips the panic hook: no message, no backtrace capture.
    panic::resume_unwind(Box::new(s))
}

/// Where and why the code panicked.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Panic {
    pub message: String,
    /// `file:line:column` of the panic, when the hook saw it.
    pub location: Option<String>,
}

impl fmt::Display for Panic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(at) => write!(f, "panicked at {at}: {}", self.message),
            None => write!(f, "panicked: {}", self.message),
        }
    }
}

/// How one run of the code ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome<R> {
    Returned(R),
    Panicked(Panic),
    Stopped(Stop),
}

impl<R> Outcome<R> {
    /// The returned value, if the run returned.
    pub fn returned(self) -> Option<R> {
        match self {
            Outcome::Returned(r) => Some(r),
            _ => None,
        }
    }
}

thread_local! {
    static LAST_PANIC: RefCell<Option<Panic>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Installs mu2's panic hook once. It wraps the hook that was there, prints
/// mu2's own stops readably, stays silent for quiet runs, and records where
/// each panic happened.
pub(crate) fn install_hook() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let message = match info.payload().downcast_ref::<Stop>() {
                Some(stop) => stop.to_string(),
                None => {
                    let payload = info.payload();
                    let text = payload.downcast_ref::<&str>().copied();
                    let text =
                        text.or_else(|| payload.downcast_ref::<String>().map(String::as_str));
                    text.unwrap_or("Box<dyn Any>").to_string()
                }
            };
            let location = info
                .location()
                .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
            let _ = LAST_PANIC.try_with(|last| {
                *last.borrow_mut() = Some(Panic {
                    message: message.clone(),
                    location,
                })
            });
            if switch::quiet() {
                return;
            }
            if info.payload().is::<Stop>() {
                let thread = std::thread::current();
                eprintln!(
                    "thread '{}' stopped by mu2: {message}",
                    thread.name().unwrap_or("<unnamed>")
                );
            } else {
                previous(info)
            }
        }));
    });
}

/// Runs `f`, turning panics and stops into an [`Outcome`].
pub(crate) fn catch<R>(f: impl FnOnce() -> R) -> Outcome<R> {
    install_hook();
    LAST_PANIC.with(|l| l.borrow_mut().take());
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => Outcome::Returned(r),
        Err(payload) => Outcome::from_payload(payload),
    }
}

impl<R> Outcome<R> {
    fn from_payload(payload: Box<dyn std::any::Any + Send>) -> Outcome<R> {
        let payload = match payload.downcast::<Stop>() {
            Ok(stop) => return Outcome::Stopped(*stop),
            Err(p) => p,
        };
        let recorded = LAST_PANIC.with(|l| l.borrow_mut().take());
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned());
        match recorded {
            Some(p) => Outcome::Panicked(p),
            None => Outcome::Panicked(Panic {
                message: message.unwrap_or_else(|| "Box<dyn Any>".into()),
                location: None,
            }),
        }
    }
}
