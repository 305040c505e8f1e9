//! One game between two engines, refereed by kirin's rules: every move is checked
//! against the legal moves, the clocks are kept here (not trusted to the engines), the
//! result comes from the game's own rules, a result claim is checked, and the
//! adjudication options are applied. Whatever an engine does (an illegal move, a flag
//! fall, a false claim, silence, a crash), the game ends with a result and a reason.

use super::engine::{Clocks, EngineError, History, Player, Reply, position_text};
use super::options::{DrawRule, EngineConfig, MatchConfig, Protocol, ResignRule};
use super::pgn::{PgnGame, PgnMove};
use crate::core::{Color, Move, WHITE};
use crate::protocol::cecp::Ranks;
use crate::rules::notation::wire_turn;
use crate::rules::spec::Verdict;
use crate::rules::{Game, Position};
use std::time::{Duration, Instant};

/// How a game ended, as PGN's `Termination` tag names it (cutechess's words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the game's rules (mate, stalemate, repetition, a move rule, bare king...).
    Normal,
    Adjudication,
    TimeForfeit,
    /// An illegal move, a false claim, or an engine rejecting a legal move.
    RulesInfraction,
    /// The engine's process ended or its pipe closed.
    Abandoned,
    /// The engine stopped answering where no clock bounds it.
    StalledConnection,
}

impl Termination {
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::StalledConnection => "stalled connection",
        }
    }
}

/// A finished game.
pub struct Finished {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    pub termination: Termination,
    /// The result's reason in cutechess's words (`White mates`, `Black loses on time`).
    pub reason: String,
    pub pgn: PgnGame,
    /// Engines (by colour) whose process failed: the match needs `-recover` to go on.
    pub failed: [bool; 2],
}

/// What one game is: its engines (White first), where it starts, and the opening moves
/// to play before the engines think.
pub struct Setup<'a, const W: usize> {
    pub engines: [&'a EngineConfig; 2],
    pub start: Position<W>,
    /// For each engine: the start is not the one it takes as its own, so it is sent the
    /// start's FEN (kirin's FEN to UCI engines, XBoard's to CECP engines).
    pub from_fen: [bool; 2],
    /// The start is not the variant's own: the PGN gets `FEN` and `SetUp` tags.
    pub fen_tag: bool,
    pub book: Vec<Vec<crate::core::Move>>,
    pub round: u64,
    /// The game's variant names for each engine (White's, Black's).
    pub variant_names: [String; 2],
    /// The options each engine is set to for this game (`cycle.`), sent before it.
    pub settings: [Vec<(String, String)>; 2],
}

/// A side's clock.
#[derive(Clone, Copy)]
struct Clock {
    left: Duration,
    /// Moves made in the current time-control period.
    moves: u32,
}

/// Scores each engine reported, in centipawns from its own side, one per move.
#[derive(Default)]
struct Scores([Vec<Option<i32>>; 2]);

impl Scores {
    /// True when the last `count` scores of `side` all satisfy `test`. The scores are
    /// widened to 64 bits first: an engine may report `i32::MIN`, and the options any
    /// `i32`, whose negation or absolute value does not fit 32 bits.
    fn last(&self, side: Color, count: u32, test: impl Fn(i64) -> bool) -> bool {
        let list = &self.0[side];
        let count = count.max(1) as usize;
        list.len() >= count
            && list[list.len() - count..]
                .iter()
                .all(|s| s.is_some_and(|x| test(i64::from(x))))
    }

    /// `-draw`: both sides' last `count` scores are within `score` of zero.
    fn drawn(&self, count: u32, score: i32) -> bool {
        Color::ALL
            .into_iter()
            .all(|side| self.last(side, count, |x| x.abs() <= i64::from(score)))
    }

    /// `-resign`: `side`'s last `count` scores are at `-score` or below.
    fn lost(&self, side: Color, count: u32, score: i32) -> bool {
        self.last(side, count, |x| x <= -i64::from(score))
    }

