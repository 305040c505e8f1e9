//! Hiashatar's rules (docs/rules/hiashatar.md) position by position: the King's pawn alone
//! steps two squares, the Hia's stop and freeze, the exempt Knight, a Rook's check cut
//! short by the defender's Hia, a Hia that gives no check, promotion to Queen only. Move
//! lists are counted by hand.

use kirin::rules::{MoveList, Position};
use kirin::variants::{self, AnyGame};
use kirin::with_width;

fn game(rules: &[&str]) -> AnyGame {
    let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
    let spec = variants::with_rules("hiashatar", &rules, "").expect("the rules apply");
    AnyGame::new(&spec).expect("hiashatar compiles")
}

/// The legal moves of the piece on `from` (every legal move when `from` is empty), as
/// sorted coordinate texts.
fn moves(rules: &[&str], fen: &str, from: &str) -> Vec<String> {
    let any = game(rules);
    with_width!(&any, g => {
        let mut pos = Position::from_fen(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        let from = (!from.is_empty()).then(|| g.geo.parse_square(from).unwrap());
        let mut out: Vec<String> = list
            .iter()
            .filter(|m| from.is_none_or(|f| m.from() == f))
            .map(|&m| g.move_text(m))
            .collect();
        out.sort();
        out
    })
}

fn in_check(fen: &str) -> bool {
    let any = game(&[]);
    with_width!(&any, g => g.in_check(&Position::from_fen(g, fen).unwrap()))
}

const START: &str = "rnbhkqhbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBHQKHBNR w - - 0 1";

#[test]
fn only_the_kings_pawn_steps_two_squares() {
    // The seed's array: White's King on f1, Black's on e10.
    let all = moves(&[], START, "");
    assert_eq!(all.len(), 15, "{all:?}"); // 10 single steps, f2f4, four Knight moves
    assert!(all.contains(&"f2f4".to_string()) && !all.contains(&"e2e4".to_string()));
    let black = START.replace(" w ", " b ");
    let all = moves(&[], &black, "");
    assert!(all.contains(&"e9e7".to_string()) && !all.contains(&"f9f7".to_string()));
    // The Kisliouk array moves the King's pawn to the e-file for both.
    let kisliouk = "rnbhkqhbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBHKQHBNR w - - 0 1";
    let all = moves(&["array=kisliouk"], kisliouk, "");
    assert!(all.contains(&"e2e4".to_string()) && !all.contains(&"f2f4".to_string()));
    // The modern pawns: every pawn 1 to 3 squares.
    let all = moves(&["pawns=modern"], START, "e2");
    assert_eq!(all, ["e2e3", "e2e4", "e2e5"]);
}

#[test]
fn a_rook_stops_next_to_an_enemy_hia_and_a_rook_beside_it_is_frozen() {
    // Black's Hia on d5 guards c4..e6. The Rook on a4: up to a10, down to a2, and right
    // b4, then c4, where it must stop.
    let fen = "9k/10/10/10/10/3h6/R9/10/10/K9 w - - 0 1";
    assert_eq!(
        moves(&[], fen, "a4"),
        [
            "a4a10", "a4a2", "a4a3", "a4a5", "a4a6", "a4a7", "a4a8", "a4a9", "a4b4", "a4c4"
        ]
    );
    // A Rook on c4 starts next to the Hia: one square only.
    let fen = "9k/10/10/10/10/3h6/2R7/10/10/K9 w - - 0 1";
    assert_eq!(moves(&[], fen, "c4"), ["c4b4", "c4c3", "c4c5", "c4d4"]);
    // Without the freeze (Vivanto) it slides away, stopping only on guarded squares.
    let free = moves(&["bodyguard_freeze=false"], fen, "c4");
    assert!(free.contains(&"c4c1".to_string()) && free.contains(&"c4a4".to_string()));
    assert!(!free.contains(&"c4c6".to_string()), "{free:?}");
    // The Knight is never held back: its eight leaps from c4.
    let fen = "9k/10/10/10/10/3h6/2N7/10/10/K9 w - - 0 1";
    assert_eq!(moves(&[], fen, "c4").len(), 8);
}

#[test]
fn a_rooks_check_stops_at_the_defenders_hia_and_a_hia_gives_no_check() {
    // The Rook on a10 checks the King on j10 along the last rank...
    assert!(in_check("R8k/10/10/10/10/10/10/10/10/K9 b - - 0 1"));
    // ...but not past Black's Hia on e9, whose neighbours d10 e10 f10 stop it.
    assert!(!in_check("R8k/4h5/10/10/10/10/10/10/10/K9 b - - 0 1"));
    // A White Hia diagonally next to the Black King gives no check; the King may step next
    // to it or take it.
    let fen = "9k/8H1/10/10/10/10/10/10/10/K9 b - - 0 1";
    assert!(!in_check(fen));
    assert_eq!(moves(&[], fen, "j10"), ["j10i10", "j10i9", "j10j9"]);
}

#[test]
fn a_pawn_promotes_to_a_queen_only() {
    let fen = "9k/P9/10/10/10/10/10/10/10/K9 w - - 0 1";
    assert_eq!(moves(&[], fen, "a9"), ["a9a10q"]);
}
