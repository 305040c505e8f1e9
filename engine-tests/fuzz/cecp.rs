//! CECP (XBoard) command streams, run in-process through `Xboard::run` one command at a
//! time as a GUI sends them: after each, a `ping` whose `pong` says that the command and
//! everything it caused (the engine's own move included) is out. The commands are built
//! from the game as it stands (`usermove` with a legal move or an edited one, `setboard`
//! with a random game's FEN, `variant` with the names kirin offers), among the rest of
//! the protocol (`new`, `force`, `go`, `playother`, `undo`, `remove`, `analyze`, `exit`,
//! `?`, `hard`/`easy`, `level`, `st`, `sd`, `time`, `memory`, `cores`, `option`,
//! `lift`, `hint`, `result`). A shadow of the game follows what kirin answers. Required:
//!
//! - every line kirin writes has a CECP form and none tells of an internal error (a
//!   panic the protocol caught), and every `ping` is answered (a `pong`
//!   within a minute; otherwise the stream hangs);
//! - every `move` kirin plays is legal in the shadow's position; a user's move kirin
//!   refuses as illegal is one the shadow cannot play either, and one it takes is one
//!   the shadow can play; a refused `setboard` or `variant` changes nothing;
//! - a `go` is answered with a move, a result or a resignation (no GUI left waiting).

use crate::common::{Edit, edited, first, random_game};
use crate::uci::SESSION;
use bolero::{TypeGenerator, check};
use kirin::protocol::cecp::{self, Ranks};
use kirin::protocol::session::Session;
use kirin::protocol::xboard::Xboard;
use kirin::protocol::{self, Line};
use kirin::rules::fen::FenStyle;
use kirin::rules::notation::wire_turn;
use kirin::rules::{Game, MoveList};
use kirin::variants;
use kirin::with_width;
use std::time::{Duration, Instant};

#[derive(Debug, TypeGenerator)]
enum Command {
    New,
    Variant(u8),
    Setboard { start: u8, plies: Vec<u8> },
    UserMove { pick: u8, bare: bool },
    Force,
    Go,
    PlayOther,
    Undo,
    Remove,
    Analyze,
    Exit,
    MoveNow,
    Hard,
    Easy,
    Post(bool),
    Level { moves: u8, minutes: u8, inc: u8 },
    St(u8),
    Sd(u8),
    Time(u16),
    Memory(u8),
    Cores(u8),
    Option(u8),
    Lift(u16),
    Hint,
    Result,
    Edited(Box<Command>, Vec<Edit>),
}

#[test]
fn cecp() {
    check!()
        .with_type::<Vec<Command>>()
        .with_iterations(40)
        .for_each(|commands| run_stream(&commands[..commands.len().min(20)]));
}

/// How long a `pong` may take: far more than any search of a stream (whose clocks are
/// seconds at most), so that only a hang reaches it.
const PONG_WAIT: Duration = Duration::from_secs(60);

/// The game kirin is expected to have: the game and its position (`None` once a command
/// the shadow cannot follow came), with what the session's options make of a variant.
struct Shadow {
    session: Option<Session>,
    names: Vec<(String, String)>,
    rules: Vec<String>,
    xboard_starts: bool,
    verified: bool,
}

impl Shadow {
    fn new() -> Shadow {
        let names = cecp::cecp_names(
            variants::builtin()
                .iter()
                .filter(|v| cecp::xboard_can_play(&v.geometry))
                .map(|v| v.name.as_str()),
        );
        let mut shadow = Shadow {
            session: None,
            names,
            rules: Vec::new(),
            xboard_starts: true,
            verified: true,
        };
        shadow.session = shadow.session_for("chess", &[]).ok();
        shadow
    }

    /// As kirin's `Xboard::session_for`.
    fn session_for(&self, name: &str, rules: &[String]) -> Result<Session, String> {
        let real = variants::find_with_rules(&[], name, rules, "").map_err(|e| e.to_string())?;
        let xboard = self.verified.then(|| cecp::xboard_rules(&real));
        let (spec, mut session) = match xboard.as_ref().map(|r| (r, Session::new(r))) {
            Some((r, Ok(session))) => (r, session),
            _ => (&real, Session::new(&real).map_err(|e| e.to_string())?),
        };
        if let Some(fen) = spec.start_position("xboard").filter(|_| self.xboard_starts) {
            let fen = fen.to_string();
            with_width!(&mut session, s => s.set_position(Some(&fen)))
                .map_err(|e| e.to_string())?;
        }
        Ok(session)
    }

    fn ranks(&self) -> Option<Ranks> {
        let s = self.session.as_ref()?;
        Some(Ranks::for_height(with_width!(s, s => s.game.geo.height)))
    }

