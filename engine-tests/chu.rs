//! Chu Shogi's special rules, each in a small position built for it: the Lion-trading
//! rules (adjacent, distant and protected Lions, protection through the vacated square,
//! the bridge, counter-strike and the Okazaki option), Lion and Lion-power moves, the pass,
//! CSRM promotion, and the Crown Prince.

use kirin::core::MoveKind;
#[path = "support/boards.rs"]
mod boards;

use kirin::core::{BLACK, WHITE};
use kirin::rules::extension::Rule;
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::{self, AnyGame};

fn chu_with(rules: &[&str]) -> Game<3> {
    let spec = if rules.is_empty() {
        variants::find("chu").unwrap().clone()
    } else {
        let rules: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
        variants::with_rules("chu", &rules, "").unwrap()
    };
    match AnyGame::new(&spec).unwrap() {
        AnyGame::W3(g) => *g,
        _ => panic!("chu is 12x12: three lanes"),
    }
}

/// The counter-strike state of the Lion-trading rule: the side to move may not take a Lion
/// with a non-Lion.
fn lion_strike(g: &Game<3>, pos: &Position<3>) -> bool {
    g.rules
        .list
        .iter()
        .any(|r| matches!(r, Rule::LionTrading(l) if l.strike(pos)))
}

fn chu() -> Game<3> {
    chu_with(&[])
}

/// A position from placements such as "Ka1 kl12 Ne5 ne7" (upper case White, `+` prefix for
/// promoted pieces: "+Ha3"), with `side` to move.
fn place(g: &Game<3>, placements: &str, side: char) -> Position<3> {
    let mut pos = boards::placed(g, placements);
    pos.side = if side == 'b' { BLACK } else { WHITE };
    Position::from_fen(g, &pos.to_fen(g)).unwrap()
}

fn moves(g: &Game<3>, pos: &mut Position<3>) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    list.iter().map(|&m| g.move_text(m)).collect()
}

fn has(g: &Game<3>, placements: &str, side: char, mv: &str) -> bool {
    moves(g, &mut place(g, placements, side))
        .iter()
        .any(|m| m == mv)
}

#[test]
fn a_lion_may_always_take_an_adjacent_lion() {
    let g = chu();
    // The black Lion on e7 is protected by the Gold on e8.
    assert!(has(&g, "Ka1 kl12 Ne6 ne7 ge8", 'w', "e6e7"));
    // Igui on the adjacent Lion too.
    assert!(has(&g, "Ka1 kl12 Ne6 ne7 ge8", 'w', "e6e7,e7e6"));
}

#[test]
fn a_distant_lion_only_if_unprotected_after_the_move() {
    let g = chu();
    assert!(!has(&g, "Ka1 kl12 Ne5 ne7 ge8", 'w', "e5e7"));
    assert!(has(&g, "Ka1 kl12 Ne5 ne7", 'w', "e5e7"));
    // A Rook behind the Lion protects e7 once the Lion has left e5.
    assert!(!has(&g, "Ka1 kl12 Ne5 ne7 re2", 'w', "e5e7"));
    assert!(has(&g, "Ka1 kl12 Ne5 ne7 re2 Pe4", 'w', "e5e7"));
}

#[test]
fn the_bridge_and_pieces_that_are_no_bridge() {
    let g = chu();
    // Taking a Silver first opens the bridge to the protected Lion.
    assert!(has(&g, "Ka1 kl12 Ne5 se6 ne7 ge8", 'w', "e5e6,e6e7"));
    // A Go-Between is no bridge: with the Gold protecting e7 the move is illegal...
    assert!(!has(&g, "Ka1 kl12 Ne5 ie6 ne7 ge8", 'w', "e5e6,e6e7"));
    // ...but if the Go-Between was the only protector, the Lion is unprotected after the
    // move (HaChu's reading, which kirin follows; shogiops forbids it).
    assert!(has(&g, "Ka1 kl12 Ne5 ie6 ne7", 'w', "e5e6,e6e7"));
}

