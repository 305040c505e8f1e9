//! Rule extensions: the rules of a game that its pieces' moves do not describe (Chu
//! Shogi's Lion trading, Tamerlane's citadels, Pawn of Pawns and King swap), each in its own
//! module behind one interface, `RuleExtension`. Move generation, `make`/`unmake`, notation,
//! FEN, attack detection, the game's outcome and the search reach them only through
//! `Game`'s dispatching methods below, so none of them names a game's rule.
//!
//! A variant's definition switches rules on (`hooks = [...]` or data such as `citadels` and
//! the pieces' flags); `Game::rules` holds them as a list of the enum `Rule`, dispatched by
//! `match`, never dynamically. Every hot-path entry point first checks a flag computed when
//! the game is compiled, so a game without rules pays one predictable branch.
//!
//! See docs/design.md, "Rule extensions", for the interface with a worked example.

pub mod bodyguards;
pub mod carrying;
pub mod citadels;
pub mod lion_trading;
pub mod little_great;
pub mod pawn_of_pawns;
pub mod royal_replacement;
pub mod royal_swap;
pub mod shofidegi;

use crate::core::moves::RULE_SLOTS;
use crate::core::{Bitboard, Color, Move, MoveKind, WHITE};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::outcome::Outcome;
use crate::rules::position::{Position, RuleState, Undo};
use bodyguards::Bodyguards;
use carrying::Carrying;
use citadels::Citadels;
use lion_trading::LionTrading;
use little_great::LittleGreat;
use pawn_of_pawns::PawnOfPawns;
use royal_replacement::RoyalReplacement;
use royal_swap::RoyalSwap;
use shofidegi::Shofidegi;

/// A once-per-game right a rule keeps for each side, written in FEN's castling field
/// (upper case for White).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Right {
    pub letter: char,
    /// What it is, for error messages.
    pub name: &'static str,
    /// The state bit of the right, per colour.
    pub bits: [RuleState; 2],
}

/// Where a rule's bits lie in `Position::rule_state` and which slot of the move kind
/// names its moves. Given to the rule when the game is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The rule's index in `Game::rules`, which its `MoveKind::Rule` moves carry.
    pub index: usize,
    /// The rule's first bit in `Position::rule_state`.
    pub shift: u32,
}

impl Slot {
    /// The state bit `i` of the rule.
    #[inline(always)]
    pub fn bit(self, i: u32) -> RuleState {
        1 << (self.shift + i)
    }

    /// A once-per-game right of each side, kept in the rule's bits 0 (White) and 1
    /// (Black), written `letter` in FEN.
    pub fn right(self, letter: char, name: &'static str) -> Right {
        Right {
            letter,
            name,
            bits: [self.bit(0), self.bit(1)],
        }
    }

    /// True while `side` still has the right kept in bit `side`.
    #[inline]
    pub fn holds<const W: usize>(self, pos: &Position<W>, side: Color) -> bool {
        pos.rule_state & self.bit(side.index() as u32) != 0
    }

    /// Spends the side to move's right (within `make`, whose key is `key`).
    pub fn spend<const W: usize>(self, game: &Game<W>, pos: &mut Position<W>, key: &mut u64) {
        let spent = pos.rule_state & !self.bit(pos.side.index() as u32);
        pos.set_rule_state(game, spent, key);
    }
}

/// The interface of a rule extension. Every method has a default that does nothing, so a
/// rule implements only what it changes. `game` is the compiled variant the rule belongs to.
///
/// Order of the move-generation steps in `Game::legal_moves`: pseudo-legal moves; every
/// rule's `filter_moves`; removal of captures of immune pieces (`immune`); every rule's
/// `add_moves`; the check filter (which tests every `MoveKind::Rule` move by making it);
/// every rule's `add_legal_moves`.
pub trait RuleExtension<const W: usize> {
    /// How many bits of `Position::rule_state` the rule keeps (at most 32 in all).
    fn state_bits(&self) -> u32 {
        0
    }

    /// The state bits that describe the last move only: a null move clears them.
    fn transient_state(&self) -> RuleState {
        0
    }

    /// The rule's once-per-game rights, if it has any (set for both sides at the start),
    /// in the order FEN writes them.
    fn rights(&self) -> Vec<Right> {
        Vec::new()
    }

