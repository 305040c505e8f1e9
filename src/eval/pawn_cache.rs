//! What the pawns alone decide, kept per search thread by the pawns' squares: their
//! structure's worth (`pawns.rs`), the squares they attack, each side's room for space and
//! the files each side has no pawn on (`control.rs`).
//!
//! A search changes the pawns in few of its moves, so most evaluations meet a structure
//! evaluated before: Courier's section with the pawn terms spent about a tenth of its
//! instructions finding them again (the pawns file by file, their attacks, the space
//! area), which the cache saves. An entry is found by a hash of both sides' pawn squares
//! and accepted only if the squares are equal, so a collision is a miss, never a wrong
//! answer. The evaluation uses it only in games where each side has one type of pawn
//! (pawns of two types on the same squares could attack different squares).

use crate::core::{Bitboard, Color};

/// Entries of a thread's cache (a power of two).
const ENTRIES: usize = 1 << 13;

/// What one pawn structure decides.
#[derive(Clone, Copy)]
pub(crate) struct PawnSummary<const W: usize> {
    /// Each side's pawns.
    pub squares: [Bitboard<W>; 2],
    /// The squares each side's pawns attack (empty unless what they control counts).
    pub attacks: [Bitboard<W>; 2],
    /// Each side's passed, doubled and isolated pawns, weighed (0 unless they count).
    pub structure: [i32; 2],
    /// Each side's squares of space (0 unless space counts).
    pub room: [i32; 2],
    /// Per side, a bit per file that holds none of its pawns.
    pub pawnless: [u32; 2],
}

/// A search thread's cache of pawn structures.
pub struct PawnCache<const W: usize> {
    entries: Vec<Option<PawnSummary<W>>>,
}

impl<const W: usize> Default for PawnCache<W> {
    fn default() -> Self {
        PawnCache {
            entries: vec![None; ENTRIES],
        }
    }
}

impl<const W: usize> PawnCache<W> {
    /// The summary of the structure `squares`, from the cache or made by `make` (and
    /// then kept).
    #[inline]
    pub(crate) fn get(
        &mut self,
        squares: [Bitboard<W>; 2],
        make: impl FnOnce() -> PawnSummary<W>,
    ) -> PawnSummary<W> {
        let slot = &mut self.entries[index(&squares)];
        match slot {
            Some(s) if s.squares == squares => *s,
            _ => {
                let s = make();
                *slot = Some(s);
                s
            }
        }
    }
}

/// The entry of a structure: a multiplicative hash of its squares.
#[inline]
fn index<const W: usize>(squares: &[Bitboard<W>; 2]) -> usize {
    let mut h = 0u64;
    for side in Color::ALL {
        for word in squares[side].0 {
            h = (h ^ word)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(29);
        }
    }
    (h >> (64 - ENTRIES.trailing_zeros())) as usize
}
