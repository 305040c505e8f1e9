//! Move text in coordinate notation: `e2e4`, promotions `e7e8q` (the new piece's letter)
//! or `d6d7+` (shogi-style promotion to a `+` piece), castling as the king's move, and
//! two-leg moves as `f5f6,f6f7`. Input is matched against the legal moves, so a text is
//! accepted exactly when it names one of them.

use crate::core::{Move, MoveKind};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::Position;

impl<const W: usize> Game<W> {
    /// The coordinate text of `m`.
    pub fn move_text(&self, m: Move) -> String {
        let g = &self.geo;
        let mut s = if m.kind() == MoveKind::TwoLeg {
            let via = g.name(m.aux());
            format!("{}{via},{via}{}", g.name(m.from()), g.name(m.to()))
        } else {
            format!("{}{}", g.name(m.from()), g.name(m.to()))
        };
        if let Some(p) = m.promotes_to() {
            let letter = &self.spec.pieces[p / 2].letter;
            if letter.starts_with('+') {
                s.push('+');
            } else {
                s += letter;
            }
        }
        s
    }

    /// Finds the legal move written as `text`. A trailing `=` (decline promotion) is
    /// accepted on a move that does not promote.
    pub fn parse_move(&self, pos: &mut Position<W>, text: &str) -> Result<Move, String> {
        let text = text.trim();
        let wanted = text.strip_suffix('=').unwrap_or(text);
        let mut list = MoveList::new();
        self.legal_moves(pos, &mut list);
        let found = list.iter().copied().find(|&m| {
            self.move_text(m) == wanted && !(wanted.len() < text.len() && m.promotes_to().is_some())
        });
        found.ok_or_else(|| {
            if text.is_empty() {
                "empty move".to_string()
            } else {
                format!("'{text}' is not a legal move here")
            }
        })
    }
}
