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
//!
//! The `usi` target runs the same streams in USI, UCI's Shogi dialect, as a session
//! opened by `usi` is: `usi`, `usinewgame`, `USI_Variant` among all the built-in games
//! (those SFEN cannot carry must be refused), `position sfen` with USI move text, and
//! `bestmove resign` where the side to move has no move.

use crate::common::{Edit, edited, first, random_game};
use bolero::{TypeGenerator, check};
use kirin::core::Move;
use kirin::protocol::session::{Notation, Session};
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
        .for_each(|commands| run_stream(Dialect::Uci, &commands[..commands.len().min(24)]));
}

#[test]
fn usi() {
    check!()
        .with_type::<Vec<Command>>()
        .with_iterations(60)
        .for_each(|commands| run_stream(Dialect::Usi, &commands[..commands.len().min(24)]));
}

/// UCI, or USI, its Shogi dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dialect {
    Uci,
    Usi,
}

impl Dialect {
    /// A dialect's word: UCI's or USI's.
    fn word(self, uci: &'static str, usi: &'static str) -> &'static str {
        match self {
            Dialect::Uci => uci,
            Dialect::Usi => usi,
        }
    }

    fn notation(self) -> Notation {
        match self {
            Dialect::Uci => Notation::Coordinates,
            Dialect::Usi => Notation::Usi,
        }
    }
}

/// The session kirin is expected to have: its variant and rules, and its game.
struct Shadow {
    dialect: Dialect,
    variant: String,
    rules: Vec<String>,
    session: Session,
}

impl Shadow {
    /// The session a dialect starts with: chess in UCI, Chu in USI.
    fn new(dialect: Dialect) -> Shadow {
        let variant = dialect.word("chess", "chu");
        let mut session = Session::new(variants::find(variant).unwrap()).unwrap();
        with_width!(&mut session, s => s.notation = dialect.notation());
        Shadow {
            dialect,
            variant: variant.into(),
            rules: Vec::new(),
            session,
        }
    }

    /// As kirin's `switch_variant`: all or nothing; in USI, only a game SFEN can carry.
    fn switch(&mut self, name: &str, rules: Vec<String>) {
        let spec = variants::find_with_rules(&[], name, &rules, "");
        let Ok(mut session) = spec.and_then(|spec| Session::new(&spec)) else {
            return;
        };
        let notation = self.dialect.notation();
        let fits = with_width!(&mut session, s => {
            s.notation = notation;
            notation == Notation::Coordinates || s.game.sfen_support().is_ok()
        });
        if fits {
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
                    "uci_variant" | "usi_variant" => self.switch(value, self.rules.clone()),
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
                let setup_word = self.dialect.word("fen", "sfen");
                let fen = match setup {
                    ["startpos"] => None,
                    [word, fen @ ..] if *word == setup_word && !fen.is_empty() => {
                        Some(fen.join(" "))
                    }
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
            Command::Uci => self.dialect.word("uci", "usi").into(),
            Command::IsReady => "isready".into(),
            Command::NewGame => self.dialect.word("ucinewgame", "usinewgame").into(),
            Command::Stop => "stop".into(),
            Command::PonderHit => "ponderhit".into(),
            Command::Variant(n) => {
                let all = variants::builtin();
                format!(
                    "setoption name {} value {}",
                    self.dialect.word("UCI_Variant", "USI_Variant"),
                    all[*n as usize % all.len()].name
                )
            }
            Command::Rules(n) => format!(
                "setoption name VariantRules value {}",
                RULES[*n as usize % RULES.len()]
            ),
            Command::Hash(mb) => format!(
                "setoption name {} value {}",
                self.dialect.word("Hash", "USI_Hash"),
                mb % 33
            ),
            Command::Threads(n) => format!("setoption name Threads value {}", n % 4),
            Command::MultiPv(n) => format!(
                "setoption name {} value {}",
                self.dialect.word("MultiPV", "USI_MultiPV"),
                n % 5
            ),
            Command::Position {
                fen,
                start,
                plies,
                moves,
            } => {
                let dialect = self.dialect;
                with_width!(&self.session, s => position_line(&s.game, dialect, *fen, *start, plies, moves))
            }
            Command::Go(go) => {
                let dialect = self.dialect;
                with_width!(&mut self.session, s => go_line(&s.game, dialect, &mut s.pos.clone(), go))
            }
            Command::Edited(inner, edits) => edited(&self.render(inner), first(edits, 3), 4096),
        }
    }
}

/// A move as the dialect writes it (a game over USI has one action a turn).
fn move_text<const W: usize>(g: &Game<W>, dialect: Dialect, m: Move) -> String {
    match dialect {
        Dialect::Uci => wire_turn(g, &[m], None),
        Dialect::Usi => g.usi_move_text(m),
    }
}

/// `position startpos|fen ... moves ...` (USI: `sfen`): a random game's FEN (or the
/// start), and legal moves from there.
fn position_line<const W: usize>(
    g: &Game<W>,
    dialect: Dialect,
    fen: bool,
    start: u8,
    plies: &[u8],
    moves: &[u8],
) -> String {
    let (mut pos, played) = random_game(g, start, plies);
    let mut line = String::from("position ");
    let from = if fen {
        let (origin, _) = random_game(g, start, &[]);
        line += &match dialect {
            Dialect::Uci => format!("fen {}", origin.to_fen(g)),
            // A USI session only ever holds a game SFEN carries.
            Dialect::Usi => format!("sfen {}", g.sfen(&origin)),
        };
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
        texts = played.iter().map(|&m| move_text(g, dialect, m)).collect();
    } else {
        pos = from;
    }
    for &choice in moves.iter().take(8) {
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        let Some(&m) = list.get(choice as usize % list.len().max(1)) else {
            break;
        };
        texts.push(move_text(g, dialect, m));
        pos.make(g, m);
    }
    if !texts.is_empty() {
        line += " moves ";
        line += &texts.join(" ");
    }
    line
}

fn go_line<const W: usize>(
    g: &Game<W>,
    dialect: Dialect,
    pos: &mut kirin::rules::Position<W>,
    go: &Go,
) -> String {
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
            .map(|&m| move_text(g, dialect, m))
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
        "checkmate ",
        "Nodes searched: ",
    ];
    if line.is_empty()
        || line == "uciok"
        || line == "usiok"
        || line == "readyok"
        || STARTS.iter().any(|s| line.starts_with(s))
    {
        return true;
    }
    // perft: `move: count`.
    line.rsplit_once(": ")
        .is_some_and(|(m, n)| !m.contains(' ') && n.parse::<u64>().is_ok())
}

