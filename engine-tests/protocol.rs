//! Scripted UCI and CECP sessions against the built binary, including the exact traffic
//! of `../shared/cecp-traffic-samples.txt` (a HaChu Lion double move as two `move` lines,
//! XBoard sending it back as one `usermove` with a comma).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kirin"))
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

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `done`; returns them all. Fails after 20 s.
    fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_secs(20)) {
                Ok(l) => {
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

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

#[test]
fn uci_session_in_every_variant() {
    let mut e = Engine::start();
    e.send("uci");
    let id = e.until(|l| l == "uciok");
    let combo = id.iter().find(|l| l.contains("UCI_Variant")).unwrap();
    for spec in kirin::variants::builtin() {
        assert!(combo.contains(&format!("var {}", spec.name)), "{combo}");
    }
    for spec in kirin::variants::builtin() {
        e.send(&format!("setoption name UCI_Variant value {}", spec.name));
        let info = e.until(|l| l.starts_with("info string"));
        assert!(
            info.last()
                .unwrap()
                .contains(&format!("variant {}", spec.name))
        );
        e.send("ucinewgame");
        e.send("position startpos");
        e.send("go depth 3");
        let out = e.until(|l| l.starts_with("bestmove"));
        assert!(
            out.iter().any(|l| l.starts_with("info depth 3 ")),
            "{out:?}"
        );
        let best = out
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        // The move is legal: playing it is accepted.
        e.send(&format!("position startpos moves {best}"));
        e.send("isready");
        let ok = e.until(|l| l == "readyok");
        assert!(
            !ok.iter().any(|l| l.contains("error")),
            "{}: {ok:?}",
            spec.name
        );
    }
    e.quit();
}

#[test]
fn uci_bad_input_is_answered_and_the_engine_goes_on() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    for bad in [
        "position fen rnbqkbnr/pppppppp/8 w - - 0 1",
        "position startpos moves e2e5",
        "position sideways",
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name UCI_Variant value nonesuch",
        "setoption name Nonesuch value 3",
        "go depth",
        "go sideways",
        "flibbertigibbet",
        "setoption",
    ] {
        e.send(bad);
        e.send("isready");
        let out = e.until(|l| l == "readyok");
        assert!(
            out.iter().any(|l| l.starts_with("info string")),
            "{bad}: {out:?}"
        );
    }
    e.send("position startpos moves e2e4 e7e5");
    e.send("go infinite");
    e.until(|l| l.starts_with("info depth 4"));
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    e.send("setoption name MultiPV value 3");
    e.send("go depth 4");
    let out = e.until(|l| l.starts_with("bestmove"));
    for k in 1..=3 {
        assert!(
            out.iter()
                .any(|l| l.starts_with("info depth 4 ") && l.contains(&format!(" multipv {k} "))),
            "{out:?}"
        );
    }
    e.send("setoption name MultiPV value 1");
    e.send("go perft 3");
    let out = e.until(|l| l.starts_with("Nodes searched"));
    // The same count as `kirin perft --variant chess --moves "e2e4 e7e5" --depth 3`.
    assert_eq!(out.last().unwrap(), "Nodes searched: 24825");
    e.quit();
}

#[test]
fn uci_chu_lion_moves_in_comma_form() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name UCI_Variant value chu");
    e.send("position fen 6k5/12/12/12/12/12/4nq6/4N7/12/12/12/6K5 w 0 1 moves e5e6,e6f6");
    e.send("d");
    let out = e.until(|l| l.contains("to move"));
    assert!(out.iter().any(|l| l.contains("Black to move")), "{out:?}");
    e.quit();
}

#[test]
fn cecp_game_with_lion_double_moves() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let f = e.until(|l| l.contains("done=1"));
    assert!(
        f.last()
            .unwrap()
            .contains("variants=\"normal,courier,chu\"")
    );
    e.send("variant chu");
    e.send("memory 16");
    e.send("ping 1");
    e.until(|l| l == "pong 1");
    // The sample traffic: XBoard sends a Lion double move as one usermove.
    e.send("setboard 6k5/12/12/12/12/12/4pp6/4N7/12/12/12/6K5 w 0 1");
    e.send("force");
    e.send("usermove e5e6,e6e7");
    e.send("ping 2");
    let out = e.until(|l| l == "pong 2");
    assert!(!out.iter().any(|l| l.starts_with("Illegal")), "{out:?}");
    // The engine plays a Lion double capture as two move lines, the first with a comma.
    e.send("setboard 6k5/12/12/12/12/12/4qn6/4N7/12/12/12/6K5 w 0 1");
    e.send("sd 3");
    e.send("go");
    let out = e.until(|l| l.starts_with("move ") && !l.ends_with(','));
    let moves: Vec<&String> = out.iter().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves.len(), 2, "{out:?}");
    assert!(moves[0].ends_with(','), "{moves:?}");
    e.send("usermove g12h12");
    e.until(|l| l.starts_with("move "));
    e.quit();
}

#[test]
fn cecp_errors_undo_and_analysis() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e.send("new");
    e.send("force");
    e.send("usermove e2e5");
    let out = e.until(|l| l.starts_with("Illegal move"));
    assert!(out.last().unwrap().ends_with("e2e5"));
    e.send("setboard nonsense");
    e.until(|l| l.starts_with("Error"));
    e.send("variant nonesuch");
    e.until(|l| l.starts_with("Error"));
    e.send("frobnicate");
    e.until(|l| l.starts_with("Error (unknown command)"));
    e.send("level 40 5:00 0");
    e.send("usermove e2e4");
    e.send("usermove e7e5");
    e.send("remove");
    e.send("undo");
    e.send("undo");
    e.until(|l| l.starts_with("Error (no move"));
    e.send("analyze");
    e.until(|l| l.starts_with("5 "));
    e.send("usermove e2e4");
    e.send("exit");
    e.send("ping 9");
    e.until(|l| l == "pong 9");
    // Game mode: the engine answers a move.
    e.send("new");
    e.send("st 0.2");
    e.send("usermove e2e4");
    e.until(|l| l.starts_with("move "));
    e.send("?");
    e.quit();
}

#[test]
fn bare_start_waits_for_a_protocol() {
    let mut e = Engine::start();
    e.send("hello");
    e.until(|l| l.contains("'uci' or 'xboard'"));
    e.quit();
}
