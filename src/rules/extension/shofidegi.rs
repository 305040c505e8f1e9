//! ShoFIDEgi's rules beyond its pieces' moves (docs/rules/shofidegi.md), switched on by
//! `hooks = ["shofidegi"]`. The definition gives the board, the pieces, the Shogi-style
//! promotions, the King's castling with a Chatelaine, the Vanguard's four-step with en
//! passant, drops onto the odd-odd points (`hand_squares`) and the neutral reserve; this
//! module adds what no definition can say:
//!
//! - **Bindings.** A piece whose moves keep it on one class of points (odd-odd, even-even,
//!   or a mixed class) is bound; which pieces are follows from their moves. While a side
//!   has no Alibaba on an odd-odd point its oddbound pieces are frozen (no move, no drop
//!   of a bound piece), and the same for even-even; Tusks are never frozen. A frozen piece
//!   attacks nothing, so it gives no check (a restraint, `rules::restraint`).
//! - **Restoration.** While a binding is frozen, a move of an unbound piece other than the
//!   King onto an even-file square of its 16th rank (or an odd-file square of its 17th)
//!   may put a new Alibaba of that binding there instead; the piece goes to the
//!   opponent's reserve (`c15c17=A`).
//! - **The Tusk swap.** A Tusk's move onto its 16th rank exchanges it for a symmetric
//!   piece from any of the three reserves, into which the Tusk goes (`a14c16=Qn`, the
//!   reserve `w`, `b` or `n`); with none, it may not go there, and attacks nothing there.
//! - **The Alibaba's castling** with a Dabbarider (rights `Y`/`Z`), after which, on the
//!   opponent's next move only, an evenbound piece that takes the Dabbarider or makes a
//!   capturing move onto the Alibaba's start square takes the Alibaba too (FEN `b:n2`).
//! - **Promotions the points decide:** a promotion off the odd-odd points is only the
//!   compulsory one (the Vanguard's on its 16th rank); evenbound Dabbariders and
//!   Elephriders never promote.

use crate::core::{Bitboard, Color, Move, MoveKind, WHITE, piece_index, type_of_piece};
use crate::rules::extension::{Right, RuleExtension, Slot};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, RuleState, Undo, board_code};
use crate::rules::reserves::{NEUTRAL, points};
use crate::rules::spec::Hook;

/// The letters of the pieces the rules name: the Alibaba, whose absence freezes its
/// binding, and the Tusk, which swaps on its 16th rank.
const ALIBABA: &str = "a";
const TUSK: &str = "t";
/// The Alibaba castles with it.
const DABBARIDER: &str = "d";
/// The pieces a Tusk may be swapped for: every symmetric piece but the King.
const SWAP_PARTNERS: [&str; 13] = [
    "a", "d", "e", "u", "n", "q", "m", "h", "c", "w", "x", "r", "j",
];

/// What one of the rule's moves is, in the top bits of its `aux`.
const TAG_SHIFT: usize = 7;
const EN_PASSANT: usize = 0;
const SWAP: usize = 1;
const CASTLE: usize = 2;
const RESTORE: usize = 3;
const LOW: usize = (1 << TAG_SHIFT) - 1;
/// A swap's `aux`: the reserve times this plus the partner's type.
const RESERVE_STRIDE: usize = 32;

/// The state bits: the rights `Y` (bits 0 White, 1 Black) and `Z` (2, 3), then which
/// Alibaba castling the last move was (4: toward the q-file, 5: toward the a-file).
const CASTLED_BITS: u32 = 4;

/// One Alibaba castling of one side.
#[derive(Clone, Debug)]
struct AlibabaCastling<const W: usize> {
    alibaba_from: usize,
    alibaba_to: usize,
    rider_from: usize,
    rider_to: usize,
    /// The even-even squares between the Alibaba and the Dabbarider (all empty).
    between: Bitboard<W>,
}

