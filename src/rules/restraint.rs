//! Restraint: a rule may make squares *stops* for a piece (a slide or a lame leap may end
//! on the first stop on its way, capturing there, but never pass it) and may limit a
//! piece to some targets (Hiashatar's Hia freezes an enemy piece next to it to one-square
//! moves). Move generation asks `Game::restraint` for every piece; attack detection asks
//! the same, so a check or an attack is exactly a capture the restrained piece could
//! make. A rule may also mark pieces that never attack a royal (the Hia gives no check).
//!
//! Attack detection under restraint goes piece by piece (the per-square reverse tables
//! cannot see stops), and the check filter makes and tests every move (pins are no longer
//! lines). Only games with such a rule pay for it.

use crate::core::color::piece_index;
use crate::core::{Bitboard, Color};
use crate::rules::extension::RuleExtension;
use crate::rules::game::Game;
use crate::rules::position::Position;

impl<const W: usize> Game<W> {
    /// Whether some rule restrains pieces in `pos` (`RuleExtension::restrains`): only
    /// then do move generation and attack detection ask `restraint` piece by piece.
    #[inline(always)]
    pub fn restraint_now(&self, pos: &Position<W>) -> bool {
        self.rules.restraint && self.rules.list.iter().any(|r| r.restrains(self, pos))
    }

    /// For the piece of index `pc` on `from`: the squares where its moves must stop, and
    /// the only squares it may move to, if it is limited.
    #[inline]
    pub fn restraint(
        &self,
        pos: &Position<W>,
        pc: usize,
        from: usize,
    ) -> (Bitboard<W>, Option<Bitboard<W>>) {
        let mut stops = Bitboard::EMPTY;
        let mut limit: Option<Bitboard<W>> = None;
        for r in &self.rules.list {
            let (s, l) = r.restraint(self, pos, pc, from);
            stops |= s;
            if let Some(l) = l {
                limit = Some(limit.map_or(l, |old| old & l));
            }
        }
        (stops, limit)
    }

    /// Whether a piece of index `pc` never attacks a royal.
    fn harmless(&self, pc: usize) -> bool {
        self.rules.list.iter().any(|r| r.harmless(pc))
    }

    /// `attacked` in a game with a restraint rule: some piece of `by` could capture on
    /// `sq` under the restraint that holds it now.
    #[inline(never)]
    pub(crate) fn attacked_under_restraint(&self, pos: &Position<W>, sq: usize, by: Color) -> bool {
        for t in 0..self.types {
            let pc = piece_index(t, by);
            if pos.by_piece[pc].is_empty() || self.harmless(pc) {
                continue;
            }
            for from in pos.by_piece[pc] {
                if self.captures_on(pos, pc, from, sq) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the piece `pc` on `from` could capture on `sq` (whatever stands there),
    /// under its restraint.
    fn captures_on(&self, pos: &Position<W>, pc: usize, from: usize, sq: usize) -> bool {
        let (stops, limit) = self.restraint(pos, pc, from);
        if limit.is_some_and(|l| !l.has(sq)) {
            return false;
        }
        let (_, captures) = self.one_leg_reach(pc, from, pos.occupied() | stops);
        if captures.has(sq) {
            return true;
        }
        // Two-leg moves and routes are not restrained (no game has both); they are
        // judged as `attacked` judges them in every game.
        let tab = &self.tables[pc];
        (!tab.two_legs[from].is_empty() || tab.has_routes)
            && self.complex_captures(pos, pc, from).has(sq)
    }

    /// The squares a piece of index `pc` on `from` reaches by its one-leg moves over the
    /// occupancy `occ`, occupied ones included: (by moves that may end on an empty square,
    /// by moves that may capture).
    pub(crate) fn one_leg_reach(
        &self,
        pc: usize,
        from: usize,
        occ: Bitboard<W>,
    ) -> (Bitboard<W>, Bitboard<W>) {
        let tab = &self.tables[pc];
        let (mut moves, mut captures) = (tab.leap_move[from], tab.leap_capture[from]);
        for s in &tab.slides {
            let r = self.slide_targets(s, from, occ);
            if s.mode.can_move() {
                moves |= r;
            }
            if s.mode.can_capture() {
                captures |= r;
            }
        }
        for s in tab.specials[from]
            .iter()
            .filter(|s| !s.path.intersects(&occ))
        {
            let to = s.to as usize;
            if s.mode.can_move() {
                moves.set(to);
            }
            if s.mode.can_capture() {
                captures.set(to);
            }
        }
        (moves, captures)
    }
}