/// A line of `d`'s diagram (`rules::diagram::board_text`): a rank (its number, then a
/// cell per file), the file letters, the side to move with the FEN, a reserve or the
/// pieces carried.
fn is_diagram_line(line: &str) -> bool {
    let rank = line
        .trim_start()
        .split_once(' ')
        .is_some_and(|(n, _)| n.parse::<u32>().is_ok());
    let files = line.starts_with("    ")
        && line
            .split_whitespace()
            .all(|f| f.len() == 1 && f.chars().all(|c| c.is_ascii_lowercase()));
    rank || files
        || line.contains(" to move")
        || line.starts_with("In hand, ")
        || line.starts_with("Carried")
}

fn run_stream(dialect: Dialect, commands: &[Command]) {
    let _one = SESSION.lock().unwrap_or_else(|e| e.into_inner());
    protocol::capture();
    protocol::take_captured();
    let mut shadow = Shadow::new(dialect);
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
    match dialect {
        Dialect::Uci => Uci::new(),
        Dialect::Usi => Uci::usi(Vec::new()),
    }
    .run(&rx);
    let out = protocol::take_captured();
    check_output(dialect, &lines, &out, &mut searched);
}

fn check_output(dialect: Dialect, input: &[String], out: &[String], searched: &mut [Session]) {
    let no_move = dialect.word("(none)", "resign");
    let shown = || format!("input:\n{}\noutput:\n{}", input.join("\n"), out.join("\n"));
    // `d` (kirin's board display, as Stockfish's) prints a diagram, for a human.
    let displays = input
        .iter()
        .any(|l| l.split_whitespace().next() == Some("d"));
    for line in out {
        assert!(
            is_uci_line(line) || (displays && is_diagram_line(line)),
            "not UCI: '{line}'\n{}",
            shown()
        );
        // A panic that the protocol caught is answered in UCI's form, and is still a bug.
        assert!(!line.contains("internal error"), "{line}\n{}", shown());
    }
    // USI's `go mate` is answered `checkmate ...`, every other `go` `bestmove ...`.
    let answers: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("bestmove ") || l.starts_with("checkmate "))
        .collect();
    assert_eq!(
        answers.len(),
        searched.len(),
        "one bestmove (or checkmate) per go\n{}",
        shown()
    );
    for (line, session) in answers.iter().zip(searched.iter_mut()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words[0] == "checkmate" {
            assert_eq!(dialect, Dialect::Usi, "{line}\n{}", shown());
            check_checkmate(line, &words[1..], session, &shown);
            continue;
        }
        with_width!(session, s => {
            if words[1] == no_move {
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

/// USI's answer to `go mate`: `timeout`, `nomate` only where the side to move has no
/// move, or a line of legal moves that ends in a position whose side to move has lost.
fn check_checkmate(line: &str, words: &[&str], session: &mut Session, shown: &dyn Fn() -> String) {
    with_width!(session, s => {
        let mut list = MoveList::new();
        match words {
            ["timeout"] => {}
            ["nomate"] => {
                s.game.game_moves(&mut s.pos, &mut list);
                assert!(list.is_empty() || s.game.royals_lost(&mut s.pos), "'{line}' with legal moves\n{}", shown());
            }
            moves => {
                for m in moves {
                    let turn = s.parse(m).unwrap_or_else(|e| panic!("'{line}': {e}\n{}", shown()));
                    s.play(&turn);
                }
                s.game.game_moves(&mut s.pos, &mut list);
                assert!(
                    list.is_empty() || s.game.royals_lost(&mut s.pos),
                    "'{line}' does not end the game\n{}",
                    shown()
                );
            }
        }
    });
}
