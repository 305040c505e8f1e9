//! Reserves ("hands"): pieces held off the board. A game with `drops = true` gives each
//! side a reserve into which the pieces it captures go, as the piece type they become in
//! hand (a promoted piece usually returns to its unpromoted form), and from which it may
//! drop them back as a whole move (`MoveKind::Drop`). A game may also have a neutral
//! reserve (index 2) that belongs to neither side, filled and emptied by its own rules.
//!
//! A position keeps the counts in `Position::hands`, reserve by reserve, one byte per
//! piece type. The key of a reserve holding `n` pieces of a type is the xor of that type's
//! first `n` keys, so adding or taking one piece changes the key by one table entry.

use crate::core::{
    Bitboard, Color, Move, MoveKind, WHITE, color_of_piece, piece_index, type_of_piece,
};
use crate::rules::fen::piece_symbol;
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, board_code};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The reserve of the neutral pieces, in games that have one.
pub const NEUTRAL: usize = 2;

/// The prisoners held by White (Black's pieces), in games with prisoners; Black's
/// prisoners follow (`PRISONERS + 1`, White's pieces).
pub const PRISONERS: usize = 3;

/// The reserve of the prisoners `holder` has taken.
#[inline(always)]
pub fn prisoners_of(holder: Color) -> usize {
    PRISONERS + holder.index()
}

/// The colour of the pieces in `reserve`: its side's, or for prisoners the other side's.
#[inline(always)]
pub fn reserve_color(reserve: usize) -> Color {
    if reserve >= PRISONERS {
        Color::from_index(reserve - PRISONERS).opposite()
    } else {
        Color::from_index(reserve)
    }
}

/// What a game's reserves are, computed once when the game is compiled.
#[derive(Clone, Debug)]
pub struct Reserves<const W: usize> {
    /// How many reserves the game has: 0 (no drops), 2 (one per side), 3 (and the
    /// neutral one) or 5 (and each side's prisoners, the neutral one then unused).
    pub count: usize,
    types: usize,
    /// Per piece index: the piece type it becomes in a reserve.
    pub hand_type: Vec<usize>,
    /// Per piece index: the squares on which it may be dropped, when they are empty.
    pub drop_zone: Vec<Bitboard<W>>,
    /// The squares on which a capture goes to the captor's reserve (`hand_squares`);
    /// a capture elsewhere goes to the neutral reserve.
    pub hand_squares: Bitboard<W>,
    /// The most pieces of one type a FEN may put in a reserve: every piece of the start
    /// position (at most 200), which play cannot exceed unless a game's rules create
    /// pieces; past it the last key repeats, which keeps the key consistent.
    pub max_count: usize,
    /// `keys[(reserve * types + type) * max_count + i]`: the key of the `i`-th piece.
    keys: Vec<u64>,
}

impl<const W: usize> Reserves<W> {
    /// No reserves.
    pub fn none() -> Self {
        Reserves {
            count: 0,
            types: 0,
            hand_type: Vec::new(),
            drop_zone: Vec::new(),
            hand_squares: Bitboard::EMPTY,
            max_count: 0,
            keys: Vec::new(),
        }
    }

    /// The reserves `game`'s definition asks for; `start_pieces` is the number of pieces
    /// in its start position.
    pub fn of(game: &Game<W>, start_pieces: usize) -> Self {
        let spec = &game.spec;
        if !spec.drops && !spec.neutral_reserve {
            return Self::none();
        }
        let count = if spec.prisoners {
            PRISONERS + 2
        } else if spec.neutral_reserve {
            3
        } else {
            2
        };
        let types = game.types;
        let max_count = start_pieces.clamp(1, 200);
        // Keys from their own seed, so that the keys of games without reserves stay as
        // they were.
        let mut rng = ChaCha8Rng::seed_from_u64(0x6b69_7269_6e5f_6861);
        let keys = (0..count * types * max_count)
            .map(|_| rng.next_u64())
            .collect();
        let hand_squares = hand_squares(game);
        Reserves {
            count,
            types,
            hand_type: (0..2 * types)
                .map(|pc| hand_type(game, type_of_piece(pc)))
                .collect(),
            drop_zone: (0..2 * types)
                .map(|pc| drop_zone(game, pc) & hand_squares)
                .collect(),
            hand_squares,
            max_count,
            keys,
        }
    }

    /// Whether the game has reserves at all.
    #[inline(always)]
    pub fn exist(&self) -> bool {
        self.count != 0
    }

    /// The index of piece type `t` of `reserve` in `Position::hands`.
    #[inline(always)]
    pub fn slot(&self, reserve: usize, t: usize) -> usize {
        reserve * self.types + t
    }

