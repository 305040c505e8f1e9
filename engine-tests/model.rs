//! The position model beyond the built-in games, on the made-up games of
//! `test-games/model.toml`: reserves and drops, a carrier, turns of two actions. Each game
//! has a perft to depth 2 counted by hand (the reasoning is written next to the number),
//! and every position of those trees is checked: make/unmake restores it exactly, the
//! incremental key equals the recomputed one, and FEN and move text round-trip.

use kirin::rules::{Game, MoveList, Position};
use kirin::variants::{AnyGame, load_file};
use kirin::with_width;
use std::path::PathBuf;

fn game(name: &str) -> AnyGame {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("engine-tests/test-games/model.toml");
    let (_, specs) = load_file(&path).expect("the test games load");
    let spec = specs.iter().find(|s| s.name == name).expect("a test game");
    AnyGame::new(spec).expect("the test game compiles")
}

/// Walks the legal-move tree to `depth` turns (the actions of a turn are one ply),
/// checking every move on the way; returns the leaf count.
fn checked_perft<const W: usize>(g: &Game<W>, pos: &mut Position<W>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    let mut nodes = 0;
    for &m in &list {
        let before = pos.clone();
        let text = g.move_text(m);
        assert_eq!(g.parse_move(pos, &text).ok(), Some(m), "move text '{text}'");
        let side = pos.side;
        let u = pos.make(g, m);
        assert_eq!(pos.key, pos.compute_key(g), "key after {text}");
        let fen = pos.to_fen(g);
        let again = Position::from_fen(g, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(again.to_fen(g), fen);
        assert_eq!(again.key, pos.key, "key of {fen}");
        let left = if pos.side == side { depth } else { depth - 1 };
        nodes += checked_perft(g, pos, left);
        pos.unmake(g, m, u);
        assert!(*pos == before, "unmake of {text}");
    }
    nodes
}

fn perft_from(name: &str, fen: &str, depth: u32) -> u64 {
    let any = game(name);
    with_width!(&any, g => {
        let mut pos = Position::from_fen(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let counted = checked_perft(g, &mut pos, depth);
        assert_eq!(g.perft(&mut pos, depth, true), counted, "bulk perft");
        counted
    })
}

/// Plays `moves` from `fen` and returns the FEN reached.
fn play(name: &str, fen: &str, moves: &[&str]) -> String {
    let any = game(name);
    with_width!(&any, g => {
        let mut pos = Position::from_fen(g, fen).unwrap();
        for text in moves {
            let m = g.parse_move(&mut pos, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            pos.make(g, m);
        }
        pos.to_fen(g)
    })
}

#[test]
fn drops_counted_by_hand() {
    // White: King a1 and a Pawn in hand; Black: King h8 and a Knight in hand.
    let fen = "7k/8/8/8/8/8/8/K7[Pn] w - - 0 1";
    // Depth 1: the King's 3 steps (a2 b1 b2) and the Pawn dropped on any of the 48 squares
    // of ranks 2-7 (its drop ranks) = 51.
    assert_eq!(perft_from("drophouse", fen, 1), 51);
    // Depth 2, after a King step (3 moves): Black's King steps to g8, g7 or h7 and its
    // Knight drops on any of the 62 empty squares = 65 each, 195.
    // After a Pawn drop (48 moves): on g7 the Pawn checks; only the King's 3 moves (g8, h7,
    // xg7) answer it = 3. On h7, f7 (attacking g8), g6 (h7), h6 or f6 (g7) one King step is
    // attacked: 2 steps + 61 Knight drops = 63, five times 315. The other 42 drops leave
    // Black 3 + 61 = 64: 2688. In all 195 + 3 + 315 + 2688 = 3201.
    assert_eq!(perft_from("drophouse", fen, 2), 3201);
}

#[test]
fn captures_go_to_the_captors_hand_and_come_back_as_drops() {
    let fen = "7k/8/8/8/8/8/1p6/K7[] w - - 0 1";
    // The King takes the pawn: White holds a pawn, written in upper case.
    let after = play("drophouse", fen, &["a1b2"]);
    assert_eq!(after, "7k/8/8/8/8/8/1K6/8[P] b - - 0 1");
    let after = play("drophouse", fen, &["a1b2", "h8g8", "P@e4"]);
    assert_eq!(after, "6k1/8/8/8/4P3/8/1K6/8[] b - - 0 2");
    // A drop is refused when the reserve is empty or the rank is not allowed.
    let any = game("drophouse");
    with_width!(&any, g => {
        let mut pos = Position::from_fen(g, "7k/8/8/8/8/8/8/K7[P] w - - 0 1").unwrap();
        assert!(g.parse_move(&mut pos, "P@e8").is_err());
        assert!(g.parse_move(&mut pos, "N@e4").is_err());
        assert!(g.parse_move(&mut pos, "p@e4").is_ok(), "either case names the piece");
        // More pieces in a reserve than the game has is refused.
        let crowded = format!("7k/8/8/8/8/8/8/K7[{}] w - - 0 1", "P".repeat(40));
        assert!(Position::from_fen(g, &crowded).is_err());
        assert!(Position::from_fen(g, "7k/8/8/8/8/8/8/K7[Px] w - - 0 1").is_err());
        assert!(Position::from_fen(g, "7k/8/8/8/8/8/8/K7[P w - - 0 1").is_err());
    });
}

#[test]
fn a_carrier_counted_by_hand() {
    // White: King a1, Ferry c1 (empty-handed), Knight c2. Black: King e5, Ferry c5 carrying
    // a Knight.
    let fen = "2c(n)1k/5/5/2N2/K1C2 w - - 0 1";
    // Depth 1, White: King a2 b1 b2 (3). Ferry c1 (W and D leaps): b1 d1 e1 c3 (4), and it
    // picks up the Knight on c2 (W step) or the King on a1 (D leap) (2). Knight c2: a3 b4 d4
    // e3 e1 (5; a1 is its own King, which is no carrier). 3 + 4 + 2 + 5 = 14.
    assert_eq!(perft_from("ferry", fen, 1), 14);
    // Depth 2, Black after any White move: King e5 to d5 d4 e4 (3); the loaded Ferry c5 to
    // b5 d5 c4 a5 c3 (5; e5 is its own King and it carries already); its Knight leaves to
    // a4 b3 d3 e4 (4). No White move puts a piece where it would change these (White lands
    // only on d4 and c3 of them, enemies Black may take). 12 for each of the 14 = 168.
    assert_eq!(perft_from("ferry", fen, 2), 168);
}

#[test]
fn a_loaded_carrier_moves_and_dies_with_its_passenger() {
    let fen = "2c(n)1k/5/5/2N2/K1C2 w - - 0 1";
    // The Ferry picks up the Knight and moves on with it.
    assert_eq!(
        play("ferry", fen, &["c1c2", "e5d5", "c2c4"]),
        "2c(n)k1/2C(N)2/5/5/K4 b - - 3 2"
    );
    // The Knight leaves its Ferry.
    assert_eq!(
        play("ferry", fen, &["c1c2", "e5d5", "c2^e3"]),
        "2c(n)k1/5/4N/2C2/K4 b - - 3 2"
    );
    // Taking a loaded Ferry takes its passenger too.
    assert_eq!(
        play("ferry", fen, &["a1b1", "c5c3", "c1c3"]),
        "4k/5/2C2/2N2/1K3 b - - 0 2"
    );
    // A King may ride: it is still on the board for the rules.
    assert_eq!(
        play("ferry", fen, &["c1a1", "e5e4"]),
        "2c(n)2/4k/5/2N2/C(K)4 w - - 2 2"
    );
}

#[test]
fn two_actions_a_turn_counted_by_hand() {
    // White: King a1, Wazir b1; Black: King e5. Each side moves twice in its turn.
    let fen = "4k/5/5/5/KW3 w - - 0 1";
    // Perft counts whole turns. First action: King a2 b2 (b1 is the Wazir's), Wazir c1 b2
    // (a1 is the King's). Second action, still White: after Ka2, King a1 a3 b2 b3 (4) +
    // Wazir a1 c1 b2 (3) = 7; after Kb2, King a1 a2 a3 b3 c1 c2 c3 (7) + Wazir a1 c1 (2) =
    // 9; after Wc1, King a2 b1 b2 (3) + Wazir b1 d1 c2 (3) = 6; after Wb2, King a2 b1 (2) +
    // Wazir a2 b1 b3 c2 (4) = 6. In all 28 turns.
    assert_eq!(perft_from("twostep", fen, 1), 28);
    // The FEN tells the second action; Black moves only after it.
    assert_eq!(play("twostep", fen, &["a1a2"]), "4k/5/5/K4/1W3 w+1 - - 1 1");
    assert_eq!(
        play("twostep", fen, &["a1a2", "b1c1"]),
        "4k/5/5/K4/2W2 b - - 2 1"
    );
}

#[test]
fn a_regent_takes_the_fallen_kings_place() {
    // White's King has fallen; its Regent on e1 ascends, then White moves.
    let fen = "r3k/5/5/5/4R[k] w - - 0 1";
    // The turn: the ascension (e1e1), then the new King on e1 steps to d1 d2 e2. So 3
    // turns.
    assert_eq!(perft_from("regency", fen, 1), 3);
    // The deposed Regent goes to Black, the King's captor, in place of the King it held:
    // Black's reserve now holds an `r`. An ascension moves no piece: the clock stays.
    assert_eq!(
        play("regency", fen, &["e1e1"]),
        "r3k/5/5/5/4K[r] w+1 - - 0 1"
    );
    // Without a regent the side has lost: no moves, and the outcome says so.
    let any = game("regency");
    with_width!(&any, g => {
        let mut pos = Position::from_fen(g, "r3k/5/5/5/5[k] w - - 0 1").unwrap();
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        assert!(list.is_empty());
        assert!(g.royals_lost(&mut pos));
        assert!(g.outcome(&mut pos).is_some());
    });
}

#[test]
fn a_neutral_reserve_is_written_after_a_bar_and_keyed() {
    let any = game("neutralhouse");
    with_width!(&any, g => {
        let fen = "7k/8/8/8/8/8/8/K7[Pn|QB] w - - 0 1";
        let pos = Position::from_fen(g, fen).unwrap();
        assert_eq!(pos.to_fen(g), fen);
        let without = Position::from_fen(g, "7k/8/8/8/8/8/8/K7[Pn] w - - 0 1").unwrap();
        assert_ne!(pos.key, without.key);
        assert_eq!(pos.key, pos.compute_key(g));
        // Neutral pieces are not dropped by either side: the same 51 moves as without.
        assert_eq!(g.perft(&mut pos.clone(), 1, false), 51);
        assert!(Position::from_fen(g, "7k/8/8/8/8/8/8/K7[|x] w - - 0 1").is_err());
    });
    // A game without a neutral reserve refuses one.
    let any = game("drophouse");
    with_width!(&any, g => {
        assert!(Position::from_fen(g, "7k/8/8/8/8/8/8/K7[P|Q] w - - 0 1").is_err());
    });
}
