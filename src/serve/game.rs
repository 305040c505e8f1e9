//! The game a request of the web board names, and the state the board draws.
//!
//! The server keeps no game: every request carries the variant, its options, the start
//! and the actions played (by their ids), and the server replays them. A page can then be
//! reloaded, opened twice or pointed at another server without losing anything, and
//! nothing a request says can change what another request sees.

use crate::core::{Color, Move, MoveKind, WHITE};
use crate::protocol::session::{GameState, Session};
use crate::rules::Game;
use crate::rules::fen::piece_symbol;
use crate::rules::movegen::MoveList;
use crate::rules::position::color_of;
use crate::rules::reserves::{NEUTRAL, PRISONERS, reserve_color};
use crate::rules::spec::{VariantSpec, Verdict};
use crate::variants::{self, AnyGame};
use crate::with_width;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use thiserror::Error;

/// The most actions a game may carry.
pub const MAX_MOVES: usize = 4096;
/// The longest FEN read.
pub const MAX_FEN: usize = 1024;
/// The most options (`KEY=VALUE`) and the longest name or option read.
const MAX_RULES: usize = 16;
const MAX_WORD: usize = 256;
/// Compiled games kept for the next request (a page asks for the same game each move).
const CACHED_GAMES: usize = 32;

/// A game as the page names it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    pub variant: String,
    #[serde(default)]
    pub rules: Vec<String>,
    #[serde(default)]
    pub start: Option<String>,
    #[serde(default)]
    pub fen: Option<String>,
    #[serde(default)]
    pub moves: Vec<u32>,
}

