//! Tamerlane's resting pieces and their redeployment (the Pawn of Pawns,
//! docs/rules/tamerlane.md), described by the pieces' `rests_on_last_rank`, `redeploy` and
//! `redeploys_as`:
//!
//! - a resting piece, one on its last rank, cannot be captured and moves only by
//!   redeployment;
//! - a redeployment takes it to a square from which the piece it becomes would attack two
//!   enemy men or one that cannot escape (whatever stands there is removed), or to a fixed
//!   square when that is empty.
//!
//! A redeployment is a rule-defined move carrying the piece type it becomes as a
//! promotion; its text is the plain `from to` with no promotion suffix.

use crate::core::{
    BLACK, Bitboard, Color, Move, WHITE, color_of_piece, piece_index, type_of_piece,
};
use crate::rules::extension::{RuleExtension, Slot};
use crate::rules::fen::piece_symbol;
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, Undo, color_of};
use crate::rules::spec::Redeploy;

#[derive(Clone, Debug)]
pub struct PawnOfPawns {
    slot: Slot,
    /// Per piece index: rests, immune and immobile, on its last rank.
    rests: Vec<bool>,
    /// Per piece index: where a resting piece may go, the fixed square already mirrored
    /// for Black.
    redeploy: Vec<Redeploy>,
    /// Per piece index: the piece index a redeployed piece becomes.
    redeploys_as: Vec<Option<usize>>,
}

impl PawnOfPawns {
    pub fn new<const W: usize>(game: &Game<W>, slot: Slot) -> Option<Self> {
        let g = &game.geo;
        let mut rule = PawnOfPawns {
            slot,
            rests: Vec::new(),
            redeploy: Vec::new(),
            redeploys_as: Vec::new(),
        };
        for pc in 0..2 * game.types {
            let (piece, color) = (&game.spec.pieces[type_of_piece(pc)], color_of_piece(pc));
            rule.rests.push(piece.rests_on_last_rank);
            rule.redeploy.push(match piece.redeploy {
                Redeploy::To(sq) if color != WHITE => {
                    Redeploy::To(sq % g.width + (g.height - 1 - g.rank(sq)) * g.width)
                }
                other => other,
            });
            rule.redeploys_as
                .push(piece.redeploys_as.map(|t| piece_index(t, color)));
        }
        rule.rests.contains(&true).then_some(rule)
    }

    /// The resting pieces of `color`: on their last rank, immobile but for redeployment.
    pub fn resting<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        color: Color,
    ) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        for pc in (0..game.types)
            .map(|t| piece_index(t, color))
            .filter(|&pc| self.rests[pc])
        {
            b |= pos.by_piece[pc] & game.last_rank[color];
        }
        b
    }

    /// Redeployments of the resting piece on `from`.
    fn redeployments<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &mut Position<W>,
        from: usize,
        immune: Bitboard<W>,
        list: &mut MoveList,
    ) {
        let pc = pos.board[from] as usize - 1;
        let Some(becomes) = self.redeploys_as[pc] else {
            return;
        };
        let redeploy = |to| Move::rule(from, to, becomes, self.slot.index, true);
        match self.redeploy[pc] {
            Redeploy::Never => {}
            Redeploy::To(sq) => {
                if pos.board[sq] == 0 {
                    list.push(redeploy(sq));
                }
            }
            Redeploy::ForkOrTrap => {
                let us = color_of_piece(pc);
                let royal = pos.royals(game, WHITE) | pos.royals(game, BLACK);
                let targets = game.valid.andnot(game.rules.sanctuary | immune | royal);
                let prey = pos.by_color[us.opposite()].andnot(immune);
                for to in targets.andnot(Bitboard::from_square(from)) {
                    let attacked = game.tables[becomes].leap_capture[to] & prey;
                    let m = redeploy(to);
                    let good = match attacked.count() {
                        0 => false,
                        1 => cannot_escape(game, pos, m, attacked.first().expect("one")),
                        _ => true,
                    };
                    if good {
                        list.push(m);
                    }
                }
            }
        }
    }
}

