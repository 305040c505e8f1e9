//! Royal replacement (Little Great Chess's Regent): in a game where royals are captured,
//! a side whose last royal has fallen is not lost while it has a piece marked `regent`.
//! Its next turn then starts with an ascension: one of its regents (its choice, one
//! riding a carrier included) is replaced by the royal, on the regent's square, and the
//! regent goes where captured pieces go (the opponent's reserve or prisoners, in a game
//! with them), taking the place of the royal there if the royal went there when it fell.
//! The ascension is an action that does not end the turn: the side then makes its move.
//! Written as the regent's square twice (`e4e4`).

use crate::core::{BLACK, Color, Move, MoveKind, WHITE, color_of_piece, type_of_piece};
use crate::rules::extension::{RuleExtension, Slot};
use crate::rules::fen::piece_symbol;
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, Undo};
use crate::rules::spec::Royalty;

/// The `aux` of an ascension of a regent that rides a carrier.
const RIDING: usize = 1;

/// `Undo::captured_sq` of an ascension that took the royal back from the reserve it fell
/// into (nothing is captured by an ascension, so the field is free).
const ROYAL_RETURNED: u16 = 1;

#[derive(Clone, Debug)]
pub struct RoyalReplacement {
    slot: Slot,
    /// Regent piece indices, per colour.
    regents: [Vec<usize>; 2],
    /// The royal piece index that ascends, per colour.
    royal: [usize; 2],
}

impl RoyalReplacement {
    pub fn new<const W: usize>(game: &Game<W>, slot: Slot) -> Option<Self> {
        if game.spec.royalty != Royalty::Capture {
            return None;
        }
        let mut regents = [Vec::new(), Vec::new()];
        for pc in 0..2 * game.types {
            if game.spec.pieces[type_of_piece(pc)].regent {
                regents[color_of_piece(pc)].push(pc);
            }
        }
        let royal = [*game.royals[WHITE].first()?, *game.royals[BLACK].first()?];
        (!regents[0].is_empty()).then_some(RoyalReplacement {
            slot,
            regents,
            royal,
        })
    }

    /// The reserve a regent of `color` deposed on `sq` goes to, if any.
    fn deposed_to<const W: usize>(game: &Game<W>, color: Color, sq: usize) -> Option<usize> {
        game.capture_reserve(color.opposite(), sq)
    }
}

impl<const W: usize> RuleExtension<W> for RoyalReplacement {
    fn has_succession(&self) -> bool {
        true
    }

    fn has_turn_rule(&self) -> bool {
        true
    }

    fn succession_moves(&self, _game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        for &pc in &self.regents[pos.side] {
            for sq in pos.by_piece[pc] {
                list.push(Move::rule(sq, sq, 0, self.slot.index, false));
            }
        }
        for (sq, &code) in pos.carried.iter().enumerate() {
            if code != 0 && self.regents[pos.side].contains(&(code as usize - 1)) {
                list.push(Move::rule(sq, sq, RIDING, self.slot.index, false));
            }
        }
    }

    fn moves_a_piece(&self, _m: Move) -> bool {
        false
    }

    fn continues_turn(&self, _game: &Game<W>, _pos: &Position<W>, m: Move) -> bool {
        m.kind() == MoveKind::Rule && m.rule_slot() == self.slot.index
    }

    fn make_move(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        m: Move,
        u: &mut Undo,
        key: &mut u64,
    ) {
        let (sq, us) = (m.from(), pos.side);
        let z = &game.zobrist;
        let royal = self.royal[us] as u8 + 1;
        let regent = if m.aux() == RIDING {
            let regent = pos.unboard_passenger(game, sq, key);
            pos.board_passenger(game, sq, royal, key);
            regent
        } else {
            let regent = pos.remove(sq);
            pos.put(sq, royal);
            *key ^= z.piece(regent, sq) ^ z.piece(royal, sq);
            regent
        };
        u.moved = regent;
        if let Some(r) = Self::deposed_to(game, us, sq) {
            let royal_type = game.reserves.hand_type[royal as usize - 1];
            if pos.in_reserve(game, r, royal_type) > 0 {
                pos.take_from_reserve(game, r, royal_type, key);
                u.captured_sq = ROYAL_RETURNED;
            }
            let t = game.reserves.hand_type[regent as usize - 1];
            pos.add_to_reserve(game, r, t, key);
        }
    }

    fn unmake_move(&self, game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo) {
        let sq = m.from();
        if m.aux() == RIDING {
            pos.carried[sq] = u.moved;
        } else {
            pos.remove(sq);
            pos.put(sq, u.moved);
        }
        if let Some(r) = Self::deposed_to(game, pos.side, sq) {
            let t = game.reserves.hand_type[u.moved as usize - 1];
            pos.hands[game.reserves.slot(r, t)] -= 1;
            if u.captured_sq == ROYAL_RETURNED {
                let royal_type = game.reserves.hand_type[self.royal[pos.side]];
                pos.hands[game.reserves.slot(r, royal_type)] += 1;
            }
        }
    }

    fn readable(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> String {
        let code = if m.aux() == RIDING {
            pos.passenger(m.from())
        } else {
            pos.board[m.from()]
        };
        let regent = piece_symbol(game, code).to_ascii_uppercase();
        format!("{regent}{} (ascends)", game.geo.name(m.from()))
    }

    fn tactical(&self, _game: &Game<W>, _pos: &Position<W>, _m: Move) -> bool {
        true
    }

    fn move_bound(
        &self,
        _game: &Game<W>,
        _pos: &Position<W>,
        _color: Color,
        pieces: usize,
    ) -> usize {
        pieces
    }
}
