//! Move text in coordinate notation: `e2e4`, promotions `e7e8q` (the new piece's letter)
//! or `d6d7+` (shogi-style promotion to a `+` piece), castling as the king's move, and
//! moves of several legs as `f5f6,f6f7` (a leg ends on each square captured on the way),
//! drops as `P@e5` (the piece's letter in upper case, whichever side drops; lower case is
//! accepted). Input is matched against the legal moves, so a text is accepted exactly when
//! it names one of them.

use crate::core::{Move, MoveKind, type_of_piece};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::Position;
use thiserror::Error;

/// Why a move text names no legal move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveTextError {
    #[error("empty move")]
    Empty,
    /// A pass written as a step and back, where no piece may pass.
    #[error("no pass is possible here")]
    NoPass,
    /// Not the text of any legal move here (malformed, off the board or illegal).
    #[error("'{0}' is not a legal move here")]
    Illegal(String),
}

impl<const W: usize> Game<W> {
    /// The coordinate text of `m`.
    pub fn move_text(&self, m: Move) -> String {
        let g = &self.geo;
        if m.kind() == MoveKind::Pass {
            return "@@@@".to_string();
        }
        let through = |via: usize| {
            let via = g.name(via);
            format!("{}{via},{via}{}", g.name(m.from()), g.name(m.to()))
        };
        let mut s = match m.kind() {
            MoveKind::TwoLeg => through(m.aux()),
            MoveKind::Drop => {
                let letter = self.spec.pieces[m.aux()].letter.to_ascii_uppercase();
                format!("{letter}@{}", g.name(m.to()))
            }
            MoveKind::MultiLeg => self.legs_text(m),
            MoveKind::Castle if self.castling_onto_rook => {
                format!("{}{}", g.name(m.from()), g.name(m.aux()))
            }
            // A rule-defined move is written as its rule says.
            MoveKind::Rule => return self.rule_move_text(m),
            _ => format!("{}{}", g.name(m.from()), g.name(m.to())),
        };
        if let Some(p) = m.promotes_to() {
            let letter = &self.spec.pieces[type_of_piece(p)].letter;
            if letter.starts_with('+') {
                s.push('+');
            } else {
                s += letter;
            }
        }
        s
    }

