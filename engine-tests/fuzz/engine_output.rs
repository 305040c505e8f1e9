//! An engine's output, as the match runner reads it over UCI and CECP: a scripted
//! engine (`Player::scripted`) says structured lines of both protocols with odd values
//! (options, `info` and thinking lines with wild numbers, `bestmove`, `move`, features,
//! result claims, refusals), legal moves of the actual position among them, and edited
//! or garbage lines; the player greets it, sets up a game of a random position and asks
//! for a move, and the move that comes back goes to the referee's reading.
//!
//! Required: no panic; no wait (the script is all said before the player starts, and
//! its end is the engine disconnecting, so no deadline is ever reached); a result claim
//! is one of the three results; the engine's score reads back from its PGN text; and a
//! move the referee accepts is a legal turn of the position.

use crate::common::{Edit, character, edited, first, game, random_game};
use bolero::{TypeGenerator, check};
use kirin::arena::engine::{Clocks, EngineError, History, Player, Reply, Score};
use kirin::arena::options::{EngineConfig, Protocol, TimeControl};
use kirin::arena::referee::read_engine_move;
use kirin::core::Move;
use kirin::protocol::cecp::Ranks;
use kirin::rules::notation::wire_turn;
use kirin::rules::{Game, MoveList, Position};
use kirin::with_width;
use std::time::{Duration, Instant};

#[derive(Debug, TypeGenerator)]
struct EngineCase {
    game: u8,
    start: u8,
    plies: Vec<u8>,
    cecp: bool,
    /// The game is sent as its position's FEN (else as moves from the start).
    from_fen: bool,
    /// The match's limits on the engine, by `config`.
    limit: u8,
    /// An option the match sets (`option.NAME=VALUE`), by `OPTION_NAMES`.
    option: Option<u8>,
    /// A well-formed handshake first, so that most cases get as far as the search.
    prelude: Prelude,
    lines: Vec<ScriptLine>,
    /// A well-formed move last (after the lines, which the search reads first).
    answer: Answer,
}

/// The engine's move in its protocol: `bestmove` (with a ponder move) or `move` (one
/// line a leg, for a move of several legs).
#[derive(Debug, TypeGenerator)]
struct Answer {
    given: bool,
    /// The turn's first action, then more while the side to move is the same.
    first: u16,
    more: Vec<u16>,
    ponder: Vec<u16>,
}

/// The features of a CECP handshake, or a UCI handshake naming the variant. (Zero
/// bytes, which bolero reads as `true`, make the handshake that most cases need.)
#[derive(Debug, TypeGenerator)]
struct Prelude {
    given: bool,
    ping: bool,
    setboard: bool,
    usermove: bool,
    memory: bool,
    /// The game's variant is among those listed (UCI's `UCI_Variant`, CECP's
    /// `variants`).
    lists_variant: bool,
    /// UCI: every option the match may set is listed.
    lists_options: bool,
}

/// One line of the script, perhaps edited.
#[derive(Debug, TypeGenerator)]
struct ScriptLine {
    line: Line,
    /// Edits made: none for most lines, else one or two of `edits`.
    count: u8,
    edits: Vec<Edit>,
}

#[derive(Debug, TypeGenerator)]
enum Line {
    Id {
        author: bool,
        name: Word,
    },
    UciOption {
        name: u8,
        kind: u8,
        default: Number,
        min: Number,
        max: Number,
        vars: Vec<Word>,
    },
    UciOk,
    ReadyOk,
    Info(Vec<InfoField>),
    BestMove {
        turn: Vec<u16>,
        ponder: Option<Vec<u16>>,
    },
    Feature(Vec<Feature>),
    /// CECP's move; `split` sends a move of several legs one leg a line.
    Move {
        turn: Vec<u16>,
        split: bool,
    },
    /// `bestmove` or `move` naming a square of any rank number.
    OddSquare {
        bestmove: bool,
        file: u8,
        rank: Number,
    },
    Resign,
    Claim {
        result: u8,
        comment: Word,
    },
    Pong(Number),
    /// `Illegal move`, `Error (...)`, `tellusererror`, by `kind`.
    Refusal {
        kind: u8,
        turn: Vec<u16>,
    },
    /// CECP thinking output: `depth score time nodes pv`.
    Thinking {
        depth: Number,
        score: Number,
        time: Number,
        nodes: Number,
        pv: Vec<u16>,
    },
    Blank,
    Garbage(Vec<u8>),
}

