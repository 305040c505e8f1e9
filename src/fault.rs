//! Panics as errors. The release build unwinds (Cargo.toml), so that a bug in a search or
//! in the handling of one command is caught where it happened, answered in the
//! protocol's own form, and the engine keeps serving: a GUI must not lose its engine to
//! one bad position. This module catches a panic as a [`Panicked`] error, installs the
//! panic hook that keeps standard output (the protocol channel) clean, and holds the
//! test hook `KIRIN_FAULT` that provokes a panic on purpose (docs/protocols.md).

use std::any::Any;
use std::cell::RefCell;
use std::io::Write;
use std::panic::{AssertUnwindSafe, PanicHookInfo};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

/// A panic caught: what it said, and where (when the hook of [`install_hook`] saw it).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{message}{}", location.as_ref().map(|l| format!(" (at {l})")).unwrap_or_default())]
pub struct Panicked {
    pub message: String,
    pub location: Option<String>,
}

thread_local! {
    /// Where the last panic of this thread happened: the hook writes it, the catch that
    /// follows on the same thread takes it (a payload carries only the message).
    static LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

impl Panicked {
    /// The panic whose payload `payload` is, caught on the thread that panicked.
    pub fn from_payload(payload: &(dyn Any + Send)) -> Panicked {
        let message = if let Some(s) = payload.downcast_ref::<&str>() {
            (*s).to_string()
        } else if let Some(s) = payload.downcast_ref::<String>() {
            s.clone()
        } else {
            "a panic without a message".to_string()
        };
        let location = LOCATION.with(|l| l.borrow_mut().take());
        Panicked { message, location }
    }
}

/// Runs `f`, turning a panic in it into an error. The callers hold nothing a panic could
/// leave half-changed that they read again without checking: the search's shared table
/// is made of atomics whose entries are verified on every read, and the protocols put
/// their game back as it was before the command (or search a copy of it).
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, Panicked> {
    std::panic::catch_unwind(AssertUnwindSafe(f)).map_err(|p| Panicked::from_payload(&*p))
}

/// Replaces the default panic hook: one line on standard error (the thread, the place,
/// the message; a backtrace when `RUST_BACKTRACE` asks for one), never on standard
/// output, which carries the protocols. The place is also kept for [`catch`], so that
/// the protocol's error line says where the bug is.
pub fn install_hook() {
    std::panic::set_hook(Box::new(hook));
}

fn hook(info: &PanicHookInfo) {
    let location = info.location().map(|l| l.to_string());
    let message = Panicked::from_payload(info.payload()).message;
    let thread = std::thread::current();
    let name = thread.name().unwrap_or("unnamed");
    let place = location.as_deref().unwrap_or("an unknown place");
    // A failed write to standard error is ignored: a panic here would abort.
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "kirin: internal error: thread '{name}' panicked at {place}: {message}"
    );
    let trace = std::backtrace::Backtrace::capture();
    if trace.status() == std::backtrace::BacktraceStatus::Captured {
        let _ = writeln!(err, "{trace}");
    }
    LOCATION.with(|l| *l.borrow_mut() = location);
}

/// A panic provoked on purpose by the test hook `KIRIN_FAULT`, so that the tests can
/// check that the engine survives one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// `search-panic`: the main thread of the next search panics as it begins its
    /// second iteration (after one completed iteration). A search that ends before,
    /// as when a helper reaches the depth limit first, never reaches the point.
    SearchPanic,
    /// `helper-panic`: a helper thread of the next search on several threads panics
    /// as it starts.
    HelperPanic,
    /// `command-panic`: the next command that sets up a game panics once the game is
    /// set up (UCI `position`, CECP `setboard`, a request of the web board).
    CommandPanic,
}

/// The values of `KIRIN_FAULT`.
const FAULTS: [(&str, Fault); 3] = [
    ("search-panic", Fault::SearchPanic),
    ("helper-panic", Fault::HelperPanic),
    ("command-panic", Fault::CommandPanic),
];

impl Fault {
    fn parse(text: &str) -> Option<Fault> {
        FAULTS.iter().find(|f| f.0 == text).map(|f| f.1)
    }

    fn name(self) -> &'static str {
        FAULTS.iter().find(|f| f.1 == self).map_or("?", |f| f.0)
    }
}

/// The fault `KIRIN_FAULT` asks for, read once, when a fault point is first reached.
fn armed() -> Option<Fault> {
    static ARMED: OnceLock<Option<Fault>> = OnceLock::new();
    *ARMED.get_or_init(|| {
        let text = std::env::var("KIRIN_FAULT").ok()?;
        let fault = Fault::parse(&text);
        if fault.is_none() {
            let _ = writeln!(
                std::io::stderr(),
                "kirin: KIRIN_FAULT={text} is not search-panic, helper-panic or \
                 command-panic; ignored"
            );
        }
        fault
    })
}

/// A fault point: panics if `KIRIN_FAULT` asks for `fault` and it has not yet fired in
/// this process (each fault fires once). Costs a load and a compare; the search reaches
/// its points once per search, never per node. The panic is placed at the caller, the
/// fault point.
#[track_caller]
pub fn inject(fault: Fault) {
    static FIRED: AtomicBool = AtomicBool::new(false);
    if armed() == Some(fault) && !FIRED.swap(true, Ordering::Relaxed) {
        panic!("KIRIN_FAULT={}: a panic provoked for a test", fault.name());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_caught_with_its_message() {
        assert_eq!(catch(|| 7), Ok(7));
        let text = catch(|| panic!("bad {}", 42)).unwrap_err();
        assert_eq!(text.message, "bad 42");
        let plain = catch(|| -> u8 { panic!("plain") }).unwrap_err();
        assert_eq!(plain.message, "plain");
    }

    #[test]
    fn fault_names() {
        assert_eq!(Fault::parse("search-panic"), Some(Fault::SearchPanic));
        assert_eq!(Fault::parse("helper-panic"), Some(Fault::HelperPanic));
        assert_eq!(Fault::parse("command-panic"), Some(Fault::CommandPanic));
        assert_eq!(Fault::parse("panic"), None);
    }
}
