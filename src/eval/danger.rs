//! The attack on a lone royal: pieces that attack the royal's zone (its square and the
//! squares a king step away) add attack units, and together they are worth the square of
//! the units. One piece near a King threatens little, several together mate, which a sum
//! of per-piece terms cannot say. A game weighs it with `royal_danger` (percent of the
//! formula, `EvalSpec::royal_danger`); without the key it is not counted.

use crate::core::Bitboard;
use crate::rules::betza::Mode;
use crate::rules::game::Game;

/// Attack units per piece that attacks some square of the zone...
const PER_ATTACKER: i32 = 8;
/// ...and per zone square it attacks.
const PER_SQUARE: i32 = 6;
/// Fewer attackers than this are worth nothing: one piece alone does not mate.
const MIN_ATTACKERS: i32 = 2;
/// The attack is worth units² / `DIVISOR` centipawns...
const DIVISOR: i32 = 64;
/// ...at most `CAP` (at 100%): beyond it the search sees the mate or its absence.
const CAP: i32 = 400;

/// One side's attack on the opponent's royal zone, summed piece by piece.
#[derive(Clone, Copy, Default)]
pub(crate) struct Danger {
    attackers: i32,
    units: i32,
}

impl Danger {
    /// Counts piece `pc` on `sq` (seeing `occ`, moving within `limit`) if it attacks
    /// some square of `zone`, by its leaps, steps and slides. Lame and multi-leg moves
    /// are left out: they are rare, and their paths cost a walk each.
    #[inline(always)]
    pub(crate) fn add<const W: usize>(
        &mut self,
        game: &Game<W>,
        pc: usize,
        sq: usize,
        occ: Bitboard<W>,
        limit: Bitboard<W>,
        zone: Bitboard<W>,
    ) {
        let zone = zone & limit;
        // Most pieces stand where no move of theirs could reach the zone: one mask,
        // checked where the evaluation loops over the pieces.
        if !(game.tables[pc].plain_reach[sq] & zone).is_empty() {
            self.add_reaching(game, pc, sq, occ, zone);
        }
    }

    /// `add` for a piece that could reach `zone` on an empty board: what it reaches
    /// through `occ`.
    #[inline(never)]
    fn add_reaching<const W: usize>(
        &mut self,
        game: &Game<W>,
        pc: usize,
        sq: usize,
        occ: Bitboard<W>,
        zone: Bitboard<W>,
    ) {
        let tab = &game.tables[pc];
        let mut hit = tab.leap_capture[sq] & zone;
        for s in tab.slides.iter().filter(|s| s.mode != Mode::Move) {
            // Most rays miss the zone: only those that meet it are followed.
            if !(game.rays[s.dir as usize * game.squares + sq] & zone).is_empty() {
                hit |= game.slide_targets(s, sq, occ) & zone;
            }
        }
        if !hit.is_empty() {
            self.attackers += 1;
            self.units += PER_ATTACKER + PER_SQUARE * hit.count() as i32;
        }
    }

    /// The attack's worth to the attacker in centipawns, at `percent` of the formula.
    #[inline]
    pub(crate) fn worth(self, percent: i32) -> i32 {
        if self.attackers < MIN_ATTACKERS {
            return 0;
        }
        (self.units * self.units / DIVISOR).min(CAP) * percent / 100
    }
}

/// The zone of a royal whose square and king-step neighbours are `near` (the
/// evaluation's shelter table): the squares an attack on it counts.
#[inline]
pub(crate) fn zone<const W: usize>(near: &[u16]) -> Bitboard<W> {
    let mut zone = Bitboard::EMPTY;
    for &n in near {
        zone.set(n as usize);
    }
    zone
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_attacker_is_worth_nothing_and_many_are_capped() {
        let one = Danger {
            attackers: 1,
            units: 50,
        };
        assert_eq!(one.worth(100), 0);
        // Two pieces attacking two squares each: (2 x (8 + 12))^2 / 64 = 25.
        let two = Danger {
            attackers: 2,
            units: 40,
        };
        assert_eq!(two.worth(100), 25);
        assert_eq!(two.worth(200), 50);
        assert_eq!(two.worth(0), 0);
        let many = Danger {
            attackers: 6,
            units: 1000,
        };
        assert_eq!(many.worth(100), CAP);
        assert_eq!(many.worth(50), CAP / 2);
    }
}
