//! Movement features of the Betza compiler on test games: holes (Tamerlane's frame with
//! two citadels), bent moves (the Giraffe), minimum and maximum ranges, leaper-riders,
//! two-leg capture moves (the Lion), and royals that may be captured.

#[path = "support/boards.rs"]
mod boards;

use kirin::rules::spec::parse_definitions;
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::AnyGame;
use std::collections::BTreeSet;

const TEST_GAMES: &str = r#"
[[variant]]
name = "frame"
board = "13x10"
holes = ["a1","a2","a3","a4","a5","a6","a7","a8","a10","m1","m3","m4","m5","m6","m7","m8","m9","m10"]
start = "*1k9*/12*/*11*/*11*/*11*/*11*/*11*/*11*/*12/*9K1* w - - 0 1"
royalty = "capture"
  [[variant.piece]]
  name = "king"
  letter = "k"
  betza = "K"
  royal = true
  [[variant.piece]]
  name = "giraffe"
  letter = "g"
  betza = "[mF-fsR{3,}]"
  [[variant.piece]]
  name = "picket"
  letter = "t"
  betza = "jB"
  [[variant.piece]]
  name = "rook"
  letter = "r"
  betza = "R"
  [[variant.piece]]
  name = "short rook"
  letter = "s"
  betza = "R4"
  [[variant.piece]]
  name = "dabbaba rider"
  letter = "d"
  betza = "DD"
  [[variant.piece]]
  name = "lion"
  letter = "l"
  betza = "KNADcaKmabK"
  [[variant.piece]]
  name = "pawn"
  letter = "p"
  betza = "fW"
"#;

fn game() -> Game<3> {
    let specs = parse_definitions(TEST_GAMES).expect("test games parse");
    match AnyGame::new(&specs[0]).expect("test game compiles") {
        AnyGame::W3(g) => *g,
        _ => panic!("13x10 needs three lanes"),
    }
}