    /// `-resign ... twosided`: `side`'s last `count` scores are at `score` or above.
    fn won(&self, side: Color, count: u32, score: i32) -> bool {
        self.last(side, count, |x| x >= i64::from(score))
    }
}

/// Plays one game to its end, with the engines' processes kept from an earlier game
/// where there are any (White's, Black's; the others are started). Returns the game and
/// the processes that may play the next one: those of `restart=off` engines that ended
/// this game in order (not by their own fault: a crash, a stall, a time loss or a rules
/// infraction leave the engine in an unknown state, so it is stopped and the next game
/// starts a new one).
pub fn play<const W: usize>(
    game: &Game<W>,
    cfg: &MatchConfig,
    setup: Setup<W>,
    kept: [Option<Player>; 2],
) -> (Finished, [Option<Player>; 2]) {
    let mut referee = Referee::new(game, cfg, &setup, kept);
    let end = referee.run(&setup);
    referee.finish(&setup, end)
}

/// The end of a game: result, reason, termination.
struct End {
    result: &'static str,
    termination: Termination,
    reason: String,
    failed: [bool; 2],
    /// The side whose engine ended the game by its fault (`End::forfeit`).
    at_fault: Option<Color>,
}

impl End {
    fn win(winner: Color, termination: Termination, reason: String) -> End {
        End {
            result: if winner == WHITE { "1-0" } else { "0-1" },
            termination,
            reason,
            failed: [false; 2],
            at_fault: None,
        }
    }

    /// `side` loses by its engine's fault.
    fn forfeit(side: Color, termination: Termination, reason: String) -> End {
        let mut end = End::win(side.opposite(), termination, reason);
        end.at_fault = Some(side);
        // A time loss is the engine's play, not its failure: the next game starts it
        // afresh anyway, as it does every engine (cutechess plays on too).
        end.failed[side] = matches!(
            termination,
            Termination::Abandoned | Termination::StalledConnection
        );
        end
    }

    fn draw(termination: Termination, reason: String) -> End {
        End {
            result: "1/2-1/2",
            termination,
            reason,
            failed: [false; 2],
            at_fault: None,
        }
    }
}

struct Referee<'g, const W: usize> {
    game: &'g Game<W>,
    cfg: &'g MatchConfig,
    pos: Position<W>,
    /// The FEN each engine starts from, when not the variant's own start.
    fens: [Option<String>; 2],
    players: [Option<Player>; 2],
    /// Processes kept from the previous game, until they are set up for this one.
    kept: [Option<Player>; 2],
    clocks: [Clock; 2],
    /// Every move so far in each engine's own text.
    texts: [Vec<String>; 2],
    moves: Vec<PgnMove>,
    scores: Scores,
    started: Instant,
}

impl<'g, const W: usize> Referee<'g, W> {
    fn new(
        game: &'g Game<W>,
        cfg: &'g MatchConfig,
        setup: &Setup<W>,
        kept: [Option<Player>; 2],
    ) -> Self {
        let clock = |e: &EngineConfig| Clock {
            left: e.tc.map_or(Duration::MAX, |tc| tc.base),
            moves: 0,
        };
        Referee {
            game,
            cfg,
            pos: setup.start.clone(),
            fens: Color::ALL.map(|side| {
                setup.from_fen[side]
                    .then(|| position_text(game, &setup.start, setup.engines[side].protocol))
            }),
            players: [None, None],
            kept,
            clocks: [clock(setup.engines[0]), clock(setup.engines[1])],
            texts: [Vec::new(), Vec::new()],
            moves: Vec::new(),
            scores: Scores::default(),
            started: Instant::now(),
        }
    }