#[derive(Debug, TypeGenerator)]
enum InfoField {
    Depth(Number),
    SelDepth(Number),
    Score {
        mate: bool,
        value: Number,
        bound: u8,
    },
    Nodes(Number),
    Time(Number),
    MultiPv(Number),
    CurrMove(Vec<u16>),
    Pv(Vec<u16>),
    String(Word),
    Other(Word),
}

#[derive(Debug, TypeGenerator)]
enum Feature {
    Known { name: u8, value: FeatureValue },
    Done(bool),
    Variants { names: Vec<u8>, with_game: bool },
    Other { name: Word, value: Word },
}

#[derive(Debug, TypeGenerator)]
enum FeatureValue {
    On,
    Off,
    Number(Number),
    Quoted(Word),
}

/// A number as an engine may write it: small, any 64-bit one, or an edge case
/// (`EDGE_NUMBERS`).
#[derive(Debug, TypeGenerator)]
enum Number {
    Small(i8),
    Wide(i64),
    Edge(u8),
}

/// A word: one of `WORDS`, or any characters.
#[derive(Debug, TypeGenerator)]
enum Word {
    Known(u8),
    Text(Vec<u8>),
}

const EDGE_NUMBERS: &[&str] = &[
    "2147483647",
    "-2147483648",
    "2147483648",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999",
    "100000",
    "-100000",
    "100001",
    "-99999",
    "-0",
    "+7",
    "1e9",
    "0x10",
    "NaN",
    "3.5",
    "",
];

const WORDS: &[&str] = &[
    "kirin",
    "Ha Chu",
    "",
    "done",
    "1",
    "0",
    "pv",
    "score",
    "cp",
    "mate",
    "bestmove",
    "move",
    "{",
    "}",
    "\"",
    "=",
    "name",
    "type",
    "var",
    "value",
    "lowerbound",
    "upperbound",
    "(none)",
    "0000",
    "@@@@",
    "normal,chu",
];

const OPTION_NAMES: &[&str] = &[
    "Hash",
    "Threads",
    "UCI_Variant",
    "Ponder",
    "MultiPV",
    "Clear Hash",
    "name with spaces",
    "",
];

const OPTION_KINDS: &[&str] = &["spin", "check", "combo", "button", "string", "unknown"];

const FEATURE_NAMES: &[&str] = &[
    "ping",
    "setboard",
    "memory",
    "usermove",
    "variants",
    "done",
    "san",
    "myname",
    "sigint",
    "sigterm",
    "reuse",
    "analyze",
    "colors",
    "time",
    "draw",
    "playother",
    "smp",
    "egt",
    "option",
    "debug",
    "nps",
    "exclude",
    "setscore",
    "highlight",
];

const VARIANT_NAMES: &[&str] = &["normal", "chu", "shogi", "courier", "xiangqi", "", "chess"];

/// The longest line of a script: long enough for the longest legal move and most
/// garbage, short enough to keep a case fast.
const LINE_LIMIT: usize = 512;

/// How long the player may wait for anything: never reached, as the script is all
/// there, so a wait that reaches it is a failure (`EngineError::Stalled`), found at
/// once rather than by the fuzzer's time-out.
const WAIT: Duration = Duration::from_millis(200);

