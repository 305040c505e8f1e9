//! UCI command streams: sequences of commands, run in-process through the protocol's
//! own loop (`Uci::run`) as the stdin reader hands them over. The commands are built
//! from the session's state as the stream goes on (a `position` line with the FEN and
//! the legal moves of a random game of the variant then played, `setoption` with the
//! real option names and the built-in variants and rules), each of them possibly edited
//! into a malformed one. A shadow of the session, kept with the library's own calls,
//! knows which position each `go` searched. Required:
//!
//! - every line kirin writes has a UCI form (`id`, `option`, `uciok`, `readyok`,
//!   `info`, `bestmove`, or the lines of `go perft`), never a bare message, and none
//!   tells of an internal error (a panic the protocol caught);
//! - every `go` but `go perft` ends with exactly one `bestmove`, even from a position
//!   with no legal move (`bestmove (none)`), and the move is legal in the position the
//!   shadow had when the `go` came, its `ponder` move legal after it;
//! - a refused `position` or `setoption` changes nothing (the shadow, which keeps the
//!   old state on a refusal, would otherwise disagree with a later `bestmove`).

use crate::common::{Edit, edited, first, random_game};
use bolero::{TypeGenerator, check};
use kirin::protocol::session::Session;
use kirin::protocol::uci::Uci;
use kirin::protocol::{self, Line};
use kirin::rules::notation::wire_turn;
use kirin::rules::{Game, MoveList};
use kirin::variants;
use kirin::with_width;
use std::sync::Mutex;

/// One process runs one protocol session at a time (`protocol::capture` is global).
pub static SESSION: Mutex<()> = Mutex::new(());

#[derive(Debug, TypeGenerator)]
enum Command {
    Uci,
    IsReady,
    NewGame,
    Stop,
    PonderHit,
    Variant(u8),
    Rules(u8),
    Hash(u16),
    Threads(u8),
    MultiPv(u8),
    Position {
        fen: bool,
        start: u8,
        plies: Vec<u8>,
        moves: Vec<u8>,
    },
    Go(Go),
    /// The same command with the text edited.
    Edited(Box<Command>, Vec<Edit>),
}

/// The limits of a `go`, small enough that a stream runs in milliseconds.
#[derive(Debug, TypeGenerator)]
struct Go {
    depth: Option<u8>,
    nodes: Option<u16>,
    movetime: Option<u8>,
    clocks: Option<(u16, u16, u8)>,
    movestogo: Option<u8>,
    mate: Option<u8>,
    infinite: bool,
    ponder: bool,
    searchmoves: Vec<u8>,
    perft: Option<u8>,
}

/// Rules a variant may take (`VariantRules`), good and bad.
const RULES: &[&str] = &[
    "",
    "<empty>",
    "repetition_rule=illegal-always",
    "repetition_rule=draw",
    "okazaki=true",
    "promotion=to-zone",
    "move_rule=0",
    "move_rule=18446744073709551616",
    "stalemate=win",
    "bare_king=false",
    "nonsense",
    "=",
    "board=20x20",
];

#[test]
fn uci() {
    check!()
        .with_type::<Vec<Command>>()
        .with_iterations(60)
        .for_each(|commands| run_stream(&commands[..commands.len().min(24)]));
}

/// The session kirin is expected to have: its variant and rules, and its game.
struct Shadow {
    variant: String,
    rules: Vec<String>,
    session: Session,
}

impl Shadow {
    fn new() -> Shadow {
        Shadow {
            variant: "chess".into(),
            rules: Vec::new(),
            session: Session::new(variants::find("chess").unwrap()).unwrap(),
        }
    }

    /// As kirin's `switch_variant`: all or nothing.
    fn switch(&mut self, name: &str, rules: Vec<String>) {
        let spec = variants::find_with_rules(&[], name, &rules, "");
        if let Ok(session) = spec.and_then(|spec| Session::new(&spec)) {
            self.session = session;
            self.variant = name.to_string();
            self.rules = rules;
        }
    }

