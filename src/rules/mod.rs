//! The rules of play for any game described as data: the definition format
//! (`spec`), Betza parsing, compiled tables, positions, move generation, FEN, notation
//! and perft.

pub mod betza;
pub mod capacity;
pub mod diagram;
pub mod extension;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod position;
#[cfg(test)]
pub(crate) mod random_lines;
pub mod reserves;
pub mod restraint;
pub mod san;
pub mod sfen;
pub mod spec;
pub mod stacks;
pub mod turns;
pub mod zobrist;

pub use fen::FenError;
pub use game::Game;
pub use movegen::MoveList;
pub use position::Position;
