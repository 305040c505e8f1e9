//! The evaluation as a linear function of its parameters: for a position, the
//! coefficient of every number of `Params` (in `Params::to_vector`'s layout), so that
//! `Σ weight × coefficient + fixed` is exactly what `Eval::evaluate` returns. The tuner
//! extracts these once per position and then fits the weights without evaluating again.
//!
//! This walks the position as `evaluate` does and must change with it; the test below
//! checks the two agree on positions of several games.

use super::params::{
    ADVANCE, ATTACK, CENTRE, DOUBLED, HALF_OPEN_FILE, ISOLATED, LEAPS, OPEN_FILE, PASSED,
    PAWN_THREAT, PER_PIECE, PIECE_MOBILITY, PROMOTION, SPACE, UNSAFE_REACH, VALUE, activity_index,
    control_index, danger_index, endgame_index, few_pieces_index, pawn_index, safety_index,
    shelter_index, square_index, tempo_index, threats_index,
};
use super::{
    Danger, Eval, IMMOBILE_SHARE, PHASE_FULL, blend, centre, control, leap_squares, pawns,
    progress, safety, slide_reach, threats,
};
use crate::core::{BLACK, Bitboard, Color, WHITE, color_of_piece, piece_index, type_of_piece};
use crate::rules::game::Game;
use crate::rules::position::Position;
use crate::rules::reserves::PRISONERS;
use crate::rules::spec::FEW_PIECES;

/// A position's evaluation as coefficients of the parameters, from the side to move.
#[derive(Clone, Debug, Default)]
pub struct Features {
    /// (parameter index, coefficient), the coefficients that are not 0.
    pub terms: Vec<(u32, f32)>,
    /// What does not depend on the parameters: the mop-up, and the rounding of the
    /// tables (whole centipawns) under the parameters the features were taken with.
    pub fixed: f64,
}

impl Features {
    /// The evaluation under the flat parameter vector `params`.
    pub fn dot(&self, params: &[f64]) -> f64 {
        self.fixed
            + self
                .terms
                .iter()
                .map(|&(i, c)| params[i as usize] * c as f64)
                .sum::<f64>()
    }
}

/// The coefficients being summed, densely, and what is fixed.
struct Sum {
    dense: Vec<f64>,
    fixed: f64,
    /// The middlegame's share of the tables (`Eval::phase` over `PHASE_FULL`); the
    /// endgame numbers have the rest.
    middlegame: f64,
    /// What the endgame tables add over the middlegame ones, in whole centipawns as
    /// `evaluate` sums them, side to move less opponent.
    shift: i32,
}

impl Sum {
    /// A term counted at `percent` of a model whose worth at a percentage is `worth`,
    /// `weight` times (the side's sign, negated for a cost): its coefficient is the
    /// worth at 100% over 100, and what `worth` rounds to whole centipawns is fixed.
    fn add_percent(&mut self, index: usize, weight: f64, worth: impl Fn(i32) -> i32, percent: i32) {
        let full = worth(100) as f64;
        self.dense[index] += weight * full / 100.0;
        self.fixed += weight * (worth(percent) as f64 - full * percent as f64 / 100.0);
    }
}

