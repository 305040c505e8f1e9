//! A position's static evaluation term by term, for people (`kirin eval`): what each
//! piece type's numbers and each global weight add, from the side to move, so that a
//! score one disagrees with can be traced to the term that makes it. It reads the
//! tuner's linear form of the evaluation (`features.rs`, whose agreement with `evaluate`
//! a test holds), so the rows always add up to what the search sees.

use super::Eval;
use super::params::{
    ENDGAME_TERMS, GLOBAL_TERMS, PER_PIECE, endgame_index, global_term, square_index,
};
use crate::core::{BLACK, WHITE};
use crate::rules::game::Game;
use crate::rules::position::Position;

/// The columns of a piece type's row: its block of numbers (`params::PIECE_TERMS`; the endgame
/// numbers, where a game has them, added to the middlegame's column of the same name),
/// then its square table.
pub const SQUARES_COLUMN: usize = PER_PIECE;
const COLUMNS: usize = PER_PIECE + 1;

/// A position's evaluation split by term, in centipawns for the side to move.
#[derive(Clone, Debug)]
pub struct Breakdown {
    /// Per piece type (the game's order): what each column adds.
    pub pieces: Vec<[f64; COLUMNS]>,
    /// Per global number (`params::GLOBAL_TERMS`, the names a definition gives them):
    /// what it adds.
    pub globals: Vec<(&'static str, f64)>,
    /// What no number weighs: the mop-up of a nearly bare side, and the rounding of the
    /// tables to whole centipawns.
    pub fixed: f64,
    /// The evaluation itself (`Eval::evaluate`).
    pub total: i32,
    /// Whether the game's rules called the position a draw by material before any term
    /// was counted (no mating force).
    pub no_mating_force: bool,
}

impl Breakdown {
    /// Every row's sum: the evaluation but for its rounding to a whole centipawn.
    pub fn sum(&self) -> f64 {
        self.fixed
            + self.pieces.iter().flatten().sum::<f64>()
            + self.globals.iter().map(|(_, v)| v).sum::<f64>()
    }
}

impl Eval {
    /// `pos`'s evaluation term by term, from the side to move.
    pub fn breakdown<const W: usize>(&self, game: &Game<W>, pos: &Position<W>) -> Breakdown {
        let features = self.features(game, pos);
        let weights = self.params.to_vector();
        let types = game.types;
        let squares = self.params.squares();
        let mut pieces = vec![[0.0; COLUMNS]; types];
        let mut globals: Vec<(&'static str, f64)> =
            GLOBAL_TERMS.iter().map(|&t| (t, 0.0)).collect();
        for &(i, c) in &features.terms {
            let i = i as usize;
            let worth = weights[i] * c as f64;
            match term_of(i, types, squares) {
                Term::Piece(t, column) => pieces[t][column] += worth,
                Term::Global(g) => globals[g].1 += worth,
            }
        }
        Breakdown {
            pieces,
            globals,
            fixed: features.fixed,
            total: self.evaluate(game, pos),
            no_mating_force: self
                .cannot_mate(pos, &[pos.royals(game, WHITE), pos.royals(game, BLACK)]),
        }
    }
}

/// Where a number of the flat vector goes in the breakdown.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Term {
    Piece(usize, usize),
    Global(usize),
}

/// The row and column of flat parameter `i` in a game of `types` piece types on
/// `squares` squares (the layout of `params.rs`).
fn term_of(i: usize, types: usize, squares: usize) -> Term {
    if i < types * PER_PIECE {
        return Term::Piece(i / PER_PIECE, i % PER_PIECE);
    }
    let endgame = endgame_index(types, squares, 0, 0);
    if i >= endgame {
        let (t, term) = ((i - endgame) / ENDGAME_TERMS, (i - endgame) % ENDGAME_TERMS);
        return Term::Piece(t, term);
    }
    let tables = square_index(types, squares, 0, 0);
    if i >= tables {
        return Term::Piece((i - tables) / squares.max(1), SQUARES_COLUMN);
    }
    Term::Global(global_term(types, i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Params;
    use crate::eval::params::{
        ISOLATED, SPACE, VALUE, activity_index, control_index, few_pieces_index, global_indices,
        pawn_index, safety_index, tempo_index,
    };
    use crate::rules::random_lines::random_positions;
    use crate::rules::spec::FEW_PIECES;
    use crate::variants::AnyGame;

    #[test]
    fn every_number_of_the_vector_has_one_place() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let p = Params::of(g);
            let (types, squares) = (g.types, p.squares());
            let mut globals = vec![0; GLOBAL_TERMS.len()];
            let mut cells = vec![vec![0; COLUMNS]; types];
            for i in 0..p.len() {
                match term_of(i, types, squares) {
                    Term::Piece(t, c) => cells[t][c] += 1,
                    Term::Global(k) => {
                        assert!(global_indices(types, k).contains(&i), "{i} in {k}");
                        globals[k] += 1
                    }
                }
            }
            // The names stand where the numbers' own index functions put them.
            let at = |name: &str| {
                let k = GLOBAL_TERMS.iter().position(|&t| t == name).expect("a name");
                global_indices(types, k).start
            };
            assert_eq!(at("tempo"), tempo_index(types));
            assert_eq!(at("few_pieces"), few_pieces_index(types, 1));
            assert_eq!(at("isolated"), pawn_index(types, ISOLATED));
            assert_eq!(at("royal_safety"), safety_index(types));
            assert_eq!(at("activity"), activity_index(types));
            assert_eq!(at("space"), control_index(types, SPACE));
            assert_eq!(globals[2], FEW_PIECES);
            assert!(globals.iter().enumerate().all(|(k, &n)| k == 2 || n == 1), "{globals:?}");
            for row in &cells {
                // Value, centre, advance and promotion have an endgame number too.
                assert_eq!(row[..4], [2, 2, 2, 2]);
                assert_eq!(row[4..7], [1, 1, 1]);
                assert_eq!(row[SQUARES_COLUMN], squares);
            }
        });
    }

    #[test]
    fn the_rows_add_up_to_the_evaluation() {
        for name in ["chess", "courier", "sho", "chu", "flee"] {
            let any = AnyGame::builtin(name).unwrap();
            crate::with_width!(&any, g => {
                let e = Eval::new(g);
                for pos in random_positions(g, 40, 3) {
                    let b = e.breakdown(g, &pos);
                    assert_eq!(b.total, e.evaluate(g, &pos));
                    assert!((b.sum() - b.total as f64).abs() < 0.05, "{name}: {} against {}", b.sum(), b.total);
                }
            });
        }
    }

    #[test]
    fn a_courier_start_counts_values_and_tempo() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let e = Eval::new(g);
            let fen = g.spec.start_position("").expect("a start");
            let pos = Position::from_fen(g, fen).unwrap();
            let b = e.breakdown(g, &pos);
            // Equal armies: each value cancels; the side to move has its tempo.
            assert!(b.pieces.iter().all(|row| row[VALUE].abs() < 0.05));
            let tempo = b.globals.iter().find(|(t, _)| *t == "tempo").unwrap().1;
            assert_eq!(tempo, Params::of(g).tempo as f64);
        });
    }
}