    /// The key of the `i`-th piece (from 0) of type `t` in `reserve`.
    #[inline(always)]
    fn key(&self, reserve: usize, t: usize, i: usize) -> u64 {
        self.keys[(reserve * self.types + t) * self.max_count + i.min(self.max_count - 1)]
    }
}

/// The squares of `hand_squares`, or every square.
fn hand_squares<const W: usize>(game: &Game<W>) -> Bitboard<W> {
    game.spec
        .hand_squares
        .map_or(game.valid, |parity| points(game, parity))
}

/// The squares whose file and rank numbers (counted from 1) are odd or even as
/// `(odd_file, odd_rank)` say.
pub fn points<const W: usize>(game: &Game<W>, (odd_file, odd_rank): (bool, bool)) -> Bitboard<W> {
    let mut b = Bitboard::EMPTY;
    for sq in game.valid.iter() {
        // Index 0 is the odd file a and the odd rank 1.
        let file_odd = game.geo.file(sq).is_multiple_of(2);
        let rank_odd = game.geo.rank(sq).is_multiple_of(2);
        if file_odd == odd_file && rank_odd == odd_rank {
            b.set(sq);
        }
    }
    b
}

/// The piece type a piece of type `t` becomes in a reserve: what its definition says,
/// else the one type that promotes to it if it is a promoted (`+`) piece, else itself.
fn hand_type<const W: usize>(game: &Game<W>, t: usize) -> usize {
    let spec = &game.spec;
    if let Some(h) = spec.pieces[t].in_hand {
        return h;
    }
    if spec.pieces[t].letter.starts_with('+') {
        let mut from = (0..game.types).filter(|&b| spec.pieces[b].promotes_to.contains(&t));
        if let (Some(b), None) = (from.next(), from.next()) {
            return b;
        }
    }
    t
}

/// The squares a piece of index `pc` may be dropped on: where it need not promote at once
/// and still has a move on an empty board, within its `drop_ranks` if it has them. A
/// royal piece is never dropped.
fn drop_zone<const W: usize>(game: &Game<W>, pc: usize) -> Bitboard<W> {
    let (t, color) = (type_of_piece(pc), color_of_piece(pc));
    if game.is_royal[pc] {
        return Bitboard::EMPTY;
    }
    let h = game.geo.height;
    let forced = game.promotions[pc]
        .as_ref()
        .map_or(Bitboard::EMPTY, |p| p.forced);
    let mut zone = Bitboard::EMPTY;
    for sq in game.valid.iter() {
        let rank = game.geo.rank(sq);
        let own_rank = 1 + if color == WHITE { rank } else { h - 1 - rank } as u32;
        let in_ranks = game.spec.pieces[t]
            .drop_ranks
            .is_none_or(|(lo, hi)| (lo..=hi).contains(&own_rank));
        if in_ranks && !forced.has(sq) && game.has_move_from(pc, sq) {
            zone.set(sq);
        }
    }
    zone
}

impl<const W: usize> Game<W> {
    /// Whether a piece of index `pc` on `sq` has any move on an otherwise empty board.
    fn has_move_from(&self, pc: usize, sq: usize) -> bool {
        let tab = &self.tables[pc];
        !tab.leap_move[sq].is_empty()
            || !tab.leap_capture[sq].is_empty()
            || !tab.specials[sq].is_empty()
            || !tab.two_legs[sq].is_empty()
            || tab
                .slides
                .iter()
                .any(|s| !self.rays[s.dir as usize * self.squares + sq].is_empty())
    }

    /// The reserve a piece captured by `captor` on `sq` goes to, if any: the captor's
    /// own, in a game with drops (the neutral one off the game's `hand_squares`), or its
    /// prisoners.
    #[inline]
    pub fn capture_reserve(&self, captor: Color, sq: usize) -> Option<usize> {
        if self.spec.prisoners {
            return Some(prisoners_of(captor));
        }
        if !self.reserves.hand_squares.has(sq) {
            return self.spec.neutral_reserve.then_some(NEUTRAL);
        }
        self.spec.drops.then_some(captor.index())
    }

    /// The piece type a captured piece `code` is in `reserve`: a captor's reserve holds it
    /// as it becomes in hand, the neutral reserve as it is.
    #[inline]
    pub fn reserve_type(&self, reserve: usize, code: u8) -> usize {
        if reserve == NEUTRAL {
            type_of_piece(code as usize - 1)
        } else {
            self.reserves.hand_type[code as usize - 1]
        }
    }

