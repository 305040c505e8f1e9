//! Moves of three or more legs and en passant on several squares, in the two made-up games
//! of `engine-tests/test-games/legs.toml`: perft counted by hand, make/unmake and keys,
//! FEN and move text round trips, and the CECP form of a multi-leg move.

#[path = "support/engine.rs"]
mod engine;

use engine::Engine;
use kirin::core::MoveKind;
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::{self, AnyGame};
use std::path::PathBuf;

fn games_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("engine-tests/test-games/legs.toml")
}

/// A game of the test file (both are small enough for one lane).
fn game(name: &str) -> Game<1> {
    let (_, specs) = variants::load_file(&games_file()).unwrap();
    let spec = variants::find_in(&specs, name).unwrap();
    match AnyGame::new(spec).unwrap() {
        AnyGame::W1(g) => *g,
        _ => panic!("{name} fits one lane"),
    }
}

fn texts(g: &Game<1>, pos: &mut Position<1>) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    let mut out: Vec<String> = list.iter().map(|&m| g.move_text(m)).collect();
    out.sort();
    out
}

fn play(g: &Game<1>, pos: &mut Position<1>, text: &str) {
    let m = g.parse_move(pos, text).unwrap();
    pos.make(g, m);
}

/// Every move to `depth` plies: the key is the recomputed one after the move, the FEN
/// written reads back to the same position and key, the move's text parses back to it, and
/// unmaking restores the position exactly.
fn check_tree(g: &Game<1>, pos: &mut Position<1>, depth: u32) {
    if depth == 0 {
        return;
    }
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    for &m in &list {
        assert_eq!(g.parse_move(pos, &g.move_text(m)), Ok(m));
        let before = pos.clone();
        let u = pos.make(g, m);
        assert_eq!(pos.key, pos.compute_key(g), "after {}", g.move_text(m));
        let fen = pos.to_fen(g);
        let back = Position::from_fen(g, &fen).unwrap();
        assert_eq!((back.to_fen(g), back.key), (fen.clone(), pos.key), "{fen}");
        assert_eq!(
            (back.board.clone(), back.ep),
            (pos.board.clone(), pos.ep),
            "{fen}"
        );
        check_tree(g, pos, depth - 1);
        pos.unmake(g, m, u);
        assert!(*pos == before, "unmake of {}", g.move_text(m));
    }
}

// The Trident (`mcamcsafW`) walks a Wazir step, turns a right angle, and steps on straight:
// it ends a knight's leap away, each end square by one route, and captures every enemy on
// the two squares it walks over and on its end square. Start (5x5, White to move):
// White K a1, X c3; Black k e5, w c4, w d2 (w = Wazir).
//
// Depth 1 = 11. King: a2 b1 b2 (3; no Black piece reaches them). Trident from c3, route
// by route (walked squares, end): c4 d4 > e4 takes c4 (`c3c4,c4e4`); c4 b4 > a4 takes c4
// (`c3c4,c4a4`); c2 d2 > e2 takes d2 (`c3d2,d2e2`); c2 b2 > a2; d3 d4 > d5; d3 d2 > d1
// takes d2 (`c3d2,d2d1`); b3 b4 > b5; b3 b2 > b1 (8).
//
// Depth 2 = 78, Black's replies to each. Black k e5 has d5 d4 e4; Wazir c4 has c5 b4 d4 c3;
// Wazir d2 has d1 d3 c2 e2. The Trident attacks its end squares and any walked-over square
// holding a Black piece (a king stepping onto a walked square is taken on the way).
// - K a2, K b1, K b2: 8 each (24). The Trident on c3 attacks e4 and d5 (ends) and d4
//   (walked over on the way to e4 and d5), so the king cannot move; 4 + 4 Wazir moves.
// - X c3c4,c4e4 (takes c4): 1. The route e5 d5 > c5 walks over the king: check. Only
//   kxe4 answers it (d5 and d4 are walked over); the Wazir on d2 cannot help.
// - X c3c4,c4a4: 7. From a4 the Trident attacks c5 c3 b2 only: k 3 + Wazir d2 4.
// - X c3d2,d2e2: 6. From e2 it attacks c3, c1, d4: k d5 e4 (2) + Wazir c4 4.
// - X c3a2: 11. From a2 it attacks c3, b4: k 3 + 4 + 4.
// - X c3d5: 1. The route e5 e4 > e3 walks over the king: check; kxd5 only (d4 and e4 are
//   walked over), no Wazir can take d5.
// - X c3d2,d2d1: 7. From d1 it attacks b2 e3 c3: k 3 + Wazir c4 4.
// - X c3b5: 10. From b5 it attacks d4 (end), c4, c3, a3: k d5 e4 (2) + 4 + 4.
// - X c3b1: 11. From b1 it attacks d2 and c3: k 3 + 4 + 4.
// 24 + 1 + 7 + 6 + 11 + 1 + 7 + 10 + 11 = 78.
#[test]
fn trident_perft_counted_by_hand() {
    let g = game("trident");
    let mut pos = Position::from_fen(&g, &g.spec.start).unwrap();
    assert_eq!(g.perft(&mut pos, 1, false), 11);
    assert_eq!(g.perft(&mut pos, 2, false), 78);
    assert_eq!(g.perft(&mut pos, 2, true), 78);
    let expected = [
        "a1a2",
        "a1b1",
        "a1b2",
        "c3a2",
        "c3b1",
        "c3b5",
        "c3c4,c4a4",
        "c3c4,c4e4",
        "c3d2,d2d1",
        "c3d2,d2e2",
        "c3d5",
    ];
    assert_eq!(texts(&g, &mut pos), expected);
    let mut list = MoveList::new();
    g.legal_moves(&mut pos, &mut list);
    let multi = list
        .iter()
        .filter(|m| m.kind() == MoveKind::MultiLeg)
        .count();
    assert_eq!(multi, 4);
}