    /// Starts both engines (or takes the kept ones), sets them up for the game, plays
    /// the book moves, then the game.
    fn run(&mut self, setup: &Setup<W>) -> End {
        for (side, e) in Color::ALL.into_iter().zip(setup.engines) {
            // A kept process plays both colours in turn: its lines carry its name alone.
            let debug = self.cfg.debug.then(|| match e.restart {
                true => format!("{}({})", e.display_name(), side.name()),
                false => e.display_name(),
            });
            let player = match self.kept[side].take() {
                Some(p) => Ok(p),
                None => Player::start(e, debug),
            };
            let started = player.and_then(|mut p| {
                p.new_game(
                    &setup.variant_names[side],
                    self.fens[side].as_deref(),
                    &setup.settings[side],
                    side,
                )
                .map(|()| p)
            });
            match started {
                Ok(p) => self.players[side] = Some(p),
                Err(e) => return self.engine_failed(side, e, false),
            }
        }
        for turn in &setup.book {
            let san = self.game.san(&mut self.pos, turn);
            self.record(turn, san, Some("book".into()));
        }
        loop {
            if let Some(end) = self.rules_end().or_else(|| self.adjudicate()) {
                return end;
            }
            if let Some(end) = self.one_move() {
                return end;
            }
        }
    }

    /// The end the game's own rules give the position, if any.
    fn rules_end(&mut self) -> Option<End> {
        let o = self.game.outcome(&mut self.pos)?;
        let winner = match o.verdict {
            Verdict::Draw => {
                return Some(End::draw(
                    Termination::Normal,
                    format!("Draw by {}", o.reason),
                ));
            }
            Verdict::Win => self.pos.side,
            Verdict::Loss => self.pos.side.opposite(),
        };
        Some(End::win(
            winner,
            Termination::Normal,
            win_reason(winner, o.reason),
        ))
    }

    /// `-maxmoves`, `-draw` and `-resign`.
    fn adjudicate(&self) -> Option<End> {
        let full_moves = (self.moves.len() / 2) as u32;
        if let Some(max) = self.cfg.maxmoves
            && full_moves >= max
        {
            return Some(End::draw(
                Termination::Adjudication,
                "Draw by adjudication: maximum moves".into(),
            ));
        }
        if let Some(DrawRule {
            movenumber,
            movecount,
            score,
        }) = self.cfg.draw
            && full_moves >= movenumber
            && self.scores.drawn(movecount, score)
        {
            return Some(End::draw(
                Termination::Adjudication,
                "Draw by adjudication".into(),
            ));
        }
        if let Some(ResignRule {
            movecount,
            score,
            twosided,
        }) = self.cfg.resign
        {
            for side in Color::ALL {
                let winner = side.opposite();
                let losing = self.scores.lost(side, movecount, score);
                let agreed = !twosided || self.scores.won(winner, movecount, score);
                if losing && agreed {
                    return Some(End::win(
                        winner,
                        Termination::Adjudication,
                        format!("{} wins by adjudication", winner.name()),
                    ));
                }
            }
        }
        None
    }

