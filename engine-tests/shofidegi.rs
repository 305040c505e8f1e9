//! ShoFIDEgi (docs/rules/shofidegi.md): the start position's moves counted by hand piece
//! by piece, and each rule of the `shofidegi` hook in a small position: the FEN of the
//! three reserves and of a pending Alibaba en passant, the move texts of swaps,
//! restorations and drops, and check as the rules define it (a frozen piece gives none, a
//! Tusk only with a swap partner held). The perft suite (positions/shofidegi.epd) counts
//! every rule against an independent implementation.

use kirin::core::type_of_piece;
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::AnyGame;
use std::collections::BTreeMap;

fn shofidegi() -> Game<5> {
    match AnyGame::builtin("shofidegi").unwrap() {
        AnyGame::W5(g) => *g,
        _ => panic!("17x17: five lanes"),
    }
}

fn fen(g: &Game<5>, text: &str) -> Position<5> {
    Position::from_fen(g, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(g: &Game<5>, pos: &mut Position<5>) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    let mut texts: Vec<String> = list.iter().map(|&m| g.move_text(m)).collect();
    texts.sort();
    texts
}

fn play(g: &Game<5>, pos: &mut Position<5>, text: &str) {
    let m = g
        .parse_move(pos, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    pos.make(g, m);
}

#[test]
fn the_start_position_has_121_moves_counted_piece_by_piece() {
    // Counted by hand on the array (docs/rules/shofidegi.md): most of the back ranks are
    // blocked by their own pieces.
    let by_hand: BTreeMap<&str, usize> = [
        ("p", 9),  // every Dabchick one D step
        ("v", 16), // eight D steps and eight four-steps
        ("t", 8),  // a4 c6; e4 c6 g6; i4 g6 k6; m4 k6 o6; q4 o6
        ("l", 2),  // a1a3, q1q3
        ("m", 2),  // d1e3, n1m3 (Knight leaps)
        ("s", 4),  // e1 g3 e3; m1 k3 m3
        ("c", 4),  // f1 e3 g3; l1 k3 m3
        ("g", 6),  // g1 g3 e3 i3; k1 k3 i3 m3
        ("a", 3),  // i1 i3 g3 k3 (the j2 Alibaba is hemmed in)
        ("h", 4),  // a2 a3 b3; q2 q3 p3
        ("r", 12), // c2 a3 e3 f5 e7 c8 a7 (one left-turning path) and o2 mirrored
        ("n", 4),  // d2 b6 f6; n2 l6 p6
        ("w", 34), // e2: 12 to q14 (taking a Tusk), 4 to a6, e3; m2 mirrored
        ("j", 4),  // g2 f3 h3; k2 j3 l3
        ("k", 3),  // i2 h3 i3 j3
        ("d", 6),  // o3 m3 k3 i3 g3 e3 and q3 (b2, p2 hemmed in)
    ]
    .into_iter()
    .collect();
    let g = shofidegi();
    let mut pos = fen(&g, &g.spec.start);
    let mut list = MoveList::new();
    g.legal_moves(&mut pos, &mut list);
    let mut counted: BTreeMap<&str, usize> = BTreeMap::new();
    for m in &list {
        let t = type_of_piece(pos.board[m.from()] as usize - 1);
        *counted.entry(g.spec.pieces[t].letter.as_str()).or_default() += 1;
    }
    assert_eq!(counted, by_hand);
    assert_eq!(list.len(), 121);
}

#[test]
fn fen_holds_the_three_reserves_the_rights_and_a_pending_alibaba_capture() {
    let g = shofidegi();
    let text = "16k/9a7/17/17/17/17/17/11u5/17/17/17/13e3/17/7v1vm6/17/9A5D1/K16[QQn|DT] w Y - 0 1";
    let mut pos = fen(&g, text);
    assert_eq!(pos.to_fen(&g), text);
    play(&g, &mut pos, "j2n2");
    let after = pos.to_fen(&g);
    assert!(after.contains("[QQn|DT] b:n2 - - 1 1"), "{after}");
    let reread = fen(&g, &after);
    assert_eq!(reread.to_fen(&g), after);
    assert_eq!(reread.key, pos.key);
    // The Alibaba's en passant lasts one move.
    play(&g, &mut pos, "k4m5");
    assert!(pos.to_fen(&g).contains(" w - "), "{}", pos.to_fen(&g));
    // A pending capture of an Alibaba that is not there is refused.
    assert!(Position::from_fen(&g, &text.replace(" w Y", " b:n2 -")).is_err());
}

#[test]
fn the_alibaba_is_taken_en_passant_by_evenbound_pieces_only() {
    let g = shofidegi();
    let mut pos = fen(
        &g,
        "16k/9a7/17/17/17/17/17/11u5/17/17/17/13e3/17/7v1vm6/17/11D1A3/K16[-] b:n2 - - 1 1",
    );
    let all = moves(&g, &mut pos);
    for taken in ["l10l2", "j4l2u", "h4j2d", "n6j2"] {
        assert!(all.contains(&taken.to_string()), "{taken}: {all:?}");
        let mut p = pos.clone();
        play(&g, &mut p, taken);
        let fen = p.to_fen(&g);
        // The Alibaba n2 is gone, into the neutral reserve (an even-even point).
        assert!(fen.contains("[|A"), "{taken}: {fen}");
        assert_eq!(
            p.by_piece[2 * g.spec.piece_index("a").unwrap()].count(),
            0,
            "{taken}"
        );
    }
    // The Marshal is unbound: its move onto j2 takes nothing.
    let mut p = pos.clone();
    play(&g, &mut p, "k4j2");
    assert_eq!(p.by_piece[2 * g.spec.piece_index("a").unwrap()].count(), 1);
}

#[test]
fn swaps_restorations_and_drops_have_their_texts() {
    let g = shofidegi();
    let mut pos = fen(
        &g,
        "8k8/4q12/17/2T14/17/17/17/17/17/17/17/17/17/17/17/17/K16[Mj|TD] w - - 0 1",
    );
    let swaps: Vec<String> = moves(&g, &mut pos)
        .into_iter()
        .filter(|m| m.starts_with("c14"))
        .collect();
    assert_eq!(
        swaps,
        [
            "c14a16=Dn",
            "c14a16=Jb",
            "c14a16=Mw",
            "c14e16=Dn",
            "c14e16=Jb",
            "c14e16=Mw",
            "c14e16=Qn"
        ]
    );
    play(&g, &mut pos, "c14e16=Qn");
    let after = pos.to_fen(&g);
    assert!(after.starts_with("8k8/4Q12/"), "{after}");
    assert!(after.contains("[Mj|DTT]"), "{after}");
    let mut pos = fen(
        &g,
        "4s12/17/2Q14/17/17/17/17/17/17/15k1/17/17/4P12/T2V13/17/1K7A7/6G10[PT] w - - 0 1",
    );
    let all = moves(&g, &mut pos);
    for m in ["c15c17=A", "c15a17=A", "T@a3"] {
        assert!(all.contains(&m.to_string()), "{m}: {all:?}");
    }
    // No oddbound Alibaba: the Dabchick and Goldthief are frozen, no Dabchick is dropped.
    assert!(
        !all.iter()
            .any(|m| m.starts_with("e5") || m.starts_with("g1") || m.starts_with("P@"))
    );
    play(&g, &mut pos, "c15c17=A");
    assert!(pos.to_fen(&g).contains("[PTq]"), "{}", pos.to_fen(&g));
}

#[test]
fn a_frozen_piece_gives_no_check_and_a_tusk_checks_only_with_a_partner() {
    let g = shofidegi();
    // The Goldthief e3 would attack the King on e5, but White has no oddbound Alibaba.
    let pos = fen(
        &g,
        "17/17/17/17/17/17/17/17/17/17/17/17/4k12/17/4G12/17/K16[-] b - - 0 1",
    );
    assert!(!g.in_check(&pos));
    let pos = fen(
        &g,
        "17/17/17/17/17/17/17/17/17/17/17/17/4k12/17/4G12/17/K7A8[-] b - - 0 1",
    );
    assert!(g.in_check(&pos));
    // The Tusk c14 reaches e16 by a swap only.
    let none = fen(
        &g,
        "17/4k12/17/2T14/17/17/17/17/17/17/17/17/17/17/17/17/K16[-] b - - 0 1",
    );
    assert!(!g.in_check(&none));
    let one = fen(
        &g,
        "17/4k12/17/2T14/17/17/17/17/17/17/17/17/17/17/17/17/K16[|Q] b - - 0 1",
    );
    assert!(g.in_check(&one));
}

#[test]
fn self_play_games_end_by_a_rule() {
    // The issue's twenty games are `kirin selfplay --variant shofidegi --games 20
    // --movetime 20`; two quick ones here take every rule through search and make.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kirin"))
        .args(["selfplay", "--variant", "shofidegi", "--games", "2"])
        .args(["--movetime", "5", "--seed", "3"])
        .output()
        .expect("kirin runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{text}");
    let ends = [
        "checkmate",
        "stalemate",
        "repetition",
        "move rule",
        "no progress",
    ];
    for g in games {
        assert!(ends.iter().any(|e| g.ends_with(e)), "{g}");
    }
}
