//! A position: mailbox plus bitboards, side to move, castling rights, en passant,
//! counters, Zobrist key and the keys of earlier positions. Moves are made and unmade in
//! place; `Undo` holds what a move destroys.

use crate::core::{BLACK, Bitboard, Color, Move, MoveKind, WHITE, color_of_piece, piece_index};
use crate::rules::game::{Game, MAX_ROUTE_CAPTURES};

/// "No square" for en passant and castling fields.
pub const NO_SQ: u16 = u16::MAX;

/// Most en-passant squares a position has: a pawn's step is a leap of four squares at
/// most (Betza leaps go up to (4,4)), so it skips three squares at most.
pub const MAX_EP_SQUARES: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position<const W: usize> {
    /// Board code per square: 0 empty, otherwise piece index + 1.
    pub board: Vec<u8>,
    pub by_color: [Bitboard<W>; 2],
    /// Squares of each piece index (`type * 2 + colour`).
    pub by_piece: Vec<Bitboard<W>>,
    pub side: Color,
    /// Actions the side to move has already made in this turn, in games whose turns have
    /// several (`actions_per_turn`); 0 at the start of every turn.
    pub actions: u8,
    /// Rook squares of the four castling rights: White king side, White queen side, Black
    /// king side, Black queen side.
    pub castle_rooks: [u16; 4],
    /// Bit i set: right i (see `castle_rooks`) still exists.
    pub castling: u8,
    /// The squares a pawn's initial step of two or more squares skipped on which an enemy
    /// pawn can take it en passant (empty: none).
    pub ep: Bitboard<W>,
    /// The square of that pawn.
    pub ep_victim: u16,
    pub halfmove: u32,
    pub fullmove: u32,
    /// The state the game's rule extensions keep (`rules::extension`), each rule in its
    /// own bits: once-per-game rights, or a fact about the last move.
    pub rule_state: RuleState,
    /// Pieces in reserve (`rules::reserves`): per reserve, a count per piece type; empty
    /// in games without reserves.
    pub hands: Vec<u8>,
    /// The passenger on each square (`rules::stacks`), 0 for none; empty in games
    /// without carriers.
    pub carried: Vec<u8>,
    pub key: u64,
    /// Keys of the positions before each move made, oldest first.
    pub history: Vec<u64>,
}

/// What `make` changed and `unmake` restores.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The moving piece's board code.
    pub(crate) moved: u8,
    /// The piece captured (0 for none) and its square.
    pub(crate) captured: u8,
    pub(crate) captured_sq: u16,
    /// The piece a two-leg move captured on its intermediate square (0 for none), or a
    /// second piece a rule's move captured, and its square.
    pub(crate) via_captured: u8,
    pub(crate) via_sq: u16,
    /// The passengers of the carriers captured on `captured_sq` and on the two-leg
    /// move's intermediate square (0 for none).
    pub(crate) passengers: [u8; 2],
    /// The reserves `captured`, `via_captured`, the two `passengers` and the
    /// `route_captured` went to (`u8::MAX`: none).
    stashed: [u8; 4 + MAX_ROUTE_CAPTURES],
    actions: u8,
    /// The pieces a multi-leg move captured before its last leg, on the squares its
    /// capture list names (`Game::route_captures`), in that order.
    pub(crate) route_captured: [u8; MAX_ROUTE_CAPTURES],
    castling: u8,
    /// The en-passant squares before the move (`NO_SQ` for none).
    ep: [u16; MAX_EP_SQUARES],
    ep_victim: u16,
    halfmove: u32,
    fullmove: u32,
    pub(crate) rule_state: RuleState,
    key: u64,
}

impl Undo {
    /// Every piece the move took (0s included), in the order of `stashed`.
    fn taken(&self) -> [u8; 4 + MAX_ROUTE_CAPTURES] {
        let mut all = [0; 4 + MAX_ROUTE_CAPTURES];
        all[0] = self.captured;
        all[1] = self.via_captured;
        all[2..4].copy_from_slice(&self.passengers);
        all[4..].copy_from_slice(&self.route_captured);
        all
    }
}

/// The rules' state (`Position::rule_state`): each rule of a game keeps its bits in it.
pub type RuleState = u32;

/// The board code of a piece of type `t` and colour `color`.
#[inline(always)]
pub fn board_code(t: usize, color: Color) -> u8 {
    (piece_index(t, color) + 1) as u8
}

