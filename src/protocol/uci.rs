//! UCI, as Fairy-Stockfish speaks it for variants: `UCI_Variant` lists every variant,
//! `startpos` is each variant's default start (Courier's historical one), ranks are
//! written 1..17, multi-leg moves in the comma form. Errors become `info string` lines;
//! the engine never stops reading.
//!
//! The same session speaks USI, the Shogi programs' dialect of UCI, after `usi`: its
//! positions are SFEN and its moves USI text (`rules::sfen`), its options `USI_Variant`,
//! `USI_Hash`, `USI_Ponder` and `USI_MultiPV` (as Fairy-Stockfish names them), `btime` is
//! the clock of the first player (sente, kirin's White) and `byoyomi` the time each move
//! may take once it has run out, mate scores count plies, and a game with no move left is
//! answered `bestmove resign`. Only games whose positions SFEN can carry are offered.

use super::session::{Notation, Session};
use super::{Input, Line, MAX_LINE, say};
use crate::core::Move;
use crate::fault::{self, Fault};
use crate::rules::MoveList;
use crate::rules::spec::{VariantSpec, Verdict};
use crate::search::limits::{Limits, MAX_CONTEMPT};
use crate::search::memory::Memory;
use crate::search::score_text;
use crate::search::tt::{DEFAULT_MB, MAX_MB, Table};
use crate::search::{MAX_THREADS, SearchResult};
use crate::variants;
use crate::with_width;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;
use thiserror::Error;

/// The deepest `go perft` (it can be stopped at any depth; this keeps a typo from
/// asking for a count that never ends).
const MAX_PERFT: u64 = 12;
/// The longest mate `go mate` asks for, in moves.
const MAX_MATE_MOVES: u16 = 1000;
/// How long a `go` searches whose limits were all unusable.
const FALLBACK_MS: u64 = 100;
/// The words of `go`.
const GO_WORDS: &[&str] = &[
    "byoyomi",
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];
/// The words of `go` that give a clock: a `go` with them means a timed search.
const CLOCK_WORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "byoyomi",
];

/// The two dialects a session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    /// USI, for Shogi GUIs (see the module's comment).
    Usi,
}

impl Dialect {
    /// The prefix of the standard options' names (`UCI_Variant`, `USI_Hash`).
    fn prefix(self) -> &'static str {
        match self {
            Dialect::Uci => "UCI",
            Dialect::Usi => "USI",
        }
    }

    fn notation(self) -> Notation {
        match self {
            Dialect::Uci => Notation::Coordinates,
            Dialect::Usi => Notation::Usi,
        }
    }
}

/// A token of `go` that is left out (the search runs without it).
#[derive(Debug, Error)]
enum GoError {
    #[error("'{0}' needs a number")]
    NoNumber(String),
    #[error("'{word} {value}' is not a whole number of 0 or more")]
    NotANumber { word: String, value: String },
    #[error("'mate 0' asks for no mate")]
    MateZero,
    #[error("unexpected '{0}'")]
    Unexpected(String),
}

pub struct Uci {
    dialect: Dialect,
    session: Session,
    /// A user's variants (`--variants-file`), besides the built-in ones.
    extra: Vec<VariantSpec>,
    /// The names of the variants the dialect offers (USI: those SFEN can carry), found
    /// once: a game is compiled to know whether SFEN fits it.
    offered: Vec<String>,
    variant: String,
    /// The `VariantRules` option: `KEY=VALUE` choices (as `--rule`) applied to the variant.
    rules: Vec<String>,
    threads: usize,
    multipv: usize,
    /// The `Contempt` option (`Limits::contempt`), centipawns.
    contempt: i32,
    tt: Arc<Table>,
    /// The searches' move-ordering statistics, kept from move to move of a game.
    memory: Arc<Memory>,
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
    /// Set by `stop` (and whatever else ends a search): lets the `bestmove` of an
    /// infinite or ponder search out.
    released: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
}

impl Default for Uci {
    fn default() -> Self {
        Self::new()
    }
}

impl Uci {
    pub fn new() -> Uci {
        Self::with_variants(Vec::new())
    }

