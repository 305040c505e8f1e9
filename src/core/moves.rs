//! The move type: 32 bits, never zero, so `Option<Move>` costs nothing.
//!
//! Layout: `from:9 | to:9 | aux:9 | kind:4 | promote:1`. `aux` holds the promoted piece
//! type, the en-passant victim square, the castling rook square, the intermediate square
//! of a two-leg move, the captures of a move of more legs, the dropped piece type, or what a
//! rule-defined move needs. The kind field's values 10-15 are all `MoveKind::Rule`: the
//! value minus 10 names the rule (its slot in the game's list of rules,
//! `rules::extension`) that defines the move.

use std::num::NonZeroU32;

/// What a move does besides carrying a piece from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveKind {
    /// A plain move or capture.
    Normal = 1,
    /// A pawn's double step: sets the en-passant square (aux: the skipped square).
    DoubleStep = 2,
    /// An en-passant capture (aux: the square of the captured pawn).
    EnPassant = 3,
    /// Castling: the king moves from-to (aux: the rook's square).
    Castle = 4,
    /// A two-leg move through `aux`, capturing there if an enemy stands on it (the Lion's
    /// double move; `to == from` for igui and the pass).
    TwoLeg = 5,
    /// A pass made by a piece stepping to the empty square `aux` and back: nothing moves.
    /// Counted once per position, whichever piece or square makes it.
    Pass = 6,
    /// A piece put from a reserve onto the empty square `to`: `aux` is its piece type,
    /// `from` the reserve it comes from (`Position::hands`).
    Drop = 7,
    /// A move of three or more legs that captures on its way: `aux` indexes the set of
    /// squares it captures on before its end among those of multi-leg moves from `from`
    /// (`rules::game::Game::route_captures`), so the move's text and undo need no board.
    MultiLeg = 8,
    /// A move whose meaning a rule extension defines (`rules::extension`): the rule is
    /// `Move::rule_slot`, and `aux` and the promotion bit carry what the rule needs (with
    /// the bit set the piece arriving on `to` is piece type `aux`, as for a promotion).
    Rule = 10,
}

/// The first value of the kind field that is a rule-defined move; 6 rule slots follow.
const RULE_KINDS: u32 = MoveKind::Rule as u32;

/// The most rules a game may have (slots in the kind field).
pub const RULE_SLOTS: usize = 6;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU32);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 4);

impl Move {
    #[inline(always)]
    pub fn new(from: usize, to: usize, kind: MoveKind) -> Move {
        Self::pack(from, to, 0, kind, false)
    }

    /// A move that promotes the moving piece to piece type `promo`.
    #[inline(always)]
    pub fn promotion(from: usize, to: usize, promo: usize) -> Move {
        Self::pack(from, to, promo, MoveKind::Normal, true)
    }

    /// A move defined by the rule in slot `slot` of the game's rules, with `aux` and the
    /// promotion bit as that rule means them.
    #[inline(always)]
    pub fn rule(from: usize, to: usize, aux: usize, slot: usize, promote: bool) -> Move {
        debug_assert!(slot < RULE_SLOTS);
        Self::pack_kind(from, to, aux, RULE_KINDS + slot as u32, promote)
    }

    /// A drop of a piece of type `piece` from reserve `reserve` onto `to`.
    #[inline(always)]
    pub fn drop(reserve: usize, piece: usize, to: usize) -> Move {
        Self::pack(reserve, to, piece, MoveKind::Drop, false)
    }

    /// A move with an auxiliary square or piece.
    #[inline(always)]
    pub fn with_aux(from: usize, to: usize, aux: usize, kind: MoveKind) -> Move {
        Self::pack(from, to, aux, kind, false)
    }

    #[inline(always)]
    fn pack(from: usize, to: usize, aux: usize, kind: MoveKind, promote: bool) -> Move {
        Self::pack_kind(from, to, aux, kind as u32, promote)
    }