    /// What a line does to the session, read as kirin reads it.
    fn apply(&mut self, line: &str) {
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match cmd {
            "setoption" => {
                let Some(after) = rest.strip_prefix("name ") else {
                    return;
                };
                let (name, value) = match after.split_once(" value ") {
                    Some((n, v)) => (n.trim(), v.trim()),
                    None => (after.trim().trim_end_matches(" value").trim(), ""),
                };
                match name.to_ascii_lowercase().as_str() {
                    "uci_variant" => self.switch(value, self.rules.clone()),
                    "variantrules" => {
                        let rules = match value {
                            "" | "<empty>" => Vec::new(),
                            v => v.split_whitespace().map(str::to_string).collect(),
                        };
                        self.switch(&self.variant.clone(), rules);
                    }
                    _ => {}
                }
            }
            "position" => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let (setup, moves) = match words.iter().position(|&w| w == "moves") {
                    Some(i) => (&words[..i], &words[i + 1..]),
                    None => (&words[..], &[][..]),
                };
                let fen = match setup {
                    ["startpos"] => None,
                    ["fen", fen @ ..] if !fen.is_empty() => Some(fen.join(" ")),
                    _ => return,
                };
                let _ = with_width!(&mut self.session, s => s.set_line(fen.as_deref(), moves));
            }
            _ => {}
        }
    }

    /// The text of `command` in the current session.
    fn render(&mut self, command: &Command) -> String {
        match command {
            Command::Uci => "uci".into(),
            Command::IsReady => "isready".into(),
            Command::NewGame => "ucinewgame".into(),
            Command::Stop => "stop".into(),
            Command::PonderHit => "ponderhit".into(),
            Command::Variant(n) => {
                let all = variants::builtin();
                format!(
                    "setoption name UCI_Variant value {}",
                    all[*n as usize % all.len()].name
                )
            }
            Command::Rules(n) => format!(
                "setoption name VariantRules value {}",
                RULES[*n as usize % RULES.len()]
            ),
            Command::Hash(mb) => format!("setoption name Hash value {}", mb % 33),
            Command::Threads(n) => format!("setoption name Threads value {}", n % 4),
            Command::MultiPv(n) => format!("setoption name MultiPV value {}", n % 5),
            Command::Position {
                fen,
                start,
                plies,
                moves,
            } => {
                with_width!(&self.session, s => position_line(&s.game, *fen, *start, plies, moves))
            }
            Command::Go(go) => {
                with_width!(&mut self.session, s => go_line(&s.game, &mut s.pos.clone(), go))
            }
            Command::Edited(inner, edits) => edited(&self.render(inner), first(edits, 3), 4096),
        }
    }
}

/// `position startpos|fen ... moves ...`: a random game's FEN (or the start), and legal
/// moves from there.
fn position_line<const W: usize>(
    g: &Game<W>,
    fen: bool,
    start: u8,
    plies: &[u8],
    moves: &[u8],
) -> String {
    let (mut pos, played) = random_game(g, start, plies);
    let mut line = String::from("position ");
    let from = if fen {
        let (origin, _) = random_game(g, start, &[]);
        line += &format!("fen {}", origin.to_fen(g));
        origin
    } else {
        line += "startpos";
        let (origin, _) = random_game(g, 0, &[]);
        origin
    };
    // The moves are those of the random game, replayed from its origin when the
    // origin is the start the line names; otherwise new ones.
    let mut texts: Vec<String> = Vec::new();
    if fen || start == 0 {
        texts = played.iter().map(|&m| wire_turn(g, &[m], None)).collect();
    } else {
        pos = from;
    }
    for &choice in moves.iter().take(8) {
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        let Some(&m) = list.get(choice as usize % list.len().max(1)) else {
            break;
        };
        texts.push(wire_turn(g, &[m], None));
        pos.make(g, m);
    }
    if !texts.is_empty() {
        line += " moves ";
        line += &texts.join(" ");
    }
    line
}

