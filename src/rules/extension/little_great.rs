//! Little Great Chess's turn after its action (docs/rules/littlegreat.md): the honour
//! promotion the acting piece earned, the field promotion owed after an ascension, and
//! the ransom of prisoners, each a follow-up action of the same turn, in that order, and
//! the end of the turn; also the Cannon's move that leaves its passenger behind.
//!
//! The pieces' data drive it: a piece's `promotes_to` lists its promotion steps, `pawn`
//! marks the Spear, `common` the Spear, Guard and Cannon, `ransom_value` what a prisoner
//! is worth. Honour is earned by the piece that made the action (the piece now on its
//! destination) and only by its own deeds:
//! - a pawn: any capture, reaching the last rank by its own move, giving check;
//! - another common piece: capturing a piece that is not a pawn, giving check;
//! - a noble piece: capturing a noble piece (a carrier counts as its passenger too).
//!
//! Under `prisoner_exchange` a turn may open (after an ascension, before the action) with
//! an offer to exchange prisoners: the offering side asks back some of its pieces the
//! opponent holds and gives as many of the opponent's pieces it holds, of equal value and
//! worth at most `OFFER_LIMIT` on each side. The opponent must answer before anything
//! else: the offer ends the offering side's ply, the answer (accept or decline) is the
//! opponent's ply, and then the offering side plays the rest of its turn, without a
//! second offer. Pieces gained by an accepted offer may enter in that same turn.
//!
//! State (`Position::rule_state`, the rule's 30 bits): `SETTLE` the action has been made
//! and follow-ups may come; `FIELD` a field promotion is owed (set by an ascension);
//! `HONOUR` and a square: the piece there earned its honour; `EXCHANGED` the turn's offer
//! has been answered; `OFFER` and two sets of prisoners: an offer awaits the side to
//! move's answer. A turn continues after its action only while some follow-up other than
//! the end is possible, so a turn without choices is one action, as in any game. FEN
//! writes the state after the side (`w+1:s`, `b:&N/bb`).

use crate::core::{Color, Move, MoveKind, color_of_piece, piece_index, type_of_piece};
use crate::rules::extension::{Rule, RuleExtension, Slot};
use crate::rules::fen::piece_symbol;
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, RuleState, Undo, board_code};
use crate::rules::reserves::prisoners_of;

/// The rule's state bits (relative to its slot).
const SETTLE: u32 = 0;
const FIELD: u32 = 1;
const HONOUR: u32 = 2;
const SQUARE_SHIFT: u32 = 3;
const SQUARE_BITS: u32 = 9;
const EXCHANGED: u32 = 12;
const OFFER: u32 = 13;
/// Where the pending offer's two sets of prisoners lie (each a `Bundle`'s number).
const ASKED_SHIFT: u32 = 14;
const GIVEN_SHIFT: u32 = 22;
const BUNDLE_BITS: u32 = 8;
const STATE_BITS: u32 = 30;

/// `aux` of the end of the turn.
const END: usize = 511;
/// `aux` of a Cannon's move that leaves its passenger behind.
const LEAVE_BEHIND: usize = 510;
/// `aux` of the answers to an offer.
const ACCEPT: usize = 509;
const DECLINE: usize = 508;

/// The most an exchange offer may be worth on each side: it bounds the offers of one
/// position to 150 (two minor pieces' worth, or six Spears).
const OFFER_LIMIT: u32 = 6;
/// The most offers one position has (pinned by a test).
const MAX_OFFERS: usize = 150;

/// How many of each ransom type (in definition order) one demand may hold, plus one:
/// the radices of the mixed-radix numbers that write a set of prisoners into a move. With
/// at most eight of the first type and two of each other, the ransoms of one position
/// number at most 1212, which with the promotions and the end fits a move list.
const RADICES: [usize; 4] = [9, 3, 3, 3];

/// A set of prisoners: a count per ransom type.
type Bundle = [u8; 4];

/// How many numbers `encode` gives: a bundle fits `BUNDLE_BITS`.
const BUNDLE_NUMBERS: usize = RADICES[0] * RADICES[1] * RADICES[2] * RADICES[3];
const _: () = assert!(BUNDLE_NUMBERS <= 1 << BUNDLE_BITS);

/// What one of the rule's moves does, read from its `aux` (and promotion flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    /// The honour promotion to the type.
    Honour(usize),
    /// The field promotion of the piece on `from` to the type.
    Field(usize),
    /// A ransom: the number of the redeemed bundle.
    Ransom(usize),
    /// An exchange offer: the number of the bundle asked back.
    Offer(usize),
    Accept,
    Decline,
    LeaveBehind,
    End,
}

