//! Chu Shogi's Lion-trading rules (docs/rules/chu.md), as HaChu applies them:
//! 1. a Lion may always take an adjacent Lion;
//! 2. a Lion may take a non-adjacent Lion only if that Lion is unprotected after the move
//!    (so protection through the Lion's vacated square counts, and a piece taken on the way
//!    protects nothing), unless the first leg of the move took a piece that is neither a
//!    Pawn nor a Go-Between (the "bridge");
//! 3. counter-strike: after a non-Lion took a Lion, the side to move may not take a Lion
//!    with a non-Lion. With the Okazaki option it may, if that Lion is unprotected after
//!    the move. A Kirin that takes a Lion and promotes to one still counts as a non-Lion.

use crate::core::{Move, MoveKind};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::Position;

impl<const W: usize> Game<W> {
    /// Removes the moves the Lion-trading rules forbid.
    pub(crate) fn filter_lion_captures(&self, pos: &mut Position<W>, list: &mut MoveList) {
        let mut i = 0;
        while i < list.len() {
            if self.lion_capture_allowed(pos, list[i]) {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
    }

    fn lion_capture_allowed(&self, pos: &mut Position<W>, m: Move) -> bool {
        let lion_on = |sq: usize| {
            let code = pos.board[sq];
            code != 0 && self.is_lion[code as usize - 1]
        };
        let (from, to) = (m.from(), m.to());
        let via = (m.kind() == MoveKind::TwoLeg).then(|| m.aux());
        let takes_lion_at_to = to != from && lion_on(to);
        let takes_lion_at_via = via.is_some_and(lion_on);
        if !takes_lion_at_to && !takes_lion_at_via {
            return true;
        }
        let mover_is_lion = self.is_lion[pos.board[from] as usize - 1];
        if !mover_is_lion {
            return !pos.lion_strike || (self.spec.okazaki && self.unprotected_after(pos, m));
        }
        // A Lion takes a Lion on the first leg only next to itself: always allowed. What
        // remains is a Lion taken at the end square.
        if !takes_lion_at_to || self.adjacent(from, to) {
            return true;
        }
        let bridge = via.is_some_and(|v| {
            let code = pos.board[v];
            code != 0 && !self.no_bridge[code as usize - 1]
        });
        bridge || self.unprotected_after(pos, m)
    }

    /// True when, after `m`, no enemy piece attacks the square the mover ends on.
    fn unprotected_after(&self, pos: &mut Position<W>, m: Move) -> bool {
        let them = pos.side ^ 1;
        let u = pos.make(self, m);
        let safe = !self.attacked(pos, m.to(), them);
        pos.unmake(m, u);
        safe
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        let g = &self.geo;
        let df = g.file(a).abs_diff(g.file(b));
        let dr = g.rank(a).abs_diff(g.rank(b));
        df.max(dr) == 1
    }
}