    /// Squares on which no piece is ever attacked (attack detection answers no there).
    fn sanctuary(&self) -> Bitboard<W> {
        Bitboard::EMPTY
    }

    /// A square the rule's state keeps from the last move, which SFEN writes in its third
    /// field (Chu Shogi's square of a Lion taken by a non-Lion, in lishogi's SFEN).
    fn marked_square(&self, _pos: &Position<W>) -> Option<usize> {
        None
    }

    /// Sets the state `marked_square` reads, as an SFEN gives it (within set-up: the
    /// position's key is computed afterwards); false when the rule keeps no such square.
    fn set_marked_square(&self, _pos: &mut Position<W>, _square: usize) -> bool {
        false
    }

    /// Whether `immune` may be non-empty.
    fn has_immunity(&self) -> bool {
        false
    }

    /// Whether `add_legal_moves` does anything.
    fn has_legal_moves(&self) -> bool {
        false
    }

    /// Whether `after_make` does anything.
    fn has_after_make(&self) -> bool {
        false
    }

    /// Whether `outcome` may end the game.
    fn has_outcome(&self) -> bool {
        false
    }

    /// Whether `succession_moves` does anything.
    fn has_succession(&self) -> bool {
        false
    }

    /// Whether `continues_turn` may answer yes.
    fn has_turn_rule(&self) -> bool {
        false
    }

    /// Whether `restraint` or `harmless` may restrain anything (`rules::restraint`).
    fn has_restraint(&self) -> bool {
        false
    }

    /// Whether `restraint` may restrain anything in `pos`: a cheap test, so that a rule
    /// that restrains pieces seldom (ShoFIDEgi's frozen bindings) lets move generation
    /// and attack detection take their fast paths in every other position.
    fn restrains(&self, _game: &Game<W>, _pos: &Position<W>) -> bool {
        self.has_restraint()
    }

    /// For the piece of index `pc` on `from`: the squares where its moves must stop (it
    /// may end on the first one on its way, not pass it), and the only squares it may move
    /// to, if the rule limits it.
    fn restraint(
        &self,
        _game: &Game<W>,
        _pos: &Position<W>,
        _pc: usize,
        _from: usize,
    ) -> (Bitboard<W>, Option<Bitboard<W>>) {
        (Bitboard::EMPTY, None)
    }

    /// Whether a piece of index `pc` never attacks a royal (gives no check).
    fn harmless(&self, _pc: usize) -> bool {
        false
    }

    /// Squares whose pieces cannot be captured now.
    fn immune(&self, _game: &Game<W>, _pos: &Position<W>) -> Bitboard<W> {
        Bitboard::EMPTY
    }

    /// Removes the pseudo-legal moves the rule forbids.
    fn filter_moves(&self, _game: &Game<W>, _pos: &mut Position<W>, _list: &mut MoveList) {}

    /// Adds pseudo-legal moves (the check filter then tests them).
    fn add_moves(&self, _game: &Game<W>, _pos: &mut Position<W>, _list: &mut MoveList) {}

    /// Adds moves after the check filter: `list` holds the other legal moves, and the rule
    /// adds only legal moves.
    fn add_legal_moves(&self, _game: &Game<W>, _pos: &mut Position<W>, _list: &mut MoveList) {}

    /// The moves of a side that has no royal left (which has lost unless some rule gives
    /// it one): the rule adds only legal moves.
    fn succession_moves(&self, _game: &Game<W>, _pos: &mut Position<W>, _list: &mut MoveList) {}

    /// Whether `m`, being made, leaves the turn to the same side for another action.
    fn continues_turn(&self, _game: &Game<W>, _pos: &Position<W>, _m: Move) -> bool {
        false
    }

    /// A step at the end of every `make` (before the side to move changes): `u` tells what
    /// moved and what was captured; changes to `pos.rule_state` go into `key` through
    /// `Position::set_rule_state`.
    fn after_make(
        &self,
        _game: &Game<W>,
        _pos: &mut Position<W>,
        _m: Move,
        _u: &Undo,
        _key: &mut u64,
    ) {
    }

