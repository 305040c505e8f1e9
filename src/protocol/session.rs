//! The game a protocol session plays: a compiled variant, its evaluation, the current
//! position with the moves that led to it, and searches run on a background thread so
//! that the protocol stays responsive.

use crate::core::{Move, PerWidth, Wide};
use crate::eval::Eval;
use crate::rules::FenError;
use crate::rules::fen::FenStyle;
use crate::rules::notation::MoveTextError;
pub use crate::rules::notation::{wire_move, wire_turn};
use crate::rules::position::Undo;
use crate::rules::sfen::SfenError;
use crate::rules::spec::VariantSpec;
use crate::rules::{Game, Position};
use crate::search::limits::Limits;
use crate::search::memory::Memory;
use crate::search::tt::Table;
use crate::search::{self, Context, Info, Progress, SearchResult};
use crate::variants::{AnyGame, SpecError};
use crate::with_width;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use thiserror::Error;

/// Why a session refused a position or a move.
#[derive(Debug, Error)]
pub enum SessionError {
    /// A FEN that is not a position of the game.
    #[error("{0}")]
    Fen(FenError),
    /// An SFEN that is not a position of the game (USI).
    #[error("{0}")]
    Sfen(SfenError),
    #[error(transparent)]
    Move(#[from] MoveTextError),
    /// A legal move that the repetition rule forbids.
    #[error("'{0}' would repeat an earlier position")]
    Repeats(String),
    /// A move of a line that was refused.
    #[error("move {number} of the line: {source}")]
    Line {
        number: usize,
        #[source]
        source: Box<SessionError>,
    },
}

/// How a session writes and reads positions and moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// FEN and coordinates (`e2e4`, `h7h8,h8h9`): UCI and CECP.
    #[default]
    Coordinates,
    /// SFEN and USI's squares (`7g7f`, `5f5e5d`): USI (`rules::sfen`).
    Usi,
}

impl Notation {
    /// A turn in this notation (`pass_text`: the protocol's word for a pass, if any).
    pub fn turn_text<const W: usize>(
        self,
        game: &Game<W>,
        turn: &[Move],
        pass_text: Option<&str>,
    ) -> String {
        match (self, turn) {
            (Notation::Usi, [m]) => game.usi_move_text(*m),
            _ => wire_turn(game, turn, pass_text),
        }
    }

    /// One move in this notation.
    pub fn move_text<const W: usize>(self, game: &Game<W>, m: Move) -> String {
        self.turn_text(game, &[m], None)
    }
}

/// Sees each completed iteration of a background search.
pub type Reporter<const W: usize> = Box<dyn FnMut(&Game<W>, &Info) + Send>;
/// Sees the progress of a long iteration, about once a second.
pub type ProgressReporter<const W: usize> = Box<dyn FnMut(&Game<W>, &Progress) + Send>;
/// Receives the result of a background search.
pub type Finisher<const W: usize> = Box<dyn FnOnce(&Game<W>, SearchResult) + Send>;

/// One game of one variant. Cloning is cheap but for the position: the compiled game
/// and its evaluation are shared.
#[derive(Clone)]
pub struct GameState<const W: usize> {
    pub game: Arc<Game<W>>,
    pub eval: Arc<Eval>,
    pub pos: Position<W>,
    /// Moves played since the last set-up, with what they destroyed.
    pub played: Vec<(Move, Undo)>,
    /// The line `set_line` last set up, while the position is still where it left it.
    line: Option<LineSetUp>,
    /// How positions and moves are written and read.
    pub notation: Notation,
}

/// A line `set_line` set up: its start, its move texts, and the position it reached (its
/// key and number of actions played), so that a later line that only adds moves to it
/// plays just those. A GUI sends the whole game before every move (UCI's `position ...
/// moves`); replaying it all took 100 ms a move after 250 plies of ShoFIDEgi, where the
/// engine's clock does not see it, and flagged games at 1+0.01.
#[derive(Clone)]
struct LineSetUp {
    fen: Option<String>,
    moves: Vec<String>,
    key: u64,
    played: usize,
}

impl<const W: usize> GameState<W> {
    /// A game of `game` at its start position.
    pub fn new(game: Game<W>) -> Self {
        let eval = Eval::new(&game);
        let pos = Position::from_fen(&game, &game.spec.start).expect("start positions parse");
        GameState {
            game: Arc::new(game),
            eval: Arc::new(eval),
            pos,
            played: Vec::new(),
            line: None,
            notation: Notation::Coordinates,
        }
    }

    /// Sets up `fen` (or the start position when `None`).
    pub fn set_position(&mut self, fen: Option<&str>) -> Result<(), SessionError> {
        self.set_position_styled(fen, FenStyle::Kirin)
    }

