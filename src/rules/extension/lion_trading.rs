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
//! lishogi reads two points otherwise, each a definition key (the `preset=lishogi`
//! option sets both): `lion_protection = "before"` counts a piece taken on the way as a
//! protector still, and `counter_strike = "capture-square"` lets a non-Lion take the Lion
//! that stands where the Lion was taken (the Kirin that took it and promoted).
//!
//! Switched on by `hooks = ["lion-trading"]`; Lions are the pieces marked `lion`. The
//! counter-strike is rule state set by the step after each move and cleared by a null
//! move: one bit, and the square where the Lion was taken (plus one, in the next nine
//! bits), which lishogi's SFEN writes and its counter-strike rule needs.

use crate::core::{Move, MoveKind, type_of_piece};
use crate::rules::extension::{RuleExtension, Slot};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, RuleState, Undo};
use crate::rules::spec::{CounterStrike, Hook, LionProtection};

/// The bits that hold the counter-strike's square plus one (0: none), after its flag.
const SQUARE_BITS: u32 = 9;

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
    /// lishogi: a piece taken on the way still protects a Lion taken from afar.
    protection_before: bool,
    /// lishogi: the counter-strike spares the Lion on the square of the Lion's capture.
    spares_capture_square: bool,
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
                protection_before: spec.lion_protection == LionProtection::Before,
                spares_capture_square: spec.counter_strike == CounterStrike::CaptureSquare,
            }
        })
    }

    /// True while the side to move may not take a Lion with a non-Lion (the last move
    /// took a Lion with a non-Lion).
    #[inline(always)]
    pub fn strike<const W: usize>(&self, pos: &Position<W>) -> bool {
        pos.rule_state & self.slot.bit(0) != 0
    }

    /// While the counter-strike holds: the square where the last move took a Lion.
    pub fn capture_square<const W: usize>(&self, pos: &Position<W>) -> Option<usize> {
        if !self.strike(pos) {
            return None;
        }
        let bits = (pos.rule_state >> (self.slot.shift + 1)) & ((1 << SQUARE_BITS) - 1);
        bits.checked_sub(1).map(|sq| sq as usize)
    }

    /// The counter-strike state after a Lion was taken on `square` (`None`: no strike).
    fn strike_state<const W: usize>(&self, pos: &Position<W>, square: Option<usize>) -> RuleState {
        let mask = ((1 << (SQUARE_BITS + 1)) - 1) << self.slot.shift;
        let mut state = pos.rule_state & !mask;
        if let Some(sq) = square {
            state |= self.slot.bit(0) | ((sq as RuleState + 1) << (self.slot.shift + 1));
        }
        state
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
            if !self.strike(pos) {
                return true;
            }
            let spared = self.spares_capture_square
                && self.capture_square(pos).is_some_and(|sq| {
                    (!takes_lion_at_to || to == sq) && (!takes_lion_at_via || via == Some(sq))
                });
            return spared || (self.okazaki && self.unprotected(game, pos, m));
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
        bridge || self.unprotected(game, pos, m)
    }

    /// True when no enemy piece protects the square `m` ends on: after the move, or with
    /// lishogi's reading also counting the piece `m` takes on its way.
    fn unprotected<const W: usize>(&self, game: &Game<W>, pos: &mut Position<W>, m: Move) -> bool {
        let them = pos.side.opposite();
        let u = pos.make(game, m);
        let mut safe = !game.attacked(pos, m.to(), them);
        if safe && self.protection_before && m.kind() == MoveKind::TwoLeg && u.via_captured != 0 {
            // The piece taken on the way, put back for the question (the board only).
            pos.put(m.aux(), u.via_captured);
            safe = !game.attacked(pos, m.to(), them);
            pos.remove(m.aux());
        }
        pos.unmake(game, m, u);
        safe
    }

    /// Sets the counter-strike as an SFEN gives it: a Lion was taken on `square` by the
    /// last move (within set-up; the position's key is computed afterwards).
    pub fn set_capture_square<const W: usize>(&self, pos: &mut Position<W>, square: usize) {
        pos.rule_state = self.strike_state(pos, Some(square));
    }
}

impl<const W: usize> RuleExtension<W> for LionTrading {
    fn state_bits(&self) -> u32 {
        1 + SQUARE_BITS
    }

    fn transient_state(&self) -> RuleState {
        ((1 << (SQUARE_BITS + 1)) - 1) << self.slot.shift
    }

    fn has_after_make(&self) -> bool {
        true
    }

    fn marked_square(&self, pos: &Position<W>) -> Option<usize> {
        self.capture_square(pos)
    }

    fn set_marked_square(&self, pos: &mut Position<W>, square: usize) -> bool {
        self.set_capture_square(pos, square);
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

    /// Sets the counter-strike when a non-Lion took a Lion, with the square of the Lion
    /// taken (the end square when it took one there too, as lishogi records it).
    #[inline(always)]
    fn after_make(&self, game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo, key: &mut u64) {
        let took_lion = |code: u8| code != 0 && self.is_lion[code as usize - 1];
        let square = if self.is_lion[u.moved as usize - 1] {
            None
        } else if took_lion(u.captured) {
            Some(m.to())
        } else if took_lion(u.via_captured) {
            Some(m.aux())
        } else {
            None
        };
        let state = self.strike_state(pos, square);
        pos.set_rule_state(game, state, key);
    }
}

fn adjacent<const W: usize>(game: &Game<W>, a: usize, b: usize) -> bool {
    let g = &game.geo;
    let df = g.file(a).abs_diff(g.file(b));
    let dr = g.rank(a).abs_diff(g.rank(b));
    df.max(dr) == 1
}
