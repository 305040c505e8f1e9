//! Tamerlane's citadels (docs/rules/tamerlane.md), described by the definition's
//! `citadels` and the pieces' `enters_own_citadel`:
//!
//! - whatever stands in a citadel cannot be captured, and attack detection sees no attack
//!   on a citadel;
//! - only the highest-ranking royal on the board (royals rank in the order the definition
//!   lists them) may enter the enemy citadel; doing so draws, unless in the same move it
//!   exchanges places with a lesser royal, which puts that royal in the citadel (once per
//!   game: a right written `C`/`c` in FEN; the move is written `f9a9,a9c5`);
//! - only a piece marked `enters_own_citadel` may enter its own side's citadel.

use crate::core::{Bitboard, Color, Move, MoveKind, type_of_piece};
use crate::rules::extension::{Right, RuleExtension, Slot};
use crate::rules::fen::piece_symbol;
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::outcome::Outcome;
use crate::rules::position::{Position, Undo, color_of};
use crate::rules::spec::Verdict;

#[derive(Clone, Debug)]
pub struct Citadels<const W: usize> {
    slot: Slot,
    /// Each side's own citadel, White's first.
    citadel_of: [usize; 2],
    /// Both citadel squares.
    squares: Bitboard<W>,
    /// Per piece index: may enter its own side's citadel.
    enters_own: Vec<bool>,
}

impl<const W: usize> Citadels<W> {
    pub fn new(game: &Game<W>, slot: Slot) -> Option<Self> {
        let citadel_of = game.spec.citadels?;
        let mut squares = Bitboard::EMPTY;
        citadel_of.iter().for_each(|&c| squares.set(c));
        let enters_own = (0..2 * game.types)
            .map(|pc| game.spec.pieces[type_of_piece(pc)].enters_own_citadel)
            .collect();
        Some(Citadels {
            slot,
            citadel_of,
            squares,
            enters_own,
        })
    }

    /// The piece index of the highest-ranking royal `color` has on the board.
    pub fn leading_royal(&self, game: &Game<W>, pos: &Position<W>, color: Color) -> Option<usize> {
        game.royals[color]
            .iter()
            .copied()
            .find(|&pc| !pos.by_piece[pc].is_empty())
    }

    /// True when the side that just moved has its highest-ranking royal in the citadel of
    /// the side to move: the game is drawn.
    pub fn citadel_draw(&self, game: &Game<W>, pos: &Position<W>) -> bool {
        let code = pos.board[self.citadel_of[pos.side]];
        code != 0
            && color_of(code) != pos.side
            && self.leading_royal(game, pos, pos.side.opposite()) == Some(code as usize - 1)
    }
}

impl<const W: usize> RuleExtension<W> for Citadels<W> {
    fn state_bits(&self) -> u32 {
        2
    }

    fn rights(&self) -> Vec<Right> {
        vec![self.slot.right('C', "citadel exchange")]
    }

    fn sanctuary(&self) -> Bitboard<W> {
        self.squares
    }

    fn has_immunity(&self) -> bool {
        true
    }

    fn has_outcome(&self) -> bool {
        true
    }

    fn immune(&self, _game: &Game<W>, pos: &Position<W>) -> Bitboard<W> {
        self.squares & pos.occupied()
    }

    /// Only the leading royal enters the enemy citadel, and only a piece marked
    /// `enters_own_citadel` its own.
    fn filter_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        let us = pos.side;
        let leader = self.leading_royal(game, pos, us);
        let enemy_citadel = self.citadel_of[us.opposite()];
        list.retain(|m| {
            let to = m.to();
            if !self.squares.has(to) {
                return true;
            }
            let pc = pos.board[m.from()] as usize - 1;
            if to == enemy_citadel {
                Some(pc) == leader
            } else {
                self.enters_own[pc]
            }
        });
    }

    /// The leading royal enters the enemy citadel and at once exchanges places with a
    /// lesser royal, which ends in the citadel.
    fn add_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        let us = pos.side;
        if !self.slot.holds(pos, us) {
            return;
        }
        let Some(leader) = self.leading_royal(game, pos, us) else {
            return;
        };
        let Some(from) = pos.by_piece[leader].first() else {
            return;
        };
        let citadel = self.citadel_of[us.opposite()];
        let enters = list
            .iter()
            .any(|m| m.from() == from && m.to() == citadel && m.kind() == MoveKind::Normal);
        if !enters {
            return;
        }
        let others = pos.royals(game, us).andnot(Bitboard::from_square(from));
        for partner in others.andnot(self.squares) {
            list.push(Move::rule(from, partner, citadel, self.slot.index, false));
        }
    }

    fn make_move(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        m: Move,
        u: &mut Undo,
        key: &mut u64,
    ) {
        pos.exchange(game, m, m.aux(), u, key);
        self.slot.spend(game, pos, key);
    }

    fn unmake_move(&self, _game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo) {
        pos.unexchange(m, m.aux(), u);
    }

    /// Into the citadel, then onto the partner's square: `f9a9,a9c5`.
    fn move_text(&self, game: &Game<W>, m: Move) -> String {
        let g = &game.geo;
        let via = g.name(m.aux());
        format!("{}{via},{via}{}", g.name(m.from()), g.name(m.to()))
    }

    fn readable(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> String {
        let g = &game.geo;
        let piece = piece_symbol(game, pos.board[m.from()]).to_ascii_uppercase();
        format!(
            "{piece}{}-{}<>{} (citadel exchange)",
            g.name(m.from()),
            g.name(m.aux()),
            g.name(m.to())
        )
    }

    fn outcome(&self, game: &Game<W>, pos: &Position<W>) -> Option<Outcome> {
        self.citadel_draw(game, pos).then_some(Outcome {
            verdict: Verdict::Draw,
            reason: "citadel",
        })
    }

    /// One exchange per lesser royal.
    fn move_bound(&self, game: &Game<W>, pos: &Position<W>, color: Color, _pieces: usize) -> usize {
        pos.royals(game, color).count() as usize
    }
}