#[derive(Clone, Debug)]
pub struct Shofidegi<const W: usize> {
    slot: Slot,
    alibaba: usize,
    tusk: usize,
    dabbarider: usize,
    /// Per piece type: its moves keep it on one class of points.
    bound: Vec<bool>,
    /// Per piece type: a Tusk may be swapped for it.
    partner: Vec<bool>,
    /// The partner type with the most moves (for the capacity bound).
    widest: usize,
    /// Per piece type: an unbound piece other than a royal (it may restore an Alibaba).
    restorer: Vec<bool>,
    odd_odd: Bitboard<W>,
    even_even: Bitboard<W>,
    /// Per colour: its 14th and 16th ranks.
    rank14: [Bitboard<W>; 2],
    rank16: [Bitboard<W>; 2],
    /// Per colour: where a restoration puts an evenbound Alibaba (even files of its 16th
    /// rank) and an oddbound one (odd files of its 17th).
    restore_even: [Bitboard<W>; 2],
    restore_odd: [Bitboard<W>; 2],
    /// Per colour: the castling toward the q-file (`Y`) and toward the a-file (`Z`).
    castlings: [[AlibabaCastling<W>; 2]; 2],
    /// Per piece index: a promoted (`+`) piece, the result of a Shogi-style promotion.
    shogi_style: Vec<bool>,
}

impl<const W: usize> Shofidegi<W> {
    pub fn new(game: &Game<W>, slot: Slot) -> Option<Self> {
        if !game.spec.hooks.contains(&Hook::Shofidegi) {
            return None;
        }
        let letter = |l: &str| game.spec.pieces.iter().position(|p| p.letter == l);
        let (alibaba, tusk, dabbarider) = (letter(ALIBABA)?, letter(TUSK)?, letter(DABBARIDER)?);
        let g = &game.geo;
        let (odd_odd, even_even) = (points(game, (true, true)), points(game, (false, false)));
        let own_rank = |color: Color, r: usize| {
            let rank = if color == WHITE { r - 1 } else { g.height - r };
            let mut b = Bitboard::EMPTY;
            (0..g.width).for_each(|f| b.set(rank * g.width + f));
            b
        };
        let ranks = |r: usize| [own_rank(Color::ALL[0], r), own_rank(Color::ALL[1], r)];
        let bound: Vec<bool> = (0..game.types).map(|t| keeps_its_points(game, t)).collect();
        let restorer = (0..game.types)
            .map(|t| !bound[t] && !game.is_royal[piece_index(t, WHITE)])
            .collect();
        let partner: Vec<bool> = (0..game.types)
            .map(|t| SWAP_PARTNERS.contains(&game.spec.pieces[t].letter.as_str()))
            .collect();
        let widest = (0..game.types)
            .filter(|&t| partner[t])
            .max_by_key(|&t| game.own_move_bound(piece_index(t, WHITE)))?;
        let castlings = Color::ALL.map(|c| Self::castlings_of(game, c));
        let shogi_style = (0..2 * game.types)
            .map(|pc| game.spec.pieces[type_of_piece(pc)].letter.starts_with('+'))
            .collect();
        Some(Shofidegi {
            slot,
            alibaba,
            tusk,
            dabbarider,
            bound,
            partner,
            widest,
            restorer,
            odd_odd,
            even_even,
            rank14: ranks(14),
            rank16: ranks(16),
            restore_even: ranks(16).map(|r| r & even_even),
            restore_odd: ranks(17).map(|r| r & odd_odd),
            castlings,
            shogi_style,
        })
    }

    /// The two Alibaba castlings of `color`: the Alibaba on the j-file of its second
    /// rank, the Dabbariders on the b- and p-files; the Alibaba moves four files toward
    /// one, which lands on the Alibaba's halfway square.
    fn castlings_of(game: &Game<W>, color: Color) -> [AlibabaCastling<W>; 2] {
        let g = &game.geo;
        let rank = if color == WHITE {
            1
        } else {
            g.height as i32 - 2
        };
        let at = |file: i32| g.square(file, rank).expect("a 17x17 board");
        let one = |dir: i32, rider_file: i32| {
            let from = at(9);
            let mut between = Bitboard::EMPTY;
            let mut f = 9 + 2 * dir;
            while f != rider_file {
                between.set(at(f));
                f += 2 * dir;
            }
            AlibabaCastling {
                alibaba_from: from,
                alibaba_to: at(9 + 4 * dir),
                rider_from: at(rider_file),
                rider_to: at(9 + 2 * dir),
                between,
            }
        };
        [one(1, 15), one(-1, 1)]
    }