#[test]
fn engine_output() {
    check!()
        .with_type::<EngineCase>()
        .with_iterations(300)
        .for_each(|case| {
            with_width!(game(case.game), g => one_engine(g, case));
        });
}

/// Where the engine is asked to move, and how its moves are written on the wire.
struct Scene<'a, const W: usize> {
    g: &'a Game<W>,
    pos: Position<W>,
    /// UCI or CECP: the target does not script USI engines (USI is UCI's code path with
    /// other words; the matches of `Protocol` take it as UCI only to stay exhaustive).
    protocol: Protocol,
}

fn one_engine<const W: usize>(g: &Game<W>, case: &EngineCase) {
    let (pos, played) = random_game(g, case.start, &case.plies);
    let protocol = if case.cecp {
        Protocol::Cecp
    } else {
        Protocol::Uci
    };
    let mut scene = Scene { g, pos, protocol };
    let script = script(&scene, case);
    let cfg = config(case);
    let (fen, moves) = if case.from_fen {
        (Some(scene.fen()), Vec::new())
    } else {
        (None, played.iter().map(|&m| scene.wire(&[m])).collect())
    };
    let history = History {
        fen: fen.as_deref(),
        moves: &moves,
        white_to_move: scene.pos.side == kirin::core::WHITE,
    };
    let clocks = cfg.tc.map(|tc| Clocks {
        own: tc.base,
        opponent: tc.base / 2,
        moves_to_go: (tc.moves > 0).then_some(tc.moves),
    });
    let outcome = Player::scripted(&cfg, script).and_then(|mut player| {
        player.new_game(&g.spec.name, history.fen, &[], scene.pos.side)?;
        let reply = player.think(&history, clocks, Instant::now() + WAIT);
        let thought = player.thought;
        player.finish(Some(("1/2-1/2", "fuzzing")));
        if let Some(score) = thought.score {
            score_reads_back(score);
        }
        reply
    });
    match outcome {
        Err(EngineError::Stalled { waiting }) => {
            panic!("the player waited for '{waiting}' from an engine that had said everything")
        }
        Err(_) | Ok(Reply::Resign) => {}
        Ok(Reply::Claim { result, .. }) => assert!(
            matches!(result.as_str(), "1-0" | "0-1" | "1/2-1/2"),
            "the claim '{result}' is no result"
        ),
        Ok(Reply::Move(text)) => refereed(&mut scene, &text),
    }
}

/// The referee reads the engine's move: refused, or a legal turn, with the position
/// left as it was.
fn refereed<const W: usize>(scene: &mut Scene<W>, text: &str) {
    let before = scene.pos.clone();
    let read = read_engine_move(scene.g, &mut scene.pos, scene.protocol, text);
    assert!(scene.pos == before, "reading '{text}' changed the position");
    if let Ok(turn) = read {
        assert!(!turn.is_empty(), "'{text}' read as an empty turn");
        assert!(
            scene.g.is_legal_turn(&scene.pos, &turn),
            "{}: '{text}' read as {}, not a legal turn",
            scene.g.spec.name,
            scene.g.turn_text(&turn)
        );
    }
}

/// The score as the PGN writes it (`+1.05`, `-M3`) says the score the engine gave, and
/// a mate counts for the side it favours.
fn score_reads_back(score: Score) {
    let text = score.pgn();
    match score {
        Score::Centipawns(cp) => {
            let (units, hundredths) = text[1..]
                .split_once('.')
                .unwrap_or_else(|| panic!("{score:?} written '{text}'"));
            let magnitude: i64 =
                units.parse::<i64>().unwrap_or(-1) * 100 + hundredths.parse::<i64>().unwrap_or(-1);
            let sign = if text.starts_with('-') { -1 } else { 1 };
            assert_eq!(
                sign * magnitude,
                i64::from(cp),
                "{score:?} written '{text}'"
            );
        }
        Score::Mate(n) => {
            assert_eq!(text[2..], n.unsigned_abs().to_string(), "{score:?}");
            let cp = score.centipawns();
            assert!(
                (n >= 0) == (cp > 0),
                "{score:?} counts as {cp} centipawns for the adjudication"
            );
        }
    }
}

