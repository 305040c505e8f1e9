//! Fuzz targets for every input kirin takes (issue 19), written with bolero so that one
//! harness serves two purposes:
//!
//! - under `cargo test` each target replays its corpus (`engine-tests/fuzz/__fuzz__/`,
//!   kept in the repository) and a few hundred random inputs, so CI runs them all;
//! - under `cargo bolero test --test fuzz TARGET` (`scripts/fuzz.sh`) the same target is
//!   driven by libFuzzer, coverage-guided, for as long as one asks, and what it finds
//!   grows the corpus.
//!
//! The inputs are structured: a fuzzer's bytes choose a game, a random legal game in it
//! (each byte picks one of the legal moves), and then edits of the texts that game gives
//! (a FEN, a move, a command line), so that the fuzzer spends its time at the edge
//! between what is accepted and what is refused instead of on text no parser would
//! look at twice. Each target's module says what it requires of the engine.

mod cecp;
mod common;
mod definitions;
mod engine_output;
mod fen;
mod moves;
mod search;
mod uci;
mod web;
