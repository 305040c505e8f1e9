//! Activity: what each piece (neither pawn nor royal) attacks in its side's mobility
//! area, the squares not taken by the side's own royal or by its pawns that are blocked
//! or still on their first ranks, and not attacked by an opponent pawn. The count is
//! put on one scale for every piece, as eighths of the most squares the piece type
//! attacks from any square of the empty board, so that a Fers with all four of its
//! squares free stands as well as a Rook with all its lines open; each eighth has a
//! middlegame and an endgame worth, rising steeply from a piece shut in to one with
//! half its squares free and slowly after. A game weighs it with `activity` (percent
//! of the model, `EvalSpec::activity`); without the key nothing here is computed.
//!
//! The structure is that of the mobility of Stockfish's classical evaluation as
//! Fairy-Stockfish applies it to every variant (a table per type of chess piece, one
//! curve for every other); kirin's scale is generic, one table for every type. The
//! worths were fitted by least squares to the mobility term of Fairy-Stockfish 11.1's
//! evaluation, each side's middlegame and endgame part apart, on the 76 040 Courier
//! positions of the tuning data (turned into kirin's centipawns by the ratio of the two
//! engines' piece values, 0.43), made non-decreasing and centred on the average piece,
//! so that the term moves no piece's value on average (docs/tuning.md).

use crate::core::{Bitboard, Color, color_of_piece};
use crate::rules::game::Game;
use crate::rules::position::Position;

/// The eighths of a piece type's greatest reach, 0 to 8.
const EIGHTHS: usize = 9;
/// Middlegame and endgame worth, in centipawns, of a piece attacking so many eighths of
/// its greatest reach in the mobility area.
const WORTH: [(i32, i32); EIGHTHS] = [
    (-38, -44),
    (-20, -28),
    (-13, -15),
    (-2, 2),
    (-1, 2),
    (7, 11),
    (9, 11),
    (10, 11),
    (13, 11),
];
/// A side's pawns on its ranks below this one (the first excepted, where no pawn stands)
/// take their squares from the area: the pawns of most games start there and are still
/// to move.
const LOW_RANKS: usize = 3;

/// What a game's pieces need for the term, found once.
pub(crate) struct Reach {
    /// Per piece index: the most squares its captures reach from any square of the empty
    /// board; 0 for pawns, royals and pieces that capture nowhere (not counted).
    most: Vec<u32>,
    /// Per side and square: whether a pawn of that side there stands on its first ranks.
    low: Vec<bool>,
}