#[derive(Clone, Debug)]
pub struct LittleGreat {
    slot: Slot,
    /// Per piece type: the types it may be promoted to by one step.
    steps: Vec<Vec<usize>>,
    pawn: Vec<bool>,
    common: Vec<bool>,
    carrier: Vec<bool>,
    /// The types a ransom deals in and their values (at most four, definition order).
    ransom: Vec<(usize, u32)>,
    /// A pawn that reached its last rank by its own move must take its honour.
    forced_last_rank: bool,
    /// A turn may open with an exchange offer.
    exchange: bool,
}

impl LittleGreat {
    pub fn new<const W: usize>(game: &Game<W>, slot: Slot) -> Option<Self> {
        use crate::rules::spec::Hook;
        if !game.spec.hooks.contains(&Hook::LittleGreat) {
            return None;
        }
        let pieces = &game.spec.pieces;
        Some(LittleGreat {
            slot,
            steps: pieces.iter().map(|p| p.promotes_to.clone()).collect(),
            pawn: pieces.iter().map(|p| p.pawn).collect(),
            common: pieces.iter().map(|p| p.common).collect(),
            carrier: pieces.iter().map(|p| p.carrier).collect(),
            ransom: pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.ransom_value > 0)
                .map(|(t, p)| (t, p.ransom_value))
                .take(RADICES.len())
                .collect(),
            forced_last_rank: game.spec.last_rank_honour_forced,
            exchange: game.spec.prisoner_exchange,
        })
    }

    /// Whether a carrier stands on `sq` (a field promotion there is its passenger's).
    fn carries<const W: usize>(&self, pos: &Position<W>, sq: usize) -> bool {
        pos.board[sq] != 0 && self.carrier[type_of_piece(pos.board[sq] as usize - 1)]
    }

    fn bit(&self, i: u32) -> RuleState {
        self.slot.bit(i)
    }

    fn has(&self, pos_state: RuleState, i: u32) -> bool {
        pos_state & self.bit(i) != 0
    }

    /// All the rule's bits.
    fn mask(&self) -> RuleState {
        (((1u64 << STATE_BITS) - 1) << self.slot.shift) as RuleState
    }

    /// What the rule's move `m` does.
    fn choice(&self, m: Move) -> Choice {
        let aux = m.aux();
        let ransoms = self.steps.len();
        let offers = ransoms + BUNDLE_NUMBERS;
        match aux {
            END => Choice::End,
            LEAVE_BEHIND => Choice::LeaveBehind,
            ACCEPT => Choice::Accept,
            DECLINE => Choice::Decline,
            t if m.promotes_to().is_some() => Choice::Honour(t),
            t if t < ransoms => Choice::Field(t),
            r if r < offers => Choice::Ransom(r - ransoms),
            a => Choice::Offer(a - offers),
        }
    }

    /// The pending offer: (the bundle asked back, the bundle given).
    fn offer(&self, state: RuleState) -> (Bundle, Bundle) {
        let number =
            |shift: u32| ((state >> (self.slot.shift + shift)) & ((1 << BUNDLE_BITS) - 1)) as usize;
        (decode(number(ASKED_SHIFT)), decode(number(GIVEN_SHIFT)))
    }

    /// The state bits of an offer pending.
    fn offer_state(&self, asked: &Bundle, given: &Bundle) -> RuleState {
        let at = |shift: u32| self.slot.shift + shift;
        self.bit(OFFER)
            | ((encode(asked) as RuleState) << at(ASKED_SHIFT))
            | ((encode(given) as RuleState) << at(GIVEN_SHIFT))
    }

    fn honour_square(&self, state: RuleState) -> usize {
        ((state >> (self.slot.shift + SQUARE_SHIFT)) & ((1 << SQUARE_BITS) - 1)) as usize
    }

    fn with_square(&self, sq: usize) -> RuleState {
        ((sq as RuleState) << (self.slot.shift + SQUARE_SHIFT)) | self.bit(HONOUR)
    }

    fn rule_move(&self, from: usize, to: usize, aux: usize, promote: bool) -> Move {
        Move::rule(from, to, aux, self.slot.index, promote)
    }

    /// Whether the piece now on `to`, which made the action `m`, earned an honour.
    fn earned<const W: usize>(&self, game: &Game<W>, pos: &Position<W>, m: Move, u: &Undo) -> bool {
        let to = m.to();
        let code = pos.board[to];
        if code == 0 {
            return false;
        }
        let t = type_of_piece(code as usize - 1);
        if self.steps[t].is_empty() {
            return false;
        }
        let taken = [u.captured, u.passengers[0]];
        let takes = |noble_only: bool, not_pawn: bool| {
            taken.iter().any(|&c| {
                c != 0 && {
                    let ct = type_of_piece(c as usize - 1);
                    !((noble_only && self.common[ct]) || (not_pawn && self.pawn[ct]))
                }
            })
        };
        if !self.common[t] {
            return takes(true, false);
        }
        let own_step = m.kind() != MoveKind::Drop;
        if self.pawn[t] && (takes(false, false) || (own_step && game.last_rank[pos.side].has(to))) {
            return true;
        }
        if !self.pawn[t] && takes(false, true) {
            return true;
        }
        self.gives_check(game, pos, code, to)
    }

    /// Whether the piece `code` on `sq` attacks an enemy royal (or the carrier of one).
    fn gives_check<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        code: u8,
        sq: usize,
    ) -> bool {
        let (_, captures) = game.one_leg_reach(code as usize - 1, sq, pos.occupied());
        !(captures & pos.royals(game, pos.side.opposite())).is_empty()
    }

    /// The side to move's pieces that may take the field promotion: on the board or
    /// riding, with a promotion step, but not the piece that earned an honour.
    fn field_candidates<'a, const W: usize>(
        &'a self,
        pos: &'a Position<W>,
    ) -> impl Iterator<Item = (usize, u8)> + 'a {
        let barred = self
            .has(pos.rule_state, HONOUR)
            .then(|| self.honour_square(pos.rule_state));
        pos.board.iter().enumerate().filter_map(move |(sq, &code)| {
            let code = if self.carries(pos, sq) {
                pos.passenger(sq)
            } else {
                code
            };
            let eligible = code != 0
                && color_of_piece(code as usize - 1) == pos.side
                && barred != Some(sq)
                && !self.steps[type_of_piece(code as usize - 1)].is_empty();
            eligible.then_some((sq, code))
        })
    }

    /// The ransoms `side` may demand: each a set of its pieces the opponent holds and a
    /// minimal payment from the prisoners it holds, worth at least twice as much.
    fn ransoms<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        side: Color,
    ) -> Vec<(Bundle, Bundle)> {
        let (ours, theirs) = self.holdings(game, pos, side);
        let mut out = Vec::new();
        if !self.can_ransom(&ours, &theirs) {
            return out;
        }
        let budget = self.value(&theirs);
        let mut buf = [(0, [0; 4]); BUNDLE_NUMBERS];
        let payments = self.priced(&theirs, &mut buf);
        for redeemed in bundles(&ours) {
            let need = 2 * self.value(&redeemed);
            if need == 0 || budget < need {
                continue;
            }
            for &(v, paid) in payments {
                let minimal = self
                    .ransom
                    .iter()
                    .enumerate()
                    .all(|(i, &(_, vi))| paid[i] == 0 || v - vi < need);
                if v >= need && minimal {
                    out.push((redeemed, paid));
                }
            }
        }
        out
    }

    /// `side`'s pieces the opponent holds and the prisoners `side` holds, per ransom
    /// type, each count capped at what one demand may hold (`RADICES`).
    fn holdings<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        side: Color,
    ) -> (Bundle, Bundle) {
        let count = |reserve: usize| -> Bundle {
            let mut b = [0u8; 4];
            for (i, &(t, _)) in self.ransom.iter().enumerate() {
                b[i] = pos.in_reserve(game, reserve, t).min(RADICES[i] as u8 - 1);
            }
            b
        };
        (
            count(prisoners_of(side.opposite())),
            count(prisoners_of(side)),
        )
    }

    /// Every bundle within `most` (`bundles`, in its order) with its value, written into
    /// `buf`: priced once for the inner loops of the ransoms and offers, without an
    /// allocation (`most` is capped by `RADICES`, so they fit).
    fn priced<'a>(
        &self,
        most: &Bundle,
        buf: &'a mut [(u32, Bundle); BUNDLE_NUMBERS],
    ) -> &'a [(u32, Bundle)] {
        let mut n = 0;
        for b in bundles(most) {
            buf[n] = (self.value(&b), b);
            n += 1;
        }
        &buf[..n]
    }

    fn value(&self, b: &Bundle) -> u32 {
        self.ransom
            .iter()
            .enumerate()
            .map(|(i, &(_, v))| v * b[i] as u32)
            .sum()
    }

    /// Whether any ransom exists: the cheapest piece held alone can be paid for (a
    /// payment large enough always has a minimal part that still pays).
    fn can_ransom(&self, ours: &Bundle, theirs: &Bundle) -> bool {
        let cheapest = self
            .ransom
            .iter()
            .enumerate()
            .filter(|&(i, _)| ours[i] > 0)
            .map(|(_, &(_, v))| v)
            .min();
        cheapest.is_some_and(|v| self.value(theirs) >= 2 * v)
    }

    /// Whether the side to move may open its turn with an offer: the game allows them,
    /// its action is still to come, and no offer has been made this turn.
    fn may_offer(&self, state: RuleState) -> bool {
        self.exchange && !self.has(state, SETTLE) && !self.has(state, EXCHANGED)
    }

    /// The exchanges `side` may offer: a set of its pieces the opponent holds, asked
    /// back, and a set of the prisoners it holds, given, of equal value, at most
    /// `OFFER_LIMIT`.
    fn offers<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        side: Color,
    ) -> Vec<(Bundle, Bundle)> {
        let (ours, theirs) = self.holdings(game, pos, side);
        let mut buf = [(0, [0; 4]); BUNDLE_NUMBERS];
        let gifts = self.priced(&theirs, &mut buf);
        let mut out = Vec::new();
        for asked in bundles(&ours) {
            let v = self.value(&asked);
            if v == 0 || v > OFFER_LIMIT {
                continue;
            }
            out.extend(
                gifts
                    .iter()
                    .filter(|&&(w, _)| w == v)
                    .map(|&(_, given)| (asked, given)),
            );
        }
        out
    }

    /// After an answer to an offer: the offering side plays on, without another offer
    /// (a field promotion it owes is still owed).
    fn answered<const W: usize>(&self, game: &Game<W>, pos: &mut Position<W>, key: &mut u64) {
        let others = pos.rule_state & !self.mask();
        let field = pos.rule_state & self.bit(FIELD);
        pos.set_rule_state(game, others | field | self.bit(EXCHANGED), key);
    }

    /// A set of prisoners of `color` written as letters (`bundles_text`), if every
    /// letter is a ransom type of that colour and the counts fit a bundle.
    fn parse_bundle<const W: usize>(
        &self,
        game: &Game<W>,
        text: &str,
        color: Color,
    ) -> Option<Bundle> {
        let mut b = [0u8; 4];
        for c in text.chars() {
            let i = self
                .ransom
                .iter()
                .position(|&(t, _)| piece_symbol(game, board_code(t, color)) == c.to_string())?;
            b[i] += 1;
            if b[i] as usize >= RADICES[i] {
                return None;
            }
        }
        Some(b)
    }

    /// Reads a pending offer (`&N/bb`, the offering side's pieces asked back, then the
    /// side to move's pieces given): it must be one `offers` makes.
    fn read_offer<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        text: &str,
    ) -> Option<RuleState> {
        let (asked, given) = text.split_once('/')?;
        let offerer = pos.side.opposite();
        let asked = self.parse_bundle(game, asked, offerer)?;
        let given = self.parse_bundle(game, given, pos.side)?;
        self.offers(game, pos, offerer)
            .contains(&(asked, given))
            .then(|| self.offer_state(&asked, &given))
    }

    /// Whether the side to move has a follow-up other than the end of the turn.
    fn can_follow<const W: usize>(&self, game: &Game<W>, pos: &Position<W>) -> bool {
        self.has(pos.rule_state, HONOUR)
            || (self.has(pos.rule_state, FIELD) && self.field_candidates(pos).next().is_some())
            || {
                let (ours, theirs) = self.holdings(game, pos, pos.side);
                self.can_ransom(&ours, &theirs)
            }
    }

    /// Sets the rule's state to `state` (its own bits only) if the turn can go on after
    /// it, else clears it: the turn then ends.
    fn settle<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        state: RuleState,
        key: &mut u64,
    ) {
        let others = pos.rule_state & !self.mask();
        pos.set_rule_state(game, others | state | self.bit(SETTLE), key);
        if !self.can_follow(game, pos) {
            pos.set_rule_state(game, others, key);
        }
    }

    /// A move that deals in two sets of prisoners, a ransom or an offer: `aux` holds
    /// the first set's number after `base`, `from` and `to` the second's and the side.
    fn bundle_move(
        &self,
        base: usize,
        side: Color,
        first: &Bundle,
        second: &Bundle,
        squares: usize,
    ) -> Move {
        let p = encode(second);
        // `to` keeps the side, so that the move's text can be written without a position.
        let to = p / squares + 8 * side.index();
        self.rule_move(p % squares, to, base + encode(first), false)
    }

    fn ransom_move(&self, side: Color, redeemed: &Bundle, paid: &Bundle, squares: usize) -> Move {
        self.bundle_move(self.steps.len(), side, redeemed, paid, squares)
    }

    fn offer_move(&self, side: Color, asked: &Bundle, given: &Bundle, squares: usize) -> Move {
        let base = self.steps.len() + BUNDLE_NUMBERS;
        self.bundle_move(base, side, asked, given, squares)
    }

    /// The side and the two sets of prisoners of a ransom or an offer whose first set's
    /// number is `first`.
    fn bundles_of<const W: usize>(
        &self,
        game: &Game<W>,
        m: Move,
        first: usize,
    ) -> (Color, Bundle, Bundle) {
        let side = Color::from_index(m.to() / 8);
        let p = (m.to() % 8) * game.squares + m.from();
        (side, decode(first), decode(p))
    }

    /// `mark`, the side's own pieces in `r`, `/`, the opponent's pieces in `p`.
    fn bundles_text<const W: usize>(
        &self,
        game: &Game<W>,
        mark: char,
        side: Color,
        r: &Bundle,
        p: &Bundle,
    ) -> String {
        let letters = |b: &Bundle, color: Color| -> String {
            self.ransom
                .iter()
                .enumerate()
                .flat_map(|(i, &(t, _))| {
                    std::iter::repeat_n(piece_symbol(game, board_code(t, color)), b[i] as usize)
                })
                .collect()
        };
        format!("{mark}{}/{}", letters(r, side), letters(p, side.opposite()))
    }

    /// Moves the ransom's pieces: the redeemed from the opponent's prisoners into the
    /// side's reserve, the payment from its prisoners into the opponent's reserve.
    fn pay<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        side: Color,
        r: &Bundle,
        p: &Bundle,
        key: &mut u64,
    ) {
        for (i, &(t, _)) in self.ransom.iter().enumerate() {
            for _ in 0..r[i] {
                pos.take_from_reserve(game, prisoners_of(side.opposite()), t, key);
                pos.add_to_reserve(game, side.index(), t, key);
            }
            for _ in 0..p[i] {
                pos.take_from_reserve(game, prisoners_of(side), t, key);
                pos.add_to_reserve(game, side.opposite().index(), t, key);
            }
        }
    }

    fn unpay<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        side: Color,
        r: &Bundle,
        p: &Bundle,
    ) {
        let reserves = &game.reserves;
        for (i, &(t, _)) in self.ransom.iter().enumerate() {
            pos.hands[reserves.slot(side.index(), t)] -= r[i];
            pos.hands[reserves.slot(prisoners_of(side.opposite()), t)] += r[i];
            pos.hands[reserves.slot(side.opposite().index(), t)] -= p[i];
            pos.hands[reserves.slot(prisoners_of(side), t)] += p[i];
        }
    }

    /// The Cannons' moves that leave their passenger behind.
    fn leave_behind_moves<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        list: &mut MoveList,
    ) {
        let us = pos.side;
        let occ = pos.occupied();
        let enemy = pos.by_color[us.opposite()] & game.valid;
        for t in 0..self.carrier.len() {
            if !self.carrier[t] {
                continue;
            }
            let pc = piece_index(t, us);
            for from in pos.by_piece[pc] {
                if pos.passenger(from) == 0 {
                    continue;
                }
                let (moves, captures) = game.one_leg_reach(pc, from, occ);
                for to in moves.andnot(occ) | (captures & enemy) {
                    list.push(self.rule_move(from, to, LEAVE_BEHIND, false));
                }
            }
        }
    }
}

