//! Wide bitboards: `Bitboard<W>` is a set of squares stored in `W` 64-bit lanes.
//!
//! Squares are numbered densely, `rank * width + file`, so a board of `width * height`
//! squares needs `ceil(width * height / 64)` lanes: 1 for 8x8, 2 for up to 128 squares
//! (9x9, 12x8, 10x10), 3 for 12x12 and Tamerlane's 13x10 frame, 4 for 16x16 and 5 for 17x17.
//! Move generation never shifts a whole board: every attack comes from per-square tables
//! (leaps) or per-direction rays (slides), so the only operations in hot paths are
//! lane-wise logic, population counts and first/last-bit scans, which cost the same for
//! any stride. That is why kirin packs squares densely instead of giving each `W` a fixed
//! stride (see `docs/design.md`).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign};

/// A set of squares on a board of at most `64 * W` squares.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bitboard<const W: usize>(pub [u64; W]);

impl<const W: usize> Default for Bitboard<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> Bitboard<W> {
    /// The empty set.
    pub const EMPTY: Self = Bitboard([0; W]);

    /// The set holding only `sq`.
    #[inline(always)]
    pub fn from_square(sq: usize) -> Self {
        let mut b = Self::EMPTY;
        b.set(sq);
        b
    }

    /// True when no square is in the set.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// True when at least one square is in the set.
    #[inline(always)]
    pub fn any(&self) -> bool {
        !self.is_empty()
    }

    /// Adds `sq`.
    #[inline(always)]
    pub fn set(&mut self, sq: usize) {
        self.0[sq >> 6] |= 1u64 << (sq & 63);
    }

    /// Removes `sq`.
    #[inline(always)]
    pub fn clear(&mut self, sq: usize) {
        self.0[sq >> 6] &= !(1u64 << (sq & 63));
    }

    /// Adds `sq` if absent, removes it if present.
    #[inline(always)]
    pub fn toggle(&mut self, sq: usize) {
        self.0[sq >> 6] ^= 1u64 << (sq & 63);
    }

    /// True when `sq` is in the set.
    #[inline(always)]
    pub fn has(&self, sq: usize) -> bool {
        self.0[sq >> 6] >> (sq & 63) & 1 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// True when the set holds two or more squares.
    #[inline(always)]
    pub fn more_than_one(&self) -> bool {
        let mut seen = false;
        for &w in &self.0 {
            if w != 0 {
                if seen || w & (w - 1) != 0 {
                    return true;
                }
                seen = true;
            }
        }
        false
    }

    /// The lowest-numbered square, if any.
    #[inline(always)]
    pub fn first(&self) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// The highest-numbered square, if any.
    #[inline(always)]
    pub fn last(&self) -> Option<usize> {
        for i in (0..W).rev() {
            let w = self.0[i];
            if w != 0 {
                return Some(i * 64 + 63 - w.leading_zeros() as usize);
            }
        }
        None
    }

    /// Squares in `self` but not in `other`.
    #[inline(always)]
    pub fn andnot(self, other: Self) -> Self {
        let mut r = self;
        for i in 0..W {
            r.0[i] &= !other.0[i];
        }
        r
    }

    /// True when the two sets share a square.
    #[inline(always)]
    pub fn intersects(&self, other: &Self) -> bool {
        (0..W).any(|i| self.0[i] & other.0[i] != 0)
    }

    /// Iterates over the squares, lowest first, lane by lane.
    #[inline(always)]
    pub fn iter(self) -> Squares<W> {
        Squares {
            lanes: self.0,
            lane: 0,
        }
    }
}

/// Iterator over the squares of a bitboard: scans each lane with `trailing_zeros` and
/// clears the lowest bit of that lane only, which is several times faster than working
/// on the whole wide integer.
pub struct Squares<const W: usize> {
    lanes: [u64; W],
    lane: usize,
}

impl<const W: usize> Iterator for Squares<W> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.lane < W {
            let w = self.lanes[self.lane];
            if w != 0 {
                self.lanes[self.lane] = w & (w - 1);
                return Some(self.lane * 64 + w.trailing_zeros() as usize);
            }
            self.lane += 1;
        }
        None
    }
}

impl<const W: usize> IntoIterator for Bitboard<W> {
    type Item = usize;
    type IntoIter = Squares<W>;
    fn into_iter(self) -> Squares<W> {
        self.iter()
    }
}

macro_rules! lanewise {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for Bitboard<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, rhs: Self) -> Self {
                let mut r = self;
                for i in 0..W {
                    r.0[i] $op rhs.0[i];
                }
                r
            }
        }
        impl<const W: usize> $tra for Bitboard<W> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Self) {
                for i in 0..W {
                    self.0[i] $op rhs.0[i];
                }
            }
        }
    };
}
lanewise!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
lanewise!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
lanewise!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const W: usize> std::fmt::Debug for Bitboard<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bitboard{:?}", self.iter().collect::<Vec<_>>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_clear_count_and_scan_across_lanes() {
        let mut b = Bitboard::<5>::EMPTY;
        for sq in [0, 63, 64, 200, 288] {
            b.set(sq);
        }
        assert_eq!(b.count(), 5);
        assert_eq!(b.first(), Some(0));
        assert_eq!(b.last(), Some(288));
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 63, 64, 200, 288]);
        b.clear(0);
        assert_eq!(b.first(), Some(63));
        assert!(b.more_than_one());
        assert!(!Bitboard::<5>::from_square(130).more_than_one());
        assert!(Bitboard::<5>::EMPTY.is_empty());
    }

    #[test]
    fn lanewise_logic() {
        let a = Bitboard::<2>([0b1100, 1]);
        let b = Bitboard::<2>([0b1010, 3]);
        assert_eq!((a & b).0, [0b1000, 1]);
        assert_eq!((a | b).0, [0b1110, 3]);
        assert_eq!((a ^ b).0, [0b0110, 2]);
        assert_eq!(a.andnot(b).0, [0b0100, 0]);
        assert!(a.intersects(&b));
    }
}