impl Reach {
    /// `pawn`: per piece index, whether it is a pawn; `own`: per side and square, the
    /// square as its owner sees it (White's view).
    pub(crate) fn new<const W: usize>(game: &Game<W>, pawn: &[bool], own: &[u16]) -> Reach {
        let n = game.squares;
        let squares = || (0..n).filter(|&sq| game.valid.has(sq));
        let most = (0..2 * game.types)
            .map(|pc| {
                if pawn[pc] || game.is_royal[pc] {
                    return 0;
                }
                squares()
                    .map(|sq| game.plain_attacks(pc, sq, Bitboard::EMPTY).count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let low = own
            .iter()
            .map(|&seen| (1..LOW_RANKS).contains(&game.geo.rank(seen as usize)))
            .collect();
        Reach { most, low }
    }

    /// Whether piece `pc`'s activity counts.
    #[inline]
    pub(crate) fn counts(&self, pc: usize) -> bool {
        self.most[pc] != 0
    }

    /// `color`'s mobility area: the board less its royals, its pawns that are blocked
    /// (a piece on a square they step to) or on their first ranks, and the squares
    /// `their_pawns` (the opponent's pawns) attack.
    pub(crate) fn area<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        (pawn, royals): (&[bool], Bitboard<W>),
        color: Color,
        their_pawns: Bitboard<W>,
    ) -> Bitboard<W> {
        let occ = pos.occupied();
        let side = color.index() * game.squares;
        let mut held = royals | their_pawns;
        for pc in (0..2 * game.types).filter(|&pc| pawn[pc] && color_of_piece(pc) == color) {
            for sq in pos.by_piece[pc] {
                if self.low[side + sq] || game.tables[pc].leap_move[sq].intersects(&occ) {
                    held.set(sq);
                }
            }
        }
        game.valid.andnot(held)
    }

    /// The worth (middlegame, endgame) of piece `pc` attacking `count` squares of its
    /// side's mobility area.
    #[inline]
    pub(crate) fn worth(&self, pc: usize, count: u32) -> (i32, i32) {
        let most = self.most[pc];
        let eighths = ((16 * count + most) / (2 * most)) as usize;
        WORTH[eighths.min(EIGHTHS - 1)]
    }

    /// Adds to a side's `tally` the worth of piece `pc` attacking `hit` where its side's
    /// mobility area is `area`.
    #[inline]
    pub(crate) fn add<const W: usize>(
        &self,
        tally: &mut (i32, i32),
        pc: usize,
        (hit, area): (Bitboard<W>, Bitboard<W>),
    ) {
        let (mg, eg) = self.worth(pc, (hit & area).count());
        tally.0 += mg;
        tally.1 += eg;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::blend;
    use crate::eval::pawns::is_pawn;
    use crate::variants::AnyGame;

    /// The piece index of White's piece of letter `letter`.
    fn letter_index<const W: usize>(g: &Game<W>, letter: char) -> usize {
        let t = g
            .spec
            .pieces
            .iter()
            .position(|p| p.letter == letter.to_string());
        crate::core::piece_index(t.unwrap(), crate::core::WHITE)
    }

    /// The game's pawns (per piece index) and its `Reach`.
    fn reach_of<const W: usize>(g: &Game<W>) -> (Vec<bool>, Reach) {
        let pawn: Vec<bool> = (0..2 * g.types).map(|pc| is_pawn(g, pc)).collect();
        let reach = Reach::new(g, &pawn, &super::super::own_squares(g));
        (pawn, reach)
    }

    #[test]
    fn each_piece_is_measured_against_its_own_greatest_reach() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let (_, reach) = reach_of(g);
            // Fers 4, Man 8, Knight 8; Rook 18 on the 12x8 board (11 + 7); Courier 14.
            for (letter, most) in [('f', 4), ('m', 8), ('n', 8), ('r', 18), ('b', 14)] {
                assert_eq!(reach.most[letter_index(g, letter)], most, "{letter}");
            }
            assert!(!reach.counts(letter_index(g, 'p')) && !reach.counts(letter_index(g, 'k')));
            // All four squares of a Fers count as all eighteen of a Rook; none as none.
            let (f, r) = (letter_index(g, 'f'), letter_index(g, 'r'));
            assert_eq!(reach.worth(f, 4), reach.worth(r, 18));
            assert_eq!(reach.worth(f, 0), WORTH[0]);
            assert_eq!(reach.worth(r, 9), WORTH[4]);
            // More squares are never worth less.
            for pair in WORTH.windows(2) {
                assert!(pair[0].0 <= pair[1].0 && pair[0].1 <= pair[1].1);
            }
        });
    }

    #[test]
    fn the_area_leaves_out_held_pawns_the_royal_and_enemy_pawn_attacks() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let (pawn, reach) = reach_of(g);
            // White: King e1, pawns b2 (first ranks), d4 (blocked by the knight on d5)
            // and h5 (free). Black: a pawn on g7 attacking f6 and h6.
            let fen = "k11/6p5/12/3n3P4/3P8/12/1P10/4K7 w - - 0 1";
            let pos = Position::from_fen(g, fen).unwrap();
            let sq = |name: &str| g.geo.parse_square(name).unwrap();
            let white_royals = pos.royals(g, Color::White);
            let their = super::super::control::pawn_attacks(g, &pos, &pawn)[1];
            let area = reach.area(g, &pos, (&pawn, white_royals), Color::White, their);
            for held in ["e1", "b2", "d4", "f6", "h6"] {
                assert!(!area.has(sq(held)), "{held}");
            }
            for free in ["h5", "d5", "a8", "g7", "c3"] {
                assert!(area.has(sq(free)), "{free}");
            }
        });
    }

    #[test]
    fn the_blend_follows_the_phase_and_the_percentage() {
        assert_eq!(blend((40, -20), (256, 256), 100), 40);
        assert_eq!(blend((40, -20), (0, 256), 100), -20);
        assert_eq!(blend((40, -20), (128, 256), 100), 10);
        assert_eq!(blend((40, -20), (256, 256), 50), 20);
    }
}
