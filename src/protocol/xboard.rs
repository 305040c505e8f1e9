//! XBoard/CECP version 2 (XBoard's engine-intf document is the spec): game and force
//! modes, clocks (`level`, `st`, `sd`, `time`, `otim`), thinking output, analysis,
//! `ping`, `undo`/`remove`, `setboard`, `memory` and `cores`. Lion double moves go out as
//! one `move` line per leg, all but the last ending in a comma, as HaChu sends them; a
//! pass is `@@@@`. Errors are answered in CECP's own forms (`Illegal move: ...`,
//! `Error (...): ...`) and the engine keeps reading. Every square name crosses the
//! `cecp::Ranks` translator (XBoard counts the ranks of ten-rank boards from 0); variants
//! XBoard does not know are described to it with `setup` and `piece` (see `cecp`).

use super::cecp::{self, Ranks, XBOARD_OWN};
use super::session::{Session, SessionError, wire_turn};
use super::{Input, Line, MAX_LINE, say};
use crate::core::{Move, MoveKind};
use crate::fault::{self, Fault};
use crate::rules::fen::FenStyle;
use crate::rules::spec::{BareKing, VariantSpec, Verdict};
use crate::search::MAX_THREADS;
use crate::search::limits::{Limits, MAX_CONTEMPT};
use crate::search::memory::Memory;
use crate::search::tt::{DEFAULT_MB, MAX_MB, Table};
use crate::search::{MATE, MATE_BOUND, SearchFault};
use crate::variants::{self, SpecError};
use crate::with_width;
use crossbeam_channel::{Receiver, Sender, select, unbounded};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;
use thiserror::Error;

/// What a search sends when it ends.
struct Finished {
    /// The search's id (`Xboard::search_id` when it started).
    id: u64,
    /// Its move, and the reply it expects.
    best: Option<Turn>,
    reply: Option<Turn>,
    /// A panic it caught (the move is then still legal: `search::Recovery`).
    fault: Option<SearchFault>,
}

/// The actions of one turn (`rules::turns`): one move in most games.
type Turn = Vec<Move>;

/// Why a variant could not be set up for XBoard.
#[derive(Debug, Error)]
enum SetupError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The variant's XBoard start position.
    #[error(transparent)]
    Start(#[from] SessionError),
}

/// Why a search runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    Move,
    Analyse,
    /// Searching the position after the expected reply while the opponent thinks.
    Ponder,
}

pub struct Xboard {
    session: Session,
    /// A user's variants (`--variants-file`), besides the built-in ones.
    extra: Vec<VariantSpec>,
    /// Every variant offered to XBoard, as (CECP name, kirin name).
    names: Vec<(String, String)>,
    /// Square names on the wire for the current board.
    ranks: Ranks,
    /// Start XBoard's own variants from XBoard's start position (the definition's `xboard`
    /// start); off, kirin's default start (Courier's historical one, as cutechess and
    /// Fairy-Stockfish use). CECP option "XBoard start positions".
    xboard_starts: bool,
    /// Play and claim under the results XBoard can verify (`cecp::xboard_rules`: no
    /// bare-king rule, XBoard's stalemate verdict, check); off, under the variant's own
    /// rules. CECP option "Claim only mate and stalemate", on by default.
    verified_results: bool,
    /// CECP option "Contempt" (`Limits::contempt`), for the engine's own moves; analysis
    /// scores a draw as 0.
    contempt: i32,
    /// CECP option "Variant rules": `KEY=VALUE` choices (as `--rule`) for the next
    /// `variant` (chess, after `new`, is played as it is).
    rules: Vec<String>,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<crate::core::Color>,
    post: bool,
    analysing: bool,
    depth: Option<i32>,
    movetime: Option<Duration>,
    moves_per_session: u32,
    base: Duration,
    inc: Duration,
    clock: Option<Duration>,
    threads: usize,
    tt: Arc<Table>,
    /// The searches' move-ordering statistics, kept from move to move of a game.
    memory: Arc<Memory>,
    stop: Arc<AtomicBool>,
    search: Option<(JoinHandle<()>, Purpose, u64)>,
    search_id: u64,
    results: (Sender<Finished>, Receiver<Finished>),
    /// `hard`: think on the opponent's time.
    ponder: bool,
    /// Set while a ponder search must ignore the clock; cleared on a ponder hit.
    pondering: Arc<AtomicBool>,
    /// The reply a ponder search assumes (also the answer to `hint`).
    ponder_move: Option<Turn>,
    /// The move a ponder search settled on before the opponent moved.
    ponder_done: Option<Option<Turn>>,
    /// When the engine started thinking on its own move (for its clock when pondering).
    think_started: Option<std::time::Instant>,
    /// The square of the piece the user last lifted (for a multi-leg move's second leg).
    lifted: Option<usize>,
    /// `pong`s held back: a `ping` that arrives while the engine thinks on its move is
    /// answered after the move (the spec), or when the search is called off.
    pending_pongs: Vec<String>,
    /// The last command switched to a variant other than normal chess (a `new` now
    /// undoes it).
    variant_just_set: bool,
}

