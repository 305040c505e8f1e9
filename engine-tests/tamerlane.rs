//! Tamerlane's special rules (docs/rules/tamerlane.md), each in a small position built for it
//! and played through with the move texts the protocols accept: the citadels (draw,
//! exchange, sanctuary, the Adventitious King in its own citadel), the King swap, the
//! three stages of the Pawn of Pawns (and the two-stage option), every pawn's promotion,
//! several royals, and stalemate as a win.
//!
//! Squares are those of the 13x10 frame: files b-l are the board's a-k, White's citadel
//! is m2 and Black's a9.

#[path = "support/boards.rs"]
mod boards;

use kirin::core::{BLACK, WHITE};
use kirin::rules::spec::Verdict;
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::{self, AnyGame};

fn tamerlane_with(name: &str, rules: &[&str]) -> Game<3> {
    let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
    let spec = variants::with_rules(name, &rules, "").unwrap();
    match AnyGame::new(&spec).unwrap() {
        AnyGame::W3(g) => *g,
        _ => panic!("13x10: three lanes"),
    }
}

fn tamerlane() -> Game<3> {
    tamerlane_with("tamerlane", &[])
}

/// A position from placements such as "Kg2 kg9 R'b9 P!e5" (upper case White; a piece
/// symbol is a letter and an optional ' or !), `side` to move, once-per-game `rights`.
fn place(g: &Game<3>, placements: &str, side: char, rights: &str) -> Position<3> {
    let mut pos = boards::placed(g, placements);
    pos.side = if side == 'b' { BLACK } else { WHITE };
    let fen = pos.to_fen(g).replace(" - - ", &format!(" {rights} - "));
    Position::from_fen(g, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(g: &Game<3>, pos: &mut Position<3>) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    let mut texts: Vec<String> = list.iter().map(|&m| g.move_text(m)).collect();
    texts.sort();
    texts
}

fn moves_from(g: &Game<3>, pos: &mut Position<3>, from: &str) -> Vec<String> {
    moves(g, pos)
        .into_iter()
        .filter(|m| {
            m.starts_with(from) && !m[from.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

/// Plays `texts` (each must be legal) and returns the position.
fn play(g: &Game<3>, mut pos: Position<3>, texts: &[&str]) -> Position<3> {
    for t in texts {
        let m = g
            .parse_move(&mut pos, t)
            .unwrap_or_else(|e| panic!("{t}: {e} in {}", pos.to_fen(g)));
        pos.make(g, m);
    }
    pos
}

fn symbol_on(g: &Game<3>, pos: &Position<3>, square: &str) -> String {
    let code = pos.board[g.geo.parse_square(square).unwrap()];
    if code == 0 {
        return "-".into();
    }
    kirin::rules::fen::piece_symbol(g, code)
}

fn outcome(g: &Game<3>, pos: &mut Position<3>) -> Option<(Verdict, &'static str)> {
    g.outcome(pos).map(|o| (o.verdict, o.reason))
}

#[test]
fn the_start_position_has_24_moves_and_all_rights() {
    let g = tamerlane();
    let mut pos = Position::from_fen(&g, &g.spec.start).unwrap();
    assert_eq!(moves(&g, &mut pos).len(), 24);
    assert_eq!(pos.rule_state, g.rules.all_rights);
    assert_eq!(g.all_rights_field().as_deref(), Some("SCsc"));
    assert!(pos.to_fen(&g).contains(" w SCsc - "));
}

#[test]
fn a_king_entering_the_enemy_citadel_draws() {
    let g = tamerlane();
    let pos = place(&g, "Kb8 Rc3 kg5", 'w', "SCsc");
    // No Prince or Adventitious King: the entry is the only way in, and it draws.
    let mut pos = play(&g, pos, &["b8a9"]);
    assert_eq!(outcome(&g, &mut pos), Some((Verdict::Draw, "citadel")));
    // White's own citadel is closed to the King, and to a Rook.
    let mut pos = place(&g, "Kl3 Rl1 kg5", 'w', "SCsc");
    let texts = moves(&g, &mut pos);
    assert!(!texts.contains(&"l3m2".to_string()) && !texts.contains(&"l1m1".to_string()));
    assert!(!texts.iter().any(|m| m.ends_with("m2")), "{texts:?}");
}

#[test]
fn only_the_highest_ranking_royal_enters_the_enemy_citadel() {
    let g = tamerlane();
    // The Prince stands next to the citadel, but the King is on the board.
    let mut pos = place(&g, "Jb8 Kg2 kg9", 'w', "SCsc");
    assert!(!moves(&g, &mut pos).contains(&"b8a9".to_string()));
    // Without a King the Prince leads, enters, and draws.
    let pos = place(&g, "Jb8 kg9", 'w', "SCsc");
    let mut pos = play(&g, pos, &["b8a9"]);
    assert_eq!(outcome(&g, &mut pos), Some((Verdict::Draw, "citadel")));
}

#[test]
fn the_citadel_exchange_puts_the_prince_in_the_citadel_once() {
    let g = tamerlane();
    let pos = place(&g, "Kb8 Je5 kg5 rh9", 'w', "SCsc");
    let mut after = play(&g, pos.clone(), &["b8a9,a9e5"]);
    assert_eq!(symbol_on(&g, &after, "e5"), "K");
    assert_eq!(symbol_on(&g, &after, "a9"), "J");
    assert_eq!(outcome(&g, &mut after), None, "the game goes on");
    assert!(
        after.to_fen(&g).contains(" b Ssc - "),
        "{}",
        after.to_fen(&g)
    );
    // The Prince in the citadel is immune: the Rook on h9 sees it along rank 9.
    assert!(!moves(&g, &mut after).contains(&"h9a9".to_string()));
    // The Prince leaves, the King comes back... and with the privilege used, the King's
    // return is a plain entry that draws.
    let mut again = play(
        &g,
        after,
        &["h9h8", "a9b9", "h8h9", "e5d6", "h9h8", "d6c7", "h8h9"],
    );
    let texts = moves(&g, &mut again);
    assert!(texts.contains(&"c7b8".to_string()));
    let mut again = play(&g, again, &["c7b8", "h9h8"]);
    assert!(!moves(&g, &mut again).iter().any(|m| m.contains(',')));
    let mut end = play(&g, again, &["b8a9"]);
    assert_eq!(outcome(&g, &mut end), Some((Verdict::Draw, "citadel")));
}

#[test]
fn the_adventitious_king_alone_enters_its_own_citadel() {
    let g = tamerlane();
    let mut pos = place(&g, "Al2 Kg2 kg9 rl9", 'w', "SCsc");
    assert!(moves(&g, &mut pos).contains(&"l2m2".to_string()));
    let pos = play(&g, pos, &["l2m2"]);
    assert_eq!(symbol_on(&g, &pos, "m2"), "A");
    // There it is immune: the black Rook on l2 sees it along rank 2 but cannot take it.
    let pos = play(&g, pos, &["l9l2", "g2g1"]);
    let mut black = pos.clone();
    let texts = moves(&g, &mut black);
    assert!(texts.contains(&"l2k2".to_string()) && !texts.contains(&"l2m2".to_string()));
    // Nor may a King enter its own citadel.
    let mut king = place(&g, "Kl3 kg9", 'w', "SCsc");
    assert!(!moves(&g, &mut king).contains(&"l3m2".to_string()));
}

#[test]
fn the_king_swaps_once_when_in_check() {
    let g = tamerlane();
    // Black's Rook on g9 checks the King on g2 down the g-file.
    let pos = place(&g, "Kg2 Nc2 Rl1 kb10 rg9", 'w', "SCsc");
    let mut check = pos.clone();
    let texts = moves(&g, &mut check);
    assert!(texts.contains(&"g2c2".to_string()), "{texts:?}");
    // Swapping with the Rook on l1 is legal too; a swap onto an attacked square is not
    // (no such square here but g-file ones, and no piece stands on the g-file).
    assert!(texts.contains(&"g2l1".to_string()));
    let mut after = play(&g, pos, &["g2c2"]);
    assert_eq!(symbol_on(&g, &after, "c2"), "K");
    assert_eq!(symbol_on(&g, &after, "g2"), "N");
    assert!(after.to_fen(&g).contains(" b Csc - "));
    // Checked again later, the swap is gone.
    let mut later = play(&g, after.clone(), &["g9c9"]);
    assert!(
        !moves(&g, &mut later)
            .iter()
            .any(|m| m == "c2l1" || m == "c2g2")
    );
    // Not in check and with other moves: no swap.
    let mut quiet = place(&g, "Kg2 Nc2 kb10 rh9", 'w', "SCsc");
    assert!(!moves(&g, &mut quiet).contains(&"g2c2".to_string()));
    assert_eq!(outcome(&g, &mut after), None);
}

#[test]
fn a_stalemated_king_may_swap_and_otherwise_loses() {
    let g = tamerlane();
    // Black's King on b10 has no move: a10 is a hole, b9 c9 c10 are covered.
    let stuck = "kb10 pl5 Kg2 Rc1 Rk9 Pl4";
    let mut with_swap = place(&g, stuck, 'b', "SCsc");
    assert_eq!(moves(&g, &mut with_swap), vec!["b10l5".to_string()]);
    let mut without = place(&g, stuck, 'b', "SC");
    assert_eq!(
        outcome(&g, &mut without),
        Some((Verdict::Loss, "stalemate"))
    );
}

#[test]
fn with_several_royals_a_king_may_step_into_attack() {
    let g = tamerlane();
    let mut pos = place(&g, "Kg2 Je2 kg9 rh9", 'w', "SCsc");
    assert!(moves(&g, &mut pos).contains(&"g2h2".to_string()));
    let mut alone = place(&g, "Kg2 kg9 rh9", 'w', "SCsc");
    assert!(!moves(&g, &mut alone).contains(&"g2h2".to_string()));
}

#[test]
fn every_pawn_promotes_to_its_own_piece() {
    let g = tamerlane();
    let pawns = [
        ("K'", "j"),
        ("F'", "f"),
        ("V'", "v"),
        ("G'", "g"),
        ("T'", "t"),
        ("N'", "n"),
        ("R'", "r"),
        ("E'", "e"),
        ("C'", "c"),
        ("W'", "w"),
        ("P!", "a"),
    ];
    for (pawn, piece) in pawns {
        let pos = place(&g, &format!("Kg2 kg5 {pawn}c9"), 'w', "SCsc");
        let mut p = pos.clone();
        assert_eq!(
            moves_from(&g, &mut p, "c9"),
            vec![format!("c9c10{piece}")],
            "{pawn}"
        );
        let after = play(&g, pos, &[&format!("c9c10{piece}")]);
        assert_eq!(symbol_on(&g, &after, "c10"), piece.to_ascii_uppercase());
        // Black's pawns promote on rank 1.
        let black = place(
            &g,
            &format!("Kg5 kg9 {}c2", pawn.to_ascii_lowercase()),
            'b',
            "SCsc",
        );
        let after = play(&g, black, &[&format!("c2c1{piece}")]);
        assert_eq!(symbol_on(&g, &after, "c1"), piece.to_string());
    }
}

#[test]
fn the_pawn_of_pawns_rests_immune_then_forks() {
    let g = tamerlane();
    // Stage 1: the Pawn of Pawns reaches b10 and stays there, a plain pawn move.
    let pos = place(&g, "Pb9 Kg2 Ne5 kl4 rl10 nd6 nf6", 'w', "SCsc");
    let after = play(&g, pos, &["b9b10"]);
    assert_eq!(symbol_on(&g, &after, "b10"), "P");
    // Immune: the black Rook on l10 sees it along rank 10 but cannot take it.
    let mut black = after.clone();
    assert!(!moves(&g, &mut black).contains(&"l10b10".to_string()));
    // Redeployed to a fork: from e5 a pawn attacks both black Knights (d6, f6). The white
    // Knight standing on e5 is removed. It becomes the Pawn of Pawns' second life.
    let mut white = play(&g, after, &["l4l5"]);
    let redeploys = moves_from(&g, &mut white, "b10");
    assert!(redeploys.contains(&"b10e5".to_string()), "{redeploys:?}");
    assert!(
        redeploys
            .iter()
            .all(|m| !m.ends_with("g2") && !m.ends_with("l5"))
    );
    let mut forked = play(&g, white, &["b10e5"]);
    assert_eq!(symbol_on(&g, &forked, "e5"), "P'");
    assert_eq!(symbol_on(&g, &forked, "b10"), "-");
    assert_eq!(
        forked.by_color[WHITE].count(),
        2,
        "the Knight on e5 was removed"
    );
    // On its next move it may take what it attacks.
    let mut white = play(&g, forked.clone(), &["l5l4"]);
    assert!(moves(&g, &mut white).contains(&"e5d6".to_string()));
    assert_eq!(outcome(&g, &mut forked), None);
}

#[test]
fn the_pawn_of_pawns_redeploys_to_trap_a_man_that_cannot_escape() {
    let g = tamerlane();
    // The black Vizier in the l10 corner: from k9 a pawn attacks it, and its two squares
    // (k10, l9) are covered by the Knight on j8. No other redeployment attacks anything.
    let mut pos = place(&g, "Pb10 Kg2 Nj8 kg5 vl10", 'w', "SCsc");
    assert_eq!(moves_from(&g, &mut pos, "b10"), vec!["b10k9".to_string()]);
    // Without the Knight the Vizier escapes: no redeployment.
    let mut free = place(&g, "Pb10 Kg2 kg5 vl10", 'w', "SCsc");
    assert!(moves_from(&g, &mut free, "b10").is_empty());
}

#[test]
fn the_second_arrival_rests_then_goes_to_the_pawn_of_kings_square() {
    let g = tamerlane();
    let pos = place(&g, "P'e9 Kb2 kh5", 'w', "SCsc");
    let after = play(&g, pos, &["e9e10", "h5h6"]);
    assert_eq!(symbol_on(&g, &after, "e10"), "P'");
    let mut white = after.clone();
    assert_eq!(moves_from(&g, &mut white, "e10"), vec!["e10g3".to_string()]);
    let third = play(&g, after, &["e10g3"]);
    assert_eq!(symbol_on(&g, &third, "g3"), "P!");
    // With g3 occupied it waits.
    let mut blocked = place(&g, "P'e10 Ng3 Kb2 kl6", 'w', "SCsc");
    assert!(moves_from(&g, &mut blocked, "e10").is_empty());
    // Black's goes to g8.
    let mut black = place(&g, "p'e1 Kb2 kh5", 'b', "SCsc");
    assert_eq!(moves_from(&g, &mut black, "e1"), vec!["e1g8".to_string()]);
}

#[test]
fn the_third_arrival_makes_the_adventitious_king() {
    let g = tamerlane();
    let pos = place(&g, "P!e9 Kb2 kh5", 'w', "SCsc");
    let mut after = play(&g, pos, &["e9e10a"]);
    assert_eq!(symbol_on(&g, &after, "e10"), "A");
    // Two royals now: the King may step into attack.
    assert_eq!(outcome(&g, &mut after), None);
}

#[test]
fn the_two_stage_option_crowns_on_the_second_arrival() {
    let g = tamerlane_with("tamerlane", &["pawn_of_pawns=two-stage"]);
    let pos = place(&g, "P'e9 Kb2 kh5", 'w', "SCsc");
    let after = play(&g, pos, &["e9e10a"]);
    assert_eq!(symbol_on(&g, &after, "e10"), "A");
    let bad = variants::with_rules("tamerlane", &["pawn_of_pawns=four".into()], "");
    assert!(bad.unwrap_err().to_string().contains("two-stage"));
}

#[test]
fn full_tamerlane_moves_follow_forbes_or_cazaux() {
    let forbes = tamerlane_with("tamerlane-full", &[]);
    let cazaux = tamerlane_with("tamerlane-full", &["moves=cazaux"]);
    // A Lion on f5 of an empty board: Rook moves plus Giraffe moves (Forbes); a (3,0)
    // leaper (Cazaux).
    let mut pos = place(&forbes, "Lf5 Kb1 kl10", 'w', "SCsc");
    let lion = moves_from(&forbes, &mut pos, "f5");
    assert!(lion.contains(&"f5f10".to_string()) && lion.contains(&"f5g10".to_string()));
    let mut pos = place(&cazaux, "Lf5 Kb1 kl10", 'w', "SCsc");
    let lion = moves_from(&cazaux, &mut pos, "f5");
    assert_eq!(lion, vec!["f5c5", "f5f2", "f5f8", "f5i5"]);
    let mut start = Position::from_fen(&forbes, &forbes.spec.start).unwrap();
    assert_eq!(moves(&forbes, &mut start).len(), 17);
}