/// The colour of a non-empty board code.
#[inline(always)]
pub fn color_of(code: u8) -> Color {
    color_of_piece(code as usize - 1)
}

impl<const W: usize> Position<W> {
    /// An empty board with White to move.
    pub fn empty(game: &Game<W>) -> Self {
        Position {
            board: vec![0; game.squares],
            by_color: [Bitboard::EMPTY; 2],
            by_piece: vec![Bitboard::EMPTY; 2 * game.types],
            side: WHITE,
            actions: 0,
            castle_rooks: [NO_SQ; 4],
            castling: 0,
            ep: Bitboard::EMPTY,
            ep_victim: NO_SQ,
            halfmove: 0,
            fullmove: 1,
            rule_state: 0,
            hands: vec![0; game.reserves.count * game.types],
            carried: if game.stacks.exist {
                vec![0; game.squares]
            } else {
                Vec::new()
            },
            key: 0,
            history: Vec::new(),
        }
    }

    /// Both colours' pieces.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard<W> {
        self.by_color[WHITE] | self.by_color[BLACK]
    }

    /// The squares of `color`'s royal pieces (one riding a carrier included).
    #[inline(always)]
    pub fn royals(&self, game: &Game<W>, color: Color) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        for &pc in &game.royals[color] {
            b |= self.by_piece[pc];
        }
        if !self.carried.is_empty() {
            b |= self.riding_royals(game, color);
        }
        b
    }

    /// The squares of carriers that hold a royal of `color`.
    #[cold]
    fn riding_royals(&self, game: &Game<W>, color: Color) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        for (sq, &code) in self.carried.iter().enumerate() {
            if code != 0 && game.royals[color].contains(&(code as usize - 1)) {
                b.set(sq);
            }
        }
        b
    }

    /// Puts a piece on an empty square without touching the key.
    #[inline(always)]
    pub fn put(&mut self, sq: usize, code: u8) {
        debug_assert!(self.board[sq] == 0 && code != 0);
        self.board[sq] = code;
        self.by_color[color_of(code)].set(sq);
        self.by_piece[code as usize - 1].set(sq);
    }

    /// Removes the piece on `sq` without touching the key.
    #[inline(always)]
    pub fn remove(&mut self, sq: usize) -> u8 {
        let code = self.board[sq];
        debug_assert!(code != 0);
        self.board[sq] = 0;
        self.by_color[color_of(code)].clear(sq);
        self.by_piece[code as usize - 1].clear(sq);
        code
    }

    /// The key computed from scratch (the incremental key must always equal it).
    pub fn compute_key(&self, game: &Game<W>) -> u64 {
        let z = &game.zobrist;
        let mut k = 0;
        for (sq, &code) in self.board.iter().enumerate() {
            if code != 0 {
                k ^= z.piece(code, sq);
            }
        }
        if self.side == BLACK {
            k ^= z.side;
        }
        k ^= game.turn_key(self.actions);
        k ^= z.castling[self.castling as usize];
        k ^= Self::ep_key(game, self.ep);
        if game.reserves.exist() {
            k ^= self.reserves_key(game);
        }
        if game.stacks.exist {
            k ^= self.stacks_key(game);
        }
        k ^ z.rule_state(self.rule_state)
    }

    /// The key part of the en-passant squares `ep`: each square's key (one square keeps
    /// the key it always had).
    #[inline(always)]
    fn ep_key(game: &Game<W>, ep: Bitboard<W>) -> u64 {
        ep.iter().fold(0, |k, sq| k ^ game.zobrist.ep[sq])
    }

    /// Sets the rule state to `state`, updating `key` (a key being built by `make`).
    #[inline(always)]
    pub fn set_rule_state(&mut self, game: &Game<W>, state: RuleState, key: &mut u64) {
        if state != self.rule_state {
            *key ^= game.zobrist.rule_state(self.rule_state ^ state);
            self.rule_state = state;
        }
    }

    /// Number of times the current position occurred before with the same side to move,
    /// looking back no further than the last capture or pawn move.
    pub fn repetitions(&self, game: &Game<W>) -> usize {
        let n = self.history.len();
        if game.multi_action {
            // A repetition may lie any number of actions back: the key tells the side and
            // the action within the turn, and actions that leave the clock alone make it
            // no bound, so every earlier position is compared.
            return self.history.iter().filter(|&&k| k == self.key).count();
        }
        let reach = (self.halfmove as usize).min(n);
        (2..=reach)
            .step_by(2)
            .filter(|&back| self.history[n - back] == self.key)
            .count()
    }

    /// Where the rook lands when the king castles from `king` to `to`: on the square the
    /// king crossed next to its destination.
    #[inline(always)]
    pub fn castle_rook_target(king: usize, to: usize) -> usize {
        if to > king { to - 1 } else { to + 1 }
    }

    /// The undo record of a move of the piece `moved` (0 for the null move), before
    /// anything changes: nothing captured yet, the en-passant squares still to be saved.
    #[inline(always)]
    fn undo_record(&self, moved: u8) -> Undo {
        Undo {
            moved,
            captured: 0,
            captured_sq: NO_SQ,
            via_captured: 0,
            via_sq: NO_SQ,
            passengers: [0; 2],
            stashed: [u8::MAX; 4 + MAX_ROUTE_CAPTURES],
            actions: self.actions,
            route_captured: [0; MAX_ROUTE_CAPTURES],
            castling: self.castling,
            ep: [NO_SQ; MAX_EP_SQUARES],
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            rule_state: self.rule_state,
            key: self.key,
        }
    }

    /// Plays `m`, which must be legal or at least pseudo-legal, and returns the undo record.
    pub fn make(&mut self, game: &Game<W>, m: Move) -> Undo {
        let z = &game.zobrist;
        let (from, to) = (m.from(), m.to());
        let moved = self.mover(m);
        let mut u = self.undo_record(moved);
        self.history.push(self.key);
        let mut key = self.key ^ z.side;
        if self.ep.any() {
            key ^= Self::ep_key(game, self.ep);
            u.ep = self.take_ep();
        }
        let kind = m.kind();
        if kind == MoveKind::Pass {
            // Nothing moves.
        } else if kind == MoveKind::Drop {
            self.make_drop(game, m, &u, &mut key);
        } else if kind == MoveKind::Castle {
            let rook_sq = m.aux();
            let rook = self.remove(rook_sq);
            self.remove(from);
            let rook_to = Self::castle_rook_target(from, to);
            self.put(to, moved);
            self.put(rook_to, rook);
            key ^= z.piece(moved, from) ^ z.piece(moved, to);
            key ^= z.piece(rook, rook_sq) ^ z.piece(rook, rook_to);
        } else if kind == MoveKind::Rule {
            game.make_rule_move(self, m, &mut u, &mut key);
        } else {
            match kind {
                MoveKind::EnPassant => {
                    let v = m.aux();
                    u.captured = self.remove(v);
                    u.captured_sq = v as u16;
                    key ^= z.piece(u.captured, v);
                }
                MoveKind::TwoLeg => {
                    let via = m.aux();
                    if via != from && self.board[via] != 0 {
                        u.via_captured = self.remove(via);
                        u.via_sq = via as u16;
                        key ^= z.piece(u.via_captured, via);
                        if game.stacks.exist {
                            u.passengers[1] = self.unboard_passenger(game, via, &mut key);
                        }
                    }
                }
                MoveKind::MultiLeg => {
                    let list = &game.route_captures[from][m.aux()];
                    for (i, &sq) in list.squares.iter().enumerate() {
                        u.route_captured[i] = self.remove(sq as usize);
                        key ^= z.piece(u.route_captured[i], sq as usize);
                    }
                }
                _ => {}
            }
            self.displace(game, m, &mut u, &mut key);
            if kind == MoveKind::DoubleStep {
                self.set_en_passant(game, m, &mut key);
            }
        }
        if game.reserves.exist() && kind != MoveKind::Drop {
            self.stash_captures(game, m, &mut u, &mut key);
        }
        if self.castling != 0 && kind != MoveKind::Drop {
            let mut rights = self.castling;
            for (i, &r) in self.castle_rooks.iter().enumerate() {
                if r as usize == from || r as usize == to {
                    rights &= !(1 << i);
                }
            }
            if game.is_royal[moved as usize - 1] {
                rights &= !(3 << (2 * self.side.index()));
            }
            key ^= z.castling[self.castling as usize] ^ z.castling[rights as usize];
            self.castling = rights;
        }
        if game.rules.after_make {
            game.rules_after_make(self, m, &u, &mut key);
        }
        // A rule's choice in a turn (a ransom, the end of the turn) may move nothing.
        let pawn = moved != 0 && game.is_pawn[moved as usize - 1];
        let captured = u.captured != 0 || u.via_captured != 0 || u.route_captured[0] != 0;
        // Counters saturate: a FEN may start them anywhere.
        self.halfmove = if !game.moves_a_piece(m) {
            self.halfmove
        } else if pawn || captured {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if game.multi_action && !game.turn_ends(self, m) {
            // The same side makes the next action of its turn.
            key ^= z.side ^ game.turn_key(self.actions) ^ game.turn_key(self.actions + 1);
            self.actions += 1;
            self.key = key;
            return u;
        }
        key ^= game.turn_key(self.actions);
        self.actions = 0;
        if self.side == BLACK {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.opposite();
        self.key = key;
        u
    }

    /// The move `m` of the piece `u.moved` from its square to `to`, capturing what stands
    /// there (of either colour) and becoming the piece type `m` promotes to, if any.
    #[inline(always)]
    pub(crate) fn displace(&mut self, game: &Game<W>, m: Move, u: &mut Undo, key: &mut u64) {
        let z = &game.zobrist;
        let (from, to, moved) = (m.from(), m.to(), u.moved);
        if to != from && self.board[to] != 0 {
            u.captured = self.remove(to);
            u.captured_sq = to as u16;
            *key ^= z.piece(u.captured, to);
        }
        self.remove(from);
        let placed = m.promotes_to().map_or(moved, |p| p as u8 + 1);
        self.put(to, placed);
        *key ^= z.piece(moved, from) ^ z.piece(placed, to);
        if game.stacks.exist {
            self.carry(game, from, to, u, key);
        }
    }

    /// Drops a piece from a reserve onto the empty `m.to()` (`u.moved`: the piece).
    fn make_drop(&mut self, game: &Game<W>, m: Move, u: &Undo, key: &mut u64) {
        self.take_from_reserve(game, m.from(), m.aux(), key);
        self.put(m.to(), u.moved);
        *key ^= game.zobrist.piece(u.moved, m.to());
    }

    /// Sends what `make` captured to the reserves the game sends captures to. A rule's
    /// move may do it early (a piece it takes may go on within the move); what is already
    /// stashed stays where it went.
    pub(crate) fn stash_captures(&mut self, game: &Game<W>, m: Move, u: &mut Undo, key: &mut u64) {
        let captor = self.side;
        let route = |i: usize| game.route_captures[m.from()][m.aux()].squares[i] as usize;
        for (i, code) in u.taken().into_iter().enumerate() {
            if code != 0 && u.stashed[i] == u8::MAX {
                let sq = match i {
                    0 | 2 => u.captured_sq as usize,
                    1 | 3 => u.via_sq as usize,
                    _ => route(i - 4),
                };
                u.stashed[i] = self.stash(game, captor, code, sq, key);
            }
        }
    }

    /// Takes back `displace` (and en-passant and two-leg captures recorded in `u`).
    #[inline(always)]
    pub(crate) fn undisplace(&mut self, m: Move, u: &Undo) {
        if !self.carried.is_empty() {
            self.uncarry(m.from(), m.to(), u);
            if u.via_captured != 0 {
                self.carried[m.aux()] = u.passengers[1];
            }
        }
        self.remove(m.to());
        self.put(m.from(), u.moved);
        if u.captured != 0 {
            self.put(u.captured_sq as usize, u.captured);
        }
        if u.via_captured != 0 {
            self.put(m.aux(), u.via_captured);
        }
    }

    /// Two friendly pieces change places: the mover (`u.moved`) goes to `m.to()`, the
    /// piece there to `dest`.
    pub(crate) fn exchange(
        &mut self,
        game: &Game<W>,
        m: Move,
        dest: usize,
        u: &Undo,
        key: &mut u64,
    ) {
        let z = &game.zobrist;
        let (from, to, moved) = (m.from(), m.to(), u.moved);
        let partner = self.remove(to);
        self.remove(from);
        self.put(to, moved);
        self.put(dest, partner);
        *key ^= z.piece(moved, from) ^ z.piece(moved, to);
        *key ^= z.piece(partner, to) ^ z.piece(partner, dest);
    }

    /// Takes back `exchange`.
    pub(crate) fn unexchange(&mut self, m: Move, dest: usize, u: &Undo) {
        self.remove(m.to());
        let partner = self.remove(dest);
        self.put(m.from(), u.moved);
        self.put(m.to(), partner);
    }

    /// Takes back `m`, made with `make` that returned `u`.
    pub fn unmake(&mut self, game: &Game<W>, m: Move, u: Undo) {
        // A move that ended its turn left the next turn at its first action.
        if self.actions == 0 {
            self.side = self.side.opposite();
        }
        self.fullmove = u.fullmove;
        self.actions = u.actions;
        let (from, to) = (m.from(), m.to());
        if m.kind() == MoveKind::Pass {
            // Nothing moved.
        } else if m.kind() == MoveKind::Drop {
            self.remove(to);
            self.hands[game.reserves.slot(from, m.aux())] += 1;
        } else if m.kind() == MoveKind::Castle {
            let rook_to = Self::castle_rook_target(from, to);
            let rook = self.remove(rook_to);
            self.remove(to);
            self.put(from, u.moved);
            self.put(m.aux(), rook);
        } else if m.kind() == MoveKind::Rule {
            game.unmake_rule_move(self, m, &u);
        } else {
            self.undisplace(m, &u);
            if m.kind() == MoveKind::MultiLeg {
                let list = &game.route_captures[from][m.aux()];
                for (&sq, &code) in list.squares.iter().zip(&u.route_captured) {
                    self.put(sq as usize, code);
                }
            }
        }
        // After the rule's own undo: a rule's move may have passed a piece it took on
        // from the reserve (a swap), which its undo returns first.
        if game.reserves.exist() {
            for (code, reserve) in u.taken().into_iter().zip(u.stashed) {
                self.unstash(game, reserve, code);
            }
        }
        self.castling = u.castling;
        self.restore_ep(&u.ep);
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.rule_state = u.rule_state;
        self.key = u.key;
        self.history.pop();
    }

    /// Passes the turn (a null move, for the search); returns the undo record.
    pub fn make_null(&mut self, game: &Game<W>) -> Undo {
        let mut u = self.undo_record(0);
        self.history.push(self.key);
        self.key ^= game.zobrist.side;
        let cleared = self.rule_state & game.rules.transient;
        if cleared != 0 {
            self.key ^= game.zobrist.rule_state(cleared);
            self.rule_state ^= cleared;
        }
        if self.ep.any() {
            self.key ^= Self::ep_key(game, self.ep);
            u.ep = self.take_ep();
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = self.side.opposite();
        u
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self, u: Undo) {
        self.side = self.side.opposite();
        self.rule_state = u.rule_state;
        self.restore_ep(&u.ep);
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.key = u.key;
        self.history.pop();
    }

    /// Clears the en-passant squares and returns them for the undo record.
    #[inline(always)]
    fn take_ep(&mut self) -> [u16; MAX_EP_SQUARES] {
        let mut saved = [NO_SQ; MAX_EP_SQUARES];
        for (slot, sq) in saved.iter_mut().zip(self.ep) {
            *slot = sq as u16;
        }
        self.ep = Bitboard::EMPTY;
        self.ep_victim = NO_SQ;
        saved
    }

    /// Sets the en-passant squares saved by `take_ep`.
    #[inline(always)]
    fn restore_ep(&mut self, saved: &[u16; MAX_EP_SQUARES]) {
        self.ep = Bitboard::EMPTY;
        for &sq in saved.iter().take_while(|&&sq| sq != NO_SQ) {
            self.ep.set(sq as usize);
        }
    }

    /// After the pawn's step `m` (a `DoubleStep`, aux the first square it skipped): the
    /// squares it skipped on which an enemy pawn could take it become the en-passant
    /// squares. The step is straight along a file, so the skipped squares lie at equal
    /// index distances from `from` up to `to`.
    fn set_en_passant(&mut self, game: &Game<W>, m: Move, key: &mut u64) {
        let (from, to, first) = (m.from(), m.to(), m.aux());
        let stride = first as isize - from as isize;
        let mut sq = first;
        while sq != to {
            debug_assert!(self.ep.count() < MAX_EP_SQUARES as u32);
            if self.pawn_can_take_on(game, self.side.opposite(), sq) {
                self.ep.set(sq);
                *key ^= game.zobrist.ep[sq];
                self.ep_victim = to as u16;
            }
            sq = (sq as isize + stride) as usize;
        }
    }

    /// True when a pawn of `color` could capture on the en-passant square `ep` (only then
    /// does the square enter the position and its key).
    pub(crate) fn pawn_can_take_on(&self, game: &Game<W>, color: Color, ep: usize) -> bool {
        (0..game.types).any(|t| {
            let pc = piece_index(t, color);
            game.is_pawn[pc]
                && game.reverse_leaps[pc * game.squares + ep].intersects(&self.by_piece[pc])
        })
    }
}