#[test]
fn trident_moves_make_unmake_keys_fen_and_text_round_trip() {
    let g = game("trident");
    let mut pos = Position::from_fen(&g, &g.spec.start).unwrap();
    check_tree(&g, &mut pos, 3);
    // A route over two enemies onto a third takes all three.
    let mut pos = Position::from_fen(&g, "5/k4/2www/2X2/K4 w - - 0 1").unwrap();
    let start = pos.clone();
    let m = g.parse_move(&mut pos, "c2c3,c3d3,d3e3").unwrap();
    assert_eq!(m.kind(), MoveKind::MultiLeg);
    let u = pos.make(&g, m);
    assert_eq!(pos.to_fen(&g), "5/k4/4X/5/K4 b - - 0 1");
    assert_eq!(pos.key, pos.compute_key(&g));
    pos.unmake(&g, m, u);
    assert!(pos == start);
    check_tree(&g, &mut pos, 2);
    // Walking over empty squares only is a plain move, written as one; the legs form of
    // XBoard (every square the piece walks on) is read too.
    let plain = g.parse_move(&mut pos, "c2b2,b2b3,b3b4").unwrap();
    assert_eq!(
        (plain.kind(), g.move_text(plain)),
        (MoveKind::Normal, "c2b4".into())
    );
    let m2 = g.parse_move(&mut pos, "c2d2,d2d3,d3d4").unwrap();
    assert_eq!(g.move_text(m2), "c2d3,d3d4");
}

#[test]
fn a_multi_leg_capture_on_the_way_gives_check() {
    let g = game("trident");
    let mut pos = Position::from_fen(&g, &g.spec.start).unwrap();
    play(&g, &mut pos, "c3d5");
    assert!(g.in_check(&pos));
    assert_eq!(texts(&g, &mut pos), ["e5d5"]);
    // From a4 the Trident reaches no square next to the king.
    let mut pos = Position::from_fen(&g, &g.spec.start).unwrap();
    play(&g, &mut pos, "c3c4,c4a4");
    assert!(!g.in_check(&pos));
}

/// The trident game with the Trident written `betza`.
fn trident_written(betza: &str) -> Result<AnyGame, String> {
    let dir = std::env::temp_dir().join(format!("kirin-legs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{}.toml", betza.len()));
    let text = std::fs::read_to_string(games_file())
        .unwrap()
        .replace("mcamcsafW", betza);
    std::fs::write(&file, text).unwrap();
    let (_, specs) = variants::load_file(&file).unwrap();
    let spec = variants::find_in(&specs, "trident").unwrap();
    AnyGame::new(spec).map_err(|e| e.to_string())
}

#[test]
fn the_bracket_form_gives_the_same_moves() {
    let Ok(AnyGame::W1(g)) = trident_written("[mcW-mcsW-fW]") else {
        panic!("compiles");
    };
    let mut pos = Position::from_fen(&g, &g.spec.start).unwrap();
    assert_eq!(g.perft(&mut pos, 2, false), 78);
}

#[test]
fn routes_with_too_many_captures_are_refused() {
    let err = trident_written("mcamcamcamcamcafW").err().expect("refused");
    assert!(err.contains("at most 4"), "{err}");
}

