//! Whole turns. In most games a turn is one move. Where a turn has several actions (a
//! Regent's ascension before the move, Little Great Chess's choices after it, a game of
//! `actions_per_turn` moves), the protocols and the command line exchange the whole turn
//! as one word, so that a GUI or a game record replays it exactly:
//! - the actions' texts follow each other, an action whose text starts with a letter or
//!   digit after a `;` (`d8d8;e7e6`), one that starts with a mark (`+G`, `=c3E`, `$N/bb`)
//!   directly (`e5d6+N$S/n`);
//! - the end of a turn that could have gone on (a rule's follow-up with an empty text) is
//!   not written: a turn's text that stops where the turn may end ends it.
//!
//! The search and perft see the actions one by one (a turn is several plies of the same
//! side); these functions cut a line of actions into turns and read a turn's text back.

use crate::core::Move;
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::notation::MoveTextError;
use crate::rules::position::Position;

/// The longest text of a turn kirin reads (a bound on untrusted input).
const MAX_TURN_TEXT: usize = 256;

impl<const W: usize> Game<W> {
    /// The text of a turn made of `actions`.
    pub fn turn_text(&self, actions: &[Move]) -> String {
        let mut out = String::new();
        for &m in actions {
            let text = self.move_text(m);
            let starts_with_mark = text.chars().next().is_some_and(|c| !c.is_alphanumeric());
            if !out.is_empty() && !text.is_empty() && !starts_with_mark {
                out.push(';');
            }
            out += &text;
        }
        out
    }

    /// The actions of the turn written `text` in `pos` (which is left as it was). In a
    /// game of one action per turn this is the move `text` names. A text that stops
    /// before the turn may end names the actions so far (the next text goes on with the
    /// turn).
    pub fn parse_turn(
        &self,
        pos: &mut Position<W>,
        text: &str,
    ) -> Result<Vec<Move>, MoveTextError> {
        if !self.multi_action {
            return Ok(vec![self.parse_move(pos, text)?]);
        }
        let text = text.trim();
        if text.is_empty() {
            return Err(MoveTextError::Empty);
        }
        let illegal = || MoveTextError::Illegal(text.to_string());
        if text.len() > MAX_TURN_TEXT {
            return Err(illegal());
        }
        let mut p = pos.clone();
        let side = p.side;
        let mut actions = Vec::new();
        for chunk in text.split(';') {
            if p.side != side {
                return Err(illegal());
            }
            // The whole chunk as one action first, with `parse_move`'s leniency (a drop's
            // letter in either case, a pass written as a step and back).
            if let Ok(m) = self.parse_move(&mut p, chunk) {
                p.make(self, m);
                actions.push(m);
                continue;
            }
            let mut rest = chunk;
            while !rest.is_empty() {
                if p.side != side {
                    return Err(illegal());
                }
                let (m, len) = self
                    .longest_action_prefix(&mut p, rest)
                    .ok_or_else(illegal)?;
                p.make(self, m);
                actions.push(m);
                rest = &rest[len..];
            }
        }
        if p.side == side
            && let Some(end) = self.silent_end(&mut p)
        {
            actions.push(end);
        }
        Ok(actions)
    }

    /// The legal action whose (non-empty) text is the longest beginning of `text`.
    fn longest_action_prefix(&self, pos: &mut Position<W>, text: &str) -> Option<(Move, usize)> {
        let mut list = MoveList::new();
        self.legal_moves(pos, &mut list);
        list.iter()
            .map(|&m| (m, self.move_text(m)))
            .filter(|(_, t)| !t.is_empty() && text.starts_with(t.as_str()))
            .max_by_key(|(_, t)| t.len())
            .map(|(m, t)| (m, t.len()))
    }

    /// The legal action that ends the turn with nothing more (written as nothing), if the
    /// side to move is settling its turn.
    fn silent_end(&self, pos: &mut Position<W>) -> Option<Move> {
        if !self.settling(pos) {
            return None;
        }
        let mut list = MoveList::new();
        self.legal_moves(pos, &mut list);
        list.iter().copied().find(|&m| self.move_text(m).is_empty())
    }

    /// Whether each action of `turn` is among the moves the game allows where it is
    /// played (`game_moves`: a repetition rule included); true for no action.
    pub fn is_legal_turn(&self, pos: &Position<W>, turn: &[Move]) -> bool {
        let mut p = pos.clone();
        let mut list = MoveList::new();
        for &m in turn {
            self.game_moves(&mut p, &mut list);
            if !list.contains(&m) {
                return false;
            }
            p.make(self, m);
        }
        true
    }

    /// `line`, a sequence of actions from `pos`, cut into turns. The last turn is
    /// completed where the line stops in the middle of it (by the silent end, else by the
    /// first legal action), so that every turn can be played; a line that cannot be
    /// played stops at the first action that is not legal.
    pub fn turns_of(&self, pos: &Position<W>, line: &[Move]) -> Vec<Vec<Move>> {
        let mut p = pos.clone();
        let mut turns: Vec<Vec<Move>> = Vec::new();
        let mut current = Vec::new();
        for &m in line {
            let mut list = MoveList::new();
            self.legal_moves(&mut p, &mut list);
            if !list.contains(&m) {
                break;
            }
            let side = p.side;
            p.make(self, m);
            current.push(m);
            if p.side != side {
                turns.push(std::mem::take(&mut current));
            }
        }
        if !current.is_empty() {
            let side = p.side;
            while p.side == side && current.len() < 16 {
                let next = self.silent_end(&mut p).or_else(|| {
                    let mut list = MoveList::new();
                    self.legal_moves(&mut p, &mut list);
                    list.first().copied()
                });
                let Some(m) = next else { break };
                p.make(self, m);
                current.push(m);
            }
            turns.push(current);
        }
        turns
    }
}