    /// The text of `command` in the current game.
    fn render(&mut self, command: &Command) -> String {
        match command {
            Command::New => "new".into(),
            Command::Variant(n) => {
                format!("variant {}", self.names[*n as usize % self.names.len()].0)
            }
            Command::Setboard { start, plies } => match &self.session {
                Some(s) => with_width!(s, s => {
                    let (pos, _) = random_game(&s.game, *start, plies);
                    format!("setboard {}", pos.to_fen_styled(&s.game, FenStyle::Xboard))
                }),
                None => "setboard 8/8/8/8/8/8/8/8 w - - 0 1".into(),
            },
            Command::UserMove { pick, bare } => {
                let ranks = self.ranks();
                let text = match (&mut self.session, ranks) {
                    (Some(s), Some(ranks)) => {
                        with_width!(s, s => user_move_text(&s.game, &mut s.pos.clone(), *pick, ranks))
                    }
                    _ => "e2e4".into(),
                };
                if *bare {
                    text
                } else {
                    format!("usermove {text}")
                }
            }
            Command::Force => "force".into(),
            Command::Go => "go".into(),
            Command::PlayOther => "playother".into(),
            Command::Undo => "undo".into(),
            Command::Remove => "remove".into(),
            Command::Analyze => "analyze".into(),
            Command::Exit => "exit".into(),
            Command::MoveNow => "?".into(),
            Command::Hard => "hard".into(),
            Command::Easy => "easy".into(),
            Command::Post(on) => if *on { "post" } else { "nopost" }.into(),
            Command::Level {
                moves,
                minutes,
                inc,
            } => format!("level {} 0:{:02} {}", moves % 41, minutes % 3, inc % 2),
            Command::St(s) => format!("st {}", s % 2 + 1),
            Command::Sd(d) => format!("sd {}", d % 4),
            Command::Time(cs) => format!("time {}", cs % 300),
            Command::Memory(mb) => format!("memory {}", mb % 40),
            Command::Cores(n) => format!("cores {}", n % 4),
            Command::Option(n) => [
                "option XBoard start positions=0",
                "option XBoard start positions=1",
                "option Claim only mate and stalemate=0",
                "option Claim only mate and stalemate=1",
                "option Variant rules=repetition_rule=draw",
                "option Variant rules=",
                "option Nonsense=3",
            ][*n as usize % 7]
                .into(),
            Command::Lift(sq) => {
                format!("lift {}{}", (b'a' + (sq % 12) as u8) as char, sq / 12 % 12)
            }
            Command::Hint => "hint".into(),
            Command::Result => "result 1-0 {fuzzed}".into(),
            Command::Edited(inner, edits) => edited(&self.render(inner), first(edits, 3), 2048),
        }
    }

    /// Follows `line` by kirin's answer `out` to it. Panics where they disagree.
    fn follow(&mut self, line: &str, out: &[String]) {
        let errored = out.iter().any(|l| l.starts_with("Error"));
        let (cmd, arg) = line.split_once(' ').unwrap_or((line, ""));
        let arg = arg.trim();
        match cmd {
            "new" => self.session = self.session_for("chess", &[]).ok(),
            "variant" if !errored => {
                let kirin = self.names.iter().find(|v| v.0 == arg).map(|v| v.1.clone());
                self.session = kirin.and_then(|k| self.session_for(&k, &self.rules.clone()).ok());
            }
            "setboard" if !errored => {
                if let Some(s) = self.session.as_mut() {
                    let set =
                        with_width!(s, s => s.set_position_styled(Some(arg), FenStyle::Xboard));
                    assert!(
                        set.is_ok(),
                        "kirin took 'setboard {arg}', the shadow cannot: {set:?}"
                    );
                }
            }
            "undo" | "remove" => {
                if let Some(s) = self.session.as_mut() {
                    for _ in 0..if cmd == "undo" { 1 } else { 2 } {
                        if !with_width!(s, s => s.undo()) {
                            break;
                        }
                    }
                }
            }
            "option" => self.option(arg),
            "usermove" => self.user_move(arg, out),
            _ if arg.is_empty() && looks_like_move(cmd) => self.user_move(cmd, out),
            _ => {}
        }
        self.engine_moves(out);
    }

    fn option(&mut self, arg: &str) {
        match arg.split_once('=') {
            Some(("XBoard start positions", v @ ("0" | "1"))) => self.xboard_starts = v == "1",
            Some(("Claim only mate and stalemate", v @ ("0" | "1"))) => self.verified = v == "1",
            Some(("Variant rules", v)) => {
                self.rules = v.split_whitespace().map(str::to_string).collect()
            }
            _ => {}
        }
    }

    fn user_move(&mut self, text: &str, out: &[String]) {
        let ranks = self.ranks();
        let (Some(ranks), Some(s)) = (ranks, self.session.as_mut()) else {
            return;
        };
        let refused = out.iter().any(|l| l.starts_with("Illegal move"));
        let kirin_text = ranks.from_wire(text.trim_end_matches(','));
        with_width!(s, s => match s.parse(&kirin_text) {
            Ok(turn) => {
                assert!(!refused, "kirin refused the legal move '{text}'");
                s.play(&turn);
            }
            Err(e) => assert!(refused, "kirin took '{text}', which the shadow cannot play: {e}"),
        });
    }