fn go_line<const W: usize>(g: &Game<W>, pos: &mut kirin::rules::Position<W>, go: &Go) -> String {
    let mut line = String::from("go");
    if let Some(n) = go.perft {
        return format!("go perft {}", n % 4);
    }
    if let Some(d) = go.depth {
        line += &format!(" depth {}", d % 5);
    }
    if let Some(n) = go.nodes {
        line += &format!(" nodes {}", n % 3000);
    }
    if let Some(ms) = go.movetime {
        line += &format!(" movetime {}", ms % 30);
    }
    if let Some((w, b, inc)) = go.clocks {
        line += &format!(
            " wtime {} btime {} winc {} binc {}",
            w % 400,
            b % 400,
            inc % 20,
            inc % 20
        );
    }
    if let Some(n) = go.movestogo {
        line += &format!(" movestogo {n}");
    }
    if let Some(n) = go.mate {
        line += &format!(" mate {}", n % 3);
    }
    if go.infinite {
        line += " infinite";
    }
    if go.ponder {
        line += " ponder";
    }
    if !go.searchmoves.is_empty() {
        let mut list = MoveList::new();
        g.legal_moves(pos, &mut list);
        let picked: Vec<String> = go
            .searchmoves
            .iter()
            .take(4)
            .filter_map(|&c| list.get(c as usize % list.len().max(1)))
            .map(|&m| wire_turn(g, &[m], None))
            .collect();
        line += &format!(" searchmoves {}", picked.join(" "));
    }
    line
}

/// Is `line` a `go` that runs perft (a number after `perft`), as kirin's `go` reads it?
fn is_perft(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"go") {
        return false;
    }
    words
        .windows(2)
        .any(|w| w[0] == "perft" && w[1].parse::<u64>().is_ok())
}

fn is_go(line: &str) -> bool {
    let line = line.trim();
    line == "go" || line.starts_with("go ")
}

/// A line of UCI (or of `go perft`'s answer).
fn is_uci_line(line: &str) -> bool {
    const STARTS: &[&str] = &[
        "id ",
        "option name ",
        "info ",
        "bestmove ",
        "Nodes searched: ",
    ];
    if line.is_empty()
        || line == "uciok"
        || line == "readyok"
        || STARTS.iter().any(|s| line.starts_with(s))
    {
        return true;
    }
    // perft: `move: count`.
    line.rsplit_once(": ")
        .is_some_and(|(m, n)| !m.contains(' ') && n.parse::<u64>().is_ok())
}

fn run_stream(commands: &[Command]) {
    let _one = SESSION.lock().unwrap_or_else(|e| e.into_inner());
    protocol::capture();
    protocol::take_captured();
    let mut shadow = Shadow::new();
    let mut lines = Vec::new();
    // The position of each `go` that searches, as the shadow had it.
    let mut searched: Vec<Session> = Vec::new();
    for command in commands {
        let text = shadow.render(command);
        for line in text.split('\n') {
            let line = line.strip_suffix('\r').unwrap_or(line).to_string();
            if line.trim() == "quit" {
                break;
            }
            if is_go(&line) && !is_perft(&line) {
                searched.push(with_width!(map &shadow.session, s => s.clone()));
            }
            shadow.apply(&line);
            lines.push(line);
        }
    }
    let (tx, rx) = crossbeam_channel::unbounded();
    for line in &lines {
        tx.send(Line::Text(line.clone())).unwrap();
    }
    drop(tx);
    Uci::new().run(&rx);
    let out = protocol::take_captured();
    check_output(&lines, &out, &mut searched);
}

fn check_output(input: &[String], out: &[String], searched: &mut [Session]) {
    let shown = || format!("input:\n{}\noutput:\n{}", input.join("\n"), out.join("\n"));
    for line in out {
        assert!(is_uci_line(line), "not UCI: '{line}'\n{}", shown());
        // A panic that the protocol caught is answered in UCI's form, and is still a bug.
        assert!(!line.contains("internal error"), "{line}\n{}", shown());
    }
    let bestmoves: Vec<&String> = out.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(
        bestmoves.len(),
        searched.len(),
        "one bestmove per go\n{}",
        shown()
    );
    for (line, session) in bestmoves.iter().zip(searched.iter_mut()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        with_width!(session, s => {
            if words[1] == "(none)" {
                let mut list = MoveList::new();
                s.game.game_moves(&mut s.pos, &mut list);
                assert!(list.is_empty() || s.game.royals_lost(&mut s.pos), "'{line}' with legal moves\n{}", shown());
            } else {
                let turn = s.parse(words[1]).unwrap_or_else(|e| panic!("'{line}': {e}\n{}", shown()));
                if let Some(&"ponder") = words.get(2) {
                    s.play(&turn);
                    s.parse(words[3]).unwrap_or_else(|e| panic!("'{line}': ponder: {e}\n{}", shown()));
                }
            }
        });
    }
}