    /// Whether the side to move has made its turn's action and only the rule's follow-ups
    /// remain (`follow_ups`): no other move is generated then.
    fn settling(&self, _game: &Game<W>, _pos: &Position<W>) -> bool {
        false
    }

    /// The actions that may follow a turn's action (`settling`), the end of the turn
    /// included: all legal.
    fn follow_ups(&self, _game: &Game<W>, _pos: &mut Position<W>, _list: &mut MoveList) {}

    /// Whether the rule holds a turn open between its side's plies (an offer awaiting
    /// its answer, or answered with the rest of the turn to come), though no action of
    /// the turn has been made: a null move there would hand the open turn to the other
    /// side.
    fn holds_turn_open(&self, _game: &Game<W>, _pos: &Position<W>) -> bool {
        false
    }

    /// Whether one of the rule's moves moves or captures a piece: one that does neither
    /// (a choice made in a turn) leaves the move-rule clock as it was.
    fn moves_a_piece(&self, _m: Move) -> bool {
        true
    }

    /// The rule's part of the state of a turn in progress, for FEN's side field after a
    /// `:` (empty when nothing is pending).
    fn turn_state_text(&self, _game: &Game<W>, _pos: &Position<W>) -> String {
        String::new()
    }

    /// Reads `turn_state_text` into `pos.rule_state`; false when the text is not the
    /// rule's.
    fn read_turn_state(&self, _game: &Game<W>, _pos: &mut Position<W>, text: &str) -> bool {
        text.is_empty()
    }

    /// Makes one of the rule's own moves (`MoveKind::Rule` in the rule's slot).
    fn make_move(
        &self,
        _game: &Game<W>,
        _pos: &mut Position<W>,
        _m: Move,
        _u: &mut Undo,
        _key: &mut u64,
    ) {
        unreachable!("a rule without moves of its own")
    }

    /// Takes back one of the rule's own moves (the undo record's rule state and key are
    /// restored by `unmake`).
    fn unmake_move(&self, _game: &Game<W>, _pos: &mut Position<W>, _m: Move, _u: &Undo) {
        unreachable!("a rule without moves of its own")
    }

    /// The coordinate text of one of the rule's moves (input is matched against it).
    fn move_text(&self, game: &Game<W>, m: Move) -> String {
        format!("{}{}", game.geo.name(m.from()), game.geo.name(m.to()))
    }

    /// One of the rule's moves for people (`cli_search::readable`), before it is made.
    fn readable(&self, game: &Game<W>, _pos: &Position<W>, m: Move) -> String {
        self.move_text(game, m)
    }

    /// The squares a person points at on a board to make one of the rule's moves
    /// (`kirin serve`), in order: where it starts and where it ends; only one square, or
    /// none, for a choice that names one or none (a promotion chosen after the move).
    fn move_squares(&self, _game: &Game<W>, m: Move) -> Vec<usize> {
        vec![m.from(), m.to()]
    }

    /// The game's end by the rule, for the side to move, checked before its moves.
    fn outcome(&self, _game: &Game<W>, _pos: &Position<W>) -> Option<Outcome> {
        None
    }

    /// Whether one of the rule's moves is tactical: quiescence searches it.
    fn tactical(&self, _game: &Game<W>, _pos: &Position<W>, _m: Move) -> bool {
        false
    }

    /// The square of the piece one of the rule's moves removes, if any (for ordering).
    fn removes(&self, _game: &Game<W>, _pos: &Position<W>, _m: Move) -> Option<usize> {
        None
    }

    /// The piece index a piece of index `pc` may become by the rule's moves, if any (for
    /// the move-list capacity check).
    fn becomes(&self, _pc: usize) -> Option<usize> {
        None
    }

    /// The most moves the rule adds for `color` (`pieces`: how many it has), for the
    /// move-list capacity check.
    fn move_bound(
        &self,
        _game: &Game<W>,
        _pos: &Position<W>,
        _color: Color,
        _pieces: usize,
    ) -> usize {
        0
    }
}

/// The rules a game can switch on.
#[derive(Clone, Debug)]
pub enum Rule<const W: usize> {
    LionTrading(LionTrading),
    PawnOfPawns(PawnOfPawns),
    RoyalSwap(RoyalSwap),
    Citadels(Citadels<W>),
    Carrying(Carrying),
    RoyalReplacement(RoyalReplacement),
    Bodyguards(Bodyguards<W>),
    LittleGreat(LittleGreat),
    Shofidegi(Shofidegi<W>),
}

