//! The protocols: UCI (Fairy-Stockfish's variant conventions), its Shogi dialect USI,
//! and XBoard/CECP. Input is
//! read on its own thread, so that a running search never delays `stop`, `?` or `quit`.

pub mod cecp;
pub mod session;
pub mod uci;
pub mod xboard;

use crate::rules::spec::VariantSpec;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::io::{BufRead, Write};
use std::sync::{Mutex, MutexGuard};

/// The longest input line read (1 MiB); longer ones are answered with an error.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input as the reader thread saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of text (without its line end).
    Text(String),
    /// A line that is not UTF-8, in a lossy rendering for the error message.
    NotUtf8(String),
    /// A line longer than `MAX_LINE` bytes (its length), dropped unread.
    TooLong(usize),
}

impl Line {
    /// The start of a bad line for an error message: at most 60 characters.
    pub fn excerpt(text: &str) -> String {
        let mut out: String = text.chars().take(60).collect();
        if out.len() < text.len() {
            out += "...";
        }
        out
    }
}

/// Lines from standard input.
pub type Input = Receiver<Line>;

/// Where `say` writes when a test or fuzz target drives a protocol in-process (`capture`):
/// the lines said since, or `None` for standard output.
static CAPTURED: Mutex<Option<Vec<String>>> = Mutex::new(None);

/// The captured lines, whether or not a thread panicked while holding them.
fn captured() -> MutexGuard<'static, Option<Vec<String>>> {
    CAPTURED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// From now on `say` keeps its lines for `take_captured` instead of writing them, in the
/// whole process (for the tests and fuzz targets that run a protocol in-process; they
/// must not run two such sessions at once).
pub fn capture() {
    captured().get_or_insert_with(Vec::new);
}

/// The lines said since `capture` or the last call, one entry per line.
pub fn take_captured() -> Vec<String> {
    captured().as_mut().map(std::mem::take).unwrap_or_default()
}

/// Writes one line to standard output and flushes it; exits quietly if the GUI is gone.
pub fn say(line: &str) {
    if let Some(lines) = captured().as_mut() {
        lines.extend(line.split('\n').map(str::to_string));
        return;
    }
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{line}").and_then(|_| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// Starts the stdin reader thread.
pub fn input() -> Input {
    let (tx, rx) = unbounded();
    std::thread::spawn(move || read_lines(std::io::stdin().lock(), &tx));
    rx
}

/// Reads `reader` line by line as bytes until its end (or until nobody listens), sending
/// each line: text, not UTF-8, or too long. A line is held to `MAX_LINE` bytes: the rest
/// of a longer one is skipped, never stored. A final line without a line end counts.
pub fn read_lines(mut reader: impl BufRead, tx: &Sender<Line>) {
    let mut buf: Vec<u8> = Vec::new();
    // The length of the current line once it is known to be too long.
    let mut over: Option<usize> = None;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if chunk.is_empty() {
            if (!buf.is_empty() || over.is_some()) && tx.send(finish(&mut buf, over)).is_err() {
                return;
            }
            break;
        }
        let end = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..end.unwrap_or(chunk.len())];
        match over.as_mut() {
            Some(n) => *n += part.len(),
            None if buf.len() + part.len() > MAX_LINE => {
                over = Some(buf.len() + part.len());
                buf = Vec::new();
            }
            None => buf.extend_from_slice(part),
        }
        let used = end.map_or(chunk.len(), |e| e + 1);
        reader.consume(used);
        if end.is_some() {
            if tx.send(finish(&mut buf, over)).is_err() {
                return;
            }
            over = None;
        }
    }
}

/// The line read into `buf` (emptied), `over` its length if it was too long.
fn finish(buf: &mut Vec<u8>, over: Option<usize>) -> Line {
    let bytes = std::mem::take(buf);
    if let Some(n) = over {
        return Line::TooLong(n);
    }
    match String::from_utf8(bytes) {
        Ok(mut s) => {
            if s.ends_with('\r') {
                s.pop();
            }
            Line::Text(s)
        }
        Err(e) => Line::NotUtf8(String::from_utf8_lossy(e.as_bytes()).trim_end().to_string()),
    }
}

/// Started without a subcommand: waits for the first command and speaks UCI after `uci`,
/// USI after `usi` and CECP after `xboard`. `extra` are a user's variants (`--variants-file`), offered
/// besides the built-in ones.
pub fn run_with(extra: &[VariantSpec]) {
    let input = input();
    while let Ok(line) = input.recv() {
        let line = match line {
            Line::Text(l) => l,
            Line::NotUtf8(l) => {
                say(&format!(
                    "kirin: input is not UTF-8, ignored: '{}'; say 'uci', 'usi' or 'xboard'",
                    Line::excerpt(&l)
                ));
                continue;
            }
            Line::TooLong(n) => {
                say(&format!(
                    "kirin: input line of {n} bytes is longer than {MAX_LINE}, ignored; say 'uci', 'usi' or 'xboard'"
                ));
                continue;
            }
        };
        match line.trim() {
            "uci" => return uci::Uci::with_variants(extra.to_vec()).run(&input),
            "usi" => return uci::Uci::usi(extra.to_vec()).run(&input),
            "xboard" => return xboard::Xboard::with_variants(extra.to_vec()).run(&input),
            "quit" => return,
            "" => {}
            other => say(&format!(
                "kirin {}: say 'uci', 'usi' or 'xboard' to start a protocol (got '{}'); 'kirin --help' lists the commands",
                env!("CARGO_PKG_VERSION"),
                Line::excerpt(other)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<Line> {
        let (tx, rx) = unbounded();
        // A small buffer, so that lines cross buffer boundaries.
        read_lines(std::io::BufReader::with_capacity(7, bytes), &tx);
        drop(tx);
        rx.iter().collect()
    }

    #[test]
    fn lines_are_read_as_bytes() {
        let text = |s: &str| Line::Text(s.to_string());
        assert_eq!(
            lines(b"uci\r\nisready\n\nposition startpos moves e2e4"),
            [
                text("uci"),
                text("isready"),
                text(""),
                text("position startpos moves e2e4")
            ]
        );
        let got = lines(b"go\n\xff\xfe depth 3\nisready\n");
        assert_eq!(got[0], text("go"));
        assert!(matches!(&got[1], Line::NotUtf8(s) if s.ends_with(" depth 3")));
        assert_eq!(got[2], text("isready"));
        let mut long = vec![b'x'; MAX_LINE + 5];
        long.extend_from_slice(b"\nquit\n");
        assert_eq!(lines(&long), [Line::TooLong(MAX_LINE + 5), text("quit")]);
        let exact = vec![b'y'; MAX_LINE];
        assert_eq!(lines(&exact), [text(&"y".repeat(MAX_LINE))]);
    }
}