/// The match's settings for the engine: the protocol, one of a few limits, perhaps an
/// option, and short waits.
fn config(case: &EngineCase) -> EngineConfig {
    let tc = |text: &str| TimeControl::parse(text).expect("a time control");
    let (tc, movetime, depth, nodes) = match case.limit % 5 {
        0 => (tc("40/60+0.5"), None, None, None),
        1 => (tc("0:07.5+0.05"), None, None, None),
        2 => (None, Some(Duration::from_millis(1500)), None, None),
        3 => (None, None, Some(7), None),
        _ => (None, None, None, Some(50_000)),
    };
    EngineConfig {
        name: Some("scripted".into()),
        command: vec!["scripted".into()],
        args: Vec::new(),
        dir: None,
        protocol: if case.cecp {
            Protocol::Cecp
        } else {
            Protocol::Uci
        },
        options: case
            .option
            .map(|o| {
                let name = OPTION_NAMES[o as usize % OPTION_NAMES.len()];
                (
                    name.to_string(),
                    if o % 2 == 0 { "true" } else { "64" }.into(),
                )
            })
            .into_iter()
            .collect(),
        tc,
        movetime,
        depth,
        nodes,
        time_margin: Duration::ZERO,
        variant: None,
        start: None,
        init: Vec::new(),
        stderr: None,
        timeout: WAIT,
        cycles: Vec::new(),
        restart: true,
    }
}

/// The engine's whole output: the prelude's handshake, then the case's lines.
fn script<const W: usize>(scene: &Scene<W>, case: &EngineCase) -> Vec<String> {
    let mut out = if case.prelude.given {
        prelude(scene, &case.prelude)
    } else {
        Vec::new()
    };
    for l in &case.lines {
        for text in render(scene, &l.line) {
            out.push(edited(
                &text,
                first(&l.edits, (l.count % 8).saturating_sub(5)),
                LINE_LIMIT,
            ));
        }
    }
    let answer = &case.answer;
    if answer.given {
        let turn: Vec<u16> = std::iter::once(answer.first)
            .chain(answer.more.iter().copied())
            .collect();
        let line = match scene.protocol {
            Protocol::Uci | Protocol::Usi => Line::BestMove {
                turn,
                ponder: Some(answer.ponder.clone()),
            },
            Protocol::Cecp => Line::Move { turn, split: true },
        };
        out.extend(render(scene, &line));
    }
    out
}

/// A well-formed handshake, with the answer to the first `isready` or `ping`.
fn prelude<const W: usize>(scene: &Scene<W>, p: &Prelude) -> Vec<String> {
    let variant = if p.lists_variant {
        scene.g.spec.name.as_str()
    } else {
        "other"
    };
    match scene.protocol {
        Protocol::Uci | Protocol::Usi => {
            let mut lines = vec![
                "id name scripted".into(),
                format!(
                    "option name UCI_Variant type combo default {variant} var {variant} var chess"
                ),
            ];
            if p.lists_options {
                lines.extend(
                    OPTION_NAMES
                        .iter()
                        .map(|name| format!("option name {name} type spin default 1 min 1 max 64")),
                );
            }
            lines.push("uciok".into());
            lines.push("readyok".into());
            lines
        }
        Protocol::Cecp => {
            let on = |b: bool| u8::from(b);
            let mut lines = vec![format!(
                "feature ping={} setboard={} usermove={} memory={} variants=\"normal,{variant}\" myname=\"scripted\" done=1",
                on(p.ping),
                on(p.setboard),
                on(p.usermove),
                on(p.memory)
            )];
            if p.ping {
                lines.push("pong 1".into());
            }
            lines
        }
    }
}

