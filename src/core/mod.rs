//! Board-level building blocks shared by every game: bitboards, geometry, moves, and
//! `Wide`, which holds a value of any bitboard width.

pub mod bitboard;
pub mod color;
pub mod geometry;
pub mod moves;
pub mod width;

pub use bitboard::Bitboard;
pub use color::{BLACK, Color, WHITE, color_of_piece, piece_index, type_of_piece};
pub use geometry::Geometry;
pub use moves::{Move, MoveKind};
pub use width::{PerWidth, Wide};
