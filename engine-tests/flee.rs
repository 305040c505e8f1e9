//! Flee! (docs/rules/flee.md), each rule in a small position: the King slides through
//! attacked squares but may not stop on one; a pawn promotes to a Guard only, and must on
//! rank 16; the pawn steps and takes sideways and forward, slides up to four squares
//! diagonally forward; the Knight reaches the whole 5x5 box; castling only with rights
//! (the `castling` start), with the inner Rooks.

use kirin::rules::{Game, MoveList, Position};
use kirin::variants::{self, AnyGame};

fn flee_with(rules: &[&str]) -> Game<4> {
    let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
    let spec = variants::with_rules("flee", &rules, "").unwrap();
    match AnyGame::new(&spec).unwrap() {
        AnyGame::W4(g) => *g,
        _ => panic!("16x16: four lanes"),
    }
}

fn flee() -> Game<4> {
    flee_with(&[])
}

fn moves(g: &Game<4>, pos: &mut Position<4>) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    let mut texts: Vec<String> = list.iter().map(|&m| g.move_text(m)).collect();
    texts.sort();
    texts
}

fn from(g: &Game<4>, square: &str, pos: &mut Position<4>) -> Vec<String> {
    moves(g, pos)
        .into_iter()
        .filter(|m| {
            m.starts_with(square) && !m[square.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

fn fen(g: &Game<4>, text: &str) -> Position<4> {
    Position::from_fen(g, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn the_game_compiles_on_four_lanes_and_starts_with_158_moves() {
    let g = flee();
    let mut pos = fen(&g, &g.spec.start);
    assert_eq!(moves(&g, &mut pos).len(), 158);
    assert_eq!(g.perft(&mut pos, 2, true), 24_859);
}

#[test]
fn the_king_slides_through_attacked_squares_but_never_stops_on_one() {
    let g = flee();
    // White King a1, Black Rook b16 (the b-file and rank 16), Black King p13.
    let mut pos = fen(
        &g,
        "1r14/16/16/15k/16/16/16/16/16/16/16/16/16/16/16/K15 w - - 0 1",
    );
    let king = from(&g, "a1", &mut pos);
    // Along rank 1 it crosses b1 (attacked) to c1 and beyond; along the diagonal it
    // crosses b2; it jumps over b2 to c3 (Alfil) and b2 to c2 (Knight); never stops on
    // the b-file.
    for good in ["a1c1", "a1o1", "a1h8", "a1c3", "a1c2", "a1a12"] {
        assert!(king.contains(&good.to_string()), "{good}: {king:?}");
    }
    for bad in ["a1b1", "a1b2", "a1b3", "a1b8"] {
        assert!(
            !king.contains(&bad.to_string()),
            "{bad} ends on an attacked square"
        );
    }
    // The Black King (a Queen-like slider) guards rank 13, the p-file and its diagonals.
    for bad in ["a1a13", "a1p1", "a1a16"] {
        assert!(
            !king.contains(&bad.to_string()),
            "{bad} ends on an attacked square"
        );
    }
    // In check along the a-file, it cannot flee along that file: the squares behind it
    // stay attacked (a16, the Rook, is guarded by the Black King along rank 16).
    let mut pos = fen(
        &g,
        "r13k1/16/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w - - 0 1",
    );
    let king = from(&g, "a1", &mut pos);
    assert!(!king.iter().any(|m| m[2..].starts_with('a')), "{king:?}");
}

#[test]
fn a_pawn_promotes_to_a_guard_only_and_must_on_rank_16() {
    let g = flee();
    // White pawn c15: forward c16, diagonal b16 (takes the rook) and d16; sideways b15,
    // d15 stay pawns.
    let mut pos = fen(
        &g,
        "1r12k1/2P13/16/16/16/16/16/16/16/16/16/16/16/16/16/K15 w - - 0 1",
    );
    assert_eq!(
        from(&g, "c15", &mut pos),
        ["c15b15", "c15b16g", "c15c16g", "c15d15", "c15d16g"]
    );
    // No plain move to rank 16 exists, and none can be entered.
    for text in ["c15c16", "c15c16q", "c15c16n", "c15b16"] {
        assert!(g.parse_move(&mut pos, text).is_err(), "{text}");
    }
    let m = g.parse_move(&mut pos, "c15c16g").unwrap();
    pos.make(&g, m);
    assert!(pos.to_fen(&g).starts_with("1rG11k1/"), "{}", pos.to_fen(&g));
    // The Guard: B4R4AND.
    let mut pos = fen(
        &g,
        "14k1/16/16/16/16/16/16/16/7G8/16/16/16/16/16/16/K15 w - - 0 1",
    );
    let guard = from(&g, "h8", &mut pos);
    assert_eq!(
        guard.len(),
        4 * 8 + 8,
        "8 lines of 4, plus 8 Knight leaps: {guard:?}"
    );
    assert!(guard.contains(&"h8h12".to_string()) && !guard.contains(&"h8h13".to_string()));
    assert!(guard.contains(&"h8d4".to_string()) && !guard.contains(&"h8c3".to_string()));
}

#[test]
fn the_pawn_steps_forward_and_sideways_and_slides_four_diagonally_capturing_alike() {
    let g = flee();
    // White pawn h5 with a black pawn on g5 and one on f7 (on its left forward diagonal),
    // a white pawn on i5.
    let mut pos = fen(
        &g,
        "14k1/16/16/16/16/16/16/16/16/5p10/16/6pPP7/16/16/16/K15 w - - 0 1",
    );
    assert_eq!(
        from(&g, "h5", &mut pos),
        // fW h6; sW takes g5 (i5 is its own pawn); fB4: g6, f7 (taken, stops); i6..l9.
        [
            "h5f7", "h5g5", "h5g6", "h5h6", "h5i6", "h5j7", "h5k8", "h5l9"
        ]
    );
    // No double step, no backward or backward-diagonal move. A Black pawn goes down.
    let mut pos = fen(
        &g,
        "14k1/16/16/16/16/16/16/16/16/16/16/16/16/8p7/16/K15 b - - 0 1",
    );
    assert_eq!(
        from(&g, "i3", &mut pos),
        // Its diagonal slides reach rank 1 and promote there.
        ["i3g1g", "i3h2", "i3h3", "i3i2", "i3j2", "i3j3", "i3k1g"]
    );
    // The sideways step gives check: a White King beside a Black pawn is in check.
    let pos = fen(
        &g,
        "14k1/16/16/16/16/16/16/16/16/16/16/16/16/8pK6/16/16 w - - 0 1",
    );
    assert!(g.in_check(&pos));
}

#[test]
fn the_knight_reaches_every_square_of_its_five_by_five_box() {
    let g = flee();
    let mut pos = fen(
        &g,
        "14k1/16/16/16/16/16/16/16/7N8/16/16/16/16/16/16/K15 w - - 0 1",
    );
    let knight = from(&g, "h8", &mut pos);
    assert_eq!(knight.len(), 24, "{knight:?}");
    // It jumps: surrounded by its own pawns it still reaches the outer ring.
    let mut pos = fen(
        &g,
        "15k/16/16/16/16/16/16/6PPP7/6PNP7/6PPP7/16/16/16/16/16/K15 w - - 0 1",
    );
    assert_eq!(from(&g, "h8", &mut pos).len(), 16);
}

#[test]
fn castling_only_with_rights_and_only_with_the_inner_rooks() {
    let g = flee();
    // The default start has no rights; a castling right in a FEN is accepted.
    let start = fen(&g, &g.spec.start);
    assert_eq!(start.castling, 0);
    let castling_start = g.spec.start_position("castling").unwrap().to_string();
    assert!(castling_start.contains(" w LEle - "));
    let opening =
        "k1k3 k16k14 i2i3 i15i14 j1i2 j16i15 f1f3 f16f14 h2h3 h15h14 g1h2 g16h15 h1g3 h16g14";
    let count = |fen_text: &str| {
        let mut pos = fen(&g, fen_text);
        for text in opening.split_whitespace() {
            let m = g.parse_move(&mut pos, text).unwrap();
            pos.make(&g, m);
        }
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        let castles: Vec<(usize, usize, usize)> = list
            .iter()
            .filter(|m| m.kind() == kirin::core::MoveKind::Castle)
            .map(|m| (m.from(), m.to(), m.aux()))
            .collect();
        (list.len(), castles)
    };
    let (plain, none) = count(&g.spec.start);
    assert!(none.is_empty());
    let (with, castles) = count(&castling_start);
    assert_eq!(with, plain + 2);
    let sq = |s: &str| g.geo.parse_square(s).unwrap();
    let mut castles = castles;
    castles.sort();
    assert_eq!(
        castles,
        [
            (sq("i1"), sq("g1"), sq("e1")),
            (sq("i1"), sq("k1"), sq("l1"))
        ]
    );
    // The King also steps i1-k1 by itself, so castling is written as the King's move onto
    // its Rook: both texts name their own move.
    let mut pos = fen(&g, &castling_start);
    for text in opening.split_whitespace() {
        let m = g.parse_move(&mut pos, text).unwrap();
        pos.make(&g, m);
    }
    let castle = g.parse_move(&mut pos, "i1l1").unwrap();
    assert_eq!(castle.kind(), kirin::core::MoveKind::Castle);
    assert_eq!(g.move_text(castle), "i1l1");
    let step = g.parse_move(&mut pos, "i1k1").unwrap();
    assert_eq!(step.kind(), kirin::core::MoveKind::Normal);
    // Castling needs the King and the Rook unmoved: after the King's step there is none.
    let mut pos = fen(&g, &castling_start);
    for text in opening
        .split_whitespace()
        .chain(["i1j1", "i16j16", "j1i1", "j16i16"])
    {
        let m = g.parse_move(&mut pos, text).unwrap();
        pos.make(&g, m);
    }
    assert_eq!(pos.castling, 0);
}