    /// The side to move's drops: each piece type in its reserve onto every empty square
    /// of that piece's drop zone.
    pub(crate) fn drop_moves(&self, pos: &Position<W>, list: &mut MoveList) {
        let r = &self.reserves;
        let side = pos.side;
        let empty = self.valid.andnot(pos.occupied());
        for t in 0..self.types {
            if pos.hands[r.slot(side.index(), t)] == 0 {
                continue;
            }
            for to in (r.drop_zone[piece_index(t, side)] & empty).iter() {
                list.push(Move::drop(side.index(), t, to));
            }
        }
    }

    /// The most drops `color` can have in one position: every piece type that can be in
    /// its reserve onto every square of its zone (for the move-list capacity check).
    pub(crate) fn drop_bound(&self, color: Color) -> usize {
        let r = &self.reserves;
        if !self.spec.drops {
            return 0;
        }
        let mut in_hand: Vec<usize> = r.hand_type.clone();
        in_hand.sort_unstable();
        in_hand.dedup();
        in_hand
            .iter()
            .map(|&t| r.drop_zone[piece_index(t, color)].count() as usize)
            .sum()
    }
}

impl<const W: usize> Position<W> {
    /// The board code of the piece `m` moves: for a drop, the piece it puts down.
    #[inline(always)]
    pub fn mover(&self, m: Move) -> u8 {
        if m.kind() == MoveKind::Drop {
            board_code(m.aux(), self.side)
        } else {
            self.board[m.from()]
        }
    }

    /// How many pieces of type `t` `reserve` holds.
    #[inline]
    pub fn in_reserve(&self, game: &Game<W>, reserve: usize, t: usize) -> u8 {
        self.hands[game.reserves.slot(reserve, t)]
    }

    /// The FEN symbols of the pieces in `reserve`, each as often as it is held, in piece
    /// order (the neutral reserve's written as White's: they have no colour).
    pub fn reserve_symbols(&self, game: &Game<W>, reserve: usize) -> Vec<String> {
        let color = reserve_color(reserve);
        (0..game.types)
            .flat_map(|t| {
                let symbol = piece_symbol(game, board_code(t, color));
                std::iter::repeat_n(symbol, self.in_reserve(game, reserve, t) as usize)
            })
            .collect()
    }

    /// Puts one piece of type `t` into `reserve`, updating `key`. The caller has checked
    /// that the reserve has room (`Reserves::max_count`).
    #[inline]
    pub(crate) fn add_to_reserve(
        &mut self,
        game: &Game<W>,
        reserve: usize,
        t: usize,
        key: &mut u64,
    ) {
        let slot = game.reserves.slot(reserve, t);
        let n = self.hands[slot] as usize;
        *key ^= game.reserves.key(reserve, t, n);
        self.hands[slot] += 1;
    }

    /// Takes one piece of type `t` out of `reserve`, updating `key`.
    #[inline]
    pub(crate) fn take_from_reserve(
        &mut self,
        game: &Game<W>,
        reserve: usize,
        t: usize,
        key: &mut u64,
    ) {
        let slot = game.reserves.slot(reserve, t);
        self.hands[slot] -= 1;
        *key ^= game.reserves.key(reserve, t, self.hands[slot] as usize);
    }

    /// Puts the piece `code` captured on `sq` into the reserve its captor's game sends it
    /// to; returns that reserve (`u8::MAX` for none).
    #[inline]
    pub(crate) fn stash(
        &mut self,
        game: &Game<W>,
        captor: Color,
        code: u8,
        sq: usize,
        key: &mut u64,
    ) -> u8 {
        match game.capture_reserve(captor, sq) {
            Some(r) => {
                let t = game.reserve_type(r, code);
                self.add_to_reserve(game, r, t, key);
                r as u8
            }
            None => u8::MAX,
        }
    }

    /// Takes back `stash`.
    #[inline]
    pub(crate) fn unstash(&mut self, game: &Game<W>, reserve: u8, code: u8) {
        if reserve != u8::MAX {
            let t = game.reserve_type(reserve as usize, code);
            self.hands[game.reserves.slot(reserve as usize, t)] -= 1;
        }
    }

    /// The reserves' part of the key.
    pub(crate) fn reserves_key(&self, game: &Game<W>) -> u64 {
        let r = &game.reserves;
        let mut k = 0;
        for reserve in 0..r.count {
            for t in 0..game.types {
                for i in 0..self.hands[r.slot(reserve, t)] as usize {
                    k ^= r.key(reserve, t, i);
                }
            }
        }
        k
    }
}