impl Eval {
    /// `pos`'s evaluation (side to move) as coefficients of the parameters.
    pub fn features<const W: usize>(&self, game: &Game<W>, pos: &Position<W>) -> Features {
        let types = game.types;
        let phase = self.phase(pos);
        let mut sum = Sum {
            dense: vec![0.0; self.params.len()],
            fixed: 0.0,
            middlegame: phase as f64 / PHASE_FULL as f64,
            shift: 0,
        };
        let us = pos.side;
        let sign = |color: Color| sign(color, us);
        let occ = pos.occupied();
        let restrained = game.restraint_now(pos);
        let royals = [pos.royals(game, WHITE), pos.royals(game, BLACK)];
        if self.cannot_mate(pos, &royals) {
            // `evaluate` says 0, whatever the numbers.
            return Features::default();
        }
        let lone = royals.map(|r| r.first().filter(|_| !r.more_than_one()));
        // The attack on each royal, also where its weight is 0 (the tuner may move it off 0).
        let zones = self.royal_zones(&lone);
        let mut danger = [Danger::default(); 2];
        // The siege of each royal, also where its weight is 0.
        let mut siege = safety::Survey::new(game, &self.safety, &lone, occ);
        // What the pawns attack, in every game with pawns (the tuner may move the
        // weights off 0).
        let has_pawns = self.pawn.iter().any(|&p| p);
        let attacks = has_pawns.then(|| control::pawn_attacks(game, pos, &self.pawn));
        // Each side's mobility area and its pieces' activity, also where its weight is 0.
        let areas = Color::ALL.map(|color| {
            let theirs = attacks.map_or(Bitboard::EMPTY, |a| a[color.opposite()]);
            let held = (&self.pawn[..], royals[color]);
            self.reach.area(game, pos, held, color, theirs)
        });
        let mut active = [(0i32, 0i32); 2];
        for pc in 0..2 * game.types {
            let color = color_of_piece(pc);
            let (own, theirs) = (pos.by_color[color], pos.by_color[color.opposite()]);
            let base = type_of_piece(pc) * PER_PIECE;
            let zone = zones[color.opposite()].filter(|_| !game.is_royal[pc]);
            let watched = attacks
                .map(|a| a[color.opposite()])
                .filter(|_| self.reach_counted[pc]);
            for sq in pos.by_piece[pc] {
                let (seen, limit) = super::piece_view(game, pos, pc, sq, occ, restrained);
                if restrained && limit.is_empty() {
                    // `evaluate` counts a share of each table's entry, in whole
                    // centipawns.
                    let share = 1.0 / IMMOBILE_SHARE as f64;
                    self.add_square(game, &mut sum, pc, sq, sign(color) * share);
                    let entry = pc * self.squares + sq;
                    let (mg, eg) = (self.pst[entry], self.pst_eg[entry]);
                    let rounding = |v: i32| (v / IMMOBILE_SHARE) as f64 - v as f64 * share;
                    sum.fixed += sign(color)
                        * (sum.middlegame * rounding(mg) + (1.0 - sum.middlegame) * rounding(eg));
                    let shift = eg / IMMOBILE_SHARE - mg / IMMOBILE_SHARE;
                    sum.shift += if color == us { shift } else { -shift };
                    continue;
                }
                self.add_square(game, &mut sum, pc, sq, sign(color));
                sum.shift += self.shift_of(pc, sq, color == us);
                // Every slider's reach, also where its weight is 0 (the tuner may move
                // it off 0).
                let (count, slid, slides_attack) = if game.tables[pc].slides.is_empty() {
                    (0, Bitboard::EMPTY, Bitboard::EMPTY)
                } else {
                    let reach = slide_reach(game, pc, sq, seen, limit, own);
                    (reach.count, reach.squares, reach.attacked)
                };
                sum.dense[base + PIECE_MOBILITY] += sign(color) * count as f64;
                let leapt = leap_squares(game, pc, sq, occ, limit, theirs);
                sum.dense[base + LEAPS] += sign(color) * leapt.count() as f64;
                if let Some(attacked) = watched {
                    let unsafe_squares = ((slid | leapt) & attacked).count();
                    sum.dense[control_index(types, UNSAFE_REACH)] +=
                        sign(color) * unsafe_squares as f64;
                }
                if let Some(k) = lone[color.opposite()] {
                    sum.dense[base + ATTACK] += sign(color) * self.nearness(sq, k) as f64;
                }
                if let Some(zone) = zone {
                    danger[color].add(game, pc, sq, seen, limit, zone);
                }
                // The siege's attacks, from the walk above as `evaluate` takes them.
                let hit = (game.tables[pc].leap_capture[sq] | slides_attack) & limit;
                siege.add(game, pc, hit, self.pawn[pc], occ);
                if self.reach.counts(pc) {
                    self.reach.add(&mut active[color], pc, (hit, areas[color]));
                }
            }
        }
        let p = &self.params;
        for (color, d) in Color::ALL.into_iter().zip(danger) {
            let worth = |percent| d.worth(percent);
            sum.add_percent(danger_index(types), sign(color), worth, p.royal_danger);
        }
        let phase_share = (phase, PHASE_FULL);
        for (color, a) in Color::ALL.into_iter().zip(active) {
            let worth = |percent| blend(a, phase_share, percent);
            sum.add_percent(activity_index(types), sign(color), worth, p.activity);
        }
        let side_pawns = pawns::squares_of(pos, &self.pawn);
        let all_pawns = side_pawns[0] | side_pawns[1];
        for color in Color::ALL {
            // A cost to `color`.
            let cost = |p| siege.cost(game, &pos.by_color, all_pawns, color, phase_share, p);
            sum.add_percent(safety_index(types), -sign(color), cost, p.royal_safety);
        }
        // The threats of each side, also where their weight is 0; none where the mop-up
        // drives a royal, as in `evaluate`.
        let mop = Color::ALL.map(|color| self.mop_up_with(game, pos, color, &royals));
        if mop == [0, 0] {
            let sides = threats::Sides {
                pos,
                values: &self.values,
                pawns: side_pawns,
                royals: &royals,
            };
            for color in Color::ALL {
                let worth =
                    |p| threats::worth(&siege, game, &self.safety, &sides, color, phase_share, p);
                sum.add_percent(threats_index(types), sign(color), worth, p.threats);
            }
        }
        if game.stacks.exist {
            for (sq, &code) in pos.carried.iter().enumerate() {
                if code != 0 {
                    let pc = code as usize - 1;
                    self.add_square(game, &mut sum, pc, sq, sign(color_of_piece(pc)));
                    sum.shift += self.shift_of(pc, sq, color_of_piece(pc) == us);
                }
            }
        }
        if game.reserves.exist() {
            self.add_reserve_features(game, pos, &mut sum, us);
        }
        for color in Color::ALL {
            sum.fixed += sign(color) * mop[color.index()] as f64;
            let mine = royals[color];
            let shelter = self.shelter_count(pos, color, mine);
            sum.dense[shelter_index(types)] += sign(color) * shelter as f64;
            let others = pos.by_color[color].andnot(mine).count() as usize;
            if (1..=FEW_PIECES).contains(&others) {
                sum.dense[few_pieces_index(types, others)] += sign(color);
            }
        }
        if let Some(attacks) = attacks {
            // The pawns found once, for their structure and for what they control.
            let pawns = pawns::Pawns::of(game, pos, &self.pawn);
            self.add_pawn_features(game, &pawns, &mut sum, us);
            let squares = Color::ALL.map(|c| pawns.of_color(c));
            let pawnless = Color::ALL.map(|c| pawns.pawnless_files(game, c));
            for color in Color::ALL {
                let (threats, open, half) =
                    self.control_counts(game, pos, (&squares, &pawnless), &attacks, &royals, color);
                for (term, n) in [
                    (PAWN_THREAT, threats),
                    (OPEN_FILE, open),
                    (HALF_OPEN_FILE, half),
                ] {
                    sum.dense[control_index(types, term)] += sign(color) * n as f64;
                }
                // Linear in the weight; `evaluate` rounds to whole centipawns.
                let (room, pieces) = self.space(pos, &pawns, &attacks, color);
                let per_weight = control::space_coefficient(room, pieces);
                sum.dense[control_index(types, SPACE)] += sign(color) * per_weight;
                let weight = self.params.space;
                sum.fixed += sign(color)
                    * (control::space_worth(weight, room, pieces) as f64
                        - weight as f64 * per_weight);
            }
        }
        if self.tapered {
            // `evaluate` rounds the endgame's share of the shift towards 0.
            let counted = self.endgame_share(sum.shift, phase) as f64;
            sum.fixed += counted - sum.shift as f64 * (1.0 - sum.middlegame);
        }
        sum.dense[tempo_index(types)] += 1.0;
        Features {
            terms: sum
                .dense
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c != 0.0)
                .map(|(i, &c)| (i as u32, c as f32))
                .collect(),
            fixed: sum.fixed,
        }
    }

    /// What the endgame table of `pc` on `sq` adds over the middlegame one, for the side
    /// to move (`ours`) or against it.
    fn shift_of(&self, pc: usize, sq: usize, ours: bool) -> i32 {
        let entry = pc * self.squares + sq;
        let shift = self.pst_eg[entry] - self.pst[entry];
        if ours { shift } else { -shift }
    }

    /// The table entries of `pc` on `sq`, times `weight`: the value and positional
    /// coefficients of each phase (the middlegame's by its share of the phase, the
    /// endgame's by the rest; the square table counts in both), and the entries'
    /// rounding as a fixed part.
    fn add_square<const W: usize>(
        &self,
        game: &Game<W>,
        sum: &mut Sum,
        pc: usize,
        sq: usize,
        weight: f64,
    ) {
        let t = type_of_piece(pc);
        let p = &self.params.pieces[t];
        let color = color_of_piece(pc);
        let (c, a) = (centre(game, sq), progress(game, color, sq));
        let own = self.own[color.index() * self.squares + sq] as usize;
        let entry = pc * self.squares + sq;
        let phases = [
            (
                t * PER_PIECE,
                sum.middlegame,
                p.middlegame(),
                self.pst[entry],
            ),
            (
                endgame_index(game.types, self.squares, t, 0),
                1.0 - sum.middlegame,
                p.endgame,
                self.pst_eg[entry],
            ),
        ];
        for (base, share, e, counted) in phases {
            let w = weight * share;
            sum.dense[base + VALUE] += w;
            sum.dense[base + CENTRE] += w * c;
            sum.dense[base + ADVANCE] += w * a;
            sum.dense[base + PROMOTION] += w * a * a;
            let exact = e.value as f64
                + e.centre * c
                + e.advance * a
                + e.promotion * a * a
                + p.squares[own];
            sum.fixed += w * (counted as f64 - exact);
        }
        sum.dense[square_index(game.types, self.squares, t, own)] += weight;
    }

    /// The pawn structure, also where its weights are 0 (the tuner may move them off 0);
    /// a passed pawn's entry is rounded to whole centipawns, its rounding a fixed part.
    fn add_pawn_features<const W: usize>(
        &self,
        game: &Game<W>,
        pawns: &pawns::Pawns<W>,
        sum: &mut Sum,
        us: Color,
    ) {
        let types = game.types;
        for color in Color::ALL {
            let sign = sign(color, us);
            let (mut coefficient, mut fixed) = (0.0, 0.0);
            let survey = pawns::survey(game, pawns, color, |sq| {
                let a = progress(game, color, sq).powi(2);
                coefficient += a;
                let counted = self.passed[color.index() * self.squares + sq] as f64;
                fixed += counted - self.params.passed * a;
            });
            sum.dense[pawn_index(types, PASSED)] += sign * coefficient;
            sum.dense[pawn_index(types, DOUBLED)] += sign * survey.doubled as f64;
            sum.dense[pawn_index(types, ISOLATED)] += sign * survey.isolated as f64;
            sum.fixed += sign * fixed;
        }
    }

    /// Reserve pieces at their value; prisoners at a third of it (whole centipawns, as
    /// `add_reserves` counts them).
    fn add_reserve_features<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        sum: &mut Sum,
        us: Color,
    ) {
        for color in Color::ALL {
            let sign = sign(color, us);
            for t in 0..game.types {
                let held = pos.in_reserve(game, color.index(), t) as f64;
                sum.dense[t * PER_PIECE + VALUE] += sign * held;
                if game.reserves.count > PRISONERS && !game.is_royal[piece_index(t, WHITE)] {
                    let prisoners = pos.in_reserve(game, PRISONERS + color.index(), t) as i32;
                    let exact = prisoners as f64 * self.values[t] as f64 / 3.0;
                    let counted = prisoners * self.values[t] / 3;
                    sum.dense[t * PER_PIECE + VALUE] += sign * prisoners as f64 / 3.0;
                    sum.fixed += sign * (counted as f64 - exact);
                }
            }
        }
    }
}

