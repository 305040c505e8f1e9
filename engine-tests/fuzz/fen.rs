//! FEN, per game and in both styles (kirin's and XBoard's): the FEN of a random legal
//! game, edited. A FEN is refused with an error or accepted; an accepted one is a
//! consistent position: its key is the key computed from scratch, its FEN reads back to
//! the same position (in XBoard's style, which leaves out a game's once-per-game rights,
//! to the same FEN), its legal moves are distinct and within the bound the move lists
//! are sized by, and each of a few of them made and unmade restores it.

use crate::common::{Edit, edited, game, random_game};
use bolero::{TypeGenerator, check};
use kirin::rules::fen::FenStyle;
use kirin::rules::{Game, MoveList, Position};
use kirin::with_width;

#[derive(Debug, TypeGenerator)]
struct FenCase {
    game: u8,
    start: u8,
    plies: Vec<u8>,
    /// How many of `edits` are made (0 to 3): often few, so that many FENs are accepted.
    count: u8,
    edits: Vec<Edit>,
    xboard: bool,
}

/// The longest FEN text a case makes: longer than any board's FEN, so that over-long
/// fields are tried, and short enough to keep a case fast.
const LIMIT: usize = 2048;

#[test]
fn fen() {
    check!()
        .with_type::<FenCase>()
        .with_iterations(300)
        .for_each(|case| {
            with_width!(game(case.game), g => one_fen(g, case));
        });
}

fn one_fen<const W: usize>(g: &Game<W>, case: &FenCase) {
    let (pos, _) = random_game(g, case.start, &case.plies);
    let style = if case.xboard {
        FenStyle::Xboard
    } else {
        FenStyle::Kirin
    };
    let text = edited(
        &pos.to_fen_styled(g, style),
        crate::common::first(&case.edits, case.count % 4),
        LIMIT,
    );
    if let Ok(pos) = Position::from_fen_styled(g, &text, style) {
        accepted(g, pos, &text, style);
    }
}

/// The checks of a FEN the parser accepted.
pub fn accepted<const W: usize>(g: &Game<W>, mut pos: Position<W>, text: &str, style: FenStyle) {
    let name = &g.spec.name;
    assert_eq!(
        pos.key,
        pos.compute_key(g),
        "{name}: stale key after '{text}'"
    );
    let written = pos.to_fen_styled(g, style);
    let again = Position::from_fen_styled(g, &written, style).unwrap_or_else(|e| {
        panic!("{name}: '{text}' was accepted, its FEN '{written}' is refused: {e}")
    });
    // XBoard's FEN cannot carry a game's once-per-game rights (`FenStyle::Xboard`): its
    // round trip is exact only where a game has none.
    if style == FenStyle::Kirin || !g.has_privileges() {
        assert_eq!(
            again.key, pos.key,
            "{name}: '{text}' -> '{written}' is another position"
        );
    }
    assert_eq!(again.to_fen_styled(g, style), written, "{name}: '{text}'");
    let before = pos.clone();
    let mut list = MoveList::new();
    g.legal_moves(&mut pos, &mut list);
    assert!(pos == before, "{name}: generating moves changed '{text}'");
    let bound = g.move_bound(&pos, pos.side);
    assert!(
        list.len() <= bound,
        "{name}: {} moves over the bound {bound} in '{text}'",
        list.len()
    );
    let mut seen = std::collections::HashSet::new();
    for &m in &list {
        assert!(
            seen.insert(m.bits()),
            "{name}: {} listed twice in '{text}'",
            g.move_text(m)
        );
    }
    for &m in list.iter().take(4) {
        let u = pos.make(g, m);
        assert_eq!(
            pos.key,
            pos.compute_key(g),
            "{name}: stale key after {} in '{text}'",
            g.move_text(m)
        );
        pos.unmake(g, m, u);
        assert!(
            pos == before,
            "{name}: unmaking {} does not restore '{text}'",
            g.move_text(m)
        );
    }
    let _ = g.outcome(&mut pos);
    assert!(
        pos == before,
        "{name}: asking for the outcome changed '{text}'"
    );
}
