//! The two colours, and the piece index that combines a piece type with a colour.
//!
//! `Color` is a real type so that a colour cannot be mixed up with a piece index, a
//! square or a count; it is one byte, `index()` is a plain cast and `opposite()` an
//! exclusive or, so the hot paths compile to what raw `usize` colours gave. Tables with
//! one entry per colour are `[T; 2]` indexed by a `Color` directly.

use std::ops::{Index, IndexMut};

/// White moves first and up the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

/// The short names the code uses.
pub const WHITE: Color = Color::White;
pub const BLACK: Color = Color::Black;

impl Color {
    /// Both colours, White first (the order of every per-colour table).
    pub const ALL: [Color; 2] = [WHITE, BLACK];

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour of index 0 (White) or 1 (Black); only the lowest bit is read.
    #[inline(always)]
    pub const fn from_index(i: usize) -> Color {
        match i & 1 {
            0 => WHITE,
            _ => BLACK,
        }
    }

    /// The other colour.
    #[inline(always)]
    pub const fn opposite(self) -> Color {
        match self {
            WHITE => BLACK,
            BLACK => WHITE,
        }
    }

    /// "White" or "Black".
    pub const fn name(self) -> &'static str {
        match self {
            WHITE => "White",
            BLACK => "Black",
        }
    }

    /// The side-to-move letter of FEN: 'w' or 'b'.
    pub const fn letter(self) -> char {
        match self {
            WHITE => 'w',
            BLACK => 'b',
        }
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl<T> Index<Color> for [T; 2] {
    type Output = T;
    #[inline(always)]
    fn index(&self, color: Color) -> &T {
        &self[color.index()]
    }
}

impl<T> IndexMut<Color> for [T; 2] {
    #[inline(always)]
    fn index_mut(&mut self, color: Color) -> &mut T {
        &mut self[color.index()]
    }
}

/// The piece index of type `t` and colour `color`: `2 * t + colour`. Piece indices stay
/// `usize` (docs/design.md, "Types of the core"); a board code is a piece index + 1.
#[inline(always)]
pub const fn piece_index(t: usize, color: Color) -> usize {
    2 * t + color.index()
}

/// The colour of piece index `pc`.
#[inline(always)]
pub const fn color_of_piece(pc: usize) -> Color {
    Color::from_index(pc)
}

/// The piece type of piece index `pc`.
#[inline(always)]
pub const fn type_of_piece(pc: usize) -> usize {
    pc / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_piece_indices() {
        assert_eq!(WHITE.opposite(), BLACK);
        assert_eq!(BLACK.opposite(), WHITE);
        assert_eq!(Color::ALL.map(Color::index), [0, 1]);
        assert_eq!(Color::from_index(1), BLACK);
        assert_eq!(std::mem::size_of::<Color>(), 1);
        let table = ["w", "b"];
        assert_eq!(table[BLACK], "b");
        for t in 0..5 {
            for c in Color::ALL {
                let pc = piece_index(t, c);
                assert_eq!((type_of_piece(pc), color_of_piece(pc)), (t, c));
            }
        }
    }
}
