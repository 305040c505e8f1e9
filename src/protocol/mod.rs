//! The protocols: UCI (Fairy-Stockfish's variant conventions) and XBoard/CECP. Input is
//! read on its own thread, so that a running search never delays `stop`, `?` or `quit`.

pub mod cecp;
pub mod session;
pub mod uci;
pub mod xboard;

use crate::variants::spec::VariantSpec;
use crossbeam_channel::{Receiver, unbounded};
use std::io::{BufRead, Write};

/// Lines from standard input.
pub type Input = Receiver<String>;

/// Writes one line to standard output and flushes it; exits quietly if the GUI is gone.
pub fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// Starts the stdin reader thread.
pub fn input() -> Input {
    let (tx, rx) = unbounded();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            match line {
                Ok(l) => {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
                Err(_) => continue,
            }
        }
    });
    rx
}

/// Started without a subcommand: waits for the first command and speaks UCI after `uci`
/// and CECP after `xboard`. `extra` are a user's variants (`--variants-file`), offered
/// besides the built-in ones.
pub fn run_with(extra: &[VariantSpec]) {
    let input = input();
    while let Ok(line) = input.recv() {
        match line.trim() {
            "uci" => return uci::Uci::with_variants(extra.to_vec()).run(&input),
            "xboard" => return xboard::Xboard::with_variants(extra.to_vec()).run(&input),
            "quit" => return,
            "" => {}
            other => say(&format!(
                "kirin {}: say 'uci' or 'xboard' to start a protocol (got '{other}'); 'kirin --help' lists the commands",
                env!("CARGO_PKG_VERSION")
            )),
        }
    }
}