    /// A multi-leg move as its legs from capture to capture: `a1b2,b2c3,c3d4` (the
    /// squares it captures on between its start and its end).
    fn legs_text(&self, m: Move) -> String {
        let g = &self.geo;
        let stops: Vec<usize> = std::iter::once(m.from())
            .chain(self.captures_on_the_way(m).iter().map(|&s| s as usize))
            .chain(std::iter::once(m.to()))
            .collect();
        stops
            .windows(2)
            .map(|w| format!("{}{}", g.name(w[0]), g.name(w[1])))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// True for `@@@@`, or `a,b` legs that step from a piece of the side to move to an
    /// empty square and back.
    fn is_pass_text(&self, pos: &Position<W>, text: &str) -> bool {
        if text == "@@@@" {
            return true;
        }
        let Some((first, second)) = text.split_once(',') else {
            return false;
        };
        let squares = |leg: &str| -> Option<(usize, usize)> {
            let (a, b) = split_leg(leg)?;
            Some((
                self.geo.parse_square(a).ok()?,
                self.geo.parse_square(b).ok()?,
            ))
        };
        match (squares(first), squares(second)) {
            (Some((a, b)), Some((c, d))) => {
                let code = pos.board[a];
                a == d
                    && b == c
                    && a != b
                    && pos.board[b] == 0
                    && code != 0
                    && crate::rules::position::color_of(code) == pos.side
            }
            _ => false,
        }
    }

    /// Legs `a b,b c,...` with their intermediate squares that are empty left out: a leg
    /// that lands on an empty square only passes on (`a b,b c` with `b` empty is the jump
    /// `a c`). Any promotion suffix is kept; `None` when nothing is left out, or when all
    /// would be and the move would end where it began (the pass).
    fn plain_jump_text(&self, pos: &Position<W>, text: &str) -> Option<String> {
        let legs: Vec<&str> = text.split(',').collect();
        let (last, inner) = legs.split_last().filter(|(_, inner)| !inner.is_empty())?;
        let mut kept = Vec::new();
        let mut dropped = false;
        let mut at = None;
        for leg in inner {
            let (a, b) = split_leg(leg)?;
            if at.is_some_and(|at| at != a) {
                return None;
            }
            if kept.is_empty() {
                kept.push(a);
            }
            if pos.board[self.geo.parse_square(b).ok()?] == 0 {
                dropped = true;
            } else {
                kept.push(b);
            }
            at = Some(b);
        }
        if !last.is_ascii() {
            return None;
        }
        let rest = last.strip_prefix(at?)?;
        let end: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let suffix = &rest[end.len()..];
        if !dropped || end.is_empty() || (kept.len() == 1 && end == kept[0]) {
            return None;
        }
        let mut out: Vec<String> = kept
            .windows(2)
            .map(|w| format!("{}{}", w[0], w[1]))
            .collect();
        out.push(format!("{}{end}{suffix}", kept[kept.len() - 1]));
        Some(out.join(","))
    }

    /// Finds the legal move written as `text`. A trailing `=` (decline promotion) is
    /// accepted on a move that does not promote.
    pub fn parse_move(&self, pos: &mut Position<W>, text: &str) -> Result<Move, MoveTextError> {
        let text = text.trim();
        let wanted = text.strip_suffix('=').unwrap_or(text);
        // A drop's piece letter may come in either case.
        let upper;
        let wanted = match wanted.split_once('@') {
            Some((piece, square)) if !piece.is_empty() => {
                upper = format!("{}@{square}", piece.to_ascii_uppercase());
                upper.as_str()
            }
            _ => wanted,
        };
        let mut list = MoveList::new();
        self.legal_moves(pos, &mut list);
        // A step to an empty square and back, by any piece that can pass, is the pass.
        if let Some(pass) = list.iter().copied().find(|m| m.kind() == MoveKind::Pass)
            && self.is_pass_text(pos, wanted)
        {
            return Ok(pass);
        }
        let matching = |wanted: &str| {
            list.iter().copied().find(|&m| {
                self.move_text(m) == wanted
                    && !(wanted.len() < text.len() && m.promotes_to().is_some())
            })
        };
        let found = matching(wanted).or_else(|| {
            self.plain_jump_text(pos, wanted)
                .and_then(|jump| matching(&jump))
        });
        let wanted = wanted.to_string();
        found.ok_or_else(|| {
            if self.is_pass_text(pos, &wanted) {
                return MoveTextError::NoPass;
            }
            if text.is_empty() {
                MoveTextError::Empty
            } else {
                MoveTextError::Illegal(text.to_string())
            }
        })
    }
}

/// Splits a leg such as `f5f6` or `a10b11` into its two square names (unchecked).
fn split_leg(leg: &str) -> Option<(&str, &str)> {
    if !leg.is_ascii() || leg.len() < 4 {
        return None;
    }
    let split = leg[1..].find(|c: char| c.is_ascii_lowercase())? + 1;
    Some((&leg[..split], &leg[split..]))
}

/// A move as the protocols write it: coordinates with ranks from 1, multi-leg moves in the
/// comma form, a pass as a step to its square and back, or `pass_text` where the protocol
/// has a word for it (CECP's `@@@@`).
pub fn wire_move<const W: usize>(game: &Game<W>, m: Move, pass_text: Option<&str>) -> String {
    if m.kind() == MoveKind::Pass {
        if let Some(t) = pass_text {
            return t.to_string();
        }
        let g = &game.geo;
        let (a, b) = (g.name(m.from()), g.name(m.aux()));
        return format!("{a}{b},{b}{a}");
    }
    game.move_text(m)
}

/// A turn as the protocols write it: its one move as `wire_move` writes it, or the
/// text of a turn of several actions (`rules::turns`).
pub fn wire_turn<const W: usize>(game: &Game<W>, turn: &[Move], pass_text: Option<&str>) -> String {
    match turn {
        [m] => wire_move(game, *m, pass_text),
        _ => game.turn_text(turn),
    }
}