    /// The rights `Y` and `Z` (`index` 0 and 1) of each side.
    fn right(&self, index: u32) -> Right {
        let (letter, name) = if index == 0 {
            ('Y', "Alibaba castling toward the q-file")
        } else {
            ('Z', "Alibaba castling toward the a-file")
        };
        Right {
            letter,
            name,
            bits: [self.slot.bit(2 * index), self.slot.bit(2 * index + 1)],
        }
    }

    /// The castled-Alibaba bit of castling `index`.
    fn castled_bit(&self, index: usize) -> RuleState {
        self.slot.bit(CASTLED_BITS + index as u32)
    }

    /// Which Alibaba castling the last move was, if it was one.
    fn castled(&self, pos: &Position<W>) -> Option<usize> {
        (0..2).find(|&i| pos.rule_state & self.castled_bit(i) != 0)
    }

    /// Whether `color`'s (odd, even) bindings are frozen: it has no Alibaba on them.
    #[inline]
    fn frozen(&self, pos: &Position<W>, color: Color) -> (bool, bool) {
        let alibabas = pos.by_piece[piece_index(self.alibaba, color)];
        (
            !alibabas.intersects(&self.odd_odd),
            !alibabas.intersects(&self.even_even),
        )
    }

    /// Whether a piece of type `t` on `sq` of a side with the frozen bindings `frozen`
    /// may not move.
    #[inline]
    fn is_frozen(&self, t: usize, sq: usize, frozen: (bool, bool)) -> bool {
        self.bound[t]
            && t != self.tusk
            && ((frozen.0 && self.odd_odd.has(sq)) || (frozen.1 && self.even_even.has(sq)))
    }

    /// Whether some reserve holds a piece a Tusk may be swapped for.
    fn partner_held(&self, game: &Game<W>, pos: &Position<W>) -> bool {
        (0..game.reserves.count)
            .any(|r| (0..game.types).any(|t| self.partner[t] && pos.in_reserve(game, r, t) > 0))
    }

    /// Whether a Tusk of `color` stands where its moves reach its 16th rank.
    #[inline]
    fn tusk_at_the_gate(&self, pos: &Position<W>, color: Color) -> bool {
        pos.by_piece[piece_index(self.tusk, color)].intersects(&self.rank14[color])
    }

    /// Whether the piece on `from` (of the side to move) is evenbound.
    fn evenbound(&self, pos: &Position<W>, from: usize) -> bool {
        let code = pos.board[from];
        code != 0 && {
            let t = type_of_piece(code as usize - 1);
            self.bound[t] && t != self.tusk && self.even_even.has(from)
        }
    }

