//! Threats on pieces: a piece attacked by a cheaper one loses something whatever defends
//! it; one attacked and not strongly defended (by a pawn, or by two defenders where the
//! attacker has fewer than two attackers) is weak, and hanging where nothing defends it
//! or a second attacker stands ready; a pawn that attacks a piece from a square it is
//! safe on, or could by one step to a safe square, forces a retreat; and every square
//! both sides attack and the defender does not hold strongly restricts the defender's
//! pieces. A game weighs it with `threats` (percent of the model, `EvalSpec::threats`);
//! without the key nothing here is computed.
//!
//! The model follows the structure of Stockfish's classical threats, which
//! Fairy-Stockfish applies to every variant, with kirin's own generic weights: "cheaper"
//! is a lower class of value (`classes`), where Stockfish names the attacking and the
//! attacked types. The weights were fitted by least squares to the threats term of
//! Fairy-Stockfish 11.1's evaluation, each side's middlegame and endgame part apart, on
//! the 76 040 Courier positions of the tuning data (Fairy-Stockfish's term turned into
//! kirin's centipawns by the ratio of the two engines' piece values, 0.43), where the
//! term spreads by 32 and 31 centipawns; the model follows it with a correlation of
//! 0.953 in the middlegame and 0.932 in the endgame (docs/tuning.md).
//!
//! Attacks are the survey's (`safety::Survey`): captures by leaps, steps and slides.

use super::safety::{Layout, Survey};
use crate::core::{Bitboard, Color, color_of_piece};
use crate::rules::game::Game;
use crate::rules::position::Position;

/// How many classes of value the pieces fall in, at most; the most valuable types
/// share the last.
pub(crate) const CLASSES: usize = 8;
/// The class of pawns and royals, which have none (the survey never files their attacks
/// by class, nor are they counted as the attacked pieces).
pub(crate) const NO_CLASS: u8 = 0;
/// A type joins the class of the next cheaper one while it is worth less than this many
/// eighths of the cheapest type in that class: a piece is cheaper than another only by a
/// clear margin.
const SAME_CLASS_EIGHTHS: i32 = 9;

/// Middlegame and endgame weights, in centipawns: per mille of the value of a piece
/// (neither pawn nor royal) that a cheaper piece attacks...
const CHEAPER_ATTACKER: (i32, i32) = (40, 30);
/// ...per weak piece (pawns included, royals not)...
const WEAK: (i32, i32) = (3, 11);
/// ...per weak piece that nothing defends or that a second attacker takes on (a pawn,
/// only where nothing defends it)...
const HANGING: (i32, i32) = (29, 15);
/// ...per square both sides attack that the defender does not hold strongly...
const RESTRICTED: (i32, i32) = (3, 3);
/// ...once, where a royal attacks a weak piece...
const ROYAL_ON_WEAK: (i32, i32) = (6, 25);
/// ...per piece (neither pawn nor royal) that a pawn on a safe square attacks...
const SAFE_PAWN: (i32, i32) = (74, 37);
/// ...and per piece that a pawn would attack after a step to a safe square.
const PAWN_PUSH: (i32, i32) = (23, 19);

/// Per piece index: its class of value, `NO_CLASS` for pawns and royals. The other
/// types, cheapest first, each start a class unless worth less than
/// `SAME_CLASS_EIGHTHS` eighths of the cheapest type of the class before.
pub(crate) fn classes<const W: usize>(game: &Game<W>, values: &[i32]) -> Vec<u8> {
    let counted = |pc: usize| !game.is_royal[pc] && !super::pawns::is_pawn(game, pc);
    let mut worths: Vec<i32> = (0..game.types)
        .filter(|&t| counted(2 * t))
        .map(|t| values[t])
        .collect();
    worths.sort_unstable();
    // The cheapest value of each class, in order.
    let mut firsts: Vec<i32> = Vec::new();
    for v in worths {
        match firsts.last() {
            Some(&first) if v * 8 < first * SAME_CLASS_EIGHTHS => {}
            _ => firsts.push(v),
        }
    }
    (0..2 * game.types)
        .map(|pc| {
            if !counted(pc) {
                return NO_CLASS;
            }
            let v = values[super::type_of_piece(pc)];
            let class = firsts.iter().rposition(|&first| first <= v).unwrap_or(0);
            class.min(CLASSES - 1) as u8
        })
        .collect()
}

/// What a position shows of each side beyond the survey's attacks.
pub(crate) struct Sides<'a, const W: usize> {
    pub(crate) pos: &'a Position<W>,
    /// Per piece type: its value.
    pub(crate) values: &'a [i32],
    /// Per side: its pawns and its royals.
    pub(crate) pawns: [Bitboard<W>; 2],
    pub(crate) royals: &'a [Bitboard<W>; 2],
}

