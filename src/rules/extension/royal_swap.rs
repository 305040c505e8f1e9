//! Tamerlane's King swap (docs/rules/tamerlane.md): once per game, a royal marked `swaps`
//! that is attacked, or whose side has no other legal move, may exchange places with any
//! friendly piece, provided the result is legal. Written as the royal's move onto the
//! friendly piece (`f2c5`); the right is written `S`/`s` in FEN.

use crate::core::{Bitboard, Color, Move, color_of_piece, type_of_piece};
use crate::rules::extension::{Right, RuleExtension, Slot};
use crate::rules::fen::piece_symbol;
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, Undo};

#[derive(Clone, Debug)]
pub struct RoyalSwap {
    slot: Slot,
    /// Royal piece indices that may swap, per colour.
    swappers: [Vec<usize>; 2],
}

impl RoyalSwap {
    pub fn new<const W: usize>(game: &Game<W>, slot: Slot) -> Option<Self> {
        let mut swappers = [Vec::new(), Vec::new()];
        for pc in 0..2 * game.types {
            let piece = &game.spec.pieces[type_of_piece(pc)];
            if piece.swaps && piece.royal {
                swappers[color_of_piece(pc)].push(pc);
            }
        }
        (!swappers.iter().all(Vec::is_empty)).then_some(RoyalSwap { slot, swappers })
    }
}

impl<const W: usize> RuleExtension<W> for RoyalSwap {
    fn state_bits(&self) -> u32 {
        2
    }

    fn rights(&self) -> Vec<Right> {
        vec![self.slot.right('S', "royal swap")]
    }

    fn has_legal_moves(&self) -> bool {
        true
    }

    /// Adds the royal swaps to `list`, which holds the other legal moves.
    fn add_legal_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        let us = pos.side;
        if !self.slot.holds(pos, us) {
            return;
        }
        let stuck = list.is_empty();
        let royals = pos.royals(game, us);
        let guarded = game.uses_check() && !royals.more_than_one();
        let fixed = game.immune(pos) | game.rules.sanctuary;
        for &pc in &self.swappers[us] {
            for king in pos.by_piece[pc] {
                if !stuck && !game.attacked(pos, king, us.opposite()) {
                    continue;
                }
                let partners = pos.by_color[us].andnot(fixed | Bitboard::from_square(king));
                for partner in partners {
                    // A pawn moved onto its last rank could never move again.
                    let code = pos.board[partner] as usize - 1;
                    if game.is_pawn[code] && game.last_rank[us].has(king) {
                        continue;
                    }
                    let m = Move::rule(king, partner, king, self.slot.index, false);
                    if !guarded || game.keeps_royal_safe(pos, m, king) {
                        list.push(m);
                    }
                }
            }
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
        pos.exchange(game, m, m.from(), u, key);
        self.slot.spend(game, pos, key);
    }

    fn unmake_move(&self, _game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo) {
        pos.unexchange(m, m.from(), u);
    }

    fn readable(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> String {
        let g = &game.geo;
        let piece = piece_symbol(game, pos.board[m.from()]).to_ascii_uppercase();
        format!("{piece}{}<>{} (swap)", g.name(m.from()), g.name(m.to()))
    }

    /// A swap with any friendly piece, by each swapping royal.
    fn move_bound(
        &self,
        _game: &Game<W>,
        _pos: &Position<W>,
        color: Color,
        pieces: usize,
    ) -> usize {
        pieces * self.swappers[color].len()
    }
}