    /// A session that knows `extra` besides the built-in variants.
    pub fn with_variants(extra: Vec<VariantSpec>) -> Uci {
        Self::speaking(Dialect::Uci, extra)
    }

    /// A USI session (Chu Shogi until told otherwise) that knows `extra` besides the
    /// built-in variants.
    pub fn usi(extra: Vec<VariantSpec>) -> Uci {
        Self::speaking(Dialect::Usi, extra)
    }

    fn speaking(dialect: Dialect, extra: Vec<VariantSpec>) -> Uci {
        let variant = match dialect {
            Dialect::Uci => "chess",
            Dialect::Usi => "chu",
        }
        .to_string();
        let spec = variants::find(&variant).expect("the default variants are built in");
        let mut session = Session::new(spec).expect("built-in variants compile");
        with_width!(&mut session, s => s.notation = dialect.notation());
        let offered = match dialect {
            Dialect::Uci => variants::builtin()
                .iter()
                .chain(&extra)
                .map(|v| v.name.clone())
                .collect(),
            Dialect::Usi => builtin_sfen_variants()
                .iter()
                .cloned()
                .chain(
                    extra
                        .iter()
                        .filter(|v| sfen_fits(v))
                        .map(|v| v.name.clone()),
                )
                .collect(),
        };
        Uci {
            dialect,
            session,
            extra,
            offered,
            variant,
            rules: Vec::new(),
            threads: 1,
            multipv: 1,
            contempt: 0,
            tt: Arc::new(Table::new(DEFAULT_MB)),
            memory: Arc::new(Memory::new()),
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(false)),
            released: Arc::new(AtomicBool::new(false)),
            search: None,
        }
    }

    /// Runs until `quit` or the end of input.
    pub fn run(&mut self, input: &Input) {
        self.identify();
        while let Ok(line) = input.recv() {
            match line {
                Line::Text(l) => {
                    if !self.guarded(l.trim()) {
                        break;
                    }
                }
                Line::NotUtf8(l) => say(&format!(
                    "info string error: input is not UTF-8, ignored: '{}'",
                    Line::excerpt(&l)
                )),
                Line::TooLong(n) => say(&format!(
                    "info string error: input line of {n} bytes is longer than {MAX_LINE}, ignored"
                )),
            }
        }
        self.stop_search();
    }

    fn identify(&self) {
        say(&format!("id name kirin {}", env!("CARGO_PKG_VERSION")));
        say("id author the kirin developers");
        let names: Vec<String> = self.offered.iter().map(|v| format!("var {v}")).collect();
        let (p, usi) = (self.dialect.prefix(), self.dialect == Dialect::Usi);
        say(&format!(
            "option name {p}_Variant type combo default {} {}",
            self.variant,
            names.join(" ")
        ));
        say("option name VariantRules type string default <empty>");
        // Fairy-Stockfish's USI names: Hash, Ponder and MultiPV are USI_ options there.
        let standard = |name: &str| {
            if usi {
                format!("USI_{name}")
            } else {
                name.to_string()
            }
        };
        say(&format!(
            "option name {} type spin default {DEFAULT_MB} min 1 max {MAX_MB}",
            standard("Hash")
        ));
        say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        say(&format!(
            "option name {} type spin default 1 min 1 max 64",
            standard("MultiPV")
        ));
        say(&format!(
            "option name {} type check default false",
            standard("Ponder")
        ));
        say(&format!(
            "option name Contempt type spin default 0 min -{MAX_CONTEMPT} max {MAX_CONTEMPT}"
        ));
        say(if usi { "usiok" } else { "uciok" });
    }

    /// `command`, with a panic in it answered `info string error: internal error in
    /// 'COMMAND': ...` and the game put back as it was before the command (variant,
    /// rules, position and moves): a bug in one command costs that command only. The
    /// copy taken first is the position and its moves, a few kilobytes.
    fn guarded(&mut self, line: &str) -> bool {
        let saved = (
            self.session.clone(),
            self.variant.clone(),
            self.rules.clone(),
        );
        match fault::catch(|| self.command(line)) {
            Ok(go_on) => go_on,
            Err(panic) => {
                (self.session, self.variant, self.rules) = saved;
                say(&format!(
                    "info string error: internal error in '{}': {panic}; the game is as it was before it",
                    Line::excerpt(line)
                ));
                true
            }
        }
    }

    /// Handles one command; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match cmd {
            "" => {}
            "uci" | "usi" => self.identify(),
            "isready" => say("readyok"),
            "setoption" => self.set_option(rest),
            "ucinewgame" | "usinewgame" => {
                self.stop_search();
                self.tt.clear();
                self.memory.clear();
            }
            // USI's end of a game: the result needs no answer, a search still running
            // (pondering) ends without one being read.
            "gameover" => self.stop_search(),
            "position" => self.position(rest),
            "go" => self.go(rest),
            // Without a search there is nothing to stop and nothing to answer.
            "stop" => self.stop_search(),
            "ponderhit" => {
                if self.search.is_some() && self.pondering.load(Ordering::Relaxed) {
                    self.pondering.store(false, Ordering::Relaxed);
                } else {
                    say("info string ponderhit: no ponder search is running");
                }
            }
            "quit" => return false,
            "d" => with_width!(&self.session, s => {
                say(&crate::rules::diagram::board_text(&s.game, &s.pos));
                if self.dialect == Dialect::Usi {
                    say(&format!("info string sfen {}", s.game.sfen(&s.pos)));
                }
            }),
            _ => say(&format!(
                "info string unknown command '{}'",
                Line::excerpt(cmd)
            )),
        }
        true
    }

    /// Ends the running search (or perft) and waits for its thread; a search's
    /// `bestmove` is out when this returns.
    fn stop_search(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.released.store(true, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
    }

    /// Plays `name` under `rules` (the `VariantRules` option, `--rule` choices) from its
    /// start position. All or nothing: a variant or a rule that is refused changes
    /// neither. The game in use is kept when it is the one asked for: a GUI or
    /// cutechess-cli sends the variant before every game, and compiling ShoFIDEgi again
    /// took 130-150 ms each time (1.65 s in the fuzz build).
    fn switch_variant(&mut self, name: &str, rules: Vec<String>) {
        let spec = match variants::find_with_rules(&self.extra, name, &rules, "") {
            Ok(spec) => spec,
            Err(e) => return say(&format!("info string error: {e}")),
        };
        let in_use =
            rules == self.rules && with_width!(&self.session, s => s.game.spec.name == spec.name);
        let ready = if in_use {
            with_width!(&mut self.session, s => s.set_position(None)).map_err(|e| e.to_string())
        } else {
            self.compile(&spec).map(|session| self.session = session)
        };
        if let Err(e) = ready {
            return say(&format!("info string error: {e}"));
        }
        self.variant = name.to_string();
        self.rules = rules;
        let (w, h) = with_width!(&self.session, s => (s.game.geo.width, s.game.geo.height));
        let chosen = if self.rules.is_empty() {
            String::new()
        } else {
            format!(" rules {}", self.rules.join(" "))
        };
        let start = with_width!(&self.session, s => match self.dialect {
            Dialect::Uci => s.game.spec.start.clone(),
            Dialect::Usi => s.game.sfen(&s.pos),
        });
        say(&format!(
            "info string variant {name}{chosen} files {w} ranks {h} startpos {start}"
        ));
    }

    /// A session of `spec` at its start, speaking the dialect's notation (an error where
    /// USI's SFEN cannot carry the game).
    fn compile(&self, spec: &VariantSpec) -> Result<Session, String> {
        let notation = self.dialect.notation();
        let mut session = Session::new(spec).map_err(|e| e.to_string())?;
        with_width!(&mut session, s => {
            s.notation = notation;
            if notation == Notation::Coordinates { Ok(()) } else { s.game.sfen_support() }
        })
        .map_err(|e| e.to_string())?;
        Ok(session)
    }

    fn set_option(&mut self, rest: &str) {
        let Some(after_name) = rest.strip_prefix("name ") else {
            say("info string error: setoption needs 'name NAME [value VALUE]'");
            return;
        };
        let (name, value) = match after_name.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            // `value` with nothing after it: an empty string option.
            None => (after_name.trim().trim_end_matches(" value").trim(), ""),
        };
        self.stop_search();
        let name = name.to_ascii_lowercase();
        // `USI_Hash` is `Hash`, `UCI_Variant` is `USI_Variant`: either name in either dialect.
        let bare = name
            .strip_prefix("usi_")
            .filter(|n| ["hash", "ponder", "multipv"].contains(n))
            .unwrap_or(&name);
        match bare {
            "uci_variant" | "usi_variant" => self.switch_variant(value, self.rules.clone()),
            "variantrules" => {
                let rules: Vec<String> = match value {
                    "" | "<empty>" => Vec::new(),
                    v => v.split_whitespace().map(str::to_string).collect(),
                };
                self.switch_variant(&self.variant.clone(), rules);
            }
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_MB).contains(&mb) => {
                    // The old table goes first, so that its memory counts as available.
                    self.tt = Arc::new(Table::new(1));
                    self.tt = Arc::new(Table::new(mb));
                    if self.tt.mb() < mb {
                        say(&format!(
                            "info string Hash: got {} MiB of {mb} asked",
                            self.tt.mb()
                        ));
                    }
                }
                _ => say(&format!(
                    "info string error: Hash must be 1..{MAX_MB}, not '{value}'"
                )),
            },
            "threads" => match value.parse::<usize>() {
                Ok(t) if (1..=MAX_THREADS).contains(&t) => self.threads = t,
                _ => say(&format!(
                    "info string error: Threads must be 1..{MAX_THREADS}, not '{value}'"
                )),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=64).contains(&n) => self.multipv = n,
                _ => say(&format!(
                    "info string error: MultiPV must be 1..64, not '{value}'"
                )),
            },
            "contempt" => match value.parse::<i32>() {
                Ok(c) if c.abs() <= MAX_CONTEMPT => self.contempt = c,
                _ => say(&format!(
                    "info string error: Contempt must be -{MAX_CONTEMPT}..{MAX_CONTEMPT}, not '{value}'"
                )),
            },
            "ponder" => {}
            _ => say(&format!("info string error: unknown option '{name}'")),
        }
    }

    /// `position startpos|fen FEN [moves M...]` (USI: `sfen SFEN` for `fen FEN`): all or
    /// nothing; a rejected line leaves the position and its moves as they were.
    fn position(&mut self, rest: &str) {
        let setup_word = match self.dialect {
            Dialect::Uci => "fen",
            Dialect::Usi => "sfen",
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let (setup, moves) = match words.iter().position(|&w| w == "moves") {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (&words[..], &[][..]),
        };
        let fen = match setup {
            ["startpos"] => None,
            [word, fen @ ..] if *word == setup_word && !fen.is_empty() => Some(fen.join(" ")),
            _ => {
                say(&format!(
                    "info string error: position needs 'startpos' or '{setup_word} {}', then 'moves ...'; position unchanged",
                    setup_word.to_uppercase()
                ));
                return;
            }
        };
        match with_width!(&mut self.session, s => s.set_line(fen.as_deref(), moves)) {
            // A search still running searches its own copy of the old position.
            Ok(()) => {
                fault::inject(Fault::CommandPanic);
                self.stop_search()
            }
            Err(e) => say(&format!("info string error: {e}; position unchanged")),
        }
    }

    /// `go`: every search ends with `bestmove`. A bad or unknown token is answered with
    /// an `info string error` and left out; when that leaves no limit of a `go` that
    /// had one (or clock tokens but no clock for the side to move), the search takes
    /// `FALLBACK_MS`.
    fn go(&mut self, rest: &str) {
        self.stop_search();
        let words: Vec<&str> = rest.split_whitespace().collect();
        let white = with_width!(&self.session, s => s.pos.side == crate::core::WHITE);
        // USI's `b` clock is the first player's (sente, kirin's White).
        let (own_time, own_inc) = match (self.dialect, white) {
            (Dialect::Uci, true) | (Dialect::Usi, false) => ("wtime", "winc"),
            (Dialect::Uci, false) | (Dialect::Usi, true) => ("btime", "binc"),
        };
        let mut byoyomi = None;
        let mut limits = Limits {
            multipv: self.multipv,
            contempt: self.contempt,
            ..Default::default()
        };
        let mut ponder = false;
        // USI's `go mate`: a search for a checkmate, answered `checkmate ...`.
        let mut tsume = false;
        let mut perft = None;
        let mut timed = false;
        let mut searchmoves: Option<Vec<&str>> = None;
        let mut errors: Vec<GoError> = Vec::new();
        let keyword = |w: &&str| GO_WORDS.contains(w);
        let mut i = 0;
        while i < words.len() {
            let word = words[i];
            i += 1;
            match word {
                "infinite" => limits.infinite = true,
                "ponder" => ponder = true,
                // USI's `go mate TIME|infinite` asks for a checkmate within TIME ms
                // (UCI's `go mate N` for a mate in N moves is below).
                "mate" if self.dialect == Dialect::Usi => {
                    let Some(&value) = words.get(i).filter(|w| !keyword(w) || **w == "infinite")
                    else {
                        errors.push(GoError::NoNumber(word.to_string()));
                        continue;
                    };
                    i += 1;
                    match value.parse::<u64>() {
                        _ if value == "infinite" => limits.infinite = true,
                        Ok(ms) => limits.movetime = Some(Duration::from_millis(ms.max(1))),
                        Err(_) => {
                            let (word, value) = (word.to_string(), value.to_string());
                            errors.push(GoError::NotANumber { word, value });
                            continue;
                        }
                    }
                    tsume = true;
                    limits.mate = Some(MAX_MATE_MOVES.into());
                }
                "searchmoves" => {
                    let list = searchmoves.get_or_insert_with(Vec::new);
                    while let Some(&m) = words.get(i).filter(|w| !keyword(w)) {
                        list.push(m);
                        i += 1;
                    }
                }
                _ if keyword(&word) => {
                    timed |= CLOCK_WORDS.contains(&word);
                    let Some(&value) = words.get(i).filter(|w| !keyword(w)) else {
                        errors.push(GoError::NoNumber(word.to_string()));
                        continue;
                    };
                    i += 1;
                    let Ok(n) = value.parse::<u64>() else {
                        let (word, value) = (word.to_string(), value.to_string());
                        errors.push(GoError::NotANumber { word, value });
                        continue;
                    };
                    let ms = Duration::from_millis(n);
                    match word {
                        "perft" => perft = Some(n),
                        "depth" => limits.depth = Some(n.clamp(1, 100) as i32),
                        "nodes" => limits.nodes = Some(n.max(1)),
                        "mate" if n == 0 => errors.push(GoError::MateZero),
                        "mate" => limits.mate = Some(n.min(MAX_MATE_MOVES.into()) as u32),
                        "movetime" => limits.movetime = Some(ms),
                        "byoyomi" => byoyomi = Some(ms),
                        w if w == own_time => limits.time = Some(ms),
                        w if w == own_inc => limits.inc = ms,
                        "movestogo" => limits.movestogo = Some(n.min(1000) as u32),
                        // The other side's clock.
                        _ => {}
                    }
                }
                other => errors.push(GoError::Unexpected(Line::excerpt(other))),
            }
        }
        // As Fairy-Stockfish reads byoyomi: more time on the clock, and as much again
        // after each move (the time manager keeps its margin from the clock's end).
        if let Some(b) = byoyomi.filter(|b| !b.is_zero()) {
            limits.time = Some(limits.time.unwrap_or_default() + b);
            limits.inc = limits.inc.max(b);
        }
        for e in &errors {
            say(&format!("info string error: go: {e}; ignored"));
        }
        if let Some(depth) = perft {
            return self.perft(depth);
        }
        let usable = limits.infinite
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || limits.time.is_some()
            || limits.mate.is_some();
        if !usable && (timed || !errors.is_empty()) {
            limits.movetime = Some(Duration::from_millis(FALLBACK_MS));
            say(&format!(
                "info string go: no usable limit, searching {FALLBACK_MS} ms"
            ));
        }
        if let Some(texts) = searchmoves {
            let (moves, bad) = with_width!(&mut self.session, s => {
                let mut moves = Vec::new();
                let mut bad = Vec::new();
                for t in &texts {
                    // A turn of several actions is searched from its first.
                    match s.parse(t).map(|turn| turn[0]) {
                        Ok(m) if !moves.contains(&m) => moves.push(m),
                        Ok(_) => {}
                        Err(e) => bad.push(e),
                    }
                }
                (moves, bad)
            });
            for e in bad {
                say(&format!("info string error: go searchmoves: {e}; ignored"));
            }
            if moves.is_empty() {
                say("info string error: go searchmoves: no legal move listed; searching all moves");
            }
            limits.searchmoves = moves;
        }

        self.stop.store(false, Ordering::Relaxed);
        self.released.store(false, Ordering::Relaxed);
        if ponder {
            self.pondering.store(true, Ordering::Relaxed);
            limits.pondering = Some(self.pondering.clone());
        }
        // A checkmate search answers as soon as it has an answer, even an infinite one.
        let infinite = limits.infinite && !tsume;
        let (pondering, released) = (self.pondering.clone(), self.released.clone());

        // The game is over: say so, and answer `bestmove (none)` when UCI allows.
        let over = with_width!(&mut self.session, s => {
            let mut list = MoveList::new();
            s.game.game_moves(&mut s.pos, &mut list);
            if list.is_empty() || s.game.royals_lost(&mut s.pos) {
                s.game.outcome(&mut s.pos)
            } else {
                None
            }
        });
        let (usi, notation) = (self.dialect == Dialect::Usi, self.dialect.notation());
        // USI has no `(none)`: a side without a move resigns (as Fairy-Stockfish does);
        // a checkmate search of a game already over finds no mate.
        let no_move = match (usi, tsume) {
            (_, true) => "checkmate nomate",
            (true, false) => "bestmove resign",
            (false, false) => "bestmove (none)",
        };
        if let Some(o) = over {
            // As Fairy-Stockfish: `mate 0` for a game over by a decisive result.
            let (score, verdict) = match o.verdict {
                Verdict::Draw => ("cp 0", "a draw"),
                Verdict::Loss => ("mate 0", "lost by the side to move"),
                Verdict::Win => ("mate 0", "won by the side to move"),
            };
            say(&format!("info depth 0 score {score}"));
            say(&format!("info string game over: {}, {verdict}", o.reason));
            self.search = Some(std::thread::spawn(move || {
                hold_bestmove(infinite, &pondering, &released);
                say(no_move);
            }));
            return;
        }

        let handle = with_width!(&self.session, s => s.spawn_search_with_progress(
            limits,
            self.threads,
            self.tt.clone(),
            self.memory.clone(),
            self.stop.clone(),
            Box::new(move |game, i| {
                // Only completed iterations arrive; a line without a move says nothing.
                if i.pv.is_empty() {
                    return;
                }
                let secs = i.time.as_secs_f64().max(1e-3);
                let pv: Vec<String> = i.turns.iter().map(|t| notation.turn_text(game, t, None)).collect();
                let score = if usi { usi_score_text(i.score) } else { score_text(i.score) };
                say(&format!(
                    "info depth {} seldepth {} multipv {} score {} nodes {} nps {:.0} hashfull {} time {} pv {}",
                    i.depth, i.seldepth, i.multipv, score, i.nodes,
                    i.nodes as f64 / secs, i.hashfull, i.time.as_millis(), pv.join(" ")
                ));
            }),
            // A long iteration shows it is alive, as Stockfish's `currmove` lines do.
            Box::new(move |game, p| {
                let secs = p.time.as_secs_f64().max(1e-3);
                say(&format!(
                    "info depth {} currmove {} currmovenumber {} nodes {} nps {:.0} time {}",
                    p.depth, notation.move_text(game, p.currmove), p.number, p.nodes,
                    p.nodes as f64 / secs, p.time.as_millis()
                ));
            }),
            Box::new(move |game, r| {
                let wire = |t: &[Move]| notation.turn_text(game, t, None);
                // Said at once, even while `bestmove` must wait for `stop`.
                if let Some(fault) = &r.fault {
                    say(&format!("info string error: {fault}"));
                }
                hold_bestmove(infinite, &pondering, &released);
                if tsume {
                    return say(&checkmate_answer(&r, |m| notation.move_text(game, m)));
                }
                match (r.best, &r.ponder_turn) {
                    (Some(_), Some(p)) => {
                        say(&format!("bestmove {} ponder {}", wire(&r.turn), wire(p)))
                    }
                    (Some(_), None) => say(&format!("bestmove {}", wire(&r.turn))),
                    (None, _) => say(no_move),
                }
            }),
        ));
        self.search = Some(handle);
    }

    /// `go perft N` on its own thread: `stop` ends it (without a total), `isready` is
    /// answered meanwhile.
    fn perft(&mut self, depth: u64) {
        let depth = if depth > MAX_PERFT {
            say(&format!(
                "info string error: go perft: depth {depth} capped at {MAX_PERFT}"
            ));
            MAX_PERFT
        } else {
            depth
        } as u32;
        self.stop.store(false, Ordering::Relaxed);
        let (stop, threads) = (self.stop.clone(), self.threads);
        let handle = with_width!(&self.session, s => {
            let state = s.clone();
            std::thread::spawn(move || {
                let divided = fault::catch(|| state.game.divide_until(&state.pos, depth, true, threads, &stop));
                match divided {
                    Ok(Some(counts)) => {
                        for (m, n) in &counts {
                            say(&format!("{}: {n}", state.wire(&[*m], None)));
                        }
                        let total: u64 = if depth == 0 { 1 } else { counts.iter().map(|c| c.1).sum() };
                        say(&format!("\nNodes searched: {total}\n"));
                    }
                    Ok(None) => say("info string perft stopped"),
                    Err(panic) => say(&format!("info string error: internal error in perft: {panic}")),
                }
            })
        });
        self.search = Some(handle);
    }
}

