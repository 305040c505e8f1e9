//! Bodyguards (Hiashatar's Hia): the squares next to a bodyguard are stops for the pieces
//! it holds back (the enemy's, or with `bodyguard_power = "all"` every piece but itself;
//! never a piece marked `unrestrained`, the Knight). A held piece's slide or lame leap
//! ends on the first such square on its way, capturing there if an enemy stands on it,
//! and never passes it; a held piece that starts on such a square moves one square only
//! (`bodyguard_freeze`, on by default). The power is judged on the position before the
//! move, a bodyguard the move captures included, and it restrains attacks exactly as it
//! restrains moves (`rules::restraint`): a Rook's check stops at the defender's
//! bodyguard, a frozen Queen attacks only its neighbours. A piece with `checks = false`
//! (the Hia itself) never attacks a royal.

use crate::core::color::color_of_piece;
use crate::core::{Bitboard, Color};
use crate::rules::extension::{RuleExtension, Slot};
use crate::rules::game::Game;
use crate::rules::position::Position;

#[derive(Clone, Debug)]
pub struct Bodyguards<const W: usize> {
    /// Bodyguard piece indices, per colour.
    guards: [Vec<usize>; 2],
    /// Per piece index: a bodyguard may hold it back.
    held: Vec<bool>,
    /// Per piece index: it never attacks a royal.
    harmless: Vec<bool>,
    /// Bodyguards hold back their own side's pieces too.
    friends: bool,
    /// A held piece starting next to a bodyguard moves one square only.
    freeze: bool,
    /// The squares next to each square.
    rings: Vec<Bitboard<W>>,
}

impl<const W: usize> Bodyguards<W> {
    pub fn new(game: &Game<W>, _slot: Slot) -> Option<Self> {
        let pieces = &game.spec.pieces;
        let mut guards = [Vec::new(), Vec::new()];
        for pc in 0..2 * game.types {
            if pieces[pc / 2].bodyguard {
                guards[color_of_piece(pc)].push(pc);
            }
        }
        if guards[0].is_empty() && guards[1].is_empty() {
            return None;
        }
        let rings = (0..game.squares)
            .map(|sq| {
                let mut ring = Bitboard::EMPTY;
                for (dx, dy) in [
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                    (-1, 0),
                    (1, 0),
                    (-1, 1),
                    (0, 1),
                    (1, 1),
                ] {
                    if let Some(n) = game.geo.offset(sq, dx, dy) {
                        ring.set(n);
                    }
                }
                ring
            })
            .collect();
        Some(Bodyguards {
            guards,
            held: (0..2 * game.types)
                .map(|pc| !pieces[pc / 2].unrestrained)
                .collect(),
            harmless: (0..2 * game.types)
                .map(|pc| !pieces[pc / 2].checks)
                .collect(),
            friends: game.spec.bodyguards_hold_friends,
            freeze: game.spec.bodyguard_freezes,
            rings,
        })
    }

    /// The squares next to the bodyguards of `color`, the one on `except` left out.
    fn zone(&self, pos: &Position<W>, color: Color, except: usize) -> Bitboard<W> {
        let mut zone = Bitboard::EMPTY;
        for &g in &self.guards[color] {
            for sq in pos.by_piece[g] {
                if sq != except {
                    zone |= self.rings[sq];
                }
            }
        }
        zone
    }
}

impl<const W: usize> RuleExtension<W> for Bodyguards<W> {
    fn has_restraint(&self) -> bool {
        true
    }

    fn restraint(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        pc: usize,
        from: usize,
    ) -> (Bitboard<W>, Option<Bitboard<W>>) {
        let color = color_of_piece(pc);
        let mut stops = Bitboard::EMPTY;
        let mut limit = None;
        if self.held[pc] {
            stops = self.zone(pos, color.opposite(), usize::MAX);
            if self.friends {
                stops |= self.zone(pos, color, from);
            }
            limit = (self.freeze && stops.has(from)).then(|| self.rings[from]);
        }
        if self.harmless[pc] {
            // It never takes a royal: a King may stand next to it.
            let royals = pos.royals(game, color.opposite());
            limit = Some(limit.unwrap_or(game.valid).andnot(royals));
        }
        (stops, limit)
    }

    fn harmless(&self, pc: usize) -> bool {
        self.harmless[pc]
    }
}