/// The threats' counts of one side against the other.
#[derive(Debug, Default, PartialEq)]
struct Counts {
    /// The value of the pieces a cheaper piece attacks.
    cheaper_attacker: i32,
    weak: i32,
    hanging: i32,
    restricted: i32,
    royal_on_weak: i32,
    safe_pawn: i32,
    pawn_push: i32,
}

impl Counts {
    /// The middlegame and endgame worth of the counts.
    fn worth(&self) -> (i32, i32) {
        let per_mille = |w: i32| w * self.cheaper_attacker / 1000;
        let counted = [
            (WEAK, self.weak),
            (HANGING, self.hanging),
            (RESTRICTED, self.restricted),
            (ROYAL_ON_WEAK, self.royal_on_weak),
            (SAFE_PAWN, self.safe_pawn),
            (PAWN_PUSH, self.pawn_push),
        ];
        let start = (per_mille(CHEAPER_ATTACKER.0), per_mille(CHEAPER_ATTACKER.1));
        counted
            .iter()
            .fold(start, |(mg, eg), &((m, e), n)| (mg + m * n, eg + e * n))
    }
}

/// What `color`'s threats on the other side's pieces are worth to it, in centipawns at
/// `percent` of the model, where `phase` of `full` is the middlegame's share.
pub(crate) fn worth<const W: usize>(
    survey: &Survey<W>,
    game: &Game<W>,
    layout: &Layout,
    sides: &Sides<W>,
    color: Color,
    (phase, full): (i32, i32),
    percent: i32,
) -> i32 {
    let worth = counts(survey, game, layout, sides, color).worth();
    super::blend(worth, (phase, full), percent)
}

/// `color`'s threats on the other side, counted.
fn counts<const W: usize>(
    survey: &Survey<W>,
    game: &Game<W>,
    layout: &Layout,
    sides: &Sides<W>,
    color: Color,
) -> Counts {
    let pos = sides.pos;
    let (us, them) = (color.index(), color.opposite().index());
    let strongly = survey.pawns[them] | survey.twice[them].andnot(survey.twice[us]);
    let targets = pos.by_color[color.opposite()].andnot(sides.royals[them]);
    let pieces = targets.andnot(sides.pawns[them]);
    let weak = targets.andnot(strongly) & survey.all[us];
    let undefended = game.valid.andnot(survey.all[them]);
    let hanging = weak & (undefended | (pieces & survey.twice[us]));
    // Where a pawn of ours stands safe: attacked by nothing or defended.
    let safe = undefended | survey.all[us];
    // Per class: the squares attacked by a piece of a cheaper class.
    let mut cheaper = [Bitboard::<W>::EMPTY; CLASSES];
    for class in 1..CLASSES {
        cheaper[class] = cheaper[class - 1] | survey.by_class[us][class - 1];
    }
    let mut cheaper_attacker = 0;
    for sq in pieces & survey.all[us] {
        let pc = pos.board[sq] as usize - 1;
        if cheaper[layout.class[pc] as usize].has(sq) {
            cheaper_attacker += sides.values[super::type_of_piece(pc)];
        }
    }
    let (safe_pawn, pawn_push) = pawn_threats(survey, game, sides, color, (safe, pieces));
    Counts {
        cheaper_attacker,
        weak: weak.count() as i32,
        hanging: hanging.count() as i32,
        restricted: (survey.all[them].andnot(strongly) & survey.all[us]).count() as i32,
        royal_on_weak: i32::from(survey.royals[us].intersects(&weak)),
        safe_pawn,
        pawn_push,
    }
}

