//! Repeating chains of the Betza dialect (docs/betza.md, "Repeating chains") on a 17x17
//! test game: ShoFIDEgi's Rose (a circular Nightrider of up to six Knight leaps, turning
//! the same way at every leap) and Double Rhino (a zig-zag slider whose steps alternate
//! between a Wazir step and a Ferz step 45 degrees apart, turning left and right by
//! turns).
//!
//! The expected squares were listed by a separate Python walk of the two pieces' paths
//! (the sixteen paths of each, stopped by the board's edge, an own piece, or after
//! capturing an enemy), written for the purpose from the rules above; some are spelled
//! out path by path in the comments. kirin agreed with that walk on 600 random positions
//! of mixed density as well.

#[path = "support/boards.rs"]
mod boards;

use kirin::rules::spec::parse_definitions;
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::AnyGame;
use std::collections::BTreeSet;

const TEST_GAME: &str = r#"
[[variant]]
name = "winding"
board = "17x17"
royalty = "capture"
start = "8k8/17/17/17/17/17/17/17/17/17/17/17/17/17/17/17/8K8 w - - 0 1"
  [[variant.piece]]
  name = "king"
  letter = "k"
  betza = "K"
  royal = true
  [[variant.piece]]
  name = "rose"
  letter = "r"
  betza = "[N-flN]*6[N-frN]*6"
  [[variant.piece]]
  name = "double rhino"
  letter = "x"
  betza = "[W-frF-flW]*[W-flF-frW]*[F-frW-flF]*[F-flW-frF]*"
  [[variant.piece]]
  name = "pawn"
  letter = "p"
  betza = "fW"
"#;

fn game() -> Game<5> {
    let specs = parse_definitions(TEST_GAME).expect("the test game parses");
    match AnyGame::new(&specs[0]).expect("the test game compiles") {
        AnyGame::W5(g) => *g,
        _ => panic!("17x17 needs five lanes"),
    }
}

/// A FEN with the pieces `placements` ("Ri9 pk10": letter and square, upper case White),
/// the Kings on i1 and i17, White to move.
fn place(g: &Game<5>, placements: &str) -> String {
    boards::placed(g, &format!("Ki1 ki17 {placements}")).to_fen(g)
}

/// The end squares of the moves of the piece on `from`, each once, and the number of
/// moves (equal when no square is reached twice).
fn targets(g: &Game<5>, placements: &str, from: &str) -> (BTreeSet<String>, usize) {
    let fen = place(g, placements);
    let mut pos = Position::from_fen(g, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut list = MoveList::new();
    g.legal_moves(&mut pos, &mut list);
    let from = g.geo.parse_square(from).unwrap();
    let ends: Vec<String> = list
        .iter()
        .filter(|m| m.from() == from)
        .map(|m| g.geo.name(m.to()))
        .collect();
    let n = ends.len();
    (ends.into_iter().collect(), n)
}

fn set(squares: &str) -> BTreeSet<String> {
    squares.split_whitespace().map(str::to_string).collect()
}

#[test]
fn the_rose_circles_up_to_six_leaps_and_reaches_each_square_once() {
    let g = game();
    // From i9 on an empty board: 32 squares. The path that starts k10 and turns left
    // goes on l12 k14 i15 g14 f12; e9 is two leaps away by two paths (g10 then e9, g8
    // then e9) and is one move.
    let expected = set(
        "i3 g4 k4 e5 i5 m5 f6 l6 d7 h7 j7 n7 g8 k8 c9 e9 m9 o9 g10 k10 d11 h11 j11 n11 \
         f12 l12 e13 i13 m13 g14 k14 i15",
    );
    assert_eq!(targets(&g, "Ri9", "i9"), (expected.clone(), 32));
    // An own piece on j11 and an enemy on k10: j11 is lost, k10 is taken and ends those
    // paths, and every square behind them is still reached by another path.
    let blocked: BTreeSet<String> = expected.iter().filter(|s| *s != "j11").cloned().collect();
    assert_eq!(targets(&g, "Ri9 Pj11 pk10", "i9"), (blocked, 31));
    // From b2, near the corner: 12 squares.
    let corner = set("d1 f2 h2 d3 a4 c4 g4 e5 b6 f6 d7 b8");
    assert_eq!(targets(&g, "Rb2", "b2"), (corner, 12));
}

#[test]
fn the_double_rhino_zigzags_through_empty_squares() {
    let g = game();
    // From i9 on an empty board: 88 squares. The path that starts with a Wazir step
    // north and turns right, then left, and so on, goes i10 j11 j12 k13 k14 l15 l16 m17;
    // the one that starts with a Ferz step north-east and turns left goes j10 j11 k12
    // k13 l14 l15 m16 m17 (j11, k13, l15, m17 are on both: one move each).
    let expected = set(
        "e1 m1 e2 f2 l2 m2 f3 l3 f4 g4 k4 l4 a5 b5 g5 k5 p5 q5 b6 c6 d6 g6 h6 j6 k6 n6 o6 \
         p6 d7 e7 f7 h7 j7 l7 m7 n7 f8 g8 h8 i8 j8 k8 l8 h9 j9 f10 g10 h10 i10 j10 k10 \
         l10 d11 e11 f11 h11 j11 l11 m11 n11 b12 c12 d12 g12 h12 j12 k12 n12 o12 p12 a13 \
         b13 g13 k13 p13 q13 f14 g14 k14 l14 f15 l15 e16 f16 l16 m16 e17 m17",
    );
    assert_eq!(targets(&g, "Xi9", "i9"), (expected, 88));
    // An own piece on i10 (not a target) and an enemy on j10 (taken, ending its paths)
    // close the paths through them; squares that other paths reach stay.
    let blocked = set(
        "e1 m1 e2 f2 l2 m2 f3 l3 f4 g4 k4 l4 a5 b5 g5 k5 p5 q5 b6 c6 d6 g6 h6 j6 k6 n6 o6 \
         p6 d7 e7 f7 h7 j7 l7 m7 n7 f8 g8 h8 i8 j8 k8 l8 h9 j9 f10 g10 h10 j10 k10 l10 \
         d11 e11 f11 h11 m11 n11 b12 c12 d12 g12 o12 p12 a13 b13 g13 q13 f14 f15 e16 e17",
    );
    assert_eq!(targets(&g, "Xi9 Pi10 pj10", "i9"), (blocked, 71));
    // From the corner a1: 47 squares.
    let corner = set(
        "b1 a2 b2 c2 d2 b3 d3 e3 f3 b4 c4 f4 g4 h4 c5 h5 i5 j5 c6 d6 j6 k6 l6 d7 l7 m7 n7 \
         d8 e8 n8 o8 p8 e9 p9 q9 e10 f10 f11 f12 g12 g13 g14 h14 h15 h16 i16 i17",
    );
    assert_eq!(targets(&g, "Xa1", "a1"), (corner, 47));
}

#[test]
fn repeating_chains_that_cannot_be_are_refused() {
    for (betza, why) in [
        ("[N-flN]*0", "at least one leg"),
        ("[N-flN]*33", "at most 32 legs"),
        ("[N]*", "two or more legs"),
        ("[NN-flN]*", "all leaps"),
        ("[N-cflN]*", "take no 'm', 'c' or 'i'"),
        ("[iN-flN]*", "take no 'm', 'c' or 'i'"),
        ("[N]", "at least two legs"),
    ] {
        let e = kirin::rules::betza::parse(betza).expect_err(betza);
        assert!(e.to_string().contains(why), "{betza}: {e}");
    }
}
