//! Pawn structure: passed, doubled and isolated pawns, for every game with pawns.
//!
//! A pawn is known by its moves, not by its name: a piece that promotes, is not royal, and
//! whose every move is one step forward (straight or diagonal), or a double step straight
//! ahead from its first ranks. The Pawns of chess, Courier, Tamerlane, Hiashatar and the
//! duodecimal game are pawns so, and so are the Pawns of the Shogi games; a Lance (it
//! slides), a Shogi Knight (it leaps two ranks) or Chu's Go-Between (it steps back) is not.
//!
//! - passed: no opponent pawn stands ahead of it on its file or the files next to it; worth
//!   `passed` times the square of its advance (0 on its first rank, 1 on the far rank), as
//!   the promotion term is;
//! - doubled: per pawn beyond the first on a file;
//! - isolated: no friendly pawn on the files next to it.
//!
//! The three weights are 0 unless a game's `[variant.eval]` section sets them (`kirin
//! tune` fits them), and the evaluation then skips the survey, so that an untuned game
//! evaluates as before.

use crate::core::geometry::MAX_SIDE;
use crate::core::{Bitboard, Color, WHITE, color_of_piece};
use crate::rules::game::Game;
use crate::rules::position::Position;

/// Whether piece `pc` (a piece index) is a pawn, by its moves (module comment).
pub(crate) fn is_pawn<const W: usize>(game: &Game<W>, pc: usize) -> bool {
    let tab = &game.tables[pc];
    if game.is_royal[pc]
        || game.promotions[pc].is_none()
        || !tab.slides.is_empty()
        || tab.has_two_legs
        || tab.has_routes
    {
        return false;
    }
    let g = &game.geo;
    let color = color_of_piece(pc);
    let forward = |from: usize, to: usize| {
        let rise = g.rank(to) as i32 - g.rank(from) as i32;
        let side = (g.file(to) as i32 - g.file(from) as i32).abs();
        (if color == WHITE { rise } else { -rise }, side)
    };
    let mut moves = false;
    for sq in (0..game.squares).filter(|&s| !g.holes[s]) {
        for to in tab.leap_move[sq] | tab.leap_capture[sq] {
            let (rise, side) = forward(sq, to);
            if rise != 1 || side > 1 {
                return false;
            }
            moves = true;
        }
        for special in &tab.specials[sq] {
            let (rise, side) = forward(sq, special.to as usize);
            if !(special.double_step && rise > 1 && side == 0) {
                return false;
            }
        }
    }
    moves
}

/// Where one side's pawns stand, file by file.
#[derive(Clone, Copy)]
struct Files {
    /// Pawns per file.
    count: [u8; MAX_SIDE],
    /// The lowest and the highest rank a pawn of the side stands on, per file.
    lowest: [u8; MAX_SIDE],
    highest: [u8; MAX_SIDE],
}

impl Files {
    fn of<const W: usize>(game: &Game<W>, pawns: Bitboard<W>) -> Files {
        let mut files = Files {
            count: [0; MAX_SIDE],
            lowest: [u8::MAX; MAX_SIDE],
            highest: [0; MAX_SIDE],
        };
        for sq in pawns {
            let (f, r) = (game.geo.file(sq), game.geo.rank(sq) as u8);
            files.count[f] += 1;
            files.lowest[f] = files.lowest[f].min(r);
            files.highest[f] = files.highest[f].max(r);
        }
        files
    }

    /// The files next to `f` (one or two) on a board `width` files wide.
    fn beside(f: usize, width: usize) -> impl Iterator<Item = usize> {
        [f.wrapping_sub(1), f + 1]
            .into_iter()
            .filter(move |&n| n < width)
    }
}

/// One side's pawn structure: its doubled and isolated pawns (counts), its passed pawns
/// given to `passed` one square at a time.
pub(crate) struct Survey {
    pub doubled: i32,
    pub isolated: i32,
}

/// Each side's pawns, as squares and file by file: found once per evaluation and read
/// by both sides' surveys.
pub(crate) struct Pawns<const W: usize> {
    squares: [Bitboard<W>; 2],
    files: [Files; 2],
}

impl<const W: usize> Pawns<W> {
    /// The pieces of `pos` that are pawns (`pawn`, per piece index).
    pub(crate) fn of(game: &Game<W>, pos: &Position<W>, pawn: &[bool]) -> Pawns<W> {
        Pawns::on(game, squares_of(pos, pawn))
    }

    /// Each side's pawns on `squares`.
    pub(crate) fn on(game: &Game<W>, squares: [Bitboard<W>; 2]) -> Pawns<W> {
        let files = squares.map(|set| Files::of(game, set));
        Pawns { squares, files }
    }

