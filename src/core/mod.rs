//! Board-level building blocks shared by every game: bitboards, geometry and moves.

pub mod bitboard;
pub mod geometry;
pub mod moves;

pub use bitboard::Bitboard;
pub use geometry::Geometry;
pub use moves::{Move, MoveKind};

/// White moves first and up the board; black is index 1.
pub type Color = usize;
pub const WHITE: Color = 0;
pub const BLACK: Color = 1;