    /// Asks the side to move for its move and plays it; `Some` when that ends the game.
    fn one_move(&mut self) -> Option<End> {
        let side = self.pos.side;
        let cfg = self.players[side].as_ref()?.cfg.clone();
        let clocks = cfg.tc.map(|tc| {
            let c = self.clocks[side];
            Clocks {
                own: c.left,
                opponent: self.clocks[side.opposite()]
                    .left
                    .min(Duration::from_secs(1_000_000)),
                moves_to_go: (tc.moves > 0).then(|| tc.moves - c.moves % tc.moves),
            }
        });
        let allowed = self.allowed(&cfg, side);
        let history = History {
            fen: self.fens[side].as_deref(),
            moves: &self.texts[side],
            white_to_move: side == WHITE,
        };
        let asked = Instant::now();
        let player = self.players[side].as_mut()?;
        let reply = player.think(&history, clocks, asked + allowed.unwrap_or(cfg.timeout));
        let used = asked.elapsed();
        let thought = player.thought;
        let reply = match reply {
            Ok(r) => r,
            Err(EngineError::Stalled { .. }) if let Some(limit) = allowed => {
                return Some(self.time_loss(side, used, limit));
            }
            Err(e) => return Some(self.engine_failed(side, e, true)),
        };
        if let Some(limit) = allowed
            && used > limit
        {
            return Some(self.time_loss(side, used, limit));
        }
        match reply {
            Reply::Resign => Some(End::win(
                side.opposite(),
                Termination::Normal,
                format!("{} resigns", side.name()),
            )),
            Reply::Claim { result, comment } => Some(self.claim(side, &result, &comment)),
            Reply::Move(text) => {
                let turn = match self.read_move(&cfg, &text) {
                    Ok(turn) => turn,
                    Err(why) => {
                        let reason = format!(
                            "{} makes an illegal move: {text} ({why}; position {})",
                            side.name(),
                            self.pos.to_fen(self.game)
                        );
                        return Some(End::forfeit(side, Termination::RulesInfraction, reason));
                    }
                };
                self.tick(side, &cfg, used);
                let comment = move_comment(thought, used);
                self.scores.0[side].push(thought.score.map(|s| s.centipawns()));
                let san = self.game.san(&mut self.pos, &turn);
                self.record(&turn, san, Some(comment));
                None
            }
        }
    }

    /// The time `side` may take for this move, or `None` when no clock bounds it.
    fn allowed(&self, cfg: &EngineConfig, side: Color) -> Option<Duration> {
        let margin = cfg.time_margin;
        if cfg.tc.is_some() {
            return Some(self.clocks[side].left.saturating_add(margin));
        }
        cfg.movetime.map(|st| st + margin)
    }

    /// Charges `used` to `side`'s clock and adds the increment, or a new period.
    fn tick(&mut self, side: Color, cfg: &EngineConfig, used: Duration) {
        let Some(tc) = cfg.tc else { return };
        let clock = &mut self.clocks[side];
        clock.left = clock.left.saturating_sub(used) + tc.inc;
        clock.moves += 1;
        if tc.moves > 0 && clock.moves.is_multiple_of(tc.moves) {
            clock.left += tc.base;
        }
    }

    fn time_loss(&self, side: Color, used: Duration, allowed: Duration) -> End {
        End::forfeit(
            side,
            Termination::TimeForfeit,
            format!(
                "{} loses on time ({} ms used, {} ms allowed)",
                side.name(),
                used.as_millis(),
                allowed.as_millis()
            ),
        )
    }

    fn engine_failed(&self, side: Color, e: EngineError, in_game: bool) -> End {
        let name = side.name();
        let (termination, reason) = match e {
            EngineError::Disconnected => (Termination::Abandoned, format!("{name} disconnects")),
            EngineError::Start { .. } => (Termination::Abandoned, format!("{name} {e}")),
            EngineError::Stalled { .. } => (
                Termination::StalledConnection,
                format!("{name}'s connection stalls ({e})"),
            ),
            EngineError::Protocol(why) => (Termination::RulesInfraction, format!("{name} {why}")),
        };
        let mut end = End::forfeit(side, termination, reason);
        // An engine that cannot be set up for a game (a variant it does not play) is a
        // failure of the engine, not of the game.
        if !in_game {
            end.failed[side] = true;
        }
        end
    }

    /// Checks a result claim made instead of a move: the claimer's own loss is a
    /// resignation; any other claim must be what the rules say of the position, or the
    /// claimer forfeits.
    fn claim(&mut self, side: Color, result: &str, comment: &str) -> End {
        let own_loss = if side == WHITE { "0-1" } else { "1-0" };
        if result == own_loss {
            return End::win(
                side.opposite(),
                Termination::Normal,
                format!("{} resigns", side.name()),
            );
        }
        match self.rules_end() {
            Some(end) if end.result == result => end,
            _ => End::forfeit(
                side,
                Termination::RulesInfraction,
                format!(
                    "{} makes an invalid result claim: {result} {{{comment}}}",
                    side.name()
                ),
            ),
        }
    }

