//! Chu Shogi's Lion-trading rules (docs/rules/chu.md), as HaChu applies them:
//! 1. a Lion may always take an adjacent Lion;
//! 2. a Lion may take a non-adjacent Lion only if that Lion is unprotected after the move
//!    (so protection through the Lion's vacated square counts, and a piece taken on the way
//!    protects nothing), unless the first leg of the move took a piece that is neither a
//!    Pawn nor a Go-Between (the "bridge");
//! 3. counter-strike: after a non-Lion took a Lion, the side to move may not take a Lion
//!    with a non-Lion. With the Okazaki option it may, if that Lion is unprotected after
//!    the move. A Kirin that takes a Lion and promotes to one still counts as a non-Lion.
//!
//! Switched on by `hooks = ["lion-trading"]`; Lions are the pieces marked `lion`. The
//! counter-strike is one bit of rule state, set by the step after each move and cleared
//! by a null move.

use crate::core::{Move, MoveKind, type_of_piece};
use crate::rules::extension::{RuleExtension, Slot};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, RuleState, Undo};
use crate::rules::spec::Hook;

#[derive(Clone, Debug)]
pub struct LionTrading {
    slot: Slot,
    /// Per piece index: a Lion.
    is_lion: Vec<bool>,
    /// Per piece index: taking it opens no bridge to a protected Lion.
    no_bridge: Vec<bool>,
    /// The Okazaki option: a non-Lion may answer a counter-strike against an unprotected
    /// Lion.
    okazaki: bool,
}

impl LionTrading {
    pub fn new<const W: usize>(game: &Game<W>, slot: Slot) -> Option<Self> {
        let spec = &game.spec;
        spec.hooks.contains(&Hook::LionTrading).then(|| {
            let per_piece = |f: fn(&crate::rules::spec::PieceSpec) -> bool| {
                (0..2 * game.types)
                    .map(|pc| f(&spec.pieces[type_of_piece(pc)]))
                    .collect()
            };
            LionTrading {
                slot,
                is_lion: per_piece(|p| p.lion),
                no_bridge: per_piece(|p| p.no_bridge),
                okazaki: spec.okazaki,
            }
        })
    }

    /// True while the side to move may not take a Lion with a non-Lion (the last move
    /// took a Lion with a non-Lion).
    #[inline(always)]
    pub fn strike<const W: usize>(&self, pos: &Position<W>) -> bool {
        pos.rule_state & self.slot.bit(0) != 0
    }

    fn lion_capture_allowed<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        m: Move,
    ) -> bool {
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
            return !self.strike(pos) || (self.okazaki && unprotected_after(game, pos, m));
        }
        // A Lion takes a Lion on the first leg only next to itself: always allowed. What
        // remains is a Lion taken at the end square.
        if !takes_lion_at_to || adjacent(game, from, to) {
            return true;
        }
        let bridge = via.is_some_and(|v| {
            let code = pos.board[v];
            code != 0 && !self.no_bridge[code as usize - 1]
        });
        bridge || unprotected_after(game, pos, m)
    }
}

impl<const W: usize> RuleExtension<W> for LionTrading {
    fn state_bits(&self) -> u32 {
        1
    }

    fn transient_state(&self) -> RuleState {
        self.slot.bit(0)
    }

    fn has_after_make(&self) -> bool {
        true
    }

    /// Removes the moves the Lion-trading rules forbid.
    fn filter_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        let mut i = 0;
        while i < list.len() {
            if self.lion_capture_allowed(game, pos, list[i]) {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
    }

    /// Sets the counter-strike bit when a non-Lion took a Lion.
    #[inline(always)]
    fn after_make(&self, game: &Game<W>, pos: &mut Position<W>, _m: Move, u: &Undo, key: &mut u64) {
        let took_lion = |code: u8| code != 0 && self.is_lion[code as usize - 1];
        let strike = (took_lion(u.captured) || took_lion(u.via_captured))
            && !self.is_lion[u.moved as usize - 1];
        let bit = self.slot.bit(0);
        let state = if strike {
            pos.rule_state | bit
        } else {
            pos.rule_state & !bit
        };
        pos.set_rule_state(game, state, key);
    }
}

/// True when, after `m`, no enemy piece attacks the square the mover ends on.
fn unprotected_after<const W: usize>(game: &Game<W>, pos: &mut Position<W>, m: Move) -> bool {
    let them = pos.side.opposite();
    let u = pos.make(game, m);
    let safe = !game.attacked(pos, m.to(), them);
    pos.unmake(game, m, u);
    safe
}

fn adjacent<const W: usize>(game: &Game<W>, a: usize, b: usize) -> bool {
    let g = &game.geo;
    let df = g.file(a).abs_diff(g.file(b));
    let dr = g.rank(a).abs_diff(g.rank(b));
    df.max(dr) == 1
}