    /// Whether the plain move `m` is no promotion or one the points allow: a Shogi-style
    /// promotion (to a `+` piece) on the odd-odd points, any other only where it is
    /// compulsory (the Vanguard's, where it can go no further).
    #[inline]
    fn promotion_allowed(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> bool {
        let Some(p) = m.promotes_to() else {
            return true;
        };
        (self.shogi_style[p] && self.odd_odd.has(m.to()))
            || game.promotions[pos.board[m.from()] as usize - 1]
                .as_ref()
                .is_some_and(|promotion| promotion.forced.has(m.to()))
    }

    /// The reserve letter of a swap's text.
    fn reserve_letter(reserve: usize) -> char {
        ['w', 'b', 'n'][reserve]
    }

    /// The Alibaba castlings the side to move may make.
    fn castling_moves(&self, pos: &Position<W>, list: &mut MoveList) {
        let us = pos.side;
        let alibaba = board_code(self.alibaba, us);
        let rider = board_code(self.dabbarider, us);
        for (i, c) in self.castlings[us].iter().enumerate() {
            let right = self.right(i as u32).bits[us];
            if pos.rule_state & right != 0
                && pos.board[c.alibaba_from] == alibaba
                && pos.board[c.rider_from] == rider
                && !c.between.intersects(&pos.occupied())
            {
                let aux = CASTLE << TAG_SHIFT | i;
                list.push(Move::rule(
                    c.alibaba_from,
                    c.alibaba_to,
                    aux,
                    self.slot.index,
                    false,
                ));
            }
        }
    }

    /// The Tusk swaps of the side to move: each Tusk move onto its 16th rank, with each
    /// partner type held in each reserve (the piece the move takes among them).
    fn swap_moves(&self, game: &Game<W>, pos: &Position<W>, list: &mut MoveList) {
        let us = pos.side;
        let pc = piece_index(self.tusk, us);
        let tab = &game.tables[pc];
        let empty = game.valid.andnot(pos.occupied());
        let enemy = pos.by_color[us.opposite()];
        for from in pos.by_piece[pc] & self.rank14[us] {
            let targets = ((tab.leap_move[from] & empty) | (tab.leap_capture[from] & enemy))
                & self.rank16[us];
            for to in targets {
                let taken = pos.board[to];
                for r in 0..game.reserves.count {
                    for t in (0..game.types).filter(|&t| self.partner[t]) {
                        let held = pos.in_reserve(game, r, t) > 0
                            || (r == NEUTRAL
                                && taken != 0
                                && type_of_piece(taken as usize - 1) == t);
                        if held {
                            let aux = SWAP << TAG_SHIFT | (r * RESERVE_STRIDE + t);
                            list.push(Move::rule(from, to, aux, self.slot.index, false));
                        }
                    }
                }
            }
        }
    }

    /// The restorations of the side to move: for every plain move of an unbound piece
    /// onto a square where it may restore a frozen binding's Alibaba, the move that does.
    fn restoration_moves(&self, pos: &Position<W>, list: &mut MoveList) {
        let us = pos.side;
        let (odd, even) = self.frozen(pos, us);
        let mut squares = Bitboard::EMPTY;
        if odd {
            squares |= self.restore_odd[us];
        }
        if even {
            squares |= self.restore_even[us];
        }
        let n = list.len();
        for i in 0..n {
            let m = list[i];
            if m.kind() == MoveKind::Normal
                && m.promotes_to().is_none()
                && squares.has(m.to())
                && self.restorer[type_of_piece(pos.board[m.from()] as usize - 1)]
            {
                let aux = RESTORE << TAG_SHIFT;
                list.push(Move::rule(m.from(), m.to(), aux, self.slot.index, false));
            }
        }
    }

    /// After an Alibaba castling of the other side (`index`): the moves of evenbound
    /// pieces that take the castled Dabbarider, or make a capturing move onto the empty
    /// square the Alibaba left, become the rule's moves that take the Alibaba too.
    fn en_passant_moves(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        list: &mut MoveList,
        index: usize,
    ) {
        let c = &self.castlings[pos.side.opposite()][index];
        let (rider_sq, start) = (c.rider_to, c.alibaba_from);
        let as_rule = |m: Move| {
            let promo = m.promotes_to();
            let aux = promo.unwrap_or(0) | EN_PASSANT << TAG_SHIFT;
            Move::rule(m.from(), m.to(), aux, self.slot.index, promo.is_some())
        };
        // The captures of the Dabbarider by evenbound pieces.
        for m in list.iter_mut() {
            if m.kind() == MoveKind::Normal && m.to() == rider_sq && self.evenbound(pos, m.from()) {
                *m = as_rule(*m);
            }
        }
        if pos.board[start] != 0 {
            return;
        }
        // The capturing moves onto the empty start square: those the pieces would make
        // if an enemy stood there (the castled Alibaba, put there for the question).
        let stand_in = pos.board[c.alibaba_to];
        pos.put(start, stand_in);
        let mut captures = MoveList::new();
        game.pseudo_moves(pos, &mut captures);
        pos.remove(start);
        list.retain(|m| {
            !(m.kind() == MoveKind::Normal
                && m.to() == start
                && self.evenbound(pos, m.from())
                && captures
                    .iter()
                    .any(|x| x.from() == m.from() && x.to() == start))
        });
        for m in captures.iter().copied() {
            if m.kind() == MoveKind::Normal
                && m.to() == start
                && self.evenbound(pos, m.from())
                && self.promotion_allowed(game, pos, m)
            {
                list.push(as_rule(m));
            }
        }
    }

    /// The reserve and the piece type of a swap.
    fn swapped(m: Move) -> (usize, usize) {
        let low = m.aux() & LOW;
        (low / RESERVE_STRIDE, low % RESERVE_STRIDE)
    }

    /// Replaces the piece `u.moved` that has just arrived on `to` by `code`.
    fn replace_on(game: &Game<W>, pos: &mut Position<W>, to: usize, code: u8, key: &mut u64) {
        let old = pos.remove(to);
        pos.put(to, code);
        *key ^= game.zobrist.piece(old, to) ^ game.zobrist.piece(code, to);
    }
}

/// Whether every move of a piece of type `t` keeps it on its class of points (odd or
/// even file, odd or even rank): judged from its moves on an empty board.
fn keeps_its_points<const W: usize>(game: &Game<W>, t: usize) -> bool {
    let pc = piece_index(t, WHITE);
    let tab = &game.tables[pc];
    let g = &game.geo;
    let class = |sq: usize| (g.file(sq) % 2, g.rank(sq) % 2);
    game.valid.iter().all(|sq| {
        let (moves, captures) = game.one_leg_reach(pc, sq, Bitboard::EMPTY);
        tab.two_legs[sq].is_empty()
            && tab.routes[sq].is_empty()
            && (moves | captures).iter().all(|to| class(to) == class(sq))
    })
}

impl<const W: usize> RuleExtension<W> for Shofidegi<W> {
    fn state_bits(&self) -> u32 {
        CASTLED_BITS + 2
    }