    /// Where `color`'s pawns stand.
    pub(crate) fn of_color(&self, color: Color) -> Bitboard<W> {
        self.squares[color]
    }

    /// A bit per file of the board that holds no pawn of `color`.
    pub(crate) fn pawnless_files(&self, game: &Game<W>, color: Color) -> u32 {
        let counts = &self.files[color].count[..game.geo.width];
        counts
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n == 0)
            .fold(0, |mask, (f, _)| mask | 1 << f)
    }
}

/// Where each side's pawns stand (`pawn`, per piece index: whether it is a pawn).
#[inline]
pub(crate) fn squares_of<const W: usize>(pos: &Position<W>, pawn: &[bool]) -> [Bitboard<W>; 2] {
    let mut squares = [Bitboard::EMPTY; 2];
    for (pc, _) in pawn.iter().enumerate().filter(|&(_, &is)| is) {
        squares[color_of_piece(pc)] |= pos.by_piece[pc];
    }
    squares
}

/// Surveys `color`'s pawns, calling `passed` with the square of each passed pawn.
pub(crate) fn survey<const W: usize>(
    game: &Game<W>,
    pawns: &Pawns<W>,
    color: Color,
    mut passed: impl FnMut(usize),
) -> Survey {
    let width = game.geo.width;
    let own = &pawns.files[color];
    let theirs = &pawns.files[color.opposite()];
    let doubled = own.count[..width]
        .iter()
        .map(|&n| n.saturating_sub(1) as i32)
        .sum();
    let mut isolated = 0;
    for sq in pawns.squares[color] {
        let (f, r) = (game.geo.file(sq), game.geo.rank(sq) as u8);
        if Files::beside(f, width).all(|n| own.count[n] == 0) {
            isolated += 1;
        }
        // No opponent pawn ahead on this file or the files beside it.
        let mut front = std::iter::once(f).chain(Files::beside(f, width));
        let free = if color == WHITE {
            front.all(|n| theirs.count[n] == 0 || theirs.highest[n] <= r)
        } else {
            front.all(|n| theirs.count[n] == 0 || theirs.lowest[n] >= r)
        };
        if free {
            passed(sq);
        }
    }
    Survey { doubled, isolated }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::BLACK;
    use crate::variants::AnyGame;

    /// The letters of a game's pieces that are pawns.
    fn pawn_letters(name: &str) -> Vec<String> {
        let any = AnyGame::builtin(name).unwrap();
        crate::with_width!(&any, g => {
            (0..g.types)
                .filter(|&t| {
                    let both = [crate::core::piece_index(t, WHITE), crate::core::piece_index(t, BLACK)];
                    let pawn = is_pawn(g, both[0]);
                    assert_eq!(pawn, is_pawn(g, both[1]), "{name}: both colours alike");
                    pawn
                })
                .map(|t| g.spec.pieces[t].letter.clone())
                .collect()
        })
    }

    #[test]
    fn pawns_are_known_by_their_moves() {
        assert_eq!(pawn_letters("chess"), ["p"]);
        assert_eq!(pawn_letters("courier"), ["p"]);
        assert_eq!(pawn_letters("sho"), ["p"]);
        assert!(pawn_letters("chu").contains(&"p".to_string()));
        assert!(
            !pawn_letters("chu").contains(&"g".to_string()),
            "the Go-Between steps back"
        );
    }

    #[test]
    fn passed_doubled_and_isolated_pawns_are_counted() {
        let any = AnyGame::builtin("chess").unwrap();
        crate::with_width!(&any, g => {
            let pawn: Vec<bool> = (0..2 * g.types).map(|pc| is_pawn(g, pc)).collect();
            // White: a2, b2, b3 (doubled), e5 (isolated and passed: nothing on d-f ahead);
            // Black: a7 (isolated; not passed: a2, b2 and b3 stand ahead of it).
            let pos = Position::from_fen(g, "4k3/p7/8/4P3/8/1P6/PP6/4K3 w - - 0 1").unwrap();
            let pawns = Pawns::of(g, &pos, &pawn);
            let mut passed = Vec::new();
            let white = survey(g, &pawns, WHITE, |sq| passed.push(g.geo.name(sq)));
            assert_eq!((white.doubled, white.isolated), (1, 1));
            // a2 has a7 ahead on its file, b2 and b3 have it on the file beside.
            assert_eq!(passed, ["e5"]);
            let mut passed = Vec::new();
            let black = survey(g, &pawns, BLACK, |sq| passed.push(g.geo.name(sq)));
            assert_eq!((black.doubled, black.isolated), (0, 1));
            assert!(passed.is_empty());
        });
    }
}