// The triple-step pawn (`mfWcfFifmnDifmnH`) on 5x6, from rank 2. Start: White K a1, P c2;
// Black k e6, p d5 (on Black's first rank), p b4. Black pawns take on a3/c3 (from b4) and
// c4/e4 (from d5).
//
// Depth 1 = 6: K a2 b1 b2; P c3 c4 c5.
// Depth 2 = 40, Black's replies: k d6 e5 (d5 is its own pawn); p b4: b3, and takes on c3
// when a White pawn stands there or en passant; p d5: d4 d3 d2, takes on c4.
// - K a2, K b1, K b2: 6 each (18): k 2, b3, d4 d3 d2.
// - P c3: 7: k 2, b3 and bxc3, d4 d3 d2.
// - P c4 (skips c3: e.p. c3 for b4): 8: k 2, b3 and bxc3 e.p., d4 d3 d2 and dxc4.
// - P c5 (skips c3 and c4: e.p. c3 for b4, c4 for d5): 7: k e5 only (the pawn on c5
//   guards d6), b3 and bxc3 e.p., d4 d3 d2 and dxc4 e.p.
// 18 + 7 + 8 + 7 = 40.
#[test]
fn triple_step_perft_counted_by_hand() {
    let g = game("triplestep");
    let mut pos = Position::from_fen(&g, &g.spec.start).unwrap();
    assert_eq!(g.perft(&mut pos, 1, false), 6);
    assert_eq!(g.perft(&mut pos, 2, false), 40);
    assert_eq!(g.perft(&mut pos, 2, true), 40);
    check_tree(&g, &mut pos, 3);
}

#[test]
fn a_triple_step_gives_en_passant_on_both_skipped_squares() {
    let g = game("triplestep");
    let start = Position::from_fen(&g, &g.spec.start).unwrap();
    let mut pos = start.clone();
    play(&g, &mut pos, "c2c5");
    let fen = pos.to_fen(&g);
    assert_eq!(fen, "4k/2Pp1/1p3/5/5/K4 b - c3c4 0 1");
    let back = Position::from_fen(&g, &fen).unwrap();
    let state = |p: &Position<1>| (p.board.clone(), p.ep, p.ep_victim, p.key);
    assert_eq!(state(&back), state(&pos), "{fen}");
    assert_eq!(pos.ep.count(), 2);
    let mut list = MoveList::new();
    g.legal_moves(&mut pos, &mut list);
    let mut ep: Vec<String> = list
        .iter()
        .filter(|m| m.kind() == MoveKind::EnPassant)
        .map(|&m| g.move_text(m))
        .collect();
    ep.sort();
    assert_eq!(ep, ["b4c3", "d5c4"]);
    for text in ["b4c3", "d5c4"] {
        let before = pos.clone();
        let m = g.parse_move(&mut pos, text).unwrap();
        let u = pos.make(&g, m);
        // The pawn on c5 is gone, the taker stands on the skipped square.
        assert_eq!(pos.board[g.geo.parse_square("c5").unwrap()], 0, "{text}");
        assert_ne!(pos.board[g.geo.parse_square(&text[2..]).unwrap()], 0);
        assert!(pos.ep.is_empty());
        assert_eq!(pos.key, pos.compute_key(&g));
        pos.unmake(&g, m, u);
        assert!(pos == before);
    }
    // The double step skips c3 only; the null move clears the squares.
    let mut pos = start.clone();
    play(&g, &mut pos, "c2c4");
    assert_eq!(pos.to_fen(&g), "4k/3p1/1pP2/5/5/K4 b - c3 0 1");
    let u = pos.make_null(&g);
    assert!(pos.ep.is_empty());
    assert_eq!(pos.key, pos.compute_key(&g));
    pos.unmake_null(u);
    assert_eq!(pos.key, pos.compute_key(&g));
    // A FEN may name one of the skipped squares only: the victim stands beyond both.
    let one = Position::from_fen(&g, "4k/2P2/1p3/5/5/K4 b - c3 0 1").unwrap();
    assert_eq!(one.ep.count(), 1);
    assert_eq!(one.ep_victim as usize, g.geo.parse_square("c5").unwrap());
}

#[test]
fn cecp_sends_and_reads_a_multi_leg_move_leg_by_leg() {
    let file = games_file();
    let mut e = Engine::xboard_with(&["--variants-file", file.to_str().unwrap()]);
    e.send("variant trident");
    // Taking three Wazirs in one move is the only sensible move.
    e.send("setboard 5/k4/2www/2X2/K4 w - - 0 1");
    e.send("lift c2");
    let h = e.until(|l| l.starts_with("highlight"));
    // Row 3 (from the top): the Wazir on c3 is the first square taken on the way.
    let rows: Vec<&str> = h.last().unwrap()["highlight ".len()..].split('/').collect();
    assert!(rows[2].starts_with("2C"), "{h:?}");
    e.send("sd 2");
    e.send("go");
    let out = e.until(|l| l.starts_with("move ") && !l.ends_with(','));
    let moves: Vec<&String> = out.iter().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves, ["move c2c3,", "move c3d3,", "move d3e3"], "{out:?}");
    e.send("force");
    e.send("setboard 5/k4/2www/2X2/K4 w - - 0 1");
    e.send("usermove c2c3,c3d3,d3e3");
    e.send("ping 1");
    let out = e.until(|l| l == "pong 1");
    assert!(!out.iter().any(|l| l.contains("Illegal")), "{out:?}");
    e.quit();
}
