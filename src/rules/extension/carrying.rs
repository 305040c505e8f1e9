//! Carrying (Little Great Chess's ensconcing; `rules::stacks` keeps the layer): a piece
//! marked `carrier` may hold one friendly non-carrier piece. Three kinds of move:
//! - **boarding**: a friendly piece moves onto an empty-handed carrier by one of its own
//!   non-capturing moves, as if the carrier's square were empty (`b1c3`);
//! - **picking up**: an empty-handed carrier moves onto a friendly non-carrier by one of its
//!   own non-capturing moves (`a1a3`);
//! - **leaving**: the passenger moves off its carrier's square by one of its own moves,
//!   capturing what it lands on if that is an enemy (`c3^d5`, the `^` telling it from the
//!   carrier's own move), or boarding another, empty-handed carrier there.
//!
//! A loaded carrier moves with its passenger, and its capture takes both (the core's
//! stacking layer does that). A passenger attacks nothing while it rides, and no piece
//! promotes by boarding, picking up or leaving. Two-leg moves are not used to board,
//! pick up or leave.

use crate::core::{Bitboard, Color, Move, color_of_piece, type_of_piece};
use crate::rules::extension::{RuleExtension, Slot};
use crate::rules::fen::piece_symbol;
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, Undo};

/// The `aux` of a carrying move: what it does.
const BOARD: usize = 0;
const PICK_UP: usize = 1;
const LEAVE: usize = 2;
/// Leaving one carrier to board another.
const TRANSFER: usize = 3;

#[derive(Clone, Debug)]
pub struct Carrying {
    slot: Slot,
    /// Carrier piece indices, per colour.
    carriers: [Vec<usize>; 2],
    /// Non-carrier piece indices, per colour (the pieces that may ride).
    riders: [Vec<usize>; 2],
}

impl Carrying {
    pub fn new<const W: usize>(game: &Game<W>, slot: Slot) -> Option<Self> {
        if !game.stacks.exist {
            return None;
        }
        let mut carriers = [Vec::new(), Vec::new()];
        let mut riders = [Vec::new(), Vec::new()];
        for pc in 0..2 * game.types {
            if game.spec.pieces[type_of_piece(pc)].carrier {
                carriers[color_of_piece(pc)].push(pc);
            } else {
                riders[color_of_piece(pc)].push(pc);
            }
        }
        Some(Carrying {
            slot,
            carriers,
            riders,
        })
    }

    /// The side to move's carriers with and without a passenger.
    fn carriers_of<const W: usize>(&self, pos: &Position<W>, us: Color) -> [Bitboard<W>; 2] {
        let mut out = [Bitboard::EMPTY; 2];
        for &pc in &self.carriers[us] {
            for sq in pos.by_piece[pc] {
                out[usize::from(pos.passenger(sq) != 0)].set(sq);
            }
        }
        out
    }
}

