//! Tamerlane's King swap (docs/rules/tamerlane.md): once per game, a royal marked `swaps` that
//! is attacked, or whose side has no other legal move, may exchange places with any
//! friendly piece, provided the result is legal. Written as the royal's move onto the
//! friendly piece (`f2c5`).

use crate::core::{Bitboard, Move, MoveKind};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, SWAP};

impl<const W: usize> Game<W> {
    /// Adds the royal swaps to `list`, which holds the other legal moves.
    pub(crate) fn royal_swaps(&self, pos: &mut Position<W>, list: &mut MoveList) {
        let us = pos.side;
        if pos.privileges & (SWAP << (2 * us)) == 0 {
            return;
        }
        let stuck = list.is_empty();
        let royals = pos.royals(self, us);
        let guarded = self.uses_check() && !royals.more_than_one();
        let fixed = self.immune(pos) | self.citadels;
        for &pc in &self.swappers[us] {
            for king in pos.by_piece[pc] {
                if !stuck && !self.attacked(pos, king, us ^ 1) {
                    continue;
                }
                let partners = pos.by_color[us].andnot(fixed | Bitboard::from_square(king));
                for partner in partners {
                    // A pawn moved onto its last rank could never move again.
                    let code = pos.board[partner] as usize - 1;
                    if self.is_pawn[code] && self.last_rank[us].has(king) {
                        continue;
                    }
                    let m = Move::with_aux(king, partner, king, MoveKind::Swap);
                    if !guarded || self.keeps_royal_safe(pos, m, king) {
                        list.push(m);
                    }
                }
            }
        }
    }
}
