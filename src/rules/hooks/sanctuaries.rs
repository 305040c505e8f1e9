//! Tamerlane's sanctuaries (docs/rules/tamerlane.md), described by data: the definition's
//! `citadels` and the pieces' `rests_on_last_rank`, `redeploy` and `enters_own_citadel`.
//!
//! - Whatever stands in a citadel, and a resting piece on its last rank, cannot be
//!   captured.
//! - Only the highest-ranking royal on the board (royals rank in the order the definition
//!   lists them) may enter the enemy citadel; doing so draws (`citadel_draw`), unless in
//!   the same move it exchanges places with a lesser royal, which puts that royal in the
//!   citadel (once per game: the `EXCHANGE` privilege; written `f9a9,a9c5`).
//! - Only a piece marked `enters_own_citadel` may enter its own side's citadel.
//! - A resting piece moves only by redeployment: to a square from which the piece it
//!   becomes would attack two enemy men or one that cannot escape (whatever stands there
//!   is removed), or to a fixed square when that is empty.

use crate::core::{Bitboard, Color, Move, MoveKind};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{EXCHANGE, Position, color_of};
use crate::variants::spec::Redeploy;

impl<const W: usize> Game<W> {
    /// Squares whose pieces cannot be captured: occupied citadels and resting pieces.
    pub fn immune(&self, pos: &Position<W>) -> Bitboard<W> {
        (self.citadels & pos.occupied()) | self.resting(pos, 0) | self.resting(pos, 1)
    }

    /// The resting pieces of `color`: on their last rank, immobile but for redeployment.
    pub fn resting(&self, pos: &Position<W>, color: Color) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        for pc in (color..2 * self.types)
            .step_by(2)
            .filter(|&pc| self.rests[pc])
        {
            b |= pos.by_piece[pc] & self.last_rank[color];
        }
        b
    }

    /// The piece index of the highest-ranking royal `color` has on the board.
    pub fn leading_royal(&self, pos: &Position<W>, color: Color) -> Option<usize> {
        self.royals[color]
            .iter()
            .copied()
            .find(|&pc| !pos.by_piece[pc].is_empty())
    }

    /// True when the side that just moved has its highest-ranking royal in the citadel of
    /// the side to move: the game is drawn.
    pub fn citadel_draw(&self, pos: &Position<W>) -> bool {
        let Some(own) = self.citadel_of else {
            return false;
        };
        let code = pos.board[own[pos.side]];
        code != 0
            && color_of(code) != pos.side
            && self.leading_royal(pos, pos.side ^ 1) == Some(code as usize - 1)
    }

    /// Applies the sanctuary rules to the pseudo-legal moves in `list` and adds the
    /// redeployments and citadel exchanges.
    pub(crate) fn sanctuary_moves(&self, pos: &mut Position<W>, list: &mut MoveList) {
        let us = pos.side;
        let immune = self.immune(pos);
        let leader = self.leading_royal(pos, us);
        let resting = self.resting(pos, us);
        let enemy_citadel = self.citadel_of.map(|c| c[us ^ 1]);
        list.retain(|m| {
            let (from, to) = (m.from(), m.to());
            let pc = pos.board[from] as usize - 1;
            let takes_immune = (to != from && immune.has(to))
                || (m.kind() == MoveKind::TwoLeg && immune.has(m.aux()));
            let enters_citadel_badly = self.citadels.has(to)
                && if Some(to) == enemy_citadel {
                    Some(pc) != leader
                } else {
                    !self.enters_own_citadel[pc]
                };
            !resting.has(from) && !takes_immune && !enters_citadel_badly
        });
        for from in resting {
            self.redeployments(pos, from, immune, list);
        }
        if let (Some(citadel), Some(leader)) = (enemy_citadel, leader) {
            self.citadel_exchanges(pos, leader, citadel, list);
        }
    }

    /// The leading royal enters the enemy citadel and at once exchanges places with a
    /// lesser royal, which ends in the citadel.
    fn citadel_exchanges(
        &self,
        pos: &Position<W>,
        leader: usize,
        citadel: usize,
        list: &mut MoveList,
    ) {
        let us = pos.side;
        if pos.privileges & (EXCHANGE << (2 * us)) == 0 {
            return;
        }
        let Some(from) = pos.by_piece[leader].first() else {
            return;
        };
        let enters = list
            .iter()
            .any(|m| m.from() == from && m.to() == citadel && m.kind() == MoveKind::Normal);
        if !enters {
            return;
        }
        let others = pos.royals(self, us).andnot(Bitboard::from_square(from));
        for partner in others.andnot(self.citadels) {
            list.push(Move::with_aux(from, partner, citadel, MoveKind::Swap));
        }
    }

    /// Redeployments of the resting piece on `from`.
    fn redeployments(
        &self,
        pos: &mut Position<W>,
        from: usize,
        immune: Bitboard<W>,
        list: &mut MoveList,
    ) {
        let pc = pos.board[from] as usize - 1;
        let Some(becomes) = self.redeploys_as[pc] else {
            return;
        };
        match self.redeploy[pc] {
            Redeploy::Never => {}
            Redeploy::To(sq) => {
                if pos.board[sq] == 0 {
                    list.push(Move::redeploy(from, sq, becomes));
                }
            }
            Redeploy::ForkOrTrap => {
                let us = pc & 1;
                let royal = pos.royals(self, 0) | pos.royals(self, 1);
                let targets = self.valid.andnot(self.citadels | immune | royal);
                let prey = pos.by_color[us ^ 1].andnot(immune);
                for to in targets.andnot(Bitboard::from_square(from)) {
                    let attacked = self.tables[becomes].leap_capture[to] & prey;
                    let m = Move::redeploy(from, to, becomes);
                    let good = match attacked.count() {
                        0 => false,
                        1 => self.cannot_escape(pos, m, attacked.first().expect("one")),
                        _ => true,
                    };
                    if good {
                        list.push(m);
                    }
                }
            }
        }
    }

    /// After the redeployment `m`, the enemy man on `victim` has no move to a square the
    /// redeploying side does not attack. (An approximation of "a man that cannot escape",
    /// docs/rules/tamerlane.md: interpositions and counter-threats are not considered.)
    fn cannot_escape(&self, pos: &mut Position<W>, m: Move, victim: usize) -> bool {
        let us = pos.side;
        let u = pos.make(self, m);
        // The victim's side is to move now: its pseudo-legal moves from `victim`.
        let mut list = MoveList::new();
        self.pseudo_moves(pos, &mut list);
        let mut reach = Bitboard::EMPTY;
        for n in list
            .iter()
            .filter(|n| n.from() == victim && n.to() != victim)
        {
            reach.set(n.to());
        }
        let trapped = reach.andnot(self.citadels).iter().all(|to| {
            let step = Move::new(victim, to, MoveKind::Normal);
            let v = pos.make(self, step);
            let hit = self.attacked(pos, to, us);
            pos.unmake(step, v);
            hit
        });
        pos.unmake(m, u);
        trapped
    }
}
