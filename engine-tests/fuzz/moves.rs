//! Move text, as each protocol and the command line read it: kirin's coordinates (UCI,
//! CECP's `usermove`, the turns of multi-action games), SAN (PGN, the command line) and
//! CECP's `@@@@` pass, taken from a legal move of a random game and edited. Reading a
//! move never changes the position, and what is read is legal: the one move of a
//! coordinate text is among the legal moves, and the actions of a turn can be made one
//! after the other, each legal where it is made.

use crate::common::{Edit, edited, game, random_game};
use bolero::{TypeGenerator, check};
use kirin::rules::notation::wire_turn;
use kirin::rules::{Game, MoveList, Position};
use kirin::with_width;

#[derive(Debug, TypeGenerator)]
struct MoveCase {
    game: u8,
    start: u8,
    plies: Vec<u8>,
    /// Which legal move's text is edited.
    pick: u16,
    /// Which text of it: coordinates, SAN, CECP's wire form.
    form: u8,
    /// How many of `edits` are made (0 to 2).
    count: u8,
    edits: Vec<Edit>,
}

#[test]
fn moves() {
    check!()
        .with_type::<MoveCase>()
        .with_iterations(300)
        .for_each(|case| {
            with_width!(game(case.game), g => one_move(g, case));
        });
}

fn one_move<const W: usize>(g: &Game<W>, case: &MoveCase) {
    let (mut pos, _) = random_game(g, case.start, &case.plies);
    let mut list = MoveList::new();
    g.legal_moves(&mut pos, &mut list);
    let source = match list.get(case.pick as usize % list.len().max(1)) {
        None => String::new(),
        Some(&m) => match case.form % 3 {
            0 => g.move_text(m),
            1 => g.san(&mut pos, &[m]),
            _ => wire_turn(g, &[m], Some("@@@@")),
        },
    };
    let text = edited(
        &source,
        crate::common::first(&case.edits, case.count % 3),
        256,
    );
    let before = pos.clone();

    if let Ok(m) = g.parse_move(&mut pos, &text) {
        assert!(
            list.contains(&m),
            "{}: '{text}' read as {}, not a legal move",
            g.spec.name,
            g.move_text(m)
        );
    }
    assert!(
        pos == before,
        "{}: reading '{text}' changed the position",
        g.spec.name
    );
    if let Ok(turn) = g.parse_turn(&mut pos, &text) {
        playable(g, &pos, &turn, &text);
    }
    assert!(
        pos == before,
        "{}: reading the turn '{text}' changed the position",
        g.spec.name
    );
    if let Ok(turn) = g.parse_san(&mut pos, &text) {
        playable(g, &pos, &turn, &text);
    }
    assert!(
        pos == before,
        "{}: reading the SAN '{text}' changed the position",
        g.spec.name
    );
}

/// Each action of `turn` is a legal move where it is made, and the turn is not empty.
fn playable<const W: usize>(
    g: &Game<W>,
    pos: &Position<W>,
    turn: &[kirin::core::Move],
    text: &str,
) {
    assert!(
        !turn.is_empty(),
        "{}: '{text}' read as an empty turn",
        g.spec.name
    );
    let mut p = pos.clone();
    for &m in turn {
        let mut list = MoveList::new();
        g.legal_moves(&mut p, &mut list);
        assert!(
            list.contains(&m),
            "{}: an action of '{text}', {}, is not legal",
            g.spec.name,
            g.move_text(m)
        );
        p.make(g, m);
    }
}