    /// `set_position` for a FEN written in `style` (XBoard's, under CECP).
    pub fn set_position_styled(
        &mut self,
        fen: Option<&str>,
        style: FenStyle,
    ) -> Result<(), SessionError> {
        self.pos = match (fen, self.notation) {
            (Some(sfen), Notation::Usi) => {
                self.game.parse_sfen(sfen).map_err(SessionError::Sfen)?
            }
            _ => {
                let fen = fen.unwrap_or(&self.game.spec.start);
                Position::from_fen_styled(&self.game, fen, style).map_err(SessionError::Fen)?
            }
        };
        self.played.clear();
        self.line = None;
        Ok(())
    }

    /// Sets up `fen` (the start position when `None`) and plays `moves` (texts) from it,
    /// all or nothing: the new position is built on a copy and replaces the current one
    /// (and its list of played moves) only when every move is legal. On an error nothing
    /// has changed. A line that continues the one set up last (the same start, its moves
    /// and more), with the position not changed since, plays only the moves it adds.
    pub fn set_line(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), SessionError> {
        let mut next = self.clone();
        let continued = self.line.as_ref().filter(|l| {
            l.fen.as_deref() == fen
                && l.moves.len() <= moves.len()
                && l.moves.iter().zip(moves).all(|(a, b)| a == b)
                && l.key == self.pos.key
                && l.played == self.played.len()
        });
        let from = match continued {
            Some(l) => l.moves.len(),
            None => {
                next.set_position(fen)?;
                0
            }
        };
        for (i, text) in moves.iter().enumerate().skip(from) {
            let turn = next.parse(text).map_err(|e| SessionError::Line {
                number: i + 1,
                source: Box::new(e),
            })?;
            next.play(&turn);
        }
        next.line = Some(LineSetUp {
            fen: fen.map(str::to_string),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            key: next.pos.key,
            played: next.played.len(),
        });
        *self = next;
        Ok(())
    }

    /// The turn written as `text` (`rules::turns`: one move in most games) if it is
    /// legal in the game (repetition rule included).
    pub fn parse(&mut self, text: &str) -> Result<Vec<Move>, SessionError> {
        let turn = match self.notation {
            Notation::Coordinates => self.game.parse_turn(&mut self.pos, text)?,
            // USI is offered for games of one action per turn (`Game::sfen_support`).
            Notation::Usi => vec![self.game.parse_usi_move(&mut self.pos, text)?],
        };
        if !self.game.is_legal_turn(&self.pos, &turn) {
            return Err(SessionError::Repeats(text.to_string()));
        }
        Ok(turn)
    }

    /// Plays the actions of a turn.
    pub fn play(&mut self, turn: &[Move]) {
        self.line = None;
        for &m in turn {
            let u = self.pos.make(&self.game, m);
            self.played.push((m, u));
        }
    }

    /// Takes back the last turn (every action of it); false when there is none.
    pub fn undo(&mut self) -> bool {
        self.line = None;
        let Some((m, u)) = self.played.pop() else {
            return false;
        };
        self.pos.unmake(&self.game, m, u);
        while self.pos.actions > 0
            && let Some((m, u)) = self.played.pop()
        {
            self.pos.unmake(&self.game, m, u);
        }
        true
    }

    /// A turn as the protocols write it (see `wire_turn`).
    pub fn wire(&self, turn: &[Move], pass_text: Option<&str>) -> String {
        self.notation.turn_text(&self.game, turn, pass_text)
    }

    /// Starts a search on a new thread; `report` sees each iteration, `done` the result.
    #[allow(clippy::too_many_arguments)]
    pub fn spawn_search(
        &self,
        limits: Limits,
        threads: usize,
        tt: Arc<Table>,
        memory: Arc<Memory>,
        stop: Arc<AtomicBool>,
        report: Reporter<W>,
        done: Finisher<W>,
    ) -> JoinHandle<()> {
        let quiet: ProgressReporter<W> = Box::new(|_, _| {});
        self.spawn_search_with_progress(limits, threads, tt, memory, stop, report, quiet, done)
    }

    /// `spawn_search`, with `progress` called about once a second while an iteration runs.
    #[allow(clippy::too_many_arguments)]
    pub fn spawn_search_with_progress(
        &self,
        limits: Limits,
        threads: usize,
        tt: Arc<Table>,
        memory: Arc<Memory>,
        stop: Arc<AtomicBool>,
        mut report: Reporter<W>,
        mut progress: ProgressReporter<W>,
        done: Finisher<W>,
    ) -> JoinHandle<()> {
        let (game, eval, pos) = (self.game.clone(), self.eval.clone(), self.pos.clone());
        let run = move || {
            let ctx = Context {
                game: &game,
                eval: &eval,
                tt: &tt,
                stop: &stop,
                memory: Some(&memory),
            };
            let r = search::search_with_progress(
                &ctx,
                &pos,
                &limits,
                threads,
                &mut |i| report(&game, i),
                &mut |p| progress(&game, p),
            );
            done(&game, r);
        };
        search::spawn_search_thread(run)
    }
}