/// The text lines one generated line stands for (a split move is several).
fn render<const W: usize>(scene: &Scene<W>, line: &Line) -> Vec<String> {
    let one = match line {
        Line::Id { author, name } => {
            format!(
                "id {} {}",
                if *author { "author" } else { "name" },
                word(name)
            )
        }
        Line::UciOption {
            name,
            kind,
            default,
            min,
            max,
            vars,
        } => {
            let mut text = format!(
                "option name {} type {} default {} min {} max {}",
                OPTION_NAMES[*name as usize % OPTION_NAMES.len()],
                OPTION_KINDS[*kind as usize % OPTION_KINDS.len()],
                number(default),
                number(min),
                number(max)
            );
            for v in vars.iter().take(8) {
                text += " var ";
                text += &word(v);
            }
            text
        }
        Line::UciOk => "uciok".into(),
        Line::ReadyOk => "readyok".into(),
        Line::Info(fields) => {
            let parts: Vec<String> = fields
                .iter()
                .take(12)
                .map(|f| info_field(scene, f))
                .collect();
            format!("info {}", parts.join(" "))
        }
        Line::BestMove { turn, ponder } => {
            let mut text = format!("bestmove {}", scene.turn(turn));
            if let Some(p) = ponder {
                text += " ponder ";
                text += &scene.turn(p);
            }
            text
        }
        Line::Feature(features) => {
            let parts: Vec<String> = features
                .iter()
                .take(8)
                .map(|f| feature(f, &scene.g.spec.name))
                .collect();
            format!("feature {}", parts.join(" "))
        }
        Line::Move { turn, split } => {
            let text = scene.turn(turn);
            return match text.split_once(',') {
                Some(_) if *split => legs(&text),
                _ => vec![format!("move {text}")],
            };
        }
        Line::OddSquare {
            bestmove,
            file,
            rank,
        } => {
            let file = char::from(b'a' + file % 26);
            let command = if *bestmove { "bestmove" } else { "move" };
            format!("{command} {file}{}{file}1", number(rank))
        }
        Line::Resign => "resign".into(),
        Line::Claim { result, comment } => format!(
            "{} {{{}}}",
            ["1-0", "0-1", "1/2-1/2", "*", "1-1"][*result as usize % 5],
            word(comment)
        ),
        Line::Pong(n) => format!("pong {}", number(n)),
        Line::Refusal { kind, turn } => {
            let m = scene.turn(turn);
            match kind % 4 {
                0 => format!("Illegal move: {m}"),
                1 => format!("Illegal move (not your turn): {m}"),
                2 => format!("Error (unknown command): {m}"),
                _ => format!("tellusererror cannot play {m}"),
            }
        }
        Line::Thinking {
            depth,
            score,
            time,
            nodes,
            pv,
        } => format!(
            "{} {} {} {} {}",
            number(depth),
            number(score),
            number(time),
            number(nodes),
            scene.turn(pv)
        ),
        Line::Blank => String::new(),
        Line::Garbage(bytes) => bytes
            .iter()
            .take(LINE_LIMIT)
            .map(|&b| character(b))
            .collect(),
    };
    vec![one]
}

/// A move of several legs as CECP engines send it: one `move` line a leg, each but the
/// last ending in a comma.
fn legs(text: &str) -> Vec<String> {
    let parts: Vec<&str> = text.split(',').collect();
    parts
        .iter()
        .enumerate()
        .map(|(i, leg)| {
            let comma = if i + 1 < parts.len() { "," } else { "" };
            format!("move {leg}{comma}")
        })
        .collect()
}

