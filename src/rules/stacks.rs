//! The stacking layer: a piece marked `carrier` may hold one friendly piece, its passenger
//! (Little Great Chess's Cannon). The passenger stands on the carrier's square but not on
//! the board: it is in no bitboard, attacks nothing and cannot be captured by itself.
//! The core keeps the layer consistent under every move: a carrier that moves takes its
//! passenger along, and a carrier that is captured takes its passenger down with it (both
//! go where the game sends captured pieces). How a piece boards or leaves a carrier is a
//! rule of the game (`rules::extension::carrying`).
//!
//! FEN writes a passenger in brackets after its carrier: `M(n)` is a carrier `M` holding a
//! `N` (the passenger's letter in its own case).

use crate::rules::game::Game;
use crate::rules::position::{Position, Undo};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a game's stacking layer needs, computed once.
#[derive(Clone, Debug)]
pub struct Stacks {
    /// Some piece of the game is a carrier.
    pub exist: bool,
    squares: usize,
    /// `keys[(code - 1) * squares + sq]`: the key of the passenger `code` on `sq`.
    keys: Vec<u64>,
}

impl Stacks {
    /// The layer of a game whose piece types are `carriers` (one flag per type) on a board
    /// of `squares` squares.
    pub fn new(carriers: &[bool], squares: usize) -> Self {
        let exist = carriers.iter().any(|&c| c);
        // Keys from their own seed: games without carriers keep their keys.
        let mut rng = ChaCha8Rng::seed_from_u64(0x6b69_7269_6e5f_7374);
        let n = if exist {
            2 * carriers.len() * squares
        } else {
            0
        };
        Stacks {
            exist,
            squares,
            keys: (0..n).map(|_| rng.next_u64()).collect(),
        }
    }

    /// The key of the passenger `code` on `sq`.
    #[inline(always)]
    pub fn key(&self, code: u8, sq: usize) -> u64 {
        self.keys[(code as usize - 1) * self.squares + sq]
    }
}

impl<const W: usize> Position<W> {
    /// The passenger on `sq` (0 for none).
    #[inline(always)]
    pub fn passenger(&self, sq: usize) -> u8 {
        self.carried.get(sq).copied().unwrap_or(0)
    }

    /// Puts `code` as a passenger on `sq`, whose carrier holds none, updating `key`.
    pub fn board_passenger(&mut self, game: &Game<W>, sq: usize, code: u8, key: &mut u64) {
        debug_assert!(self.carried[sq] == 0 && code != 0);
        self.carried[sq] = code;
        *key ^= game.stacks.key(code, sq);
    }

    /// Takes the passenger off `sq` and returns it, updating `key`.
    pub fn unboard_passenger(&mut self, game: &Game<W>, sq: usize, key: &mut u64) -> u8 {
        let code = std::mem::take(&mut self.carried[sq]);
        if code != 0 {
            *key ^= game.stacks.key(code, sq);
        }
        code
    }

    /// The layer's part of `make` for a piece going from `from` to `to` (after what stood
    /// on `to` was captured): the passenger of a captured carrier there is captured too
    /// (recorded in `u`), and the mover's passenger moves with it.
    pub(crate) fn carry(
        &mut self,
        game: &Game<W>,
        from: usize,
        to: usize,
        u: &mut Undo,
        key: &mut u64,
    ) {
        if from == to {
            return;
        }
        u.passengers[0] = self.unboard_passenger(game, to, key);
        let rider = self.unboard_passenger(game, from, key);
        if rider != 0 {
            self.board_passenger(game, to, rider, key);
        }
    }

    /// Captures what stands on `sq`, a carrier with its passenger, for a rule's move that
    /// lands there (recorded in `u` as `make` records a capture); nothing if it is empty.
    pub(crate) fn capture_stack(&mut self, game: &Game<W>, sq: usize, u: &mut Undo, key: &mut u64) {
        if self.board[sq] != 0 {
            u.captured = self.remove(sq);
            u.captured_sq = sq as u16;
            *key ^= game.zobrist.piece(u.captured, sq);
            u.passengers[0] = self.unboard_passenger(game, sq, key);
        }
    }

    /// Takes back `capture_stack`, once `sq` is empty again.
    pub(crate) fn restore_stack(&mut self, sq: usize, u: &Undo) {
        if u.captured != 0 {
            self.put(sq, u.captured);
            self.carried[sq] = u.passengers[0];
        }
    }

    /// Takes back `carry` (the key is restored by `unmake`).
    pub(crate) fn uncarry(&mut self, from: usize, to: usize, u: &Undo) {
        if from == to {
            return;
        }
        let rider = std::mem::take(&mut self.carried[to]);
        self.carried[from] = rider;
        self.carried[to] = u.passengers[0];
    }

    /// How many passengers of piece index `pc` ride on carriers.
    pub fn riding(&self, pc: usize) -> usize {
        self.carried
            .iter()
            .filter(|&&c| c as usize == pc + 1)
            .count()
    }

    /// The layer's part of the key.
    pub(crate) fn stacks_key(&self, game: &Game<W>) -> u64 {
        self.carried
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .fold(0, |k, (sq, &c)| k ^ game.stacks.key(c, sq))
    }
}
