//! What the pawns control, for every game with pawns (`pawns.rs` knows them by their
//! moves): the squares each side's pawns attack, and the files they leave open.
//!
//! - unsafe reach: per square a piece (neither a pawn nor royal) reaches by the moves its
//!   mobility counts (slides, leaps and steps) that an opponent pawn attacks: a square a
//!   piece cannot go to without being taken by a pawn is hardly a square of its own;
//! - pawn threat: per opponent piece (neither a pawn nor royal) that a pawn attacks;
//! - open file: per piece that slides straight ahead, on a file with no pawn of either
//!   side; half-open file: on a file with opponent pawns only.
//!
//! Strong engines weigh all of these (Fairy-Stockfish's mobility area leaves out the
//! squares the opponent's pawns attack, and it has threat and rook-file terms); without
//! them kirin's Courier shuffled its Rooks along the third rank while the opponent's pawns
//! took the board. The four weights are 0 unless a game's `[variant.eval]` section sets
//! them (`kirin tune` fits them), and the evaluation then skips all of it.

use super::pawns::Pawns;
use crate::core::{Bitboard, Color, WHITE, color_of_piece};
use crate::rules::game::Game;
use crate::rules::position::Position;

/// The squares each side's pawns attack (`pawn`: per piece index, whether it is a pawn).
pub(crate) fn pawn_attacks<const W: usize>(
    game: &Game<W>,
    pos: &Position<W>,
    pawn: &[bool],
) -> [Bitboard<W>; 2] {
    let mut attacks = [Bitboard::EMPTY; 2];
    for (pc, _) in pawn.iter().enumerate().filter(|&(_, &is)| is) {
        let captures = &game.tables[pc].leap_capture;
        let side = &mut attacks[color_of_piece(pc)];
        for sq in pos.by_piece[pc] {
            *side |= captures[sq];
        }
    }
    attacks
}

/// Whether piece `pc` slides straight ahead (along its file, towards the far rank) at
/// least two squares: a piece an open file serves.
pub(crate) fn slides_ahead<const W: usize>(game: &Game<W>, pc: usize) -> bool {
    let ahead = if color_of_piece(pc) == WHITE { 1 } else { -1 };
    game.tables[pc]
        .slides
        .iter()
        .any(|s| game.dirs[s.dir as usize] == (0, ahead) && (s.max == 0 || s.max >= 2))
}

/// How `color`'s pieces that slide ahead stand on open and half-open files: the counts
/// (open, half-open). `sliders` holds, per piece index, whether it slides ahead.
pub(crate) fn files<const W: usize>(
    game: &Game<W>,
    pos: &Position<W>,
    pawns: &Pawns<W>,
    sliders: &[bool],
    color: Color,
) -> (i32, i32) {
    let (mut open, mut half) = (0, 0);
    for (pc, _) in sliders
        .iter()
        .enumerate()
        .filter(|&(pc, &is)| is && color_of_piece(pc) == color)
    {
        for sq in pos.by_piece[pc] {
            let f = game.geo.file(sq);
            if pawns.on_file(color, f) == 0 {
                if pawns.on_file(color.opposite(), f) == 0 {
                    open += 1;
                } else {
                    half += 1;
                }
            }
        }
    }
    (open, half)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::BLACK;
    use crate::variants::AnyGame;

    #[test]
    fn pawns_attack_diagonally_ahead_and_rooks_see_open_files() {
        let any = AnyGame::builtin("chess").unwrap();
        crate::with_width!(&any, g => {
            let pawn: Vec<bool> = (0..2 * g.types).map(|pc| super::super::pawns::is_pawn(g, pc)).collect();
            // White: pawns b2 and e4, Rooks a1 (the a-file: no pawn) and h1 (h7: Black's);
            // Black: pawn h7, Rook b8 (b2: White's pawn, so half-open for Black).
            let pos = Position::from_fen(g, "1r2k3/7p/8/8/4P3/8/1P6/R3K2R w - - 0 1").unwrap();
            let attacks = pawn_attacks(g, &pos, &pawn);
            let names = |b: Bitboard<_>| b.into_iter().map(|sq| g.geo.name(sq)).collect::<Vec<_>>();
            assert_eq!(names(attacks[WHITE]), ["a3", "c3", "d5", "f5"]);
            assert_eq!(names(attacks[BLACK]), ["g6"]);
            let sliders: Vec<bool> = (0..2 * g.types).map(|pc| slides_ahead(g, pc)).collect();
            let rook = g.spec.piece_index("r").unwrap();
            let queen = g.spec.piece_index("q").unwrap();
            let bishop = g.spec.piece_index("b").unwrap();
            for (t, slides) in [(rook, true), (queen, true), (bishop, false)] {
                for color in Color::ALL {
                    assert_eq!(sliders[crate::core::piece_index(t, color)], slides);
                }
            }
            let pawns = Pawns::of(g, &pos, &pawn);
            assert_eq!(files(g, &pos, &pawns, &sliders, WHITE), (1, 1));
            assert_eq!(files(g, &pos, &pawns, &sliders, BLACK), (0, 1));
        });
    }
}