/// Game states, one type per width.
pub enum GameStates {}

impl PerWidth for GameStates {
    type At<const W: usize> = GameState<W>;
}

/// A game of any board size, opened with `with_width!`.
pub type Session = Wide<GameStates>;

/// A copy of the game: the compiled game and its evaluation shared, the position and its
/// moves copied (what a protocol keeps to put its game back after a failed command).
impl Clone for Session {
    fn clone(&self) -> Session {
        with_width!(map self, s => s.clone())
    }
}

impl Session {
    pub fn new(spec: &VariantSpec) -> Result<Session, SpecError> {
        Ok(with_width!(map AnyGame::new(spec)?, g => GameState::new(*g)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    #[test]
    fn a_rejected_line_changes_nothing() {
        let mut session = Session::new(variants::find("chess").unwrap()).unwrap();
        crate::with_width!(&mut session, s => {
            s.set_line(None, &["e2e4", "e7e5", "g1f3"]).unwrap();
            let (pos, played) = (s.pos.clone(), s.played.len());
            assert!(s.set_line(None, &["d2d4", "d7d5", "zz"]).is_err());
            assert!(s.set_line(Some("8/8 w - - 0 1"), &[]).is_err());
            assert!(s.pos == pos);
            assert_eq!(s.played.len(), played);
            // The moves can still be taken back one by one.
            assert!(s.undo() && s.undo() && s.undo() && !s.undo());
            s.set_line(None, &["d2d4"]).unwrap();
            assert_eq!(s.played.len(), 1);
        });
    }

    /// A random legal line of `plies` turns from the start, as UCI move texts.
    fn random_line<const W: usize>(s: &GameState<W>, plies: usize, seed: u64) -> Vec<String> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut walk = s.clone();
        walk.set_position(None).unwrap();
        let mut texts = Vec::new();
        for _ in 0..plies {
            let mut list = crate::rules::MoveList::new();
            walk.game.game_moves(&mut walk.pos, &mut list);
            if list.is_empty() || walk.game.outcome(&mut walk.pos).is_some() {
                break;
            }
            // A turn of several actions (a Little Great Chess honour after a move) is
            // played to its end and written as one text.
            let mut turn = vec![list[rng.gen_range(0..list.len())]];
            walk.play(&turn[..1]);
            while walk.pos.actions > 0 {
                let mut more = crate::rules::MoveList::new();
                walk.game.game_moves(&mut walk.pos, &mut more);
                let Some(&m) = more.get(rng.gen_range(0..more.len().max(1))) else {
                    break;
                };
                walk.play(&[m]);
                turn.push(m);
            }
            texts.push(walk.wire(&turn, None));
        }
        texts
    }

    /// Each `position ... moves` of a game continues the one before: the session plays
    /// only the moves added, and must end where a replay of the whole line from the start
    /// ends (position, repetition history, the moves that can be taken back), in every
    /// game; after the position changed otherwise (a move played, taken back, a new
    /// start), the next line is replayed whole.
    #[test]
    fn a_continued_line_ends_where_the_whole_line_does() {
        for (n, spec) in variants::builtin().iter().enumerate() {
            let mut session = Session::new(spec).unwrap();
            crate::with_width!(&mut session, s => {
                let line = random_line(s, 80, n as u64);
                let texts: Vec<&str> = line.iter().map(String::as_str).collect();
                // A session that has set up no line, so it replays every line whole.
                let fresh = s.clone();
                let mut whole = fresh.clone();
                for k in 0..=texts.len() {
                    s.set_line(None, &texts[..k]).unwrap();
                    whole = fresh.clone();
                    whole.set_line(None, &texts[..k]).unwrap();
                    assert!(s.pos == whole.pos, "{} after {k} moves", spec.name);
                    let (a, b) = (s.played.iter().map(|p| p.0), whole.played.iter().map(|p| p.0));
                    assert!(a.eq(b), "{} after {k} moves", spec.name);
                }
                // Changed since: a move taken back is not in the next line's start.
                if texts.len() >= 2 {
                    s.undo();
                    s.set_line(None, &texts).unwrap();
                    assert!(s.pos == whole.pos, "{}: after undo", spec.name);
                    let short = &texts[..texts.len() - 2];
                    s.set_line(None, short).unwrap();
                    whole = fresh.clone();
                    whole.set_line(None, short).unwrap();
                    assert!(s.pos == whole.pos, "{}: a shorter line", spec.name);
                }
            });
        }
    }
}