    /// Plays kirin's own moves (`move` lines; a multi-leg move comes leg by leg, each
    /// but the last ending in a comma).
    fn engine_moves(&mut self, out: &[String]) {
        let mut legs = String::new();
        for line in out {
            let Some(leg) = line.strip_prefix("move ") else {
                continue;
            };
            legs += leg;
            if leg.ends_with(',') {
                continue;
            }
            let text = std::mem::take(&mut legs);
            let ranks = self.ranks();
            let (Some(ranks), Some(s)) = (ranks, self.session.as_mut()) else {
                continue;
            };
            let kirin_text = ranks.from_wire(&text);
            with_width!(s, s => {
                let turn = s.parse(&kirin_text).unwrap_or_else(|e| panic!("kirin played '{text}': {e}"));
                s.play(&turn);
            });
        }
    }
}

fn looks_like_move(text: &str) -> bool {
    text == "@@@@"
        || (text.len() >= 4
            && text.as_bytes()[0].is_ascii_lowercase()
            && text.as_bytes()[1].is_ascii_digit())
}

/// A legal move of the position, as XBoard writes it.
fn user_move_text<const W: usize>(
    g: &Game<W>,
    pos: &mut kirin::rules::Position<W>,
    pick: u8,
    ranks: Ranks,
) -> String {
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    match list.get(pick as usize % list.len().max(1)) {
        Some(&m) => ranks.to_wire(&wire_turn(g, &[m], Some("@@@@"))),
        None => "@@@@".into(),
    }
}

/// A line of CECP.
fn is_cecp_line(line: &str) -> bool {
    const STARTS: &[&str] = &[
        "feature ",
        "move ",
        "#",
        "Error",
        "Illegal move",
        "pong ",
        "tellusererror ",
        "telluser ",
        "Hint: ",
        "highlight ",
        "setup ",
        "piece ",
        "1-0 {",
        "0-1 {",
        "1/2-1/2 {",
        "resign",
        "offer draw",
    ];
    if STARTS.iter().any(|s| line.starts_with(s)) {
        return true;
    }
    // Thinking output: depth, score, time, nodes, then the line.
    let words: Vec<&str> = line.split_whitespace().collect();
    words.len() >= 4
        && words[..4]
            .iter()
            .all(|w| w.trim_end_matches(['.', '&']).parse::<i64>().is_ok())
}

/// The lines said until `pong n`, which is not among them.
fn until_pong(n: usize, out: &mut Vec<String>) -> Vec<String> {
    let want = format!("pong {n}");
    let started = Instant::now();
    loop {
        out.extend(protocol::take_captured());
        if let Some(i) = out.iter().position(|l| *l == want) {
            let said: Vec<String> = out.drain(..=i).collect();
            return said[..said.len() - 1].to_vec();
        }
        assert!(
            started.elapsed() < PONG_WAIT,
            "no 'pong {n}' within {PONG_WAIT:?}; said: {out:?}"
        );
        std::thread::sleep(Duration::from_micros(200));
    }
}

fn run_stream(commands: &[Command]) {
    let _one = SESSION.lock().unwrap_or_else(|e| e.into_inner());
    protocol::capture();
    protocol::take_captured();
    let (tx, rx) = crossbeam_channel::unbounded();
    let engine = std::thread::spawn(move || Xboard::new().run(&rx));
    let mut shadow = Shadow::new();
    let mut pending = Vec::new();
    let mut transcript: Vec<String> = Vec::new();
    let send = |line: &str, transcript: &mut Vec<String>| {
        transcript.push(format!("> {line}"));
        tx.send(Line::Text(line.to_string())).unwrap();
    };
    let mut pings = 0;
    for line in ["xboard", "protover 2", "sd 2", "time 100", "otim 100"] {
        send(line, &mut transcript);
    }
    for command in commands {
        let text = shadow.render(command);
        for line in text.split('\n') {
            let line = line.strip_suffix('\r').unwrap_or(line).trim().to_string();
            if line == "quit" || line.starts_with("ping") {
                continue;
            }
            send(&line, &mut transcript);
            pings += 1;
            send(&format!("ping {pings}"), &mut transcript);
            let out = until_pong(pings, &mut pending);
            transcript.extend(out.iter().map(|l| format!("< {l}")));
            let shown = || transcript.join("\n");
            for l in &out {
                assert!(is_cecp_line(l), "not CECP: '{l}'\n{}", shown());
                assert!(!l.contains("internal error"), "{l}\n{}", shown());
            }
            if line == "go" {
                let answered = out.iter().any(|l| {
                    l.starts_with("move ")
                        || l.starts_with("resign")
                        || l.starts_with("1-0")
                        || l.starts_with("0-1")
                        || l.starts_with("1/2-1/2")
                });
                assert!(answered, "'go' had no answer\n{}", shown());
            }
            let followed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                shadow.follow(&line, &out)
            }));
            if let Err(e) = followed {
                let why = e.downcast_ref::<String>().cloned().unwrap_or_default();
                panic!("{why}\n{}", shown());
            }
        }
    }
    send("quit", &mut transcript);
    engine.join().expect("the session ends");
}
