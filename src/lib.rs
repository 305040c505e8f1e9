//! kirin: a chess engine for large and historical chess variants.
//!
//! - [`core`]: bitboards over any number of 64-bit lanes, board geometry, moves;
//! - [`rules`]: Betza piece descriptions compiled into tables, positions, move
//!   generation, FEN, notation, perft;
//! - [`variants`]: the games, defined as data;
//! - [`tune`]: training positions from self-play and the fit of the evaluation's numbers;
//! - [`serve`]: the local web board;
//! - [`fault`]: panics caught as errors, and the test hook that provokes them.

/// Prints a line to standard output; a closed pipe (`kirin analyse | head -1`) ends the
/// process quietly instead of panicking (`protocol::say`).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::protocol::say(&format!($($arg)*))
    };
}

pub mod arena;
pub mod cli;
pub mod cli_search;
pub mod core;
pub mod eval;
pub mod fault;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod serve;
pub mod tune;
pub mod variants;
