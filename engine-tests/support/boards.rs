//! Positions for tests, written as placements: `"Ka1 kl12 +Ha3 R'b9 ne7"`, a piece
//! symbol (a letter, with `+` before it for a promoted piece and `'` or `!` after it for
//! XBoard's dressed letters; upper case White) and its square.

use kirin::core::{BLACK, WHITE, piece_index};
use kirin::rules::{Game, Position};

/// An empty position of `g` with the pieces `placements` put on it, White to move (its
/// other fields as `Position::empty` leaves them: no rights, no en passant).
pub fn placed<const W: usize>(g: &Game<W>, placements: &str) -> Position<W> {
    let mut pos = Position::empty(g);
    for p in placements.split_whitespace() {
        let dressed = p.trim_start_matches('+')[1..].starts_with(['\'', '!']);
        let split = usize::from(p.starts_with('+')) + 1 + usize::from(dressed);
        let (symbol, square) = p.split_at(split);
        let t = g
            .spec
            .piece_index(symbol)
            .unwrap_or_else(|| panic!("no piece '{symbol}' in {}", g.spec.name));
        let letter = symbol.trim_start_matches('+');
        let color = if letter.starts_with(|c: char| c.is_ascii_lowercase()) {
            BLACK
        } else {
            WHITE
        };
        let sq = g
            .geo
            .parse_square(square)
            .unwrap_or_else(|e| panic!("{p}: {e}"));
        pos.put(sq, (piece_index(t, color) + 1) as u8);
    }
    pos
}