/// Every bundle with at most `most[i]` of type `i`, the empty one included.
fn bundles(most: &Bundle) -> impl Iterator<Item = Bundle> + '_ {
    let total: usize = most.iter().map(|&m| m as usize + 1).product();
    (0..total).map(move |mut n| {
        let mut b = [0u8; 4];
        for i in 0..4 {
            let radix = most[i] as usize + 1;
            b[i] = (n % radix) as u8;
            n /= radix;
        }
        b
    })
}

/// A bundle as one number (mixed radix `RADICES`).
fn encode(b: &Bundle) -> usize {
    b.iter()
        .zip(RADICES)
        .rev()
        .fold(0, |n, (&c, radix)| n * radix + c as usize)
}

fn decode(mut n: usize) -> Bundle {
    let mut b = [0u8; 4];
    for (i, radix) in RADICES.iter().enumerate() {
        b[i] = (n % radix) as u8;
        n /= radix;
    }
    b
}

impl<const W: usize> RuleExtension<W> for LittleGreat {
    fn state_bits(&self) -> u32 {
        STATE_BITS
    }

    fn has_after_make(&self) -> bool {
        true
    }

    fn has_turn_rule(&self) -> bool {
        true
    }

    fn has_legal_moves(&self) -> bool {
        self.exchange
    }