impl Default for Xboard {
    fn default() -> Self {
        Self::new()
    }
}

impl Xboard {
    pub fn new() -> Xboard {
        Self::with_variants(Vec::new())
    }

    /// A session that knows `extra` besides the built-in variants.
    pub fn with_variants(extra: Vec<VariantSpec>) -> Xboard {
        let names = cecp::cecp_names(
            variants::builtin()
                .iter()
                .chain(&extra)
                .filter(|v| cecp::xboard_can_play(&v.geometry))
                .map(|v| v.name.as_str()),
        );
        Xboard {
            session: Self::session_for(&[], "chess", &[], true, true).expect("chess is built in"),
            extra,
            names,
            ranks: Ranks::for_height(8),
            xboard_starts: true,
            verified_results: true,
            contempt: 0,
            rules: Vec::new(),
            engine_side: Some(crate::core::BLACK),
            post: false,
            analysing: false,
            depth: None,
            movetime: None,
            moves_per_session: 0,
            base: Duration::from_secs(300),
            inc: Duration::ZERO,
            clock: None,
            threads: 1,
            tt: Arc::new(Table::new(DEFAULT_MB)),
            memory: Arc::new(Memory::new()),
            stop: Arc::new(AtomicBool::new(false)),
            search: None,
            search_id: 0,
            results: unbounded(),
            ponder: false,
            pondering: Arc::new(AtomicBool::new(false)),
            ponder_move: None,
            ponder_done: None,
            think_started: None,
            lifted: None,
            pending_pongs: Vec::new(),
            variant_just_set: false,
        }
    }

    /// A session of the variant `name`, set up at XBoard's start position if
    /// `xboard_starts` and the variant has one; under the results XBoard can verify
    /// (`cecp::xboard_rules`) if `verified`, unless its check rule would refuse one of the
    /// variant's start positions (a side without a royal), where the real rules stay.
    fn session_for(
        extra: &[VariantSpec],
        name: &str,
        rules: &[String],
        xboard_starts: bool,
        verified: bool,
    ) -> Result<Session, SetupError> {
        let chosen = variants::find_with_rules(extra, name, rules, "")?;
        let real = &chosen;
        let rules = verified.then(|| cecp::xboard_rules(real));
        // Compiling a game parses its start positions: one the check rule refuses (a side
        // without a royal) keeps the variant's real rules.
        let (spec, mut session) = match rules.as_ref().map(|r| (r, Session::new(r))) {
            Some((r, Ok(session))) => (r, session),
            _ => (real, Session::new(real)?),
        };
        let xboard_start = spec
            .start_position("xboard")
            .filter(|_| xboard_starts)
            .map(str::to_string);
        if let Some(fen) = xboard_start {
            with_width!(&mut session, s => s.set_position(Some(&fen)))?;
        }
        Ok(session)
    }

    pub fn run(&mut self, input: &Input) {
        let results = self.results.1.clone();
        loop {
            select! {
                recv(input) -> line => match line {
                    Ok(Line::Text(l)) => if !self.guarded(l.trim()) { break },
                    Ok(Line::NotUtf8(l)) => say(&format!("Error (not UTF-8): {}", Line::excerpt(&l))),
                    Ok(Line::TooLong(n)) => say(&format!("Error (line of {n} bytes, longer than {MAX_LINE}): ignored")),
                    Err(_) => break,
                },
                recv(results) -> r => if let Ok(r) = r { self.finished(r) },
            }
        }
        self.halt();
    }