    fn transient_state(&self) -> RuleState {
        self.castled_bit(0) | self.castled_bit(1)
    }

    fn rights(&self) -> Vec<Right> {
        vec![self.right(0), self.right(1)]
    }

    fn has_restraint(&self) -> bool {
        true
    }

    fn has_after_make(&self) -> bool {
        true
    }

    #[inline]
    fn restrains(&self, game: &Game<W>, pos: &Position<W>) -> bool {
        Color::ALL.into_iter().any(|c| {
            let (odd, even) = self.frozen(pos, c);
            odd || even
        }) || ((self.tusk_at_the_gate(pos, Color::ALL[0])
            || self.tusk_at_the_gate(pos, Color::ALL[1]))
            && !self.partner_held(game, pos))
    }

    fn restraint(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        pc: usize,
        from: usize,
    ) -> (Bitboard<W>, Option<Bitboard<W>>) {
        let (t, color) = (type_of_piece(pc), crate::core::color_of_piece(pc));
        if self.is_frozen(t, from, self.frozen(pos, color)) {
            return (Bitboard::EMPTY, Some(Bitboard::EMPTY));
        }
        if t == self.tusk && self.rank14[color].has(from) && !self.partner_held(game, pos) {
            return (Bitboard::EMPTY, Some(game.valid.andnot(self.rank16[color])));
        }
        (Bitboard::EMPTY, None)
    }

    fn filter_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        let us = pos.side;
        let frozen = self.frozen(pos, us);
        let tusk = board_code(self.tusk, us);
        let gate = self.tusk_at_the_gate(pos, us);
        list.retain(|m| match m.kind() {
            // Drops land on odd-odd points: no bound piece while those are frozen.
            MoveKind::Drop => !(frozen.0 && self.bound[m.aux()] && m.aux() != self.tusk),
            MoveKind::Normal => {
                if gate && pos.board[m.from()] == tusk && self.rank16[us].has(m.to()) {
                    return false; // A swap, added as the rule's move.
                }
                self.promotion_allowed(game, pos, *m)
            }
            _ => true,
        });
        if let Some(index) = self.castled(pos) {
            self.en_passant_moves(game, pos, list, index);
        }
    }

