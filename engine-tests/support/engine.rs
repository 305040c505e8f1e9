//! The built `kirin` binary driven over standard input and output, for the tests that
//! script protocol sessions. Each test crate that includes this module uses part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

pub struct Engine {
    pub child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Self::start_with(&[])
    }

    pub fn start_with(args: &[&str]) -> Engine {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kirin"));
        cmd.args(args);
        Self::start_command(cmd)
    }

    /// Started after `uci`, its identification read.
    pub fn uci() -> Engine {
        let mut e = Self::start();
        e.send("uci");
        e.until(|l| l == "uciok");
        e
    }

    /// Started after `xboard` and `protover 2`, its features read.
    pub fn xboard() -> Engine {
        Self::xboard_with(&[])
    }

    /// `xboard` with command-line arguments (`--variants-file FILE`).
    pub fn xboard_with(args: &[&str]) -> Engine {
        let mut e = Self::start_with(args);
        e.send("xboard");
        e.send("protover 2");
        e.until(|l| l.contains("done=1"));
        e
    }

    pub fn start_command(mut cmd: Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("kirin starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        if std::env::var_os("KIRIN_TRACE").is_some() {
            eprintln!("> {line}");
        }
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends `isready`; returns the lines up to `readyok`.
    #[track_caller]
    pub fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.until(|l| l == "readyok")
    }

    /// Reads lines until one satisfies `done`; returns them all. Fails after 20 s.
    #[track_caller]
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_secs(20)) {
                Ok(l) => {
                    if std::env::var_os("KIRIN_TRACE").is_some() {
                        eprintln!("< {l}");
                    }
                    let stop = done(&l);
                    seen.push(l);
                    if stop {
                        return seen;
                    }
                }
                Err(_) => panic!("no answer; got {seen:?}"),
            }
        }
    }

    pub fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

/// The move of the `bestmove` line that ends `out`.
#[track_caller]
pub fn bestmove(out: &[String]) -> String {
    let last = out.last().unwrap();
    assert!(last.starts_with("bestmove "), "{out:?}");
    last.split_whitespace().nth(1).unwrap().to_string()
}