    /// Stops a running search (a ponder search too) and drops its result.
    fn halt(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
        self.ponder_done = None;
        self.ponder_move = None;
        if let Some((h, _, _)) = self.search.take() {
            let _ = h.join();
        }
        self.search_id += 1;
        // No move is coming: the held pings are answered now.
        self.answer_pings();
    }

    /// Sends the held-back `pong`s.
    fn answer_pings(&mut self) {
        for n in std::mem::take(&mut self.pending_pongs) {
            say(&format!("pong {n}"));
        }
    }

    /// True while the engine thinks on its own move (not pondering, not analysing).
    fn thinking(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.1 == Purpose::Move)
    }

    /// `command`, with a panic in it answered `Error (internal error: ...): COMMAND` and
    /// the game put back as it was before the command (position, moves, variant): a bug
    /// in one command costs that command only. The copy taken first is the position and
    /// its moves, a few kilobytes.
    fn guarded(&mut self, line: &str) -> bool {
        let saved = self.session.clone();
        match fault::catch(|| self.command(line)) {
            Ok(go_on) => go_on,
            Err(panic) => {
                self.set_session(saved);
                say(&format!(
                    "Error (internal error: {panic}; the game is as it was before it): {}",
                    Line::excerpt(line)
                ));
                true
            }
        }
    }

    fn command(&mut self, line: &str) -> bool {
        let (cmd, arg) = line.split_once(' ').unwrap_or((line, ""));
        let arg = arg.trim();
        let after_variant = !line.is_empty() && std::mem::take(&mut self.variant_just_set);
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "." | "bk" | "nopause" => {}
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if self.search.as_ref().is_some_and(|s| s.1 == Purpose::Ponder)
                    || self.ponder_done.is_some()
                {
                    self.halt();
                }
            }
            "hint" => {
                if let Some(m) = &self.ponder_move {
                    let text = with_width!(&self.session, s => wire_turn(&s.game, m, Some("@@@@")));
                    say(&format!("Hint: {}", self.ranks.to_wire(&text)));
                }
            }
            "protover" => self.features(),
            "new" => {
                if after_variant {
                    say(
                        "telluser kirin: 'new' resets the variant to normal chess; send 'variant NAME' after 'new'",
                    );
                }
                self.halt();
                match Self::session_for(
                    &self.extra,
                    "chess",
                    &[],
                    self.xboard_starts,
                    self.verified_results,
                ) {
                    Ok(s) => self.set_session(s),
                    Err(e) => say(&format!("Error ({e}): new")),
                }
                self.engine_side = Some(crate::core::BLACK);
                self.depth = None;
                self.tt.clear();
                self.memory.clear();
            }
            "variant" => self.variant(arg),
            "setboard" => {
                self.halt();
                if let Err(e) = with_width!(&mut self.session, s => s.set_position_styled(Some(arg), FenStyle::Xboard))
                {
                    say(&format!("tellusererror Illegal position: {e}"));
                    say(&format!("Error (bad FEN: {e}): setboard"));
                } else {
                    fault::inject(Fault::CommandPanic);
                }
                self.restart_analysis();
            }
            "force" => {
                self.halt();
                self.engine_side = None;
            }
            "go" => {
                self.engine_side = Some(self.side_to_move());
                if !self.claim_result() {
                    self.think();
                }
            }
            "playother" => {
                self.engine_side = Some(self.side_to_move().opposite());
            }
            "usermove" => self.user_move(arg),
            "?" => {
                if self.search.as_ref().is_some_and(|s| s.1 == Purpose::Move) {
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
            // Pondering and analysis do not count: only a search of the engine's own
            // move holds the answer back until the move is out.
            "ping" if self.thinking() => self.pending_pongs.push(arg.to_string()),
            "ping" => say(&format!("pong {arg}")),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "result" => {
                self.halt();
                self.engine_side = None;
            }
            "st" => match arg.parse::<f64>() {
                Ok(s) if s.is_finite() && s > 0.0 && s < 1e6 => {
                    self.movetime = Some(Duration::from_secs_f64(s))
                }
                _ => say(&format!("Error (bad seconds): st {arg}")),
            },
            "sd" => match arg.parse::<i32>() {
                Ok(d) if d > 0 => self.depth = Some(d.min(100)),
                _ => say(&format!("Error (bad depth): sd {arg}")),
            },
            "level" => self.level(arg),
            "time" => match arg.parse::<u64>() {
                Ok(cs) => self.clock = Some(Duration::from_millis(cs.saturating_mul(10))),
                Err(_) => say(&format!("Error (bad time): time {arg}")),
            },
            "otim" => {}
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => {
                self.halt();
                self.analysing = true;
                self.engine_side = None;
                self.restart_analysis();
            }
            "exit" => {
                self.halt();
                self.analysing = false;
            }
            "memory" => match arg.parse::<usize>() {
                Ok(mb) if (1..=MAX_MB).contains(&mb) => {
                    self.halt();
                    // The old table goes first, so that its memory counts as available.
                    self.tt = Arc::new(Table::new(1));
                    self.tt = Arc::new(Table::new(mb));
                    if self.tt.mb() < mb {
                        say(&format!("# memory: got {} MiB of {mb} asked", self.tt.mb()));
                    }
                }
                _ => say(&format!("Error (bad size): memory {arg}")),
            },
            "cores" => match arg.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.threads = n,
                _ => say(&format!("Error (bad number): cores {arg}")),
            },
            "option" => self.option(arg),
            "lift" => self.lift(arg),
            "put" | "hover" => {
                if self.square(arg).is_none() {
                    say(&format!("Error (not a square): {cmd} {arg}"));
                }
            }
            "quit" => return false,
            _ if self.looks_like_move(cmd) && arg.is_empty() => self.user_move(cmd),
            _ => say(&format!("Error (unknown command): {}", Line::excerpt(cmd))),
        }
        true
    }

    fn features(&self) {
        let names: Vec<&str> = self
            .names
            .iter()
            .filter(|v| variants::find_in(&self.extra, &v.1).is_ok_and(cecp::xboard_can_show))
            .map(|v| v.0.as_str())
            .collect();
        // The string option comes first: XBoard 4.9.1 keeps an option in a copy of the
        // rest of the feature line from the option on, and writes a value given with
        // `-firstOptions` into that copy without checking its size. At the end of the
        // line it had room for no value at all and the copy overflowed (a heap
        // corruption that crashed XBoard); first on the line, a value has the rest of
        // the line (some 300 characters) to fill.
        say(&format!(
            "feature option=\"Variant rules -string \" ping=1 setboard=1 usermove=1 sigint=0 sigterm=0 colors=0 analyze=1 memory=1 smp=1 debug=1 highlight=1 myname=\"kirin {}\" variants=\"{}\" option=\"XBoard start positions -check 1\" option=\"Claim only mate and stalemate -check 1\" option=\"Contempt -spin 0 -{MAX_CONTEMPT} {MAX_CONTEMPT}\" done=1",
            env!("CARGO_PKG_VERSION"),
            names.join(",")
        ));
    }

    fn option(&mut self, arg: &str) {
        match arg.split_once('=') {
            Some(("XBoard start positions", v @ ("0" | "1"))) => self.xboard_starts = v == "1",
            // From the next `new` or `variant` on, which compiles the game anew.
            Some(("Claim only mate and stalemate", v @ ("0" | "1"))) => {
                self.verified_results = v == "1"
            }
            Some(("Variant rules", v)) => {
                self.rules = v.split_whitespace().map(str::to_string).collect()
            }
            Some(("Contempt", v)) => match v.parse::<i32>() {
                Ok(c) if c.abs() <= MAX_CONTEMPT => self.contempt = c,
                _ => say(&format!(
                    "Error (Contempt must be -{MAX_CONTEMPT}..{MAX_CONTEMPT}): option {arg}"
                )),
            },
            _ => say(&format!("Error (unknown option or value): option {arg}")),
        }
    }

    /// `variant NAME`: switches to the variant; one XBoard does not know is described
    /// to it at once (`setup`, then `piece` per piece type), before any later `pong`.
    /// All or nothing: a variant that is answered with an error changes nothing, not
    /// even a running search.
    fn variant(&mut self, name: &str) {
        let Some(kirin) = self.names.iter().find(|v| v.0 == name).map(|v| v.1.clone()) else {
            if let Ok(spec) = variants::find_in(&self.extra, name)
                && !cecp::xboard_can_play(&spec.geometry)
            {
                let g = &spec.geometry;
                say(&format!(
                    "tellusererror {name}'s {}x{} board is beyond XBoard; play it over UCI \
                     or with kirin analyse",
                    g.width, g.height
                ));
            }
            say(&format!("Error (unsupported variant): variant {name}"));
            return;
        };
        let session = match Self::session_for(
            &self.extra,
            &kirin,
            &self.rules,
            self.xboard_starts,
            self.verified_results,
        ) {
            Ok(s) => s,
            Err(e) => {
                say(&format!("Error ({e}): variant {name}"));
                return;
            }
        };
        let own = XBOARD_OWN.iter().any(|v| v.0 == name);
        let described = if own {
            None
        } else {
            match with_width!(&session, s => cecp::describe(&s.game, &s.pos)) {
                Ok(d) => Some(d),
                Err(e) => {
                    say(&format!(
                        "tellusererror kirin cannot describe {name} to XBoard: {e}"
                    ));
                    say(&format!("Error ({e}): variant {name}"));
                    return;
                }
            }
        };
        self.halt();
        self.set_session(session);
        self.variant_just_set = name != "normal";
        if let Some(d) = described {
            say(&d.setup);
            for p in &d.pieces {
                say(p);
            }
            // What XBoard cannot be told, as comments its debug log keeps: such a game
            // is played with legality testing off, and `lift` highlights kirin's moves.
            for gap in &d.gaps {
                say(&format!("# kirin: XBoard cannot check this: {gap}"));
            }
            if with_width!(&self.session, s => !s.game.rules.is_empty()) {
                say(&format!(
                    "# kirin: {name} has rules beyond its pieces' moves; turn legality \
                     testing off"
                ));
            }
        }
    }

    fn set_session(&mut self, session: Session) {
        self.ranks = Ranks::for_height(with_width!(&session, s => s.game.geo.height));
        self.session = session;
    }

    /// A square named on the wire, if it is one of the board's.
    fn square(&self, text: &str) -> Option<usize> {
        let name = self.ranks.from_wire(text.trim());
        with_width!(&self.session, s => s.game.geo.parse_square(&name).ok())
    }

    /// `lift SQUARE`: the legal moves of the piece there as a `highlight` board. For a
    /// multi-leg move the first leg's squares are intermediate (`C`); XBoard then sends
    /// `put` and `lift` for the one the user chose, answered with the second legs from it.
    fn lift(&mut self, arg: &str) {
        let Some(sq) = self.square(arg) else {
            say(&format!("Error (not a square): lift {arg}"));
            return;
        };
        let lifted = self.lifted;
        let (board, now_lifted) = with_width!(&mut self.session, s => {
            let mut list = crate::rules::MoveList::new();
            s.game.game_moves(&mut s.pos, &mut list);
            let code = s.pos.board[sq];
            let own = code != 0 && crate::rules::position::color_of(code) == s.pos.side;
            let mut marks: Vec<(usize, char)> = Vec::new();
            let mut mark = |sq: usize, c: char| {
                let rank = |c: char| "YRCM".find(c);
                match marks.iter_mut().find(|m| m.0 == sq) {
                    Some(m) if rank(c) > rank(m.1) => m.1 = c,
                    Some(_) => {}
                    None => marks.push((sq, c)),
                }
            };
            let target = |to: usize| if s.pos.board[to] != 0 { 'R' } else { 'Y' };
            // The squares a move of several legs captures on before its end, in order.
            let stops = |m: &Move| match m.kind() {
                MoveKind::TwoLeg if m.aux() == m.from() => Default::default(),
                MoveKind::TwoLeg | MoveKind::MultiLeg => s.game.captures_on_the_way(*m),
                _ => Default::default(),
            };
            let second_leg = lifted.filter(|&f| {
                !own && list.iter().any(|m| m.from() == f && stops(m).contains(&(sq as u16)))
            });
            let now_lifted = if let Some(from) = second_leg {
                // The next leg from the square just reached: another capture on the way
                // (intermediate again) or the end.
                for m in list.iter().filter(|m| m.from() == from) {
                    let way = stops(m);
                    if let Some(i) = way.iter().position(|&v| v as usize == sq) {
                        match way.get(i + 1) {
                            Some(&next) => mark(next as usize, 'C'),
                            None => mark(m.to(), if m.to() == from { 'Y' } else { target(m.to()) }),
                        }
                    } else if way.is_empty() && m.kind() != MoveKind::TwoLeg && m.to() == sq {
                        mark(sq, target(sq));
                    }
                }
                Some(from)
            } else if own {
                for m in list.iter().copied().filter(|m| m.from() == sq) {
                    match m.kind() {
                        MoveKind::Pass => mark(sq, 'C'),
                        MoveKind::TwoLeg | MoveKind::MultiLeg => {
                            if let Some(&first) = stops(&m).first() {
                                mark(first as usize, 'C');
                            }
                        }
                        MoveKind::EnPassant => mark(m.to(), 'R'),
                        _ if m.promotes_to().is_some() => mark(m.to(), 'M'),
                        MoveKind::Castle => mark(m.to(), 'Y'),
                        _ => mark(m.to(), target(m.to())),
                    }
                }
                Some(sq)
            } else {
                None
            };
            (cecp::highlight_board(s.game.geo.width, s.game.geo.height, &marks), now_lifted)
        });
        self.lifted = now_lifted;
        say(&format!("highlight {board}"));
    }

    fn level(&mut self, arg: &str) {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        let parsed = (|| -> Option<(u32, Duration, Duration)> {
            let mps = parts.first()?.parse().ok()?;
            let base = match parts.get(1)?.split_once(':') {
                Some((m, s)) => m.parse::<u64>().ok()? * 60 + s.parse::<u64>().ok()?,
                None => parts.get(1)?.parse::<u64>().ok()? * 60,
            };
            let inc: f64 = parts.get(2)?.parse().ok()?;
            (inc.is_finite() && (0.0..1e6).contains(&inc))
                .then(|| (mps, Duration::from_secs(base), Duration::from_secs_f64(inc)))
        })();
        match parsed {
            Some((mps, base, inc)) => {
                self.moves_per_session = mps;
                self.base = base;
                self.inc = inc;
                self.movetime = None;
            }
            None => say(&format!("Error (bad time control): level {arg}")),
        }
    }

    fn side_to_move(&self) -> crate::core::Color {
        with_width!(&self.session, s => s.pos.side)
    }

    fn looks_like_move(&self, text: &str) -> bool {
        text == "@@@@"
            || (text.len() >= 4
                && text.as_bytes()[0].is_ascii_lowercase()
                && text.as_bytes()[1].is_ascii_digit())
    }

    fn user_move(&mut self, text: &str) {
        let text = text.trim_end_matches(',');
        let kirin_text = self.ranks.from_wire(text);
        let parsed = with_width!(&mut self.session, s => s.parse(&kirin_text));
        let ponder_running = self.search.as_ref().is_some_and(|s| s.1 == Purpose::Ponder);
        if let Ok(m) = &parsed
            && self.ponder_move.as_ref() == Some(m)
            && (ponder_running || self.ponder_done.is_some())
        {
            // A ponder hit: the search goes on as the search for the engine's move.
            with_width!(&mut self.session, s => s.play(m));
            self.ponder_move = None;
            self.think_started = Some(std::time::Instant::now());
            if let Some(best) = self.ponder_done.take() {
                self.search = None;
                self.play_own(best, None);
            } else if let Some(search) = self.search.as_mut() {
                search.1 = Purpose::Move;
                self.pondering.store(false, Ordering::Relaxed);
            }
            return;
        }
        if ponder_running
            || self.ponder_done.is_some()
            || self.search.as_ref().is_some_and(|s| s.1 == Purpose::Move)
        {
            self.halt();
        }
        self.ponder_move = None;
        let played = parsed.map(|m| with_width!(&mut self.session, s => s.play(&m)));
        match played {
            Ok(()) => {
                if self.analysing {
                    self.restart_analysis();
                } else if self.engine_side == Some(self.side_to_move()) && !self.claim_result() {
                    self.think();
                }
            }
            Err(e) => say(&format!(
                "Illegal move ({}): {text}",
                self.ranks.to_wire(&e.to_string())
            )),
        }
    }

    fn take_back(&mut self, n: usize) {
        self.halt();
        for _ in 0..n {
            if !with_width!(&mut self.session, s => s.undo()) {
                say("Error (no move to take back): undo");
                break;
            }
        }
        self.restart_analysis();
    }

    fn restart_analysis(&mut self) {
        if self.analysing {
            self.halt();
            self.start(
                Purpose::Analyse,
                Limits {
                    infinite: true,
                    ..Default::default()
                },
            );
        }
    }

    fn think(&mut self) {
        self.halt();
        self.think_started = Some(std::time::Instant::now());
        let limits = self.move_limits(self.clock.unwrap_or(self.base));
        self.start(Purpose::Move, limits);
    }

    /// Limits for a search of the engine's move with `left` on its clock.
    fn move_limits(&self, left: Duration) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            contempt: self.contempt,
            ..Default::default()
        };
        if let Some(t) = self.movetime {
            limits.movetime = Some(t);
        } else {
            limits.time = Some(left);
            limits.inc = self.inc;
            if self.moves_per_session > 0 {
                let played = with_width!(&self.session, s => s.pos.fullmove.saturating_sub(1));
                limits.movestogo = Some(self.moves_per_session - played % self.moves_per_session);
            }
        }
        limits
    }

    /// After the engine moved: searches the position after the expected `reply` until
    /// the opponent moves (`hard`).
    fn start_ponder(&mut self, reply: Turn) {
        let used = self.think_started.map_or(Duration::ZERO, |t| t.elapsed());
        let left = self.clock.unwrap_or(self.base).saturating_sub(used) + self.inc;
        let mut limits = self.move_limits(left);
        self.pondering.store(true, Ordering::Relaxed);
        limits.pondering = Some(self.pondering.clone());
        let legal = with_width!(&mut self.session, s => {
            let ok = s.parse(&s.game.turn_text(&reply)).is_ok_and(|m| m == reply);
            if ok {
                s.play(&reply);
            }
            ok
        });
        if !legal {
            return;
        }
        self.ponder_move = Some(reply);
        self.ponder_done = None;
        self.start(Purpose::Ponder, limits);
        with_width!(&mut self.session, s => s.undo());
    }

    fn start(&mut self, purpose: Purpose, limits: Limits) {
        self.stop.store(false, Ordering::Relaxed);
        self.search_id += 1;
        let id = self.search_id;
        let post = self.post || purpose == Purpose::Analyse;
        let ranks = self.ranks;
        let sender = self.results.0.clone();
        let handle = with_width!(&self.session, s => s.spawn_search(
            limits,
            self.threads,
            self.tt.clone(),
            self.memory.clone(),
            self.stop.clone(),
            Box::new(move |game, i| {
                if post {
                    let pv: Vec<String> = i.turns.iter().map(|t| ranks.to_wire(&wire_turn(game, t, Some("@@@@")))).collect();
                    say(&format!(
                        "{} {} {} {} {}",
                        i.depth,
                        cecp_score(i.score),
                        i.time.as_millis() / 10,
                        i.nodes,
                        pv.join(" ")
                    ));
                }
            }),
            Box::new(move |_, r| {
                let _ = sender.send(Finished {
                    id,
                    best: r.best.map(|_| r.turn),
                    reply: r.ponder_turn,
                    fault: r.fault,
                });
            }),
        ));
        self.search = Some((handle, purpose, id));
    }

    /// A search ended: in game mode, play and announce its move (and ponder on the
    /// expected reply); a ponder search's move waits for the opponent's. A panic the
    /// search caught is shown to the user as an error (`tellusererror`) before its move.
    fn finished(&mut self, done: Finished) {
        let Finished {
            id,
            best,
            reply,
            fault,
        } = done;
        let Some((purpose, running)) = self.search.as_ref().map(|s| (s.1, s.2)) else {
            return;
        };
        if running != id {
            return;
        }
        if let Some(fault) = fault {
            say(&format!("tellusererror kirin: {fault}"));
        }
        if purpose == Purpose::Analyse {
            return;
        }
        if let Some((h, _, _)) = self.search.take() {
            let _ = h.join();
        }
        if purpose == Purpose::Ponder {
            self.ponder_done = Some(best);
            return;
        }
        self.play_own(best, reply);
    }

    /// Plays and announces the engine's move, then ponders on `reply` if `hard`.
    fn play_own(&mut self, best: Option<Turn>, reply: Option<Turn>) {
        let Some(m) = best else {
            // No move: the game is over.
            self.claim_result();
            self.answer_pings();
            return;
        };
        let text = with_width!(&mut self.session, s => {
            let t = wire_turn(&s.game, &m, Some("@@@@"));
            s.play(&m);
            t
        });
        let text = self.ranks.to_wire(&text);
        let legs: Vec<&str> = text.split(',').collect();
        for (i, leg) in legs.iter().enumerate() {
            let comma = if i + 1 < legs.len() { "," } else { "" };
            say(&format!("move {leg}{comma}"));
        }
        let over = self.claim_result();
        self.answer_pings();
        if over {
            return;
        }
        if self.ponder
            && self.engine_side.is_some()
            && !self.analysing
            && let Some(r) = reply
        {
            self.start_ponder(r);
        }
    }

    /// In game mode, if the game is over, says its result and returns true. XBoard cannot
    /// know the result with legality testing off; with it on it judges a claim of a win
    /// or a draw against its own rules and forfeits the claimer of one it does not see.
    /// So under the results XBoard can verify (option "Claim only mate and stalemate")
    /// kirin claims checkmate and stalemate (with XBoard's verdict, which the session
    /// plays by), and its own loss by the variant's real rules (a resignation, which
    /// XBoard always accepts): a bared kirin resigns. It never claims a win or a draw
    /// XBoard cannot see (bare king, citadel, a captured royal): it plays on to mate.
    /// Without the option it claims every result of the variant's rules.
    fn claim_result(&mut self) -> bool {
        let Some(own) = self.engine_side.filter(|_| !self.analysing) else {
            return false;
        };
        let verified = self.verified_results;
        let extra = &self.extra;
        let over = with_width!(&mut self.session, s => {
            let side = s.pos.side;
            let outcome = s.game.outcome(&mut s.pos);
            let own_loss = |o: &crate::rules::outcome::Outcome| match o.verdict {
                Verdict::Loss => side == own,
                Verdict::Win => side != own,
                Verdict::Draw => false,
            };
            // No move but ones the repetition rule forbids (Chu): XBoard, which does not
            // know the rule, sees legal moves and no stalemate; for kirin's real rules the
            // side to move is stalemated, which XBoard accepts only as a resignation.
            let unseen = |s: &mut super::session::GameState<_>| {
                let mut list = crate::rules::MoveList::new();
                s.game.legal_moves(&mut s.pos, &mut list);
                !list.is_empty()
            };
            if !verified {
                outcome.map(|o| (o, side))
            } else if let Some(o) =
                outcome.filter(|o| matches!(o.reason, "checkmate" | "stalemate") || own_loss(o))
            {
                if o.reason == "stalemate" && unseen(s) {
                    (side == own).then_some((
                        crate::rules::outcome::Outcome {
                            verdict: Verdict::Loss,
                            reason: "stalemate",
                        },
                        side,
                    ))
                } else {
                    Some((o, side))
                }
            } else {
                // The session plays on past a bare King; by the real rules a bared kirin
                // (that cannot bare the opponent back at once) has lost.
                let real = variants::find_in(extra, &s.game.spec.name)
                    .map_or(BareKing::Play, |r| r.bare_king);
                s.game
                    .bare_king_result(real, &mut s.pos)
                    .filter(|o| o.verdict == Verdict::Loss && side == own)
                    .map(|o| (o, side))
            }
        });
        let Some((outcome, side)) = over else {
            return false;
        };
        // Move-rule and repetition counts differ between programs (cutechess's Courier
        // has a 70-move rule, kirin's definition 50): a GUI forfeits a claim it does not
        // share, so these draws are left to the GUI and play goes on.
        if outcome.verdict == Verdict::Draw && matches!(outcome.reason, "move rule" | "repetition")
        {
            return false;
        }
        let result = match (outcome.verdict, side) {
            (Verdict::Draw, _) => "1/2-1/2",
            (Verdict::Loss, crate::core::BLACK) | (Verdict::Win, crate::core::WHITE) => "1-0",
            _ => "0-1",
        };
        say(&format!("{result} {{{}}}", outcome.reason));
        self.engine_side = None;
        true
    }
}

/// XBoard's score convention: centipawns, and 100000 + N for mate in N moves.
fn cecp_score(score: i32) -> i32 {
    if score.abs() >= MATE_BOUND {
        let moves = (MATE - score.abs() + 1) / 2;
        if score > 0 {
            100000 + moves
        } else {
            -100000 - moves
        }
    } else {
        score
    }
}
