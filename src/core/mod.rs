//! Board-level building blocks shared by every game: bitboards, geometry, moves, and
//! `Wide`, which holds a value of any bitboard width.

pub mod bitboard;
pub mod geometry;
pub mod moves;
pub mod width;

pub use bitboard::Bitboard;
pub use geometry::Geometry;
pub use moves::{Move, MoveKind};
pub use width::{PerWidth, Wide};

/// White moves first and up the board; black is index 1.
pub type Color = usize;
pub const WHITE: Color = 0;
pub const BLACK: Color = 1;