/// Texts of the legal moves of the piece on `from`.
fn moves_from(g: &Game<3>, fen: &str, from: &str) -> BTreeSet<String> {
    let mut pos = Position::from_fen(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut list = MoveList::new();
    g.legal_moves(&mut pos, &mut list);
    list.iter()
        .map(|&m| g.move_text(m))
        .filter(|t| {
            t.starts_with(from) && !t[from.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

fn targets(g: &Game<3>, fen: &str, from: &str) -> BTreeSet<String> {
    moves_from(g, fen, from)
        .into_iter()
        .map(|t| t[from.len()..].to_string())
        .collect()
}

/// A FEN of the test frame with the pieces `placements` ("Kk1 kc10 Gf5": letter, square;
/// upper case White), holes written as `*`, White to move.
fn place(g: &Game<3>, placements: &str) -> String {
    boards::placed(g, placements).to_fen(g)
}

fn set(squares: &str) -> BTreeSet<String> {
    squares.split_whitespace().map(str::to_string).collect()
}

#[test]
fn holes_stop_riders_and_citadels_are_squares() {
    let g = game();
    // A rook on b2 cannot enter the hole a2; one on b9 can enter the citadel a9.
    let fen = &place(&g, "kc10 Rb2 Rb9 Kk1");
    assert!(!targets(&g, fen, "b2").contains("a2"));
    assert!(targets(&g, fen, "b9").contains("a9"));
    // The king on k1 may step to the citadel m2 but not to the hole m1.
    let t = targets(&g, fen, "k1");
    assert!(t.contains("l2") && !t.contains("m1"));
    let fen = &place(&g, "kc10 Kl1");
    assert!(targets(&g, fen, "l1").contains("m2"));
}

#[test]
fn fen_holes_must_match_the_board() {
    let g = game();
    let e = Position::from_fen(
        &g,
        "*1k9*/*11*/*11*/*11*/*11*/*11*/*11*/*11*/*12/*9K1* w - - 0 1",
    )
    .unwrap_err();
    assert!(e.to_string().contains("not a hole"), "{e}");
    let e = Position::from_fen(
        &g,
        "1k11/12*/*11*/*11*/*11*/*11*/*11*/*11*/*12/*9K1* w - - 0 1",
    )
    .unwrap_err();
    assert!(e.to_string().contains("hole"), "{e}");
}

#[test]
fn giraffe_steps_diagonally_then_slides_three_or_more() {
    let g = game();
    // Giraffe on f5 (board files b..l are the 11 inner files), empty board.
    let fen = &place(&g, "kc10 Kk1 Gf5");
    let expected = set("e9 e10 g9 g10 e1 g1 j4 k4 l4 j6 k6 l6");
    // Westward: from e4/e6 three or more squares: b4, b6 (a is a hole except a9).
    let expected: BTreeSet<String> = expected.union(&set("b4 b6")).cloned().collect();
    assert_eq!(targets(&g, fen, "f5"), expected);
    // A piece on the diagonal square g6 blocks the whole north-east branch.
    let fen = &place(&g, "kc10 Kk1 Gf5 pg6");
    let t = targets(&g, fen, "f5");
    assert!(!t.contains("g9") && !t.contains("j6") && t.contains("e9"));
}

#[test]
fn picket_skips_the_first_square() {
    let g = game();
    let fen = &place(&g, "kc10 Kk1 Te4");
    let t = targets(&g, fen, "e4");
    assert!(!t.contains("f5") && !t.contains("d3"));
    assert!(t.contains("g6") && t.contains("c2") && t.contains("b1") && t.contains("i8"));
    // A blocker on the first square stops the slide.
    let fen = &place(&g, "kc10 Kk1 Te4 pf5");
    assert!(!targets(&g, fen, "e4").contains("g6"));
}

#[test]
fn range_limits_and_leaper_riders() {
    let g = game();
    let fen = &place(&g, "kc10 Kk1 Sb1");
    assert_eq!(targets(&g, fen, "b1"), set("b2 b3 b4 b5 c1 d1 e1 f1"));
    let fen = &place(&g, "kc10 Kk1 Db1 pe1");
    // Dabbaba rider: b1-d1-f1-h1-j1-l1 and b3-b5-b7-b9; a black pawn on e1 is jumped.
    assert_eq!(targets(&g, fen, "b1"), set("d1 f1 h1 j1 l1 b3 b5 b7 b9"));
    let fen = &place(&g, "kc10 Kk1 Db1 Pd1");
    // Its own pawn on d1 blocks the row.
    assert_eq!(targets(&g, fen, "b1"), set("b3 b5 b7 b9"));
}

#[test]
fn lion_double_moves_igui_and_pass() {
    let g = game();
    // Lion e5 with black pawns on e6 and e7.
    let fen = &place(&g, "kc10 Kk1 Le5 pe6 pe7");
    let m = moves_from(&g, fen, "e5");
    assert!(m.contains("e5e6"), "plain capture");
    assert!(m.contains("e5e6,e6e7"), "double capture");
    assert!(m.contains("e5e6,e6e5"), "igui: capture and return");
    assert!(m.contains("e5e6,e6f6"), "hit and run");
    assert!(m.contains("e5e7"), "jump capture");
    // The pass is one move of the position, written @@@@.
    let mut pos = Position::from_fen(&g, fen).unwrap();
    let mut list = MoveList::new();
    g.legal_moves(&mut pos, &mut list);
    assert_eq!(
        list.iter().filter(|&&m| g.move_text(m) == "@@@@").count(),
        1
    );
}

#[test]
fn capturable_royals_and_a_side_without_royals_has_no_moves() {
    let g = game();
    let fen = &place(&g, "kc10 Rc9 Kk1");
    assert!(targets(&g, fen, "c9").contains("c10"));
    let mut pos = Position::from_fen(&g, fen).unwrap();
    let m = g.parse_move(&mut pos, "c9c10").unwrap();
    pos.make(&g, m);
    let mut list = MoveList::new();
    g.legal_moves(&mut pos, &mut list);
    assert!(list.is_empty());
}