    fn read_move(&mut self, cfg: &EngineConfig, text: &str) -> Result<Vec<Move>, String> {
        read_engine_move(self.game, &mut self.pos, cfg.protocol, text)
    }

    /// Plays a turn and writes it down for the PGN and for both engines.
    fn record(&mut self, turn: &[Move], san: String, comment: Option<String>) {
        let ranks = Ranks::for_height(self.game.geo.height);
        for (texts, player) in self.texts.iter_mut().zip(&self.players) {
            let protocol = player.as_ref().map_or(Protocol::Uci, |p| p.cfg.protocol);
            texts.push(match protocol {
                Protocol::Cecp => ranks.to_wire(&wire_turn(self.game, turn, Some("@@@@"))),
                // A game over USI has one action a turn (`sfen_support`).
                Protocol::Usi => turn.iter().map(|&m| self.game.usi_move_text(m)).collect(),
                Protocol::Uci => wire_turn(self.game, turn, None),
            });
        }
        for &m in turn {
            self.pos.make(self.game, m);
        }
        self.moves.push(PgnMove { san, comment });
    }

    /// Tells the engines the result, stops those that do not play on (`play`), and
    /// writes the game.
    fn finish(&mut self, setup: &Setup<W>, end: End) -> (Finished, [Option<Player>; 2]) {
        let mut next: [Option<Player>; 2] = std::mem::take(&mut self.kept);
        for side in Color::ALL {
            let Some(mut p) = self.players[side].take() else {
                continue;
            };
            let in_order = !p.cfg.restart && end.at_fault != Some(side) && !end.failed[side];
            if in_order && p.game_over(end.result, &end.reason).is_ok() {
                next[side] = Some(p);
            } else {
                p.finish(Some((end.result, &end.reason)));
            }
        }
        let mut pgn = PgnGame::default();
        let names = [
            setup.engines[0].display_name(),
            setup.engines[1].display_name(),
        ];
        pgn.set_tag("Event", self.cfg.event.clone());
        pgn.set_tag("Site", self.cfg.site.clone());
        pgn.set_tag("Date", today());
        pgn.set_tag("Round", setup.round.to_string());
        pgn.set_tag("White", names[0].clone());
        pgn.set_tag("Black", names[1].clone());
        pgn.set_tag("Result", end.result);
        if setup.fen_tag {
            pgn.set_tag("FEN", setup.start.to_fen(self.game));
        }
        pgn.set_tag("GameDuration", duration_tag(self.started.elapsed()));
        pgn.set_tag("PlyCount", self.moves.len().to_string());
        if setup.fen_tag {
            pgn.set_tag("SetUp", "1");
        }
        let tcs = setup.engines.map(time_control_tag);
        if tcs[0] == tcs[1] {
            pgn.set_tag("TimeControl", tcs[0].clone());
        } else {
            pgn.set_tag("WhiteTimeControl", tcs[0].clone());
            pgn.set_tag("BlackTimeControl", tcs[1].clone());
        }
        pgn.set_tag("Termination", end.termination.tag());
        // The options a game was played with, where they change from game to game.
        for (side, settings) in Color::ALL.into_iter().zip(&setup.settings) {
            if !settings.is_empty() {
                let text: Vec<String> = settings.iter().map(|(n, v)| format!("{n}={v}")).collect();
                pgn.set_tag(&format!("{}Options", side.name()), text.join(" "));
            }
        }
        if !super::engine::is_chess(&self.game.spec.name) {
            pgn.set_tag("Variant", self.game.spec.name.clone());
        }
        pgn.moves = std::mem::take(&mut self.moves);
        pgn.result = end.result.to_string();
        pgn.final_comment = Some(end.reason.clone());
        let finished = Finished {
            result: end.result,
            termination: end.termination,
            reason: end.reason,
            pgn,
            failed: end.failed,
        };
        (finished, next)
    }
}