    fn add_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        self.leave_behind_moves(game, pos, list);
    }

    /// The exchange offers that may open a turn.
    fn add_legal_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        if !self.may_offer(pos.rule_state) {
            return;
        }
        for (asked, given) in self.offers(game, pos, pos.side) {
            list.push(self.offer_move(pos.side, &asked, &given, game.squares));
        }
    }

    fn after_make(&self, game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo, key: &mut u64) {
        if m.kind() == MoveKind::Rule && m.rule_slot() == self.slot.index {
            if m.aux() != LEAVE_BEHIND {
                return; // a follow-up, an offer or an answer sets the state itself
            }
        } else if m.kind() == MoveKind::Rule
            && matches!(game.rules.list[m.rule_slot()], Rule::RoyalReplacement(_))
        {
            let state = pos.rule_state | self.bit(FIELD);
            pos.set_rule_state(game, state, key);
            return;
        }
        // The turn's action.
        let field = pos.rule_state & self.bit(FIELD);
        let honour = if self.earned(game, pos, m, u) {
            self.with_square(m.to())
        } else {
            0
        };
        self.settle(game, pos, field | honour, key);
    }

    fn continues_turn(&self, _game: &Game<W>, pos: &Position<W>, _m: Move) -> bool {
        self.has(pos.rule_state, SETTLE)
    }

    /// After the action, and while an offer awaits its answer.
    fn settling(&self, _game: &Game<W>, pos: &Position<W>) -> bool {
        self.has(pos.rule_state, SETTLE) || self.has(pos.rule_state, OFFER)
    }

    /// An offer pending, or answered with the offering side's turn still to come.
    fn holds_turn_open(&self, _game: &Game<W>, pos: &Position<W>) -> bool {
        self.has(pos.rule_state, OFFER) || self.has(pos.rule_state, EXCHANGED)
    }

    fn follow_ups(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        let state = pos.rule_state;
        if self.has(state, OFFER) {
            list.push(self.rule_move(0, 0, ACCEPT, false));
            list.push(self.rule_move(0, 0, DECLINE, false));
            return;
        }
        if self.has(state, FIELD) {
            for (sq, code) in self.field_candidates(pos) {
                for &t in &self.steps[type_of_piece(code as usize - 1)] {
                    list.push(self.rule_move(sq, sq, t, false));
                }
            }
        }
        if self.has(state, HONOUR) {
            let sq = self.honour_square(state);
            let t = type_of_piece(pos.board[sq] as usize - 1);
            for &step in &self.steps[t] {
                list.push(self.rule_move(sq, sq, step, true));
            }
            // Under `last_rank_honour = "forced"` a pawn on its last rank must take it
            // (after a field promotion, if one is owed): the turn cannot end before.
            if self.forced_last_rank && self.pawn[t] && game.last_rank[pos.side].has(sq) {
                return;
            }
        }
        for (r, p) in self.ransoms(game, pos, pos.side) {
            list.push(self.ransom_move(pos.side, &r, &p, game.squares));
        }
        list.push(self.rule_move(0, 0, END, false));
    }

    fn moves_a_piece(&self, m: Move) -> bool {
        m.aux() == LEAVE_BEHIND
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
        let others = pos.rule_state & !self.mask();
        let honour = pos.rule_state & !others & !self.bit(FIELD) & !self.bit(SETTLE);
        match self.choice(m) {
            Choice::LeaveBehind => {
                let rider = pos.unboard_passenger(game, from, key);
                let cannon = pos.remove(from);
                pos.capture_stack(game, to, u, key);
                pos.put(to, cannon);
                pos.put(from, rider);
                *key ^= z.piece(cannon, from) ^ z.piece(cannon, to) ^ z.piece(rider, from);
            }
            Choice::End => pos.set_rule_state(game, others, key),
            Choice::Honour(t) => {
                // The honour promotion: field promotion may no longer follow.
                promote_on(game, pos, from, t, key);
                self.settle(game, pos, 0, key);
            }
            Choice::Field(t) => {
                // The field promotion of a piece on the board or riding.
                if self.carries(pos, from) {
                    let code = pos.unboard_passenger(game, from, key);
                    let side = color_of_piece(code as usize - 1);
                    pos.board_passenger(game, from, board_code(t, side), key);
                    u.moved = code;
                } else {
                    u.moved = pos.board[from];
                    promote_on(game, pos, from, t, key);
                }
                self.settle(game, pos, honour, key);
            }
            Choice::Ransom(r) => {
                let (side, r, p) = self.bundles_of(game, m, r);
                self.pay(game, pos, side, &r, &p, key);
                pos.set_rule_state(game, others, key);
            }
            Choice::Offer(a) => {
                let (_, asked, given) = self.bundles_of(game, m, a);
                let field = pos.rule_state & self.bit(FIELD);
                let state = others | field | self.offer_state(&asked, &given);
                pos.set_rule_state(game, state, key);
            }
            Choice::Accept => {
                let (asked, given) = self.offer(pos.rule_state);
                self.pay(game, pos, pos.side.opposite(), &asked, &given, key);
                self.answered(game, pos, key);
            }
            Choice::Decline => self.answered(game, pos, key),
        }
    }

    fn unmake_move(&self, game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo) {
        let (from, to) = (m.from(), m.to());
        match self.choice(m) {
            Choice::LeaveBehind => {
                let cannon = pos.remove(to);
                let rider = pos.remove(from);
                pos.put(from, cannon);
                pos.carried[from] = rider;
                pos.restore_stack(to, u);
            }
            Choice::End | Choice::Offer(_) | Choice::Decline => {}
            Choice::Honour(_) => {
                pos.remove(from);
                pos.put(from, u.moved);
            }
            Choice::Field(_) => {
                if self.carries(pos, from) {
                    pos.carried[from] = u.moved;
                } else {
                    pos.remove(from);
                    pos.put(from, u.moved);
                }
            }
            Choice::Ransom(r) => {
                let (side, r, p) = self.bundles_of(game, m, r);
                self.unpay(game, pos, side, &r, &p);
            }
            Choice::Accept => {
                // The side to move is the one that answered; the state before the answer
                // held the offer.
                let (asked, given) = self.offer(u.rule_state);
                self.unpay(game, pos, pos.side.opposite(), &asked, &given);
            }
        }
    }

    fn move_text(&self, game: &Game<W>, m: Move) -> String {
        let g = &game.geo;
        let letter = |t: usize| piece_symbol(game, board_code(t, crate::core::WHITE));
        match self.choice(m) {
            Choice::LeaveBehind => format!("{}~{}", g.name(m.from()), g.name(m.to())),
            Choice::End => String::new(),
            Choice::Honour(t) => format!("+{}", letter(t)),
            Choice::Field(t) => format!("={}{}", g.name(m.from()), letter(t)),
            Choice::Ransom(r) => {
                let (side, r, p) = self.bundles_of(game, m, r);
                self.bundles_text(game, '$', side, &r, &p)
            }
            Choice::Offer(a) => {
                let (side, a, g) = self.bundles_of(game, m, a);
                self.bundles_text(game, '&', side, &a, &g)
            }
            Choice::Accept => "accept".to_string(),
            Choice::Decline => "decline".to_string(),
        }
    }

    fn move_squares(&self, _game: &Game<W>, m: Move) -> Vec<usize> {
        match self.choice(m) {
            Choice::LeaveBehind => vec![m.from(), m.to()],
            // The piece promoted in the field is pointed at; the other choices name no
            // square (the board offers them as buttons).
            Choice::Field(_) => vec![m.from()],
            _ => Vec::new(),
        }
    }

    fn readable(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> String {
        let text = RuleExtension::<W>::move_text(self, game, m);
        match self.choice(m) {
            Choice::LeaveBehind => {
                let cannon = piece_symbol(game, pos.board[m.from()]).to_ascii_uppercase();
                format!("{cannon}{text} (leaves its passenger)")
            }
            Choice::End => "(ends the turn)".to_string(),
            Choice::Offer(_) => format!("{text} (offers an exchange of prisoners)"),
            Choice::Accept | Choice::Decline => format!("{text} (the exchange)"),
            _ => text,
        }
    }

    fn tactical(&self, _game: &Game<W>, pos: &Position<W>, m: Move) -> bool {
        match self.choice(m) {
            Choice::Honour(_) | Choice::Accept => true,
            Choice::LeaveBehind => pos.board[m.to()] != 0,
            _ => false,
        }
    }

    fn removes(&self, _game: &Game<W>, pos: &Position<W>, m: Move) -> Option<usize> {
        (m.aux() == LEAVE_BEHIND && pos.board[m.to()] != 0).then_some(m.to())
    }

    fn becomes(&self, pc: usize) -> Option<usize> {
        self.steps[type_of_piece(pc)]
            .first()
            .map(|&t| piece_index(t, color_of_piece(pc)))
    }

    /// A Cannon's moves without its passenger, and the exchange offers. The follow-ups
    /// are a list of their own (`settling` positions have no other moves): at most two
    /// steps per piece, 1212 ransoms (`RADICES`) and the end, within a move list for any
    /// 8x8 position.
    fn move_bound(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        _color: Color,
        _pieces: usize,
    ) -> usize {
        let cannons: usize = (0..self.carrier.len())
            .filter(|&t| self.carrier[t])
            .flat_map(|t| {
                [
                    piece_index(t, crate::core::WHITE),
                    piece_index(t, crate::core::BLACK),
                ]
            })
            .map(|pc| pos.by_piece[pc].count() as usize * game.move_bounds[pc])
            .sum();
        cannons + if self.exchange { MAX_OFFERS } else { 0 }
    }

    fn turn_state_text(&self, game: &Game<W>, pos: &Position<W>) -> String {
        let state = pos.rule_state;
        let mut out = String::new();
        for (letter, bit) in [('s', SETTLE), ('f', FIELD), ('x', EXCHANGED)] {
            if self.has(state, bit) {
                out.push(letter);
            }
        }
        if self.has(state, HONOUR) {
            out.push('h');
            out += &game.geo.name(self.honour_square(state));
        }
        if self.has(state, OFFER) {
            let (asked, given) = self.offer(state);
            out += &self.bundles_text(game, '&', pos.side.opposite(), &asked, &given);
        }
        out
    }

    fn read_turn_state(&self, game: &Game<W>, pos: &mut Position<W>, text: &str) -> bool {
        let mut state = 0;
        let mut rest = text;
        for (letter, bit) in [('s', SETTLE), ('f', FIELD), ('x', EXCHANGED)] {
            if let Some(r) = rest.strip_prefix(letter) {
                state |= self.bit(bit);
                rest = r;
            }
        }
        // A turn settles after its action; offers and their answers come before it.
        let settles = state & self.bit(SETTLE) != 0;
        let exchanged = state & self.bit(EXCHANGED) != 0;
        if (settles && pos.actions == 0) || (exchanged && (settles || !self.exchange)) {
            return false;
        }
        if let Some(square) = rest.strip_prefix('h') {
            let Ok(sq) = game.geo.parse_square(square) else {
                return false;
            };
            if pos.board[sq] == 0 || !settles {
                return false;
            }
            state |= self.with_square(sq);
        } else if let Some(offer) = rest.strip_prefix('&') {
            if !self.exchange || exchanged || pos.actions != 0 {
                return false;
            }
            let Some(offer) = self.read_offer(game, pos, offer) else {
                return false;
            };
            state |= offer;
        } else if !rest.is_empty() {
            return false;
        }
        pos.rule_state |= state;
        true
    }
}

/// Replaces the piece on `sq` by one of type `t` of its colour.
fn promote_on<const W: usize>(
    game: &Game<W>,
    pos: &mut Position<W>,
    sq: usize,
    t: usize,
    key: &mut u64,
) {
    let old = pos.remove(sq);
    let new = board_code(t, crate::rules::position::color_of(old));
    pos.put(sq, new);
    *key ^= game.zobrist.piece(old, sq) ^ game.zobrist.piece(new, sq);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundles_round_trip_through_their_number() {
        for b in bundles(&[8, 2, 2, 2]) {
            assert_eq!(decode(encode(&b)), b);
        }
        assert_eq!(bundles(&[1, 0, 0, 1]).count(), 4);
    }
}