    fn add_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        let us = pos.side;
        if pos.rule_state & (self.right(0).bits[us] | self.right(1).bits[us]) != 0 {
            self.castling_moves(pos, list);
        }
        if self.tusk_at_the_gate(pos, us) {
            self.swap_moves(game, pos, list);
        }
        let (odd, even) = self.frozen(pos, us);
        if odd || even {
            self.restoration_moves(pos, list);
        }
    }

    fn after_make(&self, game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo, key: &mut u64) {
        let mut state = pos.rule_state & !RuleExtension::<W>::transient_state(self);
        // The rights' bits come first, `CASTLED_BITS` of them: once spent, nothing to do.
        let rights = (0..CASTLED_BITS).fold(0, |b, i| b | self.slot.bit(i));
        if m.kind() != MoveKind::Drop && state & rights != 0 {
            let touched = |sq: usize| {
                m.from() == sq
                    || m.to() == sq
                    || u.captured_sq as usize == sq
                    || u.via_sq as usize == sq
            };
            for color in Color::ALL {
                for (i, c) in self.castlings[color].iter().enumerate() {
                    if touched(c.alibaba_from) || touched(c.rider_from) {
                        state &= !self.right(i as u32).bits[color];
                    }
                }
            }
        }
        if m.kind() == MoveKind::Rule
            && m.rule_slot() == self.slot.index
            && m.aux() >> TAG_SHIFT == CASTLE
        {
            state |= self.castled_bit(m.aux() & LOW);
        }
        pos.set_rule_state(game, state, key);
    }

    fn turn_state_text(&self, game: &Game<W>, pos: &Position<W>) -> String {
        match self.castled(pos) {
            Some(i) => game
                .geo
                .name(self.castlings[pos.side.opposite()][i].alibaba_to),
            None => String::new(),
        }
    }

    fn read_turn_state(&self, game: &Game<W>, pos: &mut Position<W>, text: &str) -> bool {
        if text.is_empty() {
            return true;
        }
        let them = pos.side.opposite();
        let Ok(sq) = game.geo.parse_square(text) else {
            return false;
        };
        let Some(i) = self.castlings[them].iter().position(|c| {
            c.alibaba_to == sq
                && pos.board[c.alibaba_to] == board_code(self.alibaba, them)
                && pos.board[c.rider_to] == board_code(self.dabbarider, them)
                && pos.board[c.alibaba_from] == 0
        }) else {
            return false;
        };
        pos.rule_state |= self.castled_bit(i);
        true
    }

    fn make_move(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        m: Move,
        u: &mut Undo,
        key: &mut u64,
    ) {
        let (from, to, us) = (m.from(), m.to(), pos.side);
        match m.aux() >> TAG_SHIFT {
            EN_PASSANT => {
                pos.displace(game, m, u, key);
                let index = self
                    .castled(pos)
                    .expect("an en-passant move after a castling");
                let sq = self.castlings[us.opposite()][index].alibaba_to;
                u.via_captured = pos.remove(sq);
                u.via_sq = sq as u16;
                *key ^= game.zobrist.piece(u.via_captured, sq);
            }
            SWAP => {
                pos.displace(game, m, u, key);
                // What the Tusk took is in the neutral reserve before the swap.
                pos.stash_captures(game, m, u, key);
                let (r, t) = Self::swapped(m);
                pos.take_from_reserve(game, r, t, key);
                Self::replace_on(game, pos, to, board_code(t, us), key);
                pos.add_to_reserve(game, r, self.tusk, key);
            }
            CASTLE => {
                let c = &self.castlings[us][m.aux() & LOW];
                let z = &game.zobrist;
                let rider = pos.remove(c.rider_from);
                pos.remove(from);
                pos.put(to, u.moved);
                pos.put(c.rider_to, rider);
                *key ^= z.piece(u.moved, from) ^ z.piece(u.moved, to);
                *key ^= z.piece(rider, c.rider_from) ^ z.piece(rider, c.rider_to);
            }
            _ => {
                let alibaba = piece_index(self.alibaba, us);
                pos.displace(game, Move::promotion(from, to, alibaba), u, key);
                let t = type_of_piece(u.moved as usize - 1);
                pos.add_to_reserve(game, us.opposite().index(), t, key);
            }
        }
    }

    fn unmake_move(&self, game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo) {
        let (from, to, us) = (m.from(), m.to(), pos.side);
        let hands = |r: usize, t: usize| game.reserves.slot(r, t);
        match m.aux() >> TAG_SHIFT {
            EN_PASSANT => {
                pos.remove(to);
                pos.put(from, u.moved);
                if u.captured != 0 {
                    pos.put(u.captured_sq as usize, u.captured);
                }
                pos.put(u.via_sq as usize, u.via_captured);
            }
            SWAP => {
                let (r, t) = Self::swapped(m);
                pos.remove(to);
                pos.put(to, u.moved);
                pos.hands[hands(r, self.tusk)] -= 1;
                pos.hands[hands(r, t)] += 1;
                pos.undisplace(m, u);
            }
            CASTLE => {
                let c = &self.castlings[us][m.aux() & LOW];
                let rider = pos.remove(c.rider_to);
                pos.remove(to);
                pos.put(from, u.moved);
                pos.put(c.rider_from, rider);
            }
            _ => {
                let alibaba = piece_index(self.alibaba, us);
                pos.undisplace(Move::promotion(from, to, alibaba), u);
                let t = type_of_piece(u.moved as usize - 1);
                pos.hands[hands(us.opposite().index(), t)] -= 1;
            }
        }
    }

    fn move_text(&self, game: &Game<W>, m: Move) -> String {
        let g = &game.geo;
        let mut s = format!("{}{}", g.name(m.from()), g.name(m.to()));
        match m.aux() >> TAG_SHIFT {
            EN_PASSANT => {
                if let Some(p) = m.promotes_to() {
                    s += &game.spec.pieces[type_of_piece(p)].letter;
                }
            }
            SWAP => {
                let (r, t) = Self::swapped(m);
                let letter = game.spec.pieces[t].letter.to_ascii_uppercase();
                s += &format!("={letter}{}", Self::reserve_letter(r));
            }
            CASTLE => {}
            _ => s += &format!("={}", ALIBABA.to_ascii_uppercase()),
        }
        s
    }

    fn tactical(&self, _game: &Game<W>, _pos: &Position<W>, m: Move) -> bool {
        m.aux() >> TAG_SHIFT != CASTLE
    }

    fn removes(&self, _game: &Game<W>, pos: &Position<W>, m: Move) -> Option<usize> {
        match m.aux() >> TAG_SHIFT {
            EN_PASSANT => self
                .castled(pos)
                .map(|i| self.castlings[pos.side.opposite()][i].alibaba_to),
            SWAP | RESTORE if pos.board[m.to()] != 0 => Some(m.to()),
            _ => None,
        }
    }

    fn becomes(&self, pc: usize) -> Option<usize> {
        // A Tusk becomes a swap partner: for the capacity bound, the one with the most
        // moves. (A restoration makes an Alibaba, which has fewer moves than any piece
        // that restores it.)
        (type_of_piece(pc) == self.tusk)
            .then(|| piece_index(self.widest, crate::core::color_of_piece(pc)))
    }

    fn move_bound(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        _color: Color,
        _pieces: usize,
    ) -> usize {
        // Pieces of either colour, on the board or held, may one day be the side's.
        let count = |t: usize| {
            (pos.by_piece[piece_index(t, WHITE)] | pos.by_piece[piece_index(t, Color::ALL[1])])
                .count() as usize
                + (0..game.reserves.count)
                    .map(|r| pos.in_reserve(game, r, t) as usize)
                    .sum::<usize>()
        };
        let tusks = count(self.tusk);
        let restorers: usize = (0..game.types)
            .filter(|&t| self.restorer[t])
            .map(count)
            .sum();
        let evenbound: usize = (0..game.types).filter(|&t| self.bound[t]).map(count).sum();
        let partners = self.partner.iter().filter(|&&p| p).count();
        let restore_squares = (self.restore_even[WHITE] | self.restore_odd[WHITE]).count() as usize;
        // Swaps: each Tusk onto two squares with every partner from every reserve (a
        // swapped-in Tusk may itself restore nothing); restorations: one per plain move
        // of a restorer (or a Tusk become one) onto a restoring square; en passant: the
        // capturing moves onto one square, with four promotions; castlings: two.
        tusks * 2 * partners * game.reserves.count
            + (restorers + tusks) * restore_squares
            + evenbound * 4
            + 2
    }
}
