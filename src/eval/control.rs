//! What the pawns control, for every game with pawns (`pawns.rs` knows them by their
//! moves): the squares each side's pawns attack, and the files they leave open.
//!
//! - unsafe reach: per square a piece (neither a pawn nor royal) reaches by the moves its
//!   mobility counts (slides, leaps and steps) that an opponent pawn attacks: a square a
//!   piece cannot go to without being taken by a pawn is hardly a square of its own;
//! - pawn threat: per opponent piece (neither a pawn nor royal) that a pawn attacks;
//! - open file: per piece that slides straight ahead, on a file with no pawn of either
//!   side; half-open file: on a file with opponent pawns only;
//! - space: per square of the middle files of a side's own half, from its second rank to
//!   the middle of the board, that holds no pawn of its own and that no opponent pawn
//!   attacks, and once more where one of its own pawns stands up to three squares ahead
//!   (room behind the pawn chain for its pieces); times the square of the side's piece
//!   count less one, over 256, since room matters while the board is full.
//!
//! Strong engines weigh all of these (Fairy-Stockfish's mobility area leaves out the
//! squares the opponent's pawns attack, and it has threat and rook-file terms); without
//! them kirin's Courier shuffled its Rooks along the third rank while the opponent's pawns
//! took the board, and Fairy-Stockfish's breakdown of such a position put over a pawn of
//! its difference in space alone. The five weights are 0 unless a game's `[variant.eval]` section sets
//! them (`kirin tune` fits them), and the evaluation then skips all of it.

use crate::core::geometry::Geometry;
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
/// (open, half-open). `sliders` holds, per piece index, whether it slides ahead;
/// `pawnless`, per side, a bit per file without a pawn of that side.
pub(crate) fn files<const W: usize>(
    game: &Game<W>,
    pos: &Position<W>,
    pawnless: &[u32; 2],
    sliders: &[bool],
    color: Color,
) -> (i32, i32) {
    let without = |side: Color, f: usize| pawnless[side.index()] >> f & 1 != 0;
    let (mut open, mut half) = (0, 0);
    for (pc, _) in sliders
        .iter()
        .enumerate()
        .filter(|&(pc, &is)| is && color_of_piece(pc) == color)
    {
        for sq in pos.by_piece[pc] {
            let f = game.geo.file(sq);
            if without(color, f) {
                if without(color.opposite(), f) {
                    open += 1;
                } else {
                    half += 1;
                }
            }
        }
    }
    (open, half)
}

/// How far ahead of a square of space a pawn of its own counts it as behind the chain.
const BEHIND: usize = 3;
/// No square (off the board, or a hole).
const NONE: u16 = u16::MAX;

/// Each side's area of space: its squares, and for each the squares ahead of it on its
/// file (`NONE` past the board's edge).
pub(crate) struct SpaceArea {
    squares: [Vec<(u16, [u16; BEHIND])>; 2],
}

impl SpaceArea {
    /// The area of a board: the middle half of the files (a quarter of them left out on
    /// either side), the ranks from a side's second to below the middle, as the side sees
    /// them (`own`: per colour and square, the square as that side sees it; its own
    /// inverse).
    pub(crate) fn new(geo: &Geometry, own: &[u16]) -> SpaceArea {
        let (w, h, n) = (geo.width, geo.height, geo.squares());
        let board = |color: usize, o: usize| {
            let sq = own[color * n + o] as usize;
            (!geo.holes[sq]).then_some(sq as u16)
        };
        let squares = [0, 1].map(|color| {
            (0..n)
                .filter(|&o| {
                    let (f, r) = (o % w, o / w);
                    (w / 4..w - w / 4).contains(&f) && (1..h / 2).contains(&r)
                })
                .filter_map(|o| {
                    let ahead = std::array::from_fn(|k| {
                        let o = o + (k + 1) * w;
                        if o < n {
                            board(color, o).unwrap_or(NONE)
                        } else {
                            NONE
                        }
                    });
                    board(color, o).map(|sq| (sq, ahead))
                })
                .collect()
        });
        SpaceArea { squares }
    }

    /// `color`'s squares of space: its area's squares without a pawn of its own
    /// (`pawns`) and not attacked by an opponent pawn (`attacked`), each counted twice
    /// where one of its own pawns stands ahead of it.
    pub(crate) fn count<const W: usize>(
        &self,
        color: Color,
        pawns: Bitboard<W>,
        attacked: Bitboard<W>,
    ) -> i32 {
        let mut count = 0;
        for &(sq, ahead) in &self.squares[color.index()] {
            let sq = sq as usize;
            if pawns.has(sq) || attacked.has(sq) {
                continue;
            }
            let behind = ahead.iter().any(|&a| a != NONE && pawns.has(a as usize));
            count += 1 + behind as i32;
        }
        count
    }
}

/// What `squares` of space are worth to a side of `pieces` pieces at `weight`: the
/// weight per square times (pieces - 1)^2 / 256, in whole centipawns.
pub(crate) fn space_worth(weight: i32, squares: i32, pieces: u32) -> i32 {
    let spread = (pieces.max(1) as i64 - 1).pow(2);
    (weight as i64 * squares as i64 * spread / 256) as i32
}

/// The coefficient of the space weight for `squares` of a side of `pieces` pieces: its
/// worth per unit of weight, unrounded (the tuner's feature).
pub(crate) fn space_coefficient(squares: i32, pieces: u32) -> f64 {
    squares as f64 * (pieces.max(1) as f64 - 1.0).powi(2) / 256.0
}

#[cfg(test)]
mod tests {
    use super::super::pawns::Pawns;
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
            let pawnless = Color::ALL.map(|c| pawns.pawnless_files(g, c));
            assert_eq!(pawnless, [!0b0001_0010 & 0xff, !0b1000_0000 & 0xff]);
            assert_eq!(files(g, &pos, &pawnless, &sliders, WHITE), (1, 1));
            assert_eq!(files(g, &pos, &pawnless, &sliders, BLACK), (0, 1));
        });
    }

    #[test]
    fn space_counts_the_safe_middle_of_a_half_twice_behind_its_pawns() {
        let any = AnyGame::builtin("chess").unwrap();
        crate::with_width!(&any, g => {
            let pawn: Vec<bool> = (0..2 * g.types).map(|pc| super::super::pawns::is_pawn(g, pc)).collect();
            let area = SpaceArea::new(&g.geo, &super::super::own_squares(g));
            let space = |fen: &str| {
                let pos = Position::from_fen(g, fen).unwrap();
                let attacks = pawn_attacks(g, &pos, &pawn);
                let pawns = Pawns::of(g, &pos, &pawn);
                Color::ALL.map(|c| area.count(c, pawns.of_color(c), attacks[c.opposite()]))
            };
            // The start: the third and fourth ranks of the c- to f-files, four each.
            assert_eq!(space("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), [8, 8]);
            // 1.e4 d5: e2 and e3 stand behind White's e-pawn (twice each), c4 is attacked by
            // the d-pawn; d7 and d6 behind Black's, f5 attacked by the e-pawn.
            assert_eq!(space("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"), [9, 9]);
        });
        // Worth: the weight per square times (pieces - 1)^2 / 256.
        assert_eq!(space_worth(4, 8, 17), 32);
        assert_eq!(space_coefficient(8, 17), 8.0);
        assert_eq!(space_worth(-4, 8, 17), -32);
    }
}