/// Reads an engine's move text as a legal turn of `pos` (left as it was): coordinates
/// (CECP's with XBoard's rank numbering, its pass `@@@@`; USI's files from the right and
/// ranks lettered from the top, and nothing else), or SAN as cutechess also
/// takes it; each action must be allowed where it is played (a repetition rule
/// included). Public for the match runner's fuzz target, which hands it whatever move
/// an engine's output gave.
pub fn read_engine_move<const W: usize>(
    game: &Game<W>,
    pos: &mut Position<W>,
    protocol: Protocol,
    text: &str,
) -> Result<Vec<Move>, String> {
    let text = match protocol {
        Protocol::Uci => text.to_string(),
        // Read as kirin's coordinates, so that the repetition rule is checked as for the
        // other protocols.
        Protocol::Usi => game.usi_to_coordinates(text).map_err(|e| e.to_string())?,
        Protocol::Cecp => Ranks::for_height(game.geo.height).from_wire(text),
    };
    game.parse_san(pos, &text).map_err(|e| e.to_string())
}

/// cutechess's words for a win by the rules.
fn win_reason(winner: Color, reason: &str) -> String {
    match reason {
        "checkmate" => format!("{} mates", winner.name()),
        _ => format!("{} wins by {reason}", winner.name()),
    }
}

/// A move's PGN comment as cutechess writes it: `+0.35/12 0.51s`.
fn move_comment(thought: super::engine::Thought, used: Duration) -> String {
    let time = format!("{}s", super::options::trim_float(used.as_secs_f64()));
    match (thought.score, thought.depth) {
        (Some(s), Some(d)) => format!("{}/{d} {time}", s.pgn()),
        (Some(s), None) => format!("{} {time}", s.pgn()),
        _ => time,
    }
}

/// The PGN `TimeControl` of an engine: its clock, `N/move` for a fixed time, `-` else.
fn time_control_tag(e: &EngineConfig) -> String {
    if let Some(tc) = e.tc {
        return tc.pgn();
    }
    if let Some(st) = e.movetime {
        return format!("{}/move", super::options::trim_float(st.as_secs_f64()));
    }
    "-".into()
}

fn duration_tag(d: Duration) -> String {
    let s = d.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Today's date in PGN's form (`2026.11.23`), from the system clock (UTC).
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_780), (2026, 11, 23));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    /// An engine's `i32::MIN` and an option's `i32::MIN` are compared, not overflowed
    /// (the engine-output fuzz target reports such scores).
    #[test]
    fn adjudication_takes_extreme_scores() {
        let scores = Scores([vec![Some(i32::MIN)], vec![Some(i32::MAX)]]);
        assert!(!scores.drawn(1, 10));
        assert!(
            !scores.drawn(1, i32::MAX),
            "|i32::MIN| is one over i32::MAX"
        );
        assert!(Scores([vec![Some(-i32::MAX)], vec![Some(i32::MAX)]]).drawn(1, i32::MAX));
        assert!(scores.lost(WHITE, 1, 600));
        assert!(!scores.lost(crate::core::BLACK, 1, 600));
        assert!(scores.won(crate::core::BLACK, 1, 600));
        assert!(scores.lost(crate::core::BLACK, 1, i32::MIN));
        assert!(!scores.won(WHITE, 1, i32::MIN + 1));
    }

    #[test]
    fn comments() {
        let t = super::super::engine::Thought {
            score: Some(super::super::engine::Score::Centipawns(35)),
            depth: Some(12),
        };
        assert_eq!(
            move_comment(t, Duration::from_millis(510)),
            "+0.35/12 0.51s"
        );
        assert_eq!(
            move_comment(Default::default(), Duration::from_millis(2000)),
            "2s"
        );
    }
}