/// Why a request names no game.
#[derive(Debug, Error)]
pub enum GameError {
    #[error("{0}")]
    Variant(String),
    #[error("too many {what}: at most {max}")]
    TooMany { what: &'static str, max: usize },
    #[error("{what} is longer than {max} bytes")]
    TooLong { what: &'static str, max: usize },
    #[error("no start position '{name}' in {variant} (it has {known})")]
    UnknownStart {
        name: String,
        variant: String,
        known: String,
    },
    #[error("bad FEN: {0}")]
    Fen(String),
    #[error("move {number} (id {id}) is not a legal action in its position")]
    IllegalMove { number: usize, id: u32 },
    #[error("move {number} comes after the end of the game ({reason})")]
    AfterEnd { number: usize, reason: &'static str },
}

/// Compiled games by variant name and options.
type Compiled = HashMap<(String, Vec<String>), Arc<Session>>;

/// The games the server knows (the built-in ones and a user's definitions file), and
/// those compiled so far.
pub struct Library {
    user_text: String,
    extra: Vec<VariantSpec>,
    compiled: Mutex<Compiled>,
}

impl Library {
    pub fn new(user_text: String, extra: Vec<VariantSpec>) -> Library {
        Library {
            user_text,
            extra,
            compiled: Mutex::new(HashMap::new()),
        }
    }

    /// Every game, the user's first.
    pub fn specs(&self) -> impl Iterator<Item = &VariantSpec> {
        self.extra.iter().chain(variants::builtin())
    }

    /// The game `request` names, replayed to its last action.
    pub fn open(&self, request: &GameRequest) -> Result<Session, GameError> {
        check_sizes(request)?;
        let template = self.compiled(&request.variant, &request.rules)?;
        let mut session: Session = with_width!(map &*template, s => s.clone());
        with_width!(&mut session, s => replay(s, request))?;
        crate::fault::inject(crate::fault::Fault::CommandPanic);
        Ok(session)
    }

    /// The compiled game, from the cache when it was asked for before.
    fn compiled(&self, variant: &str, rules: &[String]) -> Result<Arc<Session>, GameError> {
        let key = (variant.to_ascii_lowercase(), rules.to_vec());
        if let Some(s) = self.lock().get(&key) {
            return Ok(s.clone());
        }
        let spec = variants::find_with_rules(&self.extra, variant, rules, &self.user_text)
            .map_err(|e| GameError::Variant(e.to_string()))?;
        let any = AnyGame::new(&spec).map_err(|e| GameError::Variant(e.to_string()))?;
        let session = Arc::new(with_width!(map any, g => GameState::new(*g)));
        let mut cache = self.lock();
        if cache.len() >= CACHED_GAMES {
            cache.clear();
        }
        cache.insert(key, session.clone());
        Ok(session)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Compiled> {
        // A panic while the lock was held left a cache that is still whole.
        self.compiled.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn check_sizes(request: &GameRequest) -> Result<(), GameError> {
    let long = |what, text: &str| {
        (text.len() > MAX_WORD).then_some(GameError::TooLong {
            what,
            max: MAX_WORD,
        })
    };
    if request.rules.len() > MAX_RULES {
        return Err(GameError::TooMany {
            what: "options",
            max: MAX_RULES,
        });
    }
    if request.moves.len() > MAX_MOVES {
        return Err(GameError::TooMany {
            what: "moves",
            max: MAX_MOVES,
        });
    }
    if let Some(e) = long("the variant's name", &request.variant)
        .or_else(|| request.rules.iter().find_map(|r| long("an option", r)))
        .or_else(|| {
            request
                .start
                .as_deref()
                .and_then(|s| long("the start's name", s))
        })
    {
        return Err(e);
    }
    if request.fen.as_ref().is_some_and(|f| f.len() > MAX_FEN) {
        return Err(GameError::TooLong {
            what: "the FEN",
            max: MAX_FEN,
        });
    }
    Ok(())
}

/// Sets up the request's start and plays its actions, each checked against the legal
/// actions of its position.
fn replay<const W: usize>(s: &mut GameState<W>, request: &GameRequest) -> Result<(), GameError> {
    let fen = match (&request.fen, &request.start) {
        (Some(fen), _) => Some(fen.clone()),
        (None, Some(name)) if !name.is_empty() => Some(start_fen(&s.game.spec, name)?),
        _ => None,
    };
    s.set_position(fen.as_deref())
        .map_err(|e| GameError::Fen(e.to_string()))?;
    let mut list = MoveList::new();
    for (i, &id) in request.moves.iter().enumerate() {
        if let Some(o) = s.game.outcome(&mut s.pos) {
            return Err(GameError::AfterEnd {
                number: i + 1,
                reason: o.reason,
            });
        }
        s.game.game_moves(&mut s.pos, &mut list);
        let m = Move::from_bits(id)
            .filter(|m| list.contains(m))
            .ok_or(GameError::IllegalMove { number: i + 1, id })?;
        s.play(&[m]);
    }
    Ok(())
}

fn start_fen(spec: &VariantSpec, name: &str) -> Result<String, GameError> {
    spec.starts
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, fen)| fen.clone())
        .ok_or_else(|| GameError::UnknownStart {
            name: name.to_string(),
            variant: spec.name.clone(),
            known: if spec.starts.is_empty() {
                "no other".to_string()
            } else {
                spec.starts
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        })
}

/// A piece as the board draws it.
#[derive(Serialize)]
pub struct PieceView {
    /// The FEN letter, upper case for White (`+P`, `R'`).
    letter: String,
    color: &'static str,
    name: String,
    promoted: bool,
    kanji: Option<String>,
    romaji: Option<String>,
    /// The piece a carrier holds.
    carried: Option<Box<PieceView>>,
}

/// The pieces of one reserve.
#[derive(Serialize)]
pub struct ReserveView {
    /// The reserve's number, which a drop names (`DropView::reserve`).
    index: usize,
    owner: &'static str,
    kind: &'static str,
    pieces: Vec<HeldPiece>,
}

#[derive(Serialize)]
pub struct HeldPiece {
    piece: PieceView,
    count: u8,
}

#[derive(Serialize)]
pub struct OutcomeView {
    result: &'static str,
    reason: &'static str,
}

/// A legal action and how a person makes it.
#[derive(Serialize)]
pub struct LegalAction {
    id: u32,
    text: String,
    san: String,
    /// The squares clicked, in order (module doc of `docs/web.md`).
    path: Vec<usize>,
    drop: Option<DropView>,
    label: String,
}

#[derive(Serialize)]
pub struct DropView {
    reserve: usize,
    letter: String,
}

/// An action of the game so far.
#[derive(Serialize)]
pub struct HistoryEntry {
    id: u32,
    text: String,
    /// The squares of the action, as a legal action's path.
    path: Vec<usize>,
    san: String,
    side: &'static str,
    /// The action ended its side's turn.
    turn_end: bool,
}

/// The position after a game's actions, with everything the board draws and offers.
#[derive(Serialize)]
pub struct StateView {
    variant: String,
    width: usize,
    height: usize,
    holes: Vec<usize>,
    citadels: Option<[usize; 2]>,
    board: Vec<Option<PieceView>>,
    reserves: Vec<ReserveView>,
    side: &'static str,
    actions_made: u8,
    in_check: bool,
    fen: String,
    ply: usize,
    outcome: Option<OutcomeView>,
    legal: Vec<LegalAction>,
    history: Vec<HistoryEntry>,
}

pub fn color_name(c: Color) -> &'static str {
    if c == WHITE { "white" } else { "black" }
}

/// The state the board draws.
pub fn state_view<const W: usize>(s: &GameState<W>) -> StateView {
    let g = &*s.game;
    let mut pos = s.pos.clone();
    let outcome = g.outcome(&mut pos).map(|o| OutcomeView {
        result: result_text(o.verdict, pos.side),
        reason: o.reason,
    });
    StateView {
        variant: g.spec.name.clone(),
        width: g.geo.width,
        height: g.geo.height,
        holes: (0..g.squares).filter(|&sq| g.geo.holes[sq]).collect(),
        citadels: g.spec.citadels,
        board: (0..g.squares).map(|sq| square_piece(s, sq)).collect(),
        reserves: reserves(s),
        side: color_name(pos.side),
        actions_made: pos.actions,
        in_check: g.uses_check() && g.in_check(&pos),
        fen: pos.to_fen(g),
        ply: s.played.len(),
        legal: if outcome.is_some() {
            Vec::new()
        } else {
            legal_actions(s)
        },
        outcome,
        history: history(s),
    }
}

/// The result the verdict for the side to move gives the game.
pub fn result_text(verdict: Verdict, side: Color) -> &'static str {
    match (verdict, side == WHITE) {
        (Verdict::Draw, _) => "1/2-1/2",
        (Verdict::Loss, true) | (Verdict::Win, false) => "0-1",
        (Verdict::Loss, false) | (Verdict::Win, true) => "1-0",
    }
}

fn piece_view<const W: usize>(s: &GameState<W>, code: u8) -> PieceView {
    let spec = &s.game.spec.pieces[(code as usize - 1) / 2];
    let letter = piece_symbol(&s.game, code);
    PieceView {
        promoted: letter.starts_with('+'),
        letter,
        color: color_name(color_of(code)),
        name: spec.name.clone(),
        kanji: spec.kanji.clone(),
        romaji: spec.romaji.clone(),
        carried: None,
    }
}

fn square_piece<const W: usize>(s: &GameState<W>, sq: usize) -> Option<PieceView> {
    let code = s.pos.board[sq];
    (code != 0).then(|| {
        let mut view = piece_view(s, code);
        let passenger = s.pos.carried.get(sq).copied().unwrap_or(0);
        if passenger != 0 {
            view.carried = Some(Box::new(piece_view(s, passenger)));
        }
        view
    })
}

fn reserves<const W: usize>(s: &GameState<W>) -> Vec<ReserveView> {
    let g = &*s.game;
    let count = g.reserves.count;
    (0..count)
        // With prisoners the neutral reserve is unused.
        .filter(|&r| !(r == NEUTRAL && count > PRISONERS))
        .map(|r| {
            let color = reserve_color(r);
            let pieces = (0..g.types)
                .filter_map(|t| {
                    let count = s.pos.in_reserve(g, r, t);
                    (count > 0).then(|| HeldPiece {
                        piece: piece_view(s, crate::rules::position::board_code(t, color)),
                        count,
                    })
                })
                .collect();
            let (owner, kind) = match r {
                NEUTRAL => ("neutral", "hand"),
                r if r >= PRISONERS => (color_name(color.opposite()), "prisoners"),
                _ => (color_name(color), "hand"),
            };
            ReserveView {
                index: r,
                owner,
                kind,
                pieces,
            }
        })
        .collect()
}

fn legal_actions<const W: usize>(s: &GameState<W>) -> Vec<LegalAction> {
    let g = &*s.game;
    let mut pos = s.pos.clone();
    let mut list = MoveList::new();
    g.game_moves(&mut pos, &mut list);
    list.iter()
        .map(|&m| {
            let text = g.move_text(m);
            let san = g.san(&mut pos, &[m]);
            LegalAction {
                id: m.bits(),
                // A rule's move says in words what it does (a Cannon that boards or
                // leaves, a ransom, the end of a turn), which its text does not.
                label: if m.kind() == MoveKind::Rule || text.is_empty() {
                    crate::cli_search::readable(g, &pos, m)
                } else {
                    san.clone()
                },
                san,
                path: path(g, m),
                drop: (m.kind() == MoveKind::Drop).then(|| DropView {
                    reserve: m.from(),
                    letter: g.spec.pieces[m.aux()].letter.to_ascii_uppercase(),
                }),
                text,
            }
        })
        .collect()
}

/// The squares a person clicks to make `m`.
fn path<const W: usize>(g: &Game<W>, m: Move) -> Vec<usize> {
    match m.kind() {
        MoveKind::TwoLeg => vec![m.from(), m.aux(), m.to()],
        MoveKind::Pass => vec![m.from(), m.aux(), m.from()],
        MoveKind::Drop => vec![m.to()],
        MoveKind::MultiLeg => std::iter::once(m.from())
            .chain(g.captures_on_the_way(m).iter().map(|&sq| sq as usize))
            .chain(std::iter::once(m.to()))
            .collect(),
        MoveKind::Castle if g.castling_onto_rook => vec![m.from(), m.aux()],
        MoveKind::Rule => g.rule_move_squares(m),
        _ => vec![m.from(), m.to()],
    }
}

fn history<const W: usize>(s: &GameState<W>) -> Vec<HistoryEntry> {
    let g = &*s.game;
    let mut pos = s.pos.clone();
    for (m, u) in s.played.iter().rev() {
        pos.unmake(g, *m, *u);
    }
    s.played
        .iter()
        .map(|&(m, _)| {
            let side = pos.side;
            let san = g.san(&mut pos, &[m]);
            pos.make(g, m);
            HistoryEntry {
                id: m.bits(),
                text: g.move_text(m),
                path: path(g, m),
                san,
                side: color_name(side),
                turn_end: pos.side != side,
            }
        })
        .collect()
}