/// A coefficient's sign for `color`'s terms in an evaluation from `us`'s view.
fn sign(color: Color, us: Color) -> f64 {
    if color == us { 1.0 } else { -1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Params;
    use crate::rules::random_lines::random_positions;
    use crate::variants::AnyGame;

    /// The coefficients are stored as `f32`: their rounding, not a term, may show in the
    /// hundredths; a term counted wrongly is off by a quarter of a centipawn or more.
    const TOLERANCE: f64 = 0.05;

    /// Parameters unlike the derived ones in every term, so that a term the features
    /// miss or count differently shows.
    fn perturbed(params: &Params) -> Params {
        let mut v = params.to_vector();
        for (i, x) in v.iter_mut().enumerate() {
            *x += (i % 7) as f64 * 3.0 - 8.0;
        }
        let mut p = params.from_vector(&v);
        p.few_pieces = [-40, -15, -5];
        (p.passed, p.doubled, p.isolated) = (93.7, -17, -11);
        // Not a multiple of 100: the rounding of the attack's worth shows too.
        p.royal_danger = 137;
        p.royal_safety = 71;
        p.threats = 83;
        p.activity = 121;
        // Space's worth is rounded from a fraction of the weight.
        p.space = 13;
        p
    }

    #[test]
    fn features_times_parameters_is_the_evaluation() {
        for name in [
            "chess",
            "courier",
            "sho",
            "chu",
            "tamerlane",
            "hiashatar",
            "littlegreat",
            "shofidegi",
            "flee",
        ] {
            let any = AnyGame::builtin(name).unwrap();
            crate::with_width!(&any, g => {
                for params in [Params::of(g), Params::derived(g), perturbed(&Params::of(g))] {
                    let e = Eval::with_params(g, &params);
                    let v = params.to_vector();
                    for pos in random_positions(g, 120, 7) {
                        let f = e.features(g, &pos);
                        let expected = e.evaluate(g, &pos) as f64;
                        assert!(
                            (f.dot(&v) - expected).abs() < TOLERANCE,
                            "{name}: {} from the features, {expected} evaluated, in {}",
                            f.dot(&v),
                            pos.to_fen(g)
                        );
                    }
                }
            });
        }
    }

    #[test]
    fn features_cover_bare_sides_and_mop_up() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let params = perturbed(&Params::of(g));
            let e = Eval::with_params(g, &params);
            let v = params.to_vector();
            for fen in [
                "k10f/12/12/12/12/12/12/1R4K5 w - - 0 1",
                "k11/12/2K9/12/12/12/12/1R10 b - - 0 1",
                "k8fff/12/12/12/12/12/12/1RRRR1K5 w - - 0 1",
                // The mop-up drives Black's King: the threats are not counted.
                "12/12/2k9/4b7/12/3EM2W4/4KF6/3E8 w - - 0 1",
            ] {
                let pos = Position::from_fen(g, fen).unwrap();
                let f = e.features(g, &pos);
                assert!((f.dot(&v) - e.evaluate(g, &pos) as f64).abs() < TOLERANCE, "{fen}");
            }
        });
    }

    #[test]
    fn features_of_a_drawn_bare_royal_are_none() {
        let any = AnyGame::builtin("flee").unwrap();
        crate::with_width!(&any, g => {
            let e = Eval::with_params(g, &perturbed(&Params::of(g)));
            let fen = "16/16/16/16/16/16/16/5k10/16/16/16/16/16/16/16/2Q1Q3K7 w - - 0 1";
            let pos = Position::from_fen(g, fen).unwrap();
            let f = e.features(g, &pos);
            assert!(f.terms.is_empty() && f.fixed == 0.0);
            assert_eq!(e.evaluate(g, &pos), 0);
        });
    }
}