impl<const W: usize> RuleExtension<W> for Carrying {
    fn add_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        let us = pos.side;
        let occ = pos.occupied();
        let [empty_handed, loaded] = self.carriers_of(pos, us);
        let rule = |from, to, what| Move::rule(from, to, what, self.slot.index, false);
        let mut riders = Bitboard::EMPTY;
        for &pc in &self.riders[us] {
            riders |= pos.by_piece[pc];
        }
        for from in empty_handed {
            let (moves, _) = game.one_leg_reach(pos.board[from] as usize - 1, from, occ);
            for to in moves & riders {
                list.push(rule(from, to, PICK_UP));
            }
        }
        for from in loaded {
            let rider = pos.passenger(from) as usize - 1;
            let (moves, captures) = game.one_leg_reach(rider, from, occ);
            let enemy = pos.by_color[us.opposite()] & game.valid;
            for to in moves.andnot(occ) | (captures & enemy) {
                list.push(rule(from, to, LEAVE));
            }
            for to in moves & empty_handed {
                list.push(rule(from, to, TRANSFER));
            }
        }
        if empty_handed.is_empty() {
            return;
        }
        for from in riders {
            let (moves, _) = game.one_leg_reach(pos.board[from] as usize - 1, from, occ);
            for to in moves & empty_handed {
                list.push(rule(from, to, BOARD));
            }
        }
    }

    fn make_move(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        m: Move,
        u: &mut Undo,
        key: &mut u64,
    ) {
        let z = &game.zobrist;
        let (from, to) = (m.from(), m.to());
        match m.aux() {
            BOARD => {
                let rider = pos.remove(from);
                *key ^= z.piece(rider, from);
                pos.board_passenger(game, to, rider, key);
            }
            PICK_UP => {
                let rider = pos.remove(to);
                let carrier = pos.remove(from);
                pos.put(to, carrier);
                *key ^= z.piece(rider, to) ^ z.piece(carrier, from) ^ z.piece(carrier, to);
                pos.board_passenger(game, to, rider, key);
            }
            TRANSFER => {
                let rider = pos.unboard_passenger(game, from, key);
                pos.board_passenger(game, to, rider, key);
            }
            _ => {
                let rider = pos.unboard_passenger(game, from, key);
                pos.capture_stack(game, to, u, key);
                pos.put(to, rider);
                *key ^= z.piece(rider, to);
            }
        }
    }

    fn unmake_move(&self, _game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo) {
        let (from, to) = (m.from(), m.to());
        match m.aux() {
            BOARD => {
                let rider = std::mem::take(&mut pos.carried[to]);
                pos.put(from, rider);
            }
            PICK_UP => {
                let rider = std::mem::take(&mut pos.carried[to]);
                let carrier = pos.remove(to);
                pos.put(from, carrier);
                pos.put(to, rider);
            }
            TRANSFER => {
                pos.carried[from] = std::mem::take(&mut pos.carried[to]);
            }
            _ => {
                let rider = pos.remove(to);
                pos.restore_stack(to, u);
                pos.carried[from] = rider;
            }
        }
    }

    fn move_text(&self, game: &Game<W>, m: Move) -> String {
        let g = &game.geo;
        let sep = if m.aux() >= LEAVE { "^" } else { "" };
        format!("{}{sep}{}", g.name(m.from()), g.name(m.to()))
    }

    fn readable(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> String {
        let g = &game.geo;
        let (from, to) = (g.name(m.from()), g.name(m.to()));
        let symbol = |code| piece_symbol(game, code).to_ascii_uppercase();
        match m.aux() {
            BOARD => format!("{}{from}-{to} (boards)", symbol(pos.board[m.from()])),
            PICK_UP => format!("{}{from}-{to} (picks up)", symbol(pos.board[m.from()])),
            LEAVE => format!("{}{from}-{to} (leaves)", symbol(pos.passenger(m.from()))),
            _ => format!(
                "{}{from}-{to} (changes carrier)",
                symbol(pos.passenger(m.from()))
            ),
        }
    }

    fn tactical(&self, _game: &Game<W>, pos: &Position<W>, m: Move) -> bool {
        m.aux() == LEAVE && pos.board[m.to()] != 0
    }

    fn removes(&self, _game: &Game<W>, pos: &Position<W>, m: Move) -> Option<usize> {
        (m.aux() == LEAVE && pos.board[m.to()] != 0).then_some(m.to())
    }

    /// Each piece may board each carrier, each carrier pick up each piece, and each
    /// passenger leave by its own moves.
    fn move_bound(&self, game: &Game<W>, pos: &Position<W>, color: Color, pieces: usize) -> usize {
        let carriers: usize = self.carriers[color]
            .iter()
            .map(|&pc| pos.by_piece[pc].count() as usize)
            .sum();
        let most = self.riders[color]
            .iter()
            .map(|&pc| game.move_bounds[pc])
            .max()
            .unwrap_or(0);
        carriers * (2 * pieces + most)
    }
}
