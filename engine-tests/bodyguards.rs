//! The bodyguard rule (Hiashatar's Hia, `rules::extension::bodyguards`) on a made-up 6x6
//! game: the stop, the freeze, the exempt Knight, a check cut short by the defender's
//! guard, and a guard that gives no check. Move lists are counted by hand.

use kirin::rules::{MoveList, Position};
use kirin::variants::{AnyGame, load_file};
use kirin::with_width;
use std::path::PathBuf;

fn guards() -> AnyGame {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("engine-tests/test-games/bodyguards.toml");
    let (_, specs) = load_file(&path).expect("the test game loads");
    AnyGame::new(&specs[0]).expect("the test game compiles")
}

/// The legal moves of the piece on `from`, as sorted destination names.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    let any = guards();
    with_width!(&any, g => {
        let mut pos = Position::from_fen(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let from = g.geo.parse_square(from).unwrap();
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        let mut out: Vec<String> = list
            .iter()
            .filter(|m| m.from() == from)
            .map(|m| g.geo.name(m.to()))
            .collect();
        out.sort();
        out
    })
}

fn in_check(fen: &str) -> bool {
    let any = guards();
    with_width!(&any, g => g.in_check(&Position::from_fen(g, fen).unwrap()))
}

#[test]
fn a_slide_stops_on_the_first_square_next_to_an_enemy_guard() {
    // Black's Guard on d4 guards c3..e5. The Rook on a3 slides right: b3, then c3 is next
    // to the Guard, so it stops there; up the a-file it is free (a4 a5 a6), down a2 a1.
    let fen = "5k/6/3h2/R5/6/K5 w - - 0 1";
    assert_eq!(moves_from(fen, "a3"), ["a2", "a4", "a5", "a6", "b3", "c3"]);
}

#[test]
fn a_piece_next_to_an_enemy_guard_moves_one_square_only() {
    // The Rook on c3 starts next to the Guard on d4: one square only, c2 c4 b3 d3.
    let fen = "5k/6/3h2/2R3/6/K5 w - - 0 1";
    assert_eq!(moves_from(fen, "c3"), ["b3", "c2", "c4", "d3"]);
    // The Knight is never held back: all its leaps from c3 (a2 a4 b1 b5 d1 d5 e2 e4).
    let fen = "5k/6/3h2/2N3/6/K5 w - - 0 1";
    assert_eq!(
        moves_from(fen, "c3"),
        ["a2", "a4", "b1", "b5", "d1", "d5", "e2", "e4"]
    );
}

#[test]
fn a_check_stops_at_the_defenders_guard_and_a_guard_gives_no_check() {
    // The Rook on a1 against the King on f1: a check...
    assert!(in_check("K5/6/6/6/6/R4k b - - 0 1"));
    // ...cut short by Black's Guard on c2, whose neighbours b1 c1 d1 stop the Rook.
    assert!(!in_check("K5/6/6/6/2h3/R4k b - - 0 1"));
    // A Guard next to the enemy King gives no check, and the King may stand beside it.
    assert!(!in_check("K5/6/6/4H1/5k/6 b - - 0 1"));
    let king = moves_from("K5/6/6/4H1/5k/6 b - - 0 1", "f2");
    assert!(king.contains(&"e2".to_string()) && king.contains(&"e1".to_string()));
}