/// `match` over the rules, binding the rule to `$r`.
macro_rules! each_rule {
    ($self:expr, $r:ident => $e:expr) => {
        match $self {
            Rule::LionTrading($r) => $e,
            Rule::PawnOfPawns($r) => $e,
            Rule::RoyalSwap($r) => $e,
            Rule::Citadels($r) => $e,
            Rule::Carrying($r) => $e,
            Rule::RoyalReplacement($r) => $e,
            Rule::Bodyguards($r) => $e,
            Rule::LittleGreat($r) => $e,
            Rule::Shofidegi($r) => $e,
        }
    };
}

impl<const W: usize> RuleExtension<W> for Rule<W> {
    #[inline(always)]
    fn state_bits(&self) -> u32 {
        each_rule!(self, r => RuleExtension::<W>::state_bits(r))
    }
    #[inline(always)]
    fn transient_state(&self) -> RuleState {
        each_rule!(self, r => RuleExtension::<W>::transient_state(r))
    }
    #[inline(always)]
    fn rights(&self) -> Vec<Right> {
        each_rule!(self, r => RuleExtension::<W>::rights(r))
    }
    #[inline(always)]
    fn sanctuary(&self) -> Bitboard<W> {
        each_rule!(self, r => r.sanctuary())
    }
    fn marked_square(&self, pos: &Position<W>) -> Option<usize> {
        each_rule!(self, r => r.marked_square(pos))
    }
    fn set_marked_square(&self, pos: &mut Position<W>, square: usize) -> bool {
        each_rule!(self, r => r.set_marked_square(pos, square))
    }
    #[inline(always)]
    fn has_immunity(&self) -> bool {
        each_rule!(self, r => RuleExtension::<W>::has_immunity(r))
    }
    #[inline(always)]
    fn has_legal_moves(&self) -> bool {
        each_rule!(self, r => RuleExtension::<W>::has_legal_moves(r))
    }
    #[inline(always)]
    fn has_after_make(&self) -> bool {
        each_rule!(self, r => RuleExtension::<W>::has_after_make(r))
    }
    #[inline(always)]
    fn has_outcome(&self) -> bool {
        each_rule!(self, r => RuleExtension::<W>::has_outcome(r))
    }
    fn has_succession(&self) -> bool {
        each_rule!(self, r => RuleExtension::<W>::has_succession(r))
    }
    fn has_turn_rule(&self) -> bool {
        each_rule!(self, r => RuleExtension::<W>::has_turn_rule(r))
    }
    fn has_restraint(&self) -> bool {
        each_rule!(self, r => RuleExtension::<W>::has_restraint(r))
    }
    #[inline(always)]
    fn restrains(&self, game: &Game<W>, pos: &Position<W>) -> bool {
        each_rule!(self, r => r.restrains(game, pos))
    }
    #[inline(always)]
    fn restraint(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        pc: usize,
        from: usize,
    ) -> (Bitboard<W>, Option<Bitboard<W>>) {
        each_rule!(self, r => r.restraint(game, pos, pc, from))
    }
    fn harmless(&self, pc: usize) -> bool {
        each_rule!(self, r => RuleExtension::<W>::harmless(r, pc))
    }
    fn succession_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        each_rule!(self, r => r.succession_moves(game, pos, list))
    }
    #[inline(always)]
    fn continues_turn(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> bool {
        each_rule!(self, r => r.continues_turn(game, pos, m))
    }
    #[inline(always)]
    fn immune(&self, game: &Game<W>, pos: &Position<W>) -> Bitboard<W> {
        each_rule!(self, r => r.immune(game, pos))
    }
    #[inline(always)]
    fn filter_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        each_rule!(self, r => r.filter_moves(game, pos, list))
    }
    #[inline(always)]
    fn add_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        each_rule!(self, r => r.add_moves(game, pos, list))
    }
    #[inline(always)]
    fn add_legal_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        each_rule!(self, r => r.add_legal_moves(game, pos, list))
    }
    #[inline(always)]
    fn after_make(&self, game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo, key: &mut u64) {
        each_rule!(self, r => r.after_make(game, pos, m, u, key))
    }
    fn settling(&self, game: &Game<W>, pos: &Position<W>) -> bool {
        each_rule!(self, r => r.settling(game, pos))
    }
    fn follow_ups(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        each_rule!(self, r => r.follow_ups(game, pos, list))
    }
    fn holds_turn_open(&self, game: &Game<W>, pos: &Position<W>) -> bool {
        each_rule!(self, r => r.holds_turn_open(game, pos))
    }
    fn moves_a_piece(&self, m: Move) -> bool {
        each_rule!(self, r => RuleExtension::<W>::moves_a_piece(r, m))
    }
    fn turn_state_text(&self, game: &Game<W>, pos: &Position<W>) -> String {
        each_rule!(self, r => r.turn_state_text(game, pos))
    }
    fn read_turn_state(&self, game: &Game<W>, pos: &mut Position<W>, text: &str) -> bool {
        each_rule!(self, r => r.read_turn_state(game, pos, text))
    }
    #[inline(always)]
    fn make_move(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        m: Move,
        u: &mut Undo,
        key: &mut u64,
    ) {
        each_rule!(self, r => r.make_move(game, pos, m, u, key))
    }
    #[inline(always)]
    fn unmake_move(&self, game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo) {
        each_rule!(self, r => r.unmake_move(game, pos, m, u))
    }
    fn move_text(&self, game: &Game<W>, m: Move) -> String {
        each_rule!(self, r => r.move_text(game, m))
    }
    fn readable(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> String {
        each_rule!(self, r => r.readable(game, pos, m))
    }
    fn move_squares(&self, game: &Game<W>, m: Move) -> Vec<usize> {
        each_rule!(self, r => r.move_squares(game, m))
    }
    #[inline(always)]
    fn outcome(&self, game: &Game<W>, pos: &Position<W>) -> Option<Outcome> {
        each_rule!(self, r => r.outcome(game, pos))
    }
    #[inline(always)]
    fn tactical(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> bool {
        each_rule!(self, r => r.tactical(game, pos, m))
    }
    #[inline(always)]
    fn removes(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> Option<usize> {
        each_rule!(self, r => r.removes(game, pos, m))
    }
    fn becomes(&self, pc: usize) -> Option<usize> {
        each_rule!(self, r => RuleExtension::<W>::becomes(r, pc))
    }
    fn move_bound(&self, game: &Game<W>, pos: &Position<W>, color: Color, pieces: usize) -> usize {
        each_rule!(self, r => r.move_bound(game, pos, color, pieces))
    }
}

/// The rules a game has switched on, and what they need, computed once.
#[derive(Clone, Debug)]
pub struct Rules<const W: usize> {
    pub list: Vec<Rule<W>>,
    /// Some rule makes pieces immune to capture.
    pub immunity: bool,
    /// Some rule adds moves after the check filter.
    pub legal_moves: bool,
    /// Some rule has an `after_make` step.
    pub after_make: bool,
    /// Some rule may end the game.
    pub outcome: bool,
    /// Some rule gives a side without royals moves.
    pub succession: bool,
    /// Some rule may keep the turn with the side that moved.
    pub turns: bool,
    /// Some rule restrains pieces (`rules::restraint`).
    pub restraint: bool,
    /// The state bits a null move clears.
    pub transient: RuleState,
    /// Every right's bits: the state of a position whose FEN gives no rights field.
    pub all_rights: RuleState,
    /// Squares on which no piece is ever attacked (the union of the rules' sanctuaries).
    pub sanctuary: Bitboard<W>,
}

impl<const W: usize> Rules<W> {
    pub fn none() -> Self {
        Rules {
            list: Vec::new(),
            immunity: false,
            legal_moves: false,
            after_make: false,
            outcome: false,
            succession: false,
            turns: false,
            restraint: false,
            transient: 0,
            all_rights: 0,
            sanctuary: Bitboard::EMPTY,
        }
    }

    /// The rules `game`'s definition switches on, in the order they act. The order matters
    /// only for the order of the moves they add and for FEN: Pawn of Pawns'
    /// redeployments come before citadel exchanges, and the royal swap's right is written
    /// before the citadel exchange's (`SCsc`).
    pub fn of(game: &Game<W>) -> Self {
        type Build<const W: usize> = fn(&Game<W>, Slot) -> Option<Rule<W>>;
        let builders: [Build<W>; 9] = [
            |g, s| LionTrading::new(g, s).map(Rule::LionTrading),
            |g, s| PawnOfPawns::new(g, s).map(Rule::PawnOfPawns),
            |g, s| RoyalSwap::new(g, s).map(Rule::RoyalSwap),
            |g, s| Citadels::new(g, s).map(Rule::Citadels),
            |g, s| Carrying::new(g, s).map(Rule::Carrying),
            |g, s| RoyalReplacement::new(g, s).map(Rule::RoyalReplacement),
            |g, s| Bodyguards::new(g, s).map(Rule::Bodyguards),
            |g, s| LittleGreat::new(g, s).map(Rule::LittleGreat),
            |g, s| Shofidegi::new(g, s).map(Rule::Shofidegi),
        ];
        let mut rules = Rules::none();
        let mut shift = 0;
        for build in builders {
            let slot = Slot {
                index: rules.list.len(),
                shift,
            };
            if let Some(rule) = build(game, slot) {
                shift += rule.state_bits();
                rules.list.push(rule);
            }
        }
        assert!(shift <= RuleState::BITS && rules.list.len() <= RULE_SLOTS);
        for r in &rules.list {
            rules.immunity |= r.has_immunity();
            rules.legal_moves |= r.has_legal_moves();
            rules.after_make |= r.has_after_make();
            rules.outcome |= r.has_outcome();
            rules.succession |= r.has_succession();
            rules.turns |= r.has_turn_rule();
            rules.restraint |= r.has_restraint();
            rules.transient |= r.transient_state();
            for right in r.rights() {
                rules.all_rights |= right.bits[0] | right.bits[1];
            }
            rules.sanctuary |= r.sanctuary();
        }
        rules
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The rights of the game's rules, in the order FEN writes them.
    pub fn rights(&self) -> impl Iterator<Item = Right> + '_ {
        self.list.iter().flat_map(|r| r.rights())
    }
}

impl<const W: usize> Game<W> {
    /// The rules' steps of move generation before the check filter: their filters, the
    /// removal of captures of immune pieces, and their added moves.
    #[inline(never)]
    pub(crate) fn rule_moves(&self, pos: &mut Position<W>, list: &mut MoveList) {
        self.rule_filters(pos, list);
        for r in &self.rules.list {
            r.add_moves(self, pos, list);
        }
    }

    /// The rules' filters of pseudo-legal moves, and the removal of captures of immune
    /// pieces (a filter may add moves of its rule's own: ShoFIDEgi's en passant).
    pub(crate) fn rule_filters(&self, pos: &mut Position<W>, list: &mut MoveList) {
        for r in &self.rules.list {
            r.filter_moves(self, pos, list);
        }
        if self.rules.immunity {
            let immune = self.immune(pos);
            list.retain(|m| {
                let takes = (m.to() != m.from() && immune.has(m.to()))
                    || match m.kind() {
                        MoveKind::TwoLeg => immune.has(m.aux()),
                        MoveKind::MultiLeg => self
                            .captures_on_the_way(*m)
                            .iter()
                            .any(|&sq| immune.has(sq as usize)),
                        _ => false,
                    };
                !takes
            });
        }
    }

    /// The rules' moves added after the check filter.
    #[inline(never)]
    pub(crate) fn rule_legal_moves(&self, pos: &mut Position<W>, list: &mut MoveList) {
        for r in &self.rules.list {
            r.add_legal_moves(self, pos, list);
        }
    }

    /// Whether the side to move has lost its royals for good: it has none, and no rule
    /// gives it a move that brings one back.
    pub fn royals_lost(&self, pos: &mut Position<W>) -> bool {
        if !pos.royals(self, pos.side).is_empty() {
            return false;
        }
        if !self.rules.succession {
            return true;
        }
        let mut list = MoveList::new();
        self.rule_succession_moves(pos, &mut list);
        list.is_empty()
    }

    /// The rules' moves for a side without royals.
    pub(crate) fn rule_succession_moves(&self, pos: &mut Position<W>, list: &mut MoveList) {
        for r in &self.rules.list {
            r.succession_moves(self, pos, list);
        }
    }

    /// Whether `m`, being made, ends its side's turn: the last of `actions_per_turn`,
    /// unless a rule keeps the turn.
    #[inline]
    pub fn turn_ends(&self, pos: &Position<W>, m: Move) -> bool {
        if self.rules.turns
            && self
                .rules
                .list
                .iter()
                .any(|r| r.continues_turn(self, pos, m))
        {
            return false;
        }
        pos.actions as u32 + 1 >= self.spec.actions_per_turn
    }

    /// Squares whose pieces cannot be captured now.
    pub fn immune(&self, pos: &Position<W>) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        if self.rules.immunity {
            for r in &self.rules.list {
                b |= r.immune(self, pos);
            }
        }
        b
    }

    /// The square a rule keeps from the last move, for SFEN (`marked_square`).
    pub fn marked_square(&self, pos: &Position<W>) -> Option<usize> {
        self.rules.list.iter().find_map(|r| r.marked_square(pos))
    }

    /// Sets the square a rule keeps from the last move, as an SFEN gives it; false when
    /// no rule of the game keeps one.
    pub fn set_marked_square(&self, pos: &mut Position<W>, square: usize) -> bool {
        self.rules
            .list
            .iter()
            .any(|r| r.set_marked_square(pos, square))
    }

    /// The rules' steps at the end of `make`.
    #[inline(always)]
    pub(crate) fn rules_after_make(&self, pos: &mut Position<W>, m: Move, u: &Undo, key: &mut u64) {
        for r in &self.rules.list {
            r.after_make(self, pos, m, u, key);
        }
    }

    /// Whether the side to move has made its turn's action and only follow-ups remain.
    #[inline]
    pub fn settling(&self, pos: &Position<W>) -> bool {
        self.rules.turns && self.rules.list.iter().any(|r| r.settling(self, pos))
    }

    /// Whether a turn is in progress: an action of it made, or a rule holding it open
    /// (`RuleExtension::holds_turn_open`). The search makes no null move then.
    #[inline]
    pub fn turn_in_progress(&self, pos: &Position<W>) -> bool {
        pos.actions > 0
            || (self.rules.turns && self.rules.list.iter().any(|r| r.holds_turn_open(self, pos)))
    }

    /// The follow-up actions of a settling turn.
    pub(crate) fn rule_follow_ups(&self, pos: &mut Position<W>, list: &mut MoveList) {
        for r in &self.rules.list {
            r.follow_ups(self, pos, list);
        }
    }

    /// Whether `m` moves or captures a piece (the move-rule clock counts it).
    #[inline]
    pub fn moves_a_piece(&self, m: Move) -> bool {
        m.kind() != MoveKind::Rule || self.rules.list[m.rule_slot()].moves_a_piece(m)
    }

    /// The rules' state of a turn in progress, as FEN's side field writes it after `:`.
    pub fn turn_state_text(&self, pos: &Position<W>) -> String {
        self.rules
            .list
            .iter()
            .map(|r| r.turn_state_text(self, pos))
            .collect()
    }

    /// Reads `turn_state_text`; false when no rule reads it.
    pub fn read_turn_state(&self, pos: &mut Position<W>, text: &str) -> bool {
        text.is_empty()
            || self
                .rules
                .list
                .iter()
                .any(|r| r.read_turn_state(self, pos, text))
    }

    /// Makes a `MoveKind::Rule` move.
    #[inline(never)]
    pub(crate) fn make_rule_move(
        &self,
        pos: &mut Position<W>,
        m: Move,
        u: &mut Undo,
        key: &mut u64,
    ) {
        self.rules.list[m.rule_slot()].make_move(self, pos, m, u, key);
    }

    /// Takes back a `MoveKind::Rule` move.
    #[inline(never)]
    pub(crate) fn unmake_rule_move(&self, pos: &mut Position<W>, m: Move, u: &Undo) {
        self.rules.list[m.rule_slot()].unmake_move(self, pos, m, u);
    }

    /// The game's end by one of its rules, for the side to move.
    #[inline]
    pub fn rule_outcome(&self, pos: &Position<W>) -> Option<Outcome> {
        if !self.rules.outcome {
            return None;
        }
        self.rules.list.iter().find_map(|r| r.outcome(self, pos))
    }

    /// The coordinate text of a `MoveKind::Rule` move.
    pub fn rule_move_text(&self, m: Move) -> String {
        self.rules.list[m.rule_slot()].move_text(self, m)
    }

    /// The squares a person points at to make a `MoveKind::Rule` move.
    pub fn rule_move_squares(&self, m: Move) -> Vec<usize> {
        self.rules.list[m.rule_slot()].move_squares(self, m)
    }

    /// A `MoveKind::Rule` move for people, in `pos` before it is made.
    pub fn rule_move_readable(&self, pos: &Position<W>, m: Move) -> String {
        self.rules.list[m.rule_slot()].readable(self, pos, m)
    }

    /// Whether a `MoveKind::Rule` move is tactical (searched by quiescence).
    #[inline]
    pub fn rule_move_tactical(&self, pos: &Position<W>, m: Move) -> bool {
        self.rules.list[m.rule_slot()].tactical(self, pos, m)
    }

    /// The square of the piece a `MoveKind::Rule` move removes, if any.
    #[inline]
    pub fn rule_move_removes(&self, pos: &Position<W>, m: Move) -> Option<usize> {
        self.rules.list[m.rule_slot()].removes(self, pos, m)
    }

    /// The game has once-per-game rights, which FEN writes in the castling field.
    pub fn has_privileges(&self) -> bool {
        self.rules.all_rights != 0
    }

    /// The rights field of a FEN with every once-per-game right unused (`SCsc`), if the
    /// game has such rights.
    pub fn all_rights_field(&self) -> Option<String> {
        if !self.has_privileges() {
            return None;
        }
        let mut s = String::new();
        for color in Color::ALL {
            for r in self.rules.rights() {
                s.push(if color == WHITE {
                    r.letter.to_ascii_uppercase()
                } else {
                    r.letter.to_ascii_lowercase()
                });
            }
        }
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::AnyGame;

    fn rule_names(variant: &str) -> Vec<&'static str> {
        let any = AnyGame::builtin(variant).unwrap();
        crate::with_width!(&any, g => g
            .rules
            .list
            .iter()
            .map(|r| match r {
                Rule::LionTrading(_) => "lion-trading",
                Rule::PawnOfPawns(_) => "pawn-of-pawns",
                Rule::RoyalSwap(_) => "royal-swap",
                Rule::Citadels(_) => "citadels",
                Rule::Carrying(_) => "carrying",
                Rule::RoyalReplacement(_) => "royal-replacement",
                Rule::Bodyguards(_) => "bodyguards",
                Rule::LittleGreat(_) => "little-great",
                Rule::Shofidegi(_) => "shofidegi",
            })
            .collect())
    }

    #[test]
    fn each_game_switches_on_its_own_rules() {
        assert!(rule_names("chess").is_empty());
        assert!(rule_names("courier").is_empty());
        assert_eq!(rule_names("chu"), ["lion-trading"]);
        assert_eq!(
            rule_names("tamerlane"),
            ["pawn-of-pawns", "royal-swap", "citadels"]
        );
    }

    #[test]
    fn rules_get_their_own_slots_and_bits() {
        let any = AnyGame::builtin("tamerlane").unwrap();
        crate::with_width!(&any, g => {
            let rights: Vec<Right> = g.rules.rights().collect();
            assert_eq!(rights.len(), 2);
            assert_eq!(rights[0].bits, [1, 2]);
            assert_eq!(rights[1].bits, [4, 8]);
            assert_eq!(g.rules.all_rights, 15);
            assert_eq!(g.rules.transient, 0);
            assert!(g.rules.immunity && g.rules.outcome && g.rules.legal_moves);
            assert!(!g.rules.after_make);
        });
        let any = AnyGame::builtin("chu").unwrap();
        crate::with_width!(&any, g => {
            // The counter-strike's flag and the square of the Lion taken (nine bits).
            assert_eq!(g.rules.transient, 0x3ff);
            assert!(g.rules.after_make && !g.rules.outcome && !g.rules.immunity);
            assert!(!g.has_privileges() && g.all_rights_field().is_none());
        });
    }
}