impl<const W: usize> RuleExtension<W> for PawnOfPawns {
    fn has_immunity(&self) -> bool {
        true
    }

    /// Resting pieces of both sides.
    fn immune(&self, game: &Game<W>, pos: &Position<W>) -> Bitboard<W> {
        self.resting(game, pos, WHITE) | self.resting(game, pos, BLACK)
    }

    /// A resting piece moves only by redeployment.
    fn filter_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        let resting = self.resting(game, pos, pos.side);
        if !resting.is_empty() {
            list.retain(|m| !resting.has(m.from()));
        }
    }

    fn add_moves(&self, game: &Game<W>, pos: &mut Position<W>, list: &mut MoveList) {
        let resting = self.resting(game, pos, pos.side);
        if resting.is_empty() {
            return;
        }
        let immune = game.immune(pos);
        for from in resting {
            self.redeployments(game, pos, from, immune, list);
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
        pos.displace(game, m, u, key);
    }

    fn unmake_move(&self, _game: &Game<W>, pos: &mut Position<W>, m: Move, u: &Undo) {
        pos.undisplace(m, u);
    }

    /// `Pe1>e5`, or `Pe1>xe5` when a piece is removed.
    fn readable(&self, game: &Game<W>, pos: &Position<W>, m: Move) -> String {
        let g = &game.geo;
        let piece = piece_symbol(game, pos.board[m.from()]).to_ascii_uppercase();
        let removed = if pos.board[m.to()] != 0 { "x" } else { "" };
        format!("{piece}{}>{removed}{}", g.name(m.from()), g.name(m.to()))
    }

    /// Quiet unless it removes an enemy piece.
    fn tactical(&self, _game: &Game<W>, pos: &Position<W>, m: Move) -> bool {
        let code = pos.board[m.to()];
        code != 0 && color_of(code) != pos.side
    }

    /// Whatever stands on the square it goes to, of either side.
    fn removes(&self, _game: &Game<W>, pos: &Position<W>, m: Move) -> Option<usize> {
        (pos.board[m.to()] != 0).then_some(m.to())
    }

    fn becomes(&self, pc: usize) -> Option<usize> {
        self.redeploys_as[pc]
    }

    /// A resting piece may be redeployed to any square.
    fn move_bound(&self, game: &Game<W>, pos: &Position<W>, color: Color, _pieces: usize) -> usize {
        let resting = (0..game.types)
            .map(|t| piece_index(t, color))
            .filter(|&pc| self.rests[pc])
            .map(|pc| pos.by_piece[pc].count() as usize)
            .sum::<usize>();
        resting * game.squares
    }
}

/// After the redeployment `m`, the enemy man on `victim` has no move to a square the
/// redeploying side does not attack. (An approximation of "a man that cannot escape",
/// docs/rules/tamerlane.md: interpositions and counter-threats are not considered.)
fn cannot_escape<const W: usize>(
    game: &Game<W>,
    pos: &mut Position<W>,
    m: Move,
    victim: usize,
) -> bool {
    let us = pos.side;
    let u = pos.make(game, m);
    // The victim's side is to move now: its pseudo-legal moves from `victim`.
    let mut list = MoveList::new();
    game.pseudo_moves(pos, &mut list);
    let mut reach = Bitboard::EMPTY;
    for n in list
        .iter()
        .filter(|n| n.from() == victim && n.to() != victim)
    {
        reach.set(n.to());
    }
    let trapped = reach.andnot(game.rules.sanctuary).iter().all(|to| {
        let step = Move::new(victim, to, crate::core::MoveKind::Normal);
        let v = pos.make(game, step);
        let hit = game.attacked(pos, to, us);
        pos.unmake(game, step, v);
        hit
    });
    pos.unmake(game, m, u);
    trapped
}