    #[inline(always)]
    fn pack_kind(from: usize, to: usize, aux: usize, kind: u32, promote: bool) -> Move {
        debug_assert!(from < 512 && to < 512 && aux < 512 && (1..16).contains(&kind));
        let bits = from as u32
            | (to as u32) << 9
            | (aux as u32) << 18
            | kind << 27
            | (promote as u32) << 31;
        // kind is never 0, so bits is never 0.
        Move(NonZeroU32::new(bits).expect("move kinds are non-zero"))
    }

    #[inline(always)]
    pub fn from(self) -> usize {
        (self.0.get() & 511) as usize
    }

    #[inline(always)]
    pub fn to(self) -> usize {
        (self.0.get() >> 9 & 511) as usize
    }

    #[inline(always)]
    pub fn aux(self) -> usize {
        (self.0.get() >> 18 & 511) as usize
    }

    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        match self.0.get() >> 27 & 15 {
            2 => MoveKind::DoubleStep,
            3 => MoveKind::EnPassant,
            4 => MoveKind::Castle,
            5 => MoveKind::TwoLeg,
            6 => MoveKind::Pass,
            7 => MoveKind::Drop,
            8 => MoveKind::MultiLeg,
            10..=15 => MoveKind::Rule,
            _ => MoveKind::Normal,
        }
    }

    /// True for `MoveKind::Normal` and `MoveKind::DoubleStep` (one comparison, for the
    /// check filter's inner loop).
    #[inline(always)]
    pub fn is_plain(self) -> bool {
        (self.0.get() >> 27 & 15) <= MoveKind::DoubleStep as u32
    }

    /// The slot of the rule that defines this move (meaningful for `MoveKind::Rule`).
    #[inline(always)]
    pub fn rule_slot(self) -> usize {
        ((self.0.get() >> 27 & 15) - RULE_KINDS) as usize
    }

    /// The piece type this move promotes to, if it promotes.
    #[inline(always)]
    pub fn promotes_to(self) -> Option<usize> {
        (self.0.get() >> 31 != 0).then(|| self.aux())
    }

    /// The raw 32 bits, for transposition tables.
    pub fn bits(self) -> u32 {
        self.0.get()
    }

    /// Rebuilds a move from `bits`, if they are a move at all.
    pub fn from_bits(bits: u32) -> Option<Move> {
        NonZeroU32::new(bits).map(Move)
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({}->{} {:?} aux {} promo {:?})",
            self.from(),
            self.to(),
            self.kind(),
            self.aux(),
            self.promotes_to()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip_at_the_largest_squares() {
        let m = Move::promotion(288, 271, 40);
        assert_eq!((m.from(), m.to(), m.promotes_to()), (288, 271, Some(40)));
        assert_eq!(m.kind(), MoveKind::Normal);
        let c = Move::with_aux(4, 6, 7, MoveKind::Castle);
        assert_eq!(
            (c.kind(), c.aux(), c.promotes_to()),
            (MoveKind::Castle, 7, None)
        );
        assert_eq!(Move::from_bits(c.bits()), Some(c));
        let r = Move::rule(130, 2, 9, 5, true);
        assert_eq!(
            (r.kind(), r.rule_slot(), r.aux(), r.promotes_to()),
            (MoveKind::Rule, 5, 9, Some(9))
        );
        let d = Move::drop(2, 40, 288);
        assert_eq!(
            (d.kind(), d.from(), d.aux(), d.to()),
            (MoveKind::Drop, 2, 40, 288)
        );
        assert_eq!(d.promotes_to(), None);
        let l = Move::with_aux(5, 60, 300, MoveKind::MultiLeg);
        assert_eq!((l.kind(), l.aux()), (MoveKind::MultiLeg, 300));
        assert_eq!(Move::rule(1, 2, 3, 0, false).rule_slot(), 0);
        assert!(m.is_plain() && Move::with_aux(1, 17, 9, MoveKind::DoubleStep).is_plain());
        assert!(!c.is_plain() && !r.is_plain() && !d.is_plain() && !l.is_plain());
    }
}