#[test]
fn counter_strike_and_the_okazaki_option() {
    let strict = chu();
    let okazaki = chu_with(&["okazaki=true"]);
    // Black's Rook takes the white Lion on e5; White's Rook may not take back a Lion.
    let setup = "Ka1 kl12 Ne5 re10 nh6 Rh1";
    for (g, allowed) in [(&strict, false), (&okazaki, true)] {
        let mut pos = place(g, setup, 'b');
        let m = g.parse_move(&mut pos, "e10e5").unwrap();
        pos.make(g, m);
        assert!(lion_strike(g, &pos));
        assert_eq!(moves(g, &mut pos).iter().any(|m| m == "h1h6"), allowed);
    }
    // Okazaki allows it only against an unprotected Lion: a Gold on h7 protects h6.
    let mut pos = place(&okazaki, "Ka1 kl12 Ne5 re10 nh6 gh7 Rh1", 'b');
    let m = okazaki.parse_move(&mut pos, "e10e5").unwrap();
    pos.make(&okazaki, m);
    assert!(!moves(&okazaki, &mut pos).iter().any(|m| m == "h1h6"));
    // A Lion taken by a Lion sets no counter-strike.
    let mut pos = place(&strict, "Ka1 kl12 Ne5 ne6 nh5 Rh1", 'b');
    let m = strict.parse_move(&mut pos, "e6e5").unwrap();
    pos.make(&strict, m);
    assert!(!lion_strike(&strict, &pos));
    assert!(moves(&strict, &mut pos).iter().any(|m| m == "h1h5"));
}

#[test]
fn a_kirin_that_takes_a_lion_and_promotes_still_counts_as_a_non_lion() {
    let g = chu();
    // White Kirin d8 takes the Lion on d10 (a Dabbaba jump into the zone) and promotes.
    let mut pos = place(&g, "Ka1 kl12 Od8 nd10 Rl1 Ng1", 'w');
    let m = g.parse_move(&mut pos, "d8d10+").unwrap();
    pos.make(&g, m);
    assert!(lion_strike(&g, &pos));
    // Black may not recapture the new Lion with a non-Lion (HaChu; shogiops allows it).
    let mut pos2 = place(&g, "Ka1 kl12 Od8 nd10 rd12 Ng1", 'w');
    let m = g.parse_move(&mut pos2, "d8d10+").unwrap();
    pos2.make(&g, m);
    assert!(!moves(&g, &mut pos2).iter().any(|m| m == "d12d10"));
}

#[test]
fn lion_moves_and_the_single_pass() {
    let g = chu();
    let mut pos = place(&g, "Ka1 kl12 Ne5 pe6 pf7", 'w');
    let all = moves(&g, &mut pos);
    for m in [
        "e5e6",
        "e5e6,e6e5",
        "e5e6,e6f7",
        "e5e6,e6e7",
        "e5f7",
        "e5g7",
        "@@@@",
    ] {
        assert!(all.iter().any(|x| x == m), "{m} in {all:?}");
    }
    // One pass per position, whichever Lion-power piece could make it.
    let mut pos = place(&g, "Ka1 kl12 Ne5 Nh5 +Hc3 +Dj3", 'w');
    let passes = moves(&g, &mut pos).iter().filter(|m| *m == "@@@@").count();
    assert_eq!(passes, 1);
    // A Lion with no empty neighbour cannot pass.
    let mut pos = place(&g, "Ka1 kl12 Na12 Pb12 Pa11 Pb11", 'w');
    assert!(!moves(&g, &mut pos).iter().any(|m| m == "@@@@"));
    // The pass written as a step and return to an empty square is the same move.
    let mut pos = place(&g, "Ka1 kl12 Ne5", 'w');
    let m = g.parse_move(&mut pos, "e5f6,f6e5").unwrap();
    assert_eq!(m.kind(), MoveKind::Pass);
    // A double move whose first step lands on an empty square is the plain jump.
    let jump = g.parse_move(&mut pos, "e5e7").unwrap();
    assert_eq!(g.parse_move(&mut pos, "e5e6,e6e7"), Ok(jump));
}

#[test]
fn falcon_and_eagle_have_lion_power_in_their_own_directions_only() {
    let g = chu();
    let mut pos = place(&g, "Ka1 kl12 +He5 pe6 pe7 pd6", 'w');
    let all = moves(&g, &mut pos);
    for m in ["e5e6,e6e7", "e5e6,e6e5", "e5e7"] {
        assert!(all.iter().any(|x| x == m), "{m} in {all:?}");
    }
    // No Lion power sideways or diagonally: no igui on d6.
    assert!(!all.iter().any(|x| x == "e5d6,d6e5"));
    let mut pos = place(&g, "Ka1 kl12 +De5 pf6 pg7 pd6", 'w');
    let all = moves(&g, &mut pos);
    for m in ["e5f6,f6g7", "e5f6,f6e5", "e5d6,d6e5", "e5g7"] {
        assert!(all.iter().any(|x| x == m), "{m} in {all:?}");
    }
    // The Eagle never mixes the two diagonals.
    assert!(!all.iter().any(|x| x == "e5f6,f6e7"));
}