/// How many of the other side's `pieces` `color`'s pawns on `safe` squares attack, and
/// how many they would attack after one step to a safe empty square.
fn pawn_threats<const W: usize>(
    survey: &Survey<W>,
    game: &Game<W>,
    sides: &Sides<W>,
    color: Color,
    (safe, pieces): (Bitboard<W>, Bitboard<W>),
) -> (i32, i32) {
    let pos = sides.pos;
    let (us, them) = (color.index(), color.opposite().index());
    let occ = pos.occupied();
    let (mut attacked, mut next) = (Bitboard::<W>::EMPTY, Bitboard::<W>::EMPTY);
    for pc in (0..2 * game.types).filter(|&pc| color_of_piece(pc) == color) {
        let mine = pos.by_piece[pc] & sides.pawns[us];
        if mine.is_empty() {
            continue;
        }
        let mut steps = Bitboard::<W>::EMPTY;
        for sq in mine {
            if safe.has(sq) {
                attacked |= game.plain_attacks(pc, sq, occ);
            }
            steps |= game.tables[pc].leap_move[sq];
        }
        for sq in steps.andnot(occ | survey.pawns[them]) & safe {
            next |= game.plain_attacks(pc, sq, occ);
        }
    }
    (
        (attacked & pieces).count() as i32,
        (next & pieces).count() as i32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Params;
    use crate::eval::safety::tests::{flipped, surveyed};
    use crate::variants::AnyGame;

    fn values_of<const W: usize>(g: &Game<W>) -> Vec<i32> {
        Params::of(g).pieces.iter().map(|p| p.value).collect()
    }

    fn type_of<const W: usize>(g: &Game<W>, letter: char) -> usize {
        g.spec
            .pieces
            .iter()
            .position(|p| p.letter == letter.to_string())
            .unwrap()
    }

    /// Each side's threats in `fen`, counted with the game's own piece values, and what
    /// White's are worth at `percent` in the middlegame and in the endgame.
    fn threats_in<const W: usize>(
        g: &Game<W>,
        fen: &str,
        percent: i32,
    ) -> ([Counts; 2], (i32, i32)) {
        let values = values_of(g);
        let layout = Layout::new(g, &values);
        let pos = Position::from_fen(g, fen).unwrap();
        let survey = surveyed(g, &layout, &pos);
        let royals = Color::ALL.map(|c| pos.royals(g, c));
        let pawn: Vec<bool> = (0..2 * g.types)
            .map(|pc| crate::eval::pawns::is_pawn(g, pc))
            .collect();
        let sides = Sides {
            pos: &pos,
            values: &values,
            pawns: crate::eval::pawns::squares_of(&pos, &pawn),
            royals: &royals,
        };
        let white = Color::ALL[0];
        let at = |phase| worth(&survey, g, &layout, &sides, white, (phase, 256), percent);
        (
            Color::ALL.map(|c| counts(&survey, g, &layout, &sides, c)),
            (at(256), at(0)),
        )
    }

    fn check_classes<const W: usize>(g: &Game<W>) {
        let class = classes(g, &values_of(g));
        let of = |letter| class[2 * type_of(g, letter)];
        // Alfil, Schleich, Fers, then Man and Knight (worth nearly the same), the
        // Courier, the Rook.
        assert_eq!(['e', 'w', 'f', 'm', 'b', 'r'].map(of), [0, 1, 2, 3, 4, 5]);
        assert_eq!(of('n'), of('m'));
        assert_eq!(of('k'), NO_CLASS);
        assert_eq!(of('p'), NO_CLASS);
    }

    #[test]
    fn courier_pieces_fall_in_classes_by_value() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => check_classes(g));
    }

    fn check_rook_threats<const W: usize>(g: &Game<W>) {
        // White's Pawn e4, safe (the Rook attacks e5 and f4, not e4), attacks the Rook on
        // f5, which nothing defends: weak, hanging, a safe pawn's threat. Both sides
        // attack d5, which Black does not hold strongly: one restricted square. The
        // Pawn's step to e5 is not safe.
        let fen = "k11/12/12/5r6/4P7/12/12/K11 w - - 0 1";
        let ([white, black], worth) = threats_in(g, fen, 100);
        let expected = Counts {
            weak: 1,
            hanging: 1,
            restricted: 1,
            safe_pawn: 1,
            ..Counts::default()
        };
        assert_eq!(white, expected);
        assert_eq!(black, Counts::default());
        let (mg, eg) = (
            WEAK.0 + HANGING.0 + RESTRICTED.0 + SAFE_PAWN.0,
            WEAK.1 + HANGING.1 + RESTRICTED.1 + SAFE_PAWN.1,
        );
        assert_eq!(worth, (mg, eg));
        assert_eq!(threats_in(g, fen, 50).1, (mg / 2, eg / 2));
        // A Knight on e3 attacks the Rook, which the Courier on g6 defends: weak (one
        // defender against one attacker), not hanging, and attacked by a cheaper piece,
        // which counts the Rook's value.
        let ([white, _], _) = threats_in(g, "k11/12/6b5/5r6/12/4N7/12/K11 w - - 0 1", 100);
        assert_eq!((white.weak, white.hanging), (1, 0));
        assert_eq!(white.cheaper_attacker, values_of(g)[type_of(g, 'r')]);
    }

    #[test]
    fn a_pawn_on_a_lone_rook_and_a_knight_on_a_defended_one() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => check_rook_threats(g));
    }

    fn check_colour_symmetry<const W: usize>(g: &Game<W>) {
        let mut seen = std::collections::HashSet::new();
        for pos in crate::rules::random_lines::random_positions(g, 150, 11) {
            let fen = pos.to_fen(g);
            let ([white, black], _) = threats_in(g, &fen, 100);
            let ([white_mirrored, black_mirrored], _) = threats_in(g, &flipped(&fen), 100);
            assert_eq!(
                (&white, &black),
                (&black_mirrored, &white_mirrored),
                "{fen}"
            );
            seen.insert(white.worth());
        }
        // The threats vary along the line, or the mirror would prove little.
        assert!(seen.len() > 20, "{}", seen.len());
    }

    #[test]
    fn each_colour_threatens_what_the_other_would_in_the_mirrored_position() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => check_colour_symmetry(g));
    }
}