fn info_field<const W: usize>(scene: &Scene<W>, field: &InfoField) -> String {
    match field {
        InfoField::Depth(n) => format!("depth {}", number(n)),
        InfoField::SelDepth(n) => format!("seldepth {}", number(n)),
        InfoField::Score { mate, value, bound } => {
            let bound = ["", " lowerbound", " upperbound"][*bound as usize % 3];
            let unit = if *mate { "mate" } else { "cp" };
            format!("score {unit} {}{bound}", number(value))
        }
        InfoField::Nodes(n) => format!("nodes {}", number(n)),
        InfoField::Time(n) => format!("time {}", number(n)),
        InfoField::MultiPv(n) => format!("multipv {}", number(n)),
        InfoField::CurrMove(t) => format!("currmove {}", scene.turn(t)),
        InfoField::Pv(t) => format!("pv {}", scene.turn(t)),
        InfoField::String(w) => format!("string {}", word(w)),
        InfoField::Other(w) => word(w),
    }
}

fn feature(f: &Feature, variant: &str) -> String {
    match f {
        Feature::Known { name, value } => {
            let value = match value {
                FeatureValue::On => "1".to_string(),
                FeatureValue::Off => "0".to_string(),
                FeatureValue::Number(n) => number(n),
                FeatureValue::Quoted(w) => format!("\"{}\"", word(w)),
            };
            format!(
                "{}={value}",
                FEATURE_NAMES[*name as usize % FEATURE_NAMES.len()]
            )
        }
        Feature::Done(on) => format!("done={}", u8::from(*on)),
        Feature::Variants { names, with_game } => {
            let mut list: Vec<&str> = names
                .iter()
                .take(6)
                .map(|&n| VARIANT_NAMES[n as usize % VARIANT_NAMES.len()])
                .collect();
            if *with_game {
                list.push(variant);
            }
            format!("variants=\"{}\"", list.join(","))
        }
        Feature::Other { name, value } => format!("{}={}", word(name), word(value)),
    }
}

fn number(n: &Number) -> String {
    match n {
        Number::Small(v) => v.to_string(),
        Number::Wide(v) => v.to_string(),
        Number::Edge(i) => EDGE_NUMBERS[*i as usize % EDGE_NUMBERS.len()].to_string(),
    }
}

fn word(w: &Word) -> String {
    match w {
        Word::Known(i) => WORDS[*i as usize % WORDS.len()].to_string(),
        Word::Text(bytes) => bytes.iter().take(64).map(|&b| character(b)).collect(),
    }
}

impl<const W: usize> Scene<'_, W> {
    /// A turn of legal actions of the position, each byte of `picks` choosing one while
    /// the side to move is the same, in the engine's text; no picks: a null move's text.
    fn turn(&self, picks: &[u16]) -> String {
        let mut pos = self.pos.clone();
        let side = pos.side;
        let mut turn: Vec<Move> = Vec::new();
        let mut list = MoveList::new();
        for &pick in picks.iter().take(4) {
            if pos.side != side {
                break;
            }
            self.g.legal_moves(&mut pos, &mut list);
            let Some(&m) = list.get(pick as usize % list.len().max(1)) else {
                break;
            };
            pos.make(self.g, m);
            turn.push(m);
        }
        if turn.is_empty() {
            return match self.protocol {
                Protocol::Uci | Protocol::Usi => "0000".into(),
                Protocol::Cecp => "@@@@".into(),
            };
        }
        self.wire(&turn)
    }

    /// A turn as the engine writes it (XBoard's rank numbering for a CECP engine).
    fn wire(&self, turn: &[Move]) -> String {
        match self.protocol {
            Protocol::Uci | Protocol::Usi => wire_turn(self.g, turn, None),
            Protocol::Cecp => {
                Ranks::for_height(self.g.geo.height).to_wire(&wire_turn(self.g, turn, Some("@@@@")))
            }
        }
    }

    /// The position's FEN in the engine's style.
    fn fen(&self) -> String {
        match self.protocol {
            Protocol::Uci | Protocol::Usi => self.pos.to_fen(self.g),
            Protocol::Cecp => self
                .pos
                .to_fen_styled(self.g, kirin::rules::fen::FenStyle::Xboard),
        }
    }
}