#[test]
fn csrm_promotion() {
    let g = chu();
    // Entering the zone (rank 9 for White) may promote; moving inside it may not...
    assert!(has(&g, "Ka1 kl12 Gc8", 'w', "c8c9+"));
    assert!(!has(&g, "Ka1 kl12 Gc9", 'w', "c9c10+"));
    // ...unless it captures.
    assert!(has(&g, "Ka1 kl12 Gc9 pc10", 'w', "c9c10+"));
    // A capture that starts in the zone and ends outside may promote.
    assert!(has(&g, "Ka1 kl12 Gc9 pc8", 'w', "c9c8+"));
    // Pawns and Lances may always promote on the last rank and are never forced to.
    assert!(has(&g, "Ka1 kl12 Pc11", 'w', "c11c12+"));
    assert!(has(&g, "Ka1 kl12 Pc11", 'w', "c11c12"));
    assert!(!has(&g, "Ka1 kl12 Gc11", 'w', "c11c12+"));
    // A promoted piece does not promote again.
    assert!(!has(&g, "Ka1 kl12 +Fc8", 'w', "c8d9+"));
    // The seed's simpler rule as an option: any move ending in the zone.
    let seed = chu_with(&["promotion=to-zone"]);
    assert!(has(&seed, "Ka1 kl12 Gc9", 'w', "c9c10+"));
}

#[test]
fn royals_may_be_left_attacked_and_the_last_one_taken() {
    let g = chu();
    // The King may step next to the enemy Rook's line: no check rule.
    assert!(has(&g, "Ka1 kl12 rb12", 'w', "a1b1"));
    // Taking the King wins: the side without royals has no moves.
    let mut pos = place(&g, "Ka1 kl12 rb12", 'b');
    let m = g.parse_move(&mut pos, "b12b1").unwrap();
    pos.make(&g, m);
    let m = g.parse_move(&mut pos, "a1b1").unwrap();
    pos.make(&g, m);
    // Black's king still stands: black moves on.
    assert!(!moves(&g, &mut pos).is_empty());
    // With a Crown Prince, taking the King is not the end.
    let mut pos = place(&g, "Ka1 +Ec1 kl12 ra12", 'b');
    let m = g.parse_move(&mut pos, "a12a1").unwrap();
    pos.make(&g, m);
    assert!(!moves(&g, &mut pos).is_empty());
    let mut pos = place(&g, "Ka1 kl12 ra12", 'b');
    let m = g.parse_move(&mut pos, "a12a1").unwrap();
    pos.make(&g, m);
    assert!(moves(&g, &mut pos).is_empty());
}

/// The moves the repetition rule leaves after `line` is played from `placements`.
fn game_moves_after(g: &Game<3>, placements: &str, side: char, line: &[&str]) -> Vec<String> {
    let mut pos = place(g, placements, side);
    for text in line {
        let m = g.parse_move(&mut pos, text).unwrap();
        pos.make(g, m);
    }
    let mut list = MoveList::new();
    g.game_moves(&mut pos, &mut list);
    list.iter().map(|&m| g.move_text(m)).collect()
}

#[test]
fn a_king_in_check_may_repeat_unless_the_rule_is_illegal_always() {
    // The Rook checks from d10 and e10 in turn; the King's escape e4d4 brings back the
    // position before the Rook's first check.
    let placements = "Kd4 Pa5 re10 kl12";
    let line = ["e10d10", "d4e4", "d10e10"];
    let escape = "e4d4".to_string();
    let default = game_moves_after(&chu(), placements, 'b', &line);
    assert!(default.contains(&escape), "{default:?}");
    let hachu = game_moves_after(
        &chu_with(&["repetition_rule=illegal-always"]),
        placements,
        'b',
        &line,
    );
    assert!(!hachu.contains(&escape), "{hachu:?}");
    assert!(hachu.contains(&"e4f4".to_string()), "{hachu:?}");
    // Then the checker may not give the same check again: its move would repeat the
    // position after its first check, and it is not in check.
    let line = ["e10d10", "d4e4", "d10e10", "e4d4"];
    let checker = game_moves_after(&chu(), placements, 'b', &line);
    assert!(!checker.contains(&"e10d10".to_string()), "{checker:?}");
    assert!(checker.contains(&"e10e9".to_string()), "{checker:?}");
}