/// The answer to USI's `go mate`: the mating line found, `nomate` where the side to move
/// has no move at all, or `timeout` where the search ended without a mate (it proves no
/// absence of one).
fn checkmate_answer(r: &SearchResult, text: impl Fn(Move) -> String) -> String {
    match r.best {
        None => "checkmate nomate".into(),
        Some(_) if r.score >= crate::search::MATE_BOUND && !r.pv.is_empty() => {
            let line: Vec<String> = r.pv.iter().map(|&m| text(m)).collect();
            format!("checkmate {}", line.join(" "))
        }
        Some(_) => "checkmate timeout".into(),
    }
}

/// A score as USI gives it: centipawns, or mate in plies (negative when mated).
fn usi_score_text(score: i32) -> String {
    if score.abs() >= crate::search::MATE_BOUND {
        let plies = crate::search::MATE - score.abs();
        format!("mate {}", if score > 0 { plies } else { -plies })
    } else {
        format!("cp {score}")
    }
}

/// The built-in variants SFEN can carry, found once per process.
fn builtin_sfen_variants() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        variants::builtin()
            .iter()
            .filter(|v| sfen_fits(v))
            .map(|v| v.name.clone())
            .collect()
    })
}

/// Whether SFEN can carry every position of `spec` (USI offers only those games).
fn sfen_fits(spec: &VariantSpec) -> bool {
    crate::variants::AnyGame::new(spec)
        .is_ok_and(|g| with_width!(&g, g => g.sfen_support().is_ok()))
}

/// UCI forbids `bestmove` during an infinite or ponder search before `stop` (or
/// `ponderhit`), even when the search has ended by itself (a depth or node limit, a
/// mate): waits until it is allowed.
fn hold_bestmove(infinite: bool, pondering: &AtomicBool, released: &AtomicBool) {
    while (infinite || pondering.load(Ordering::Relaxed)) && !released.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the session's compiled game lives: the same address is the same game.
    fn game_address(uci: &Uci) -> usize {
        with_width!(&uci.session, s => Arc::as_ptr(&s.game) as *const () as usize)
    }

    #[test]
    fn the_variant_in_use_is_not_compiled_again() {
        let mut uci = Uci::new();
        uci.command("setoption name UCI_Variant value littlegreat");
        let first = game_address(&uci);
        uci.command("setoption name UCI_Variant value LittleGreat");
        assert_eq!(game_address(&uci), first);
        // Other rules are another game.
        uci.command("setoption name VariantRules value spear_promotion=forced");
        let forced = game_address(&uci);
        assert_ne!(forced, first);
        uci.command("setoption name UCI_Variant value littlegreat");
        assert_eq!(game_address(&uci), forced);
        assert_eq!(uci.rules, ["spear_promotion=forced"]);
    }
}
