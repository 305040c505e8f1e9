//! Evaluation for any variant without hand tuning: piece values derived from each piece's
//! mobility, piece-square terms for centralisation and promotion progress, slider
//! mobility and royal shelter; where a game's tuned numbers give them, leap reach,
//! nearness to the opponent's royal, pawn structure (`pawns.rs`) and what the pawns
//! control (`control.rs`). Scores are centipawn-like, from the side to move.
//!
//! Piece values: a piece's expected number of moves, averaged over every square of the
//! board, where each square along a slide is empty with probability 0.7 (so a rider is
//! worth less than its empty-board reach), and move-only or capture-only moves count half.
//! One expected move is worth `VALUE_PER_MOVE`; on 8x8 this gives Knight 300, Bishop 360,
//! Rook 520, Queen 880 and Pawn 90, close to the classical values, and it gives sensible
//! numbers for every piece of every variant (see `kirin values`).

use crate::core::{BLACK, Bitboard, Color, WHITE, color_of_piece, piece_index, type_of_piece};
use crate::rules::betza::Mode;
use crate::rules::game::Game;
use crate::rules::position::Position;
use crate::rules::reserves::PRISONERS;
use crate::rules::spec::{BareKing, FEW_PIECES};
use danger::Danger;
pub use params::Params;

mod activity;
pub mod breakdown;
mod control;
mod danger;
pub mod features;
pub mod params;
mod pawn_cache;
mod pawns;
mod safety;
mod threats;
pub use pawn_cache::PawnCache;
use pawn_cache::PawnSummary;

/// Centipawns per expected move.
const VALUE_PER_MOVE: f64 = 57.0;
/// Probability that a square along a slide is empty, for the value estimate.
const EMPTY: f64 = 0.7;
/// Mobility bonus per square a slider reaches, in centipawns.
const MOBILITY: i32 = 1;
/// A piece a rule holds immobile counts this fraction (1/n) of its value.
const IMMOBILE_SHARE: i32 = 4;
/// Bonus per friendly piece next to a lone royal, in centipawns.
const SHELTER: i32 = 6;
/// What having the move is worth. Without it a symmetric position scores exactly 0, and
/// so did every even-depth iteration from a start position (the reply mirrors the move).
const TEMPO: i32 = 10;
/// The middlegame's share of a tapered evaluation when every piece of the start is on
/// the board (`Eval::phase`); the endgame's share is what the pieces gone leave.
pub(crate) const PHASE_FULL: i32 = 256;
/// Mop-up against a side left with only royal pieces, which must then be mated (a GUI
/// that does not know the bare-king rule sees no other end): per step that the lone
/// royal stands nearer the edge of the board...
const MOP_EDGE: i32 = 16;
/// ...per step nearer a corner (king steps)...
const MOP_CORNER: i32 = 6;
/// ...per king step that the stronger side's royal stands closer to it...
const MOP_CLOSE: i32 = 6;
/// ...per king step that each of the stronger side's other pieces does (counted as for
/// at most `MOP_HUNTERS` pieces next to it, so that a large army does not make the
/// mop-up outweigh its material)...
const MOP_HUNT: i32 = 4;
const MOP_HUNTERS: i32 = 6;
/// ...and per square of the eight next to it that is off the board or attacked.
const MOP_FREE: i32 = 8;
/// The mop-up applies as well while the weaker side has at most this many other pieces...
const MOP_FEW: u32 = 2;
/// ...and the stronger side's other pieces are worth at least this much more, and at
/// least twice as much (a won ending where the King must be hunted down while its last
/// pieces run: Fairy-Max's King, Courier and Pawn against kirin's Man, Schleich, Fers,
/// two Alfils and two Pawns was drawn by the 50-move rule).
const MOP_MARGIN: i32 = 300;
/// The whole mop-up counts this many times over where only a mate wins (no bare-king
/// rule, as in chess or under XBoard's view of Courier): there the drive must outweigh
/// the positional terms of every piece on the board, or a fixed-depth search wanders.
/// With it, Courier's won ending of King, Man, Schleich, Fers, two Alfils and two Pawns
/// against King, Courier and Pawn (`engine-tests/claims.rs`) and a second like it were
/// mated within 200 plies at 9 of 10 search depths from 8 to 12, against 6 of 10 at
/// once. Where baring the royal wins, its last pieces are the target and the mop-up
/// stays as it is.
const MOP_MATE_ONLY: i32 = 4;

/// Precomputed evaluation tables of one game.
pub struct Eval {
    /// Value per piece type.
    pub values: Vec<i32>,
    /// `pst[piece * squares + sq]`: value plus positional bonus of a piece on a square.
    pst: Vec<i32>,
    /// The same with the endgame numbers (`params::Endgame`): equal to `pst` unless the
    /// game's numbers are tapered.
    pst_eg: Vec<i32>,
    /// Whether they differ, so that the evaluation blends the two by `phase`.
    tapered: bool,
    /// Per piece index: what it weighs in the phase, its value unless it is royal or a
    /// pawn (the armies' pieces, as the board empties of them the endgame begins)...
    phase_weight: Vec<i32>,
    /// ...and what the start position's pieces weigh together (0: no phase).
    phase_start: i64,
    squares: usize,
    /// `own[color * squares + sq]`: `sq` as `color` sees it (`own_squares`), the index of
    /// the square tables.
    own: Vec<u16>,
    /// Per piece index: centipawns per square its slides reach (0: not counted, as for
    /// every piece that does not slide).
    mobility: Vec<i32>,
    /// Per piece index: centipawns per square its leaps and steps reach (0: not counted).
    leaps: Vec<i32>,
    /// Per piece index: centipawns per king step it stands nearer the opponent's lone
    /// royal than `span` (0: not counted).
    attack: Vec<i32>,
    /// Per square: its file and rank (king-step distances).
    coords: Vec<(i8, i8)>,
    /// Per friendly piece next to a lone royal.
    shelter: i32,
    /// For the side to move.
    pub tempo: i32,
    /// For a side with exactly 1, 2, 3 non-royal pieces...
    few_pieces: [i32; FEW_PIECES],
    /// ...counted only when some weight is not 0 (games with a bare-king rule).
    few_pieces_count: bool,
    /// Per piece index: whether it is a pawn (`pawns.rs`).
    pawn: Vec<bool>,
    /// `passed[color * squares + sq]`: a passed pawn of `color` on `sq`.
    passed: Vec<i32>,
    /// Per doubled pawn, per isolated pawn.
    doubled: i32,
    isolated: i32,
    /// Whether the pawn structure counts: the game has pawns and a weight is not 0.
    pawn_terms: bool,
    /// Whether each side has at most one type of pawn, so that the pawns' squares say
    /// all the pawn cache needs (with two types that capture differently, the same
    /// squares could attack others): only then is it used.
    one_pawn_type: bool,
    /// Per piece index: whether its reach counts for `unsafe_reach` (neither a pawn nor
    /// royal), and whether it slides ahead (open files).
    reach_counted: Vec<bool>,
    slides_ahead: Vec<bool>,
    /// Whether what the pawns control counts (`control.rs`, its weights read from
    /// `params`): the game has pawns and a weight is not 0.
    control_terms: bool,
    /// Each side's area of space (`control.rs`).
    space_area: control::SpaceArea,
    /// The numbers the tables were built from: the attack's percentage and the
    /// pawn-control weights are read from here, and the tuner's feature extraction reads them all.
    params: Params,
    /// Per square: the square and its king-step neighbours (royal shelter).
    neighbours: Vec<Vec<u16>>,
    /// Per square: the mop-up bonus of a lone royal there (nearer edge and corner, more).
    cornered: Vec<i32>,
    /// The longest king-step distance on the board (mop-up).
    span: i32,
    /// How many times the mop-up counts (`MOP_MATE_ONLY` where only a mate wins, else 1).
    mop_scale: i32,
    /// What the siege of a royal needs (`safety.rs`): built for every game, since the
    /// tuner may weigh it where the game does not.
    safety: safety::Layout,
    /// Each piece's greatest reach and the pawns' first ranks, for the activity.
    reach: activity::Reach,
    /// The fewest non-royal pieces that can mate a lone royal, where the game says so
    /// (`EvalSpec::mating_pieces`); 0: no such knowledge.
    mating_pieces: u32,
}

impl Eval {
    /// The game's evaluation: its `[variant.eval]` numbers, the derived ones for the rest.
    pub fn new<const W: usize>(game: &Game<W>) -> Eval {
        Eval::with_params(game, &Params::of(game))
    }

    /// The evaluation of `game` with the numbers `params` (the tuner's).
    pub fn with_params<const W: usize>(game: &Game<W>, params: &Params) -> Eval {
        let values: Vec<i32> = params.pieces.iter().map(|p| p.value).collect();
        let n = game.squares;
        let g = &game.geo;
        let own = own_squares(game);
        let table = |phase: fn(&params::PieceParams) -> params::Endgame| {
            let mut pst = vec![0; 2 * game.types * n];
            for pc in 0..2 * game.types {
                let p = &params.pieces[type_of_piece(pc)];
                let e = phase(p);
                let color = color_of_piece(pc);
                for sq in (0..n).filter(|&s| !g.holes[s]) {
                    let progress = progress(game, color, sq);
                    // Summed in this order, and rounded once, as before the numbers were
                    // parameters: an untuned game keeps exactly its old table. The
                    // square table's entry is whole centipawns in a definition.
                    let bonus = e.centre * centre(game, sq)
                        + e.advance * progress
                        + e.promotion * progress * progress;
                    let square = p.squares[own[color.index() * n + sq] as usize];
                    pst[pc * n + sq] = e.value + bonus.round() as i32 + square.round() as i32;
                }
            }
            pst
        };
        let pst = table(|p| p.middlegame());
        let pst_eg = table(|p| p.endgame);
        let per_piece = |weight: fn(&params::PieceParams) -> i32| -> Vec<i32> {
            (0..2 * game.types)
                .map(|pc| weight(&params.pieces[type_of_piece(pc)]))
                .collect()
        };
        let coords = (0..n)
            .map(|sq| (g.file(sq) as i8, g.rank(sq) as i8))
            .collect();
        let neighbours = (0..n)
            .map(|sq| {
                let mut near = Vec::new();
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        if let Some(s) = g.offset(sq, dx, dy) {
                            near.push(s as u16);
                        }
                    }
                }
                near
            })
            .collect();
        let (w, h) = (g.width as i32, g.height as i32);
        let cornered = (0..n)
            .map(|sq| {
                let (f, r) = (g.file(sq) as i32, g.rank(sq) as i32);
                let (df, dr) = (f.min(w - 1 - f), r.min(h - 1 - r));
                let edge = (w.min(h) - 1) / 2 - df.min(dr);
                let corner = (w.max(h) - 1) / 2 - df.max(dr);
                MOP_EDGE * edge + MOP_CORNER * corner
            })
            .collect();
        let pawn: Vec<bool> = (0..2 * game.types)
            .map(|pc| pawns::is_pawn(game, pc))
            .collect();
        let passed = Color::ALL
            .into_iter()
            .flat_map(|color| {
                (0..n).map(move |sq| {
                    (params.passed * progress(game, color, sq).powi(2)).round() as i32
                })
            })
            .collect();
        let weighs = params.passed != 0.0 || params.doubled != 0 || params.isolated != 0;
        let has_pawns = pawn.iter().any(|&p| p);
        let phase_weight: Vec<i32> = (0..2 * game.types)
            .map(|pc| {
                let counted = !pawn[pc] && !game.is_royal[pc];
                if counted {
                    values[type_of_piece(pc)]
                } else {
                    0
                }
            })
            .collect();
        let safety = safety::Layout::new(game, &values);
        let reach = activity::Reach::new(game, &pawn, &own);
        let phase_start = Position::from_fen(game, &game.spec.start)
            .map(|start| weigh_phase(&phase_weight, &start))
            .unwrap_or(0);
        Eval {
            pawn_terms: weighs && has_pawns,
            one_pawn_type: pawn.iter().filter(|&&p| p).count() <= 2,
            reach_counted: (0..2 * game.types)
                .map(|pc| !pawn[pc] && !game.is_royal[pc])
                .collect(),
            slides_ahead: (0..2 * game.types)
                .map(|pc| control::slides_ahead(game, pc))
                .collect(),
            control_terms: has_pawns && params.control().iter().any(|&w| w != 0),
            space_area: control::SpaceArea::new(g, &own),
            pawn,
            passed,
            doubled: params.doubled,
            isolated: params.isolated,
            values,
            tapered: params.tapered() && phase_start > 0,
            pst,
            pst_eg,
            phase_weight,
            phase_start,
            squares: n,
            own,
            mobility: per_piece(|p| p.mobility),
            leaps: per_piece(|p| p.leaps),
            attack: per_piece(|p| p.attack),
            coords,
            shelter: params.shelter,
            tempo: params.tempo,
            few_pieces: params.few_pieces,
            few_pieces_count: params.few_pieces.iter().any(|&w| w != 0),
            params: params.clone(),
            neighbours,
            cornered,
            span: g.width.max(g.height) as i32 - 1,
            mop_scale: if game.spec.bare_king == BareKing::Play {
                MOP_MATE_ONLY
            } else {
                1
            },
            safety,
            reach,
            // The definition allows it only where no piece is carried or dropped.
            mating_pieces: game.spec.eval.mating_pieces.unwrap_or(0),
        }
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate<const W: usize>(&self, game: &Game<W>, pos: &Position<W>) -> i32 {
        self.evaluate_with(game, pos, None)
    }

    /// The same, the pawn structure's part found in (or added to) a search thread's
    /// `cache`: the same score.
    pub fn evaluate_cached<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        cache: &mut PawnCache<W>,
    ) -> i32 {
        self.evaluate_with(game, pos, Some(cache))
    }

    fn evaluate_with<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        cache: Option<&mut PawnCache<W>>,
    ) -> i32 {
        let occ = pos.occupied();
        let restrained = game.restraint_now(pos);
        let mut score = [0i32; 2];
        // Each side's royals, found once for the attack, mop-up and shelter terms.
        let royals = [pos.royals(game, WHITE), pos.royals(game, BLACK)];
        if self.cannot_mate(pos, &royals) {
            return 0;
        }
        let lone = royals.map(|r| r.first().filter(|_| !r.more_than_one()));
        // Only where the game weighs the attack: the zones cost nothing elsewhere.
        let zones = if self.params.royal_danger != 0 {
            self.royal_zones(&lone)
        } else {
            [None; 2]
        };
        let mut danger = [Danger::default(); 2];
        // Every piece's attacks, where the siege of a royal or the threats weigh; the
        // siege itself only where it weighs.
        let besieged = if self.params.royal_safety != 0 {
            lone
        } else {
            [None; 2]
        };
        // The mop-up, found before the pieces are walked: where it drives a royal the
        // threats are not counted, since their pull towards the weak side's last pieces
        // (a royal next to a weak piece weighs most in the endgame) sent the stronger
        // royal after them instead of herding the lone one.
        let mop = Color::ALL.map(|color| self.mop_up_with(game, pos, color, &royals));
        let threats = if mop == [0, 0] {
            self.params.threats
        } else {
            0
        };
        let mut siege = (self.params.royal_safety != 0 || threats != 0)
            .then(|| safety::Survey::new(game, &self.safety, &besieged, occ));
        // What the pawns decide, only where their structure or what they control counts;
        // the squares they attack, only where what they control counts.
        let summary = (self.pawn_terms || self.control_terms).then(|| {
            // The key of the structure (`pawn_cache.rs`).
            let squares = pawns::squares_of(pos, &self.pawn);
            let make = || self.pawn_summary(game, pos, squares);
            match cache.filter(|_| self.one_pawn_type) {
                Some(cache) => cache.get(squares, make),
                None => make(),
            }
        });
        let attacks = summary
            .as_ref()
            .filter(|_| self.control_terms)
            .map(|s| s.attacks);
        // Each side's mobility area, where the activity counts (the squares the
        // opponent's pawns attack from the pawn summary where it has them).
        let areas = (self.params.activity != 0).then(|| {
            let pawn_attacks =
                attacks.unwrap_or_else(|| control::pawn_attacks(game, pos, &self.pawn));
            Color::ALL.map(|color| {
                let held = (&self.pawn[..], royals[color]);
                let theirs = pawn_attacks[color.opposite()];
                self.reach.area(game, pos, held, color, theirs)
            })
        });
        let mut active = [(0i32, 0i32); 2];
        // What the endgame tables add to each side over the middlegame ones (tapered
        // games only).
        let mut shift = [0i32; 2];
        for pc in 0..2 * game.types {
            let pieces = pos.by_piece[pc];
            if pieces.is_empty() {
                continue;
            }
            let color = color_of_piece(pc);
            let (own, theirs) = (pos.by_color[color], pos.by_color[color.opposite()]);
            let target = lone[color.opposite()].filter(|_| self.attack[pc] != 0);
            let zone = zones[color.opposite()].filter(|_| !game.is_royal[pc]);
            let watched = attacks
                .map(|a| a[color.opposite()])
                .filter(|_| self.reach_counted[pc] && self.params.unsafe_reach != 0);
            for sq in pieces {
                let (seen, limit) = piece_view(game, pos, pc, sq, occ, restrained);
                let entry = pc * self.squares + sq;
                if restrained && limit.is_empty() {
                    // Held immobile (it attacks and defends nothing until freed): most
                    // of it is lost.
                    score[color] += self.pst[entry] / IMMOBILE_SHARE;
                    if self.tapered {
                        shift[color] +=
                            self.pst_eg[entry] / IMMOBILE_SHARE - self.pst[entry] / IMMOBILE_SHARE;
                    }
                    continue;
                }
                score[color] += self.pst[entry];
                if self.tapered {
                    shift[color] += self.pst_eg[entry] - self.pst[entry];
                }
                // The squares the piece's slides attack, where the mobility walked them.
                let mut slid = None;
                if let Some(attacked) = watched {
                    let view = View {
                        seen,
                        limit,
                        occ,
                        own,
                        theirs,
                    };
                    score[color] += self.watched_reach(game, pc, sq, &view, attacked);
                } else {
                    // Only the counts, and only where they weigh (most pieces of most
                    // games: neither).
                    if self.mobility[pc] != 0 {
                        let reach = slide_reach(game, pc, sq, seen, limit, own);
                        score[color] += self.mobility[pc] * reach.count;
                        // The siege takes the slides' attacks from the same walk.
                        slid = Some(reach.attacked);
                    }
                    if self.leaps[pc] != 0 {
                        let leapt = leap_squares(game, pc, sq, occ, limit, theirs);
                        score[color] += self.leaps[pc] * leapt.count() as i32;
                    }
                }
                if let Some(k) = target {
                    score[color] += self.attack[pc] * self.nearness(sq, k);
                }
                if let Some(zone) = zone {
                    danger[color].add(game, pc, sq, seen, limit, zone);
                }
                let counted = areas.filter(|_| self.reach.counts(pc));
                if siege.is_some() || counted.is_some() {
                    let hit = match slid {
                        Some(attacked) => game.tables[pc].leap_capture[sq] | attacked,
                        None => game.plain_attacks(pc, sq, seen),
                    } & limit;
                    if let Some(siege) = siege.as_mut() {
                        siege.add(game, pc, hit, self.pawn[pc], occ);
                    }
                    if let Some(area) = counted {
                        self.reach.add(&mut active[color], pc, (hit, area[color]));
                    }
                }
            }
        }
        for (s, d) in score.iter_mut().zip(danger) {
            *s += d.worth(self.params.royal_danger);
        }
        if areas.is_some() {
            let phase = (self.phase(pos), PHASE_FULL);
            for (s, a) in score.iter_mut().zip(active) {
                *s += blend(a, phase, self.params.activity);
            }
        }
        if let Some(survey) = siege {
            self.add_survey(game, pos, &survey, (&royals, threats), &mut score);
        }
        if game.stacks.exist {
            self.add_passengers(pos, &mut score, &mut shift);
        }
        if game.reserves.exist() {
            self.add_reserves(game, pos, &mut score);
        }
        if self.tapered {
            let us = pos.side;
            score[us] += self.endgame_share(shift[us] - shift[us.opposite()], self.phase(pos));
        }
        if let Some(pawns) = summary {
            for (color, s) in Color::ALL.into_iter().zip(score.iter_mut()) {
                *s += pawns.structure[color];
                if self.control_terms {
                    let (threats, open, half) = self.control_counts(
                        game,
                        pos,
                        (&pawns.squares, &pawns.pawnless),
                        &pawns.attacks,
                        &royals,
                        color,
                    );
                    let p = &self.params;
                    *s += p.pawn_threat * threats + p.open_file * open + p.half_open_file * half;
                    if p.space != 0 {
                        let pieces = pos.by_color[color].count();
                        *s += control::space_worth(p.space, pawns.room[color], pieces);
                    }
                }
            }
        }
        for ((color, s), mop) in Color::ALL.into_iter().zip(score.iter_mut()).zip(mop) {
            *s += mop;
            let royals = royals[color];
            *s += self.shelter * self.shelter_count(pos, color, royals) as i32;
            if self.few_pieces_count {
                *s += self.few_pieces_of(pos, color, royals);
            }
        }
        score[pos.side] - score[pos.side.opposite()] + self.tempo
    }

    /// What the survey of every piece's attacks finds: the siege of each royal and each
    /// side's threats (at `threats` percent), each where it weighs.
    #[inline]
    fn add_survey<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        survey: &safety::Survey<W>,
        (royals, threats): (&[Bitboard<W>; 2], i32),
        score: &mut [i32; 2],
    ) {
        let phase = (self.phase(pos), PHASE_FULL);
        let pawns = pawns::squares_of(pos, &self.pawn);
        let p = &self.params;
        if p.royal_safety != 0 {
            let all_pawns = pawns[0] | pawns[1];
            for (color, s) in Color::ALL.into_iter().zip(score.iter_mut()) {
                *s -= survey.cost(game, &pos.by_color, all_pawns, color, phase, p.royal_safety);
            }
        }
        if threats != 0 {
            let sides = threats::Sides {
                pos,
                values: &self.values,
                pawns,
                royals,
            };
            for (color, s) in Color::ALL.into_iter().zip(score.iter_mut()) {
                *s += threats::worth(survey, game, &self.safety, &sides, color, phase, threats);
            }
        }
    }

    /// The mobility, leap reach and unsafe reach of `pc` on `sq`, where the squares
    /// reached are needed (`unsafe_reach` counts): every slide and leap is looked at.
    /// Kept out of `evaluate`'s loop, which without it is as fast as before the term.
    #[inline(never)]
    fn watched_reach<const W: usize>(
        &self,
        game: &Game<W>,
        pc: usize,
        sq: usize,
        view: &View<W>,
        attacked: Bitboard<W>,
    ) -> i32 {
        let piece = &self.params.pieces[type_of_piece(pc)];
        let (count, slid) = if piece.slides {
            let reach = slide_reach(game, pc, sq, view.seen, view.limit, view.own);
            (reach.count, reach.squares)
        } else {
            (0, Bitboard::EMPTY)
        };
        let leapt = if piece.leaper {
            leap_squares(game, pc, sq, view.occ, view.limit, view.theirs)
        } else {
            Bitboard::EMPTY
        };
        self.mobility[pc] * count
            + self.leaps[pc] * leapt.count() as i32
            + self.params.unsafe_reach * ((slid | leapt) & attacked).count() as i32
    }

    /// What the pawns `squares` of `pos` decide (`pawn_cache.rs`), each part only where
    /// it counts.
    fn pawn_summary<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        squares: [Bitboard<W>; 2],
    ) -> PawnSummary<W> {
        let pawns = pawns::Pawns::on(game, squares);
        let attacks = if self.control_terms {
            control::pawn_attacks(game, pos, &self.pawn)
        } else {
            [Bitboard::EMPTY; 2]
        };
        let structure = Color::ALL.map(|color| {
            if !self.pawn_terms {
                return 0;
            }
            let table = &self.passed[color.index() * self.squares..];
            let mut passed = 0;
            let survey = pawns::survey(game, &pawns, color, |sq| passed += table[sq]);
            passed + self.doubled * survey.doubled + self.isolated * survey.isolated
        });
        let room = Color::ALL.map(|color| {
            if self.control_terms && self.params.space != 0 {
                self.space(pos, &pawns, &attacks, color).0
            } else {
                0
            }
        });
        PawnSummary {
            squares,
            attacks,
            structure,
            room,
            pawnless: Color::ALL.map(|color| pawns.pawnless_files(game, color)),
        }
    }

    /// `color`'s pawn threats (opponent pieces, neither pawns nor royal, that its pawns
    /// attack) and its pieces that slide ahead on open and on half-open files
    /// (`control.rs`), given each side's pawns and the files without them.
    #[inline]
    fn control_counts<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        (pawns, pawnless): (&[Bitboard<W>; 2], &[u32; 2]),
        attacks: &[Bitboard<W>; 2],
        royals: &[Bitboard<W>; 2],
        color: Color,
    ) -> (i32, i32, i32) {
        let them = color.opposite();
        let targets = pos.by_color[them].andnot(pawns[them] | royals[them]);
        let threats = (attacks[color] & targets).count() as i32;
        let (open, half) = control::files(game, pos, pawnless, &self.slides_ahead, color);
        (threats, open, half)
    }

    /// `color`'s squares of space and its number of pieces (`control.rs`).
    #[inline]
    fn space<const W: usize>(
        &self,
        pos: &Position<W>,
        pawns: &pawns::Pawns<W>,
        attacks: &[Bitboard<W>; 2],
        color: Color,
    ) -> (i32, u32) {
        let room = self
            .space_area
            .count(color, pawns.of_color(color), attacks[color.opposite()]);
        (room, pos.by_color[color].count())
    }

    /// Whether one side has nothing but royal pieces and the other fewer other pieces
    /// than the game's `mating_pieces`: no checkmate of the bare side can ever come (the
    /// count cannot grow: a promotion keeps it), so the game is drawn whatever the
    /// material says, and a search that took it for a win would trade into it.
    #[inline]
    pub(crate) fn cannot_mate<const W: usize>(
        &self,
        pos: &Position<W>,
        royals: &[Bitboard<W>; 2],
    ) -> bool {
        if self.mating_pieces <= 1 {
            return false;
        }
        let [white, black] = Color::ALL.map(|c| pos.by_color[c].andnot(royals[c]));
        (black.is_empty() && white.count() < self.mating_pieces)
            || (white.is_empty() && black.count() < self.mating_pieces)
    }

    /// The `few_pieces` weight of a side with `royals` (its royal pieces on the board):
    /// the one for its number of other pieces, 0 for none or more than `FEW_PIECES`.
    #[inline]
    fn few_pieces_of<const W: usize>(
        &self,
        pos: &Position<W>,
        color: Color,
        royals: Bitboard<W>,
    ) -> i32 {
        let others = pos.by_color[color].andnot(royals).count() as usize;
        match others {
            1..=FEW_PIECES => self.few_pieces[others - 1],
            _ => 0,
        }
    }

    /// Pieces in a side's reserve count at their value: a drop can put them anywhere.
    /// Prisoners count a third of theirs to the side holding them: they are currency
    /// (a ransom costs twice a piece's value) and kept from their owner.
    #[cold]
    fn add_reserves<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        score: &mut [i32; 2],
    ) {
        for (color, s) in score.iter_mut().enumerate() {
            for t in 0..game.types {
                let held = pos.in_reserve(game, color, t) as i32;
                *s += held * self.values[t];
                if game.reserves.count > PRISONERS && !game.is_royal[piece_index(t, WHITE)] {
                    let prisoners = pos.in_reserve(game, PRISONERS + color, t) as i32;
                    *s += prisoners * self.values[t] / 3;
                }
            }
        }
    }

    /// A carrier's passenger counts as the piece it is, on the carrier's square.
    #[cold]
    fn add_passengers<const W: usize>(
        &self,
        pos: &Position<W>,
        score: &mut [i32; 2],
        shift: &mut [i32; 2],
    ) {
        for (sq, &code) in pos.carried.iter().enumerate() {
            if code != 0 {
                let pc = code as usize - 1;
                let entry = pc * self.squares + sq;
                score[color_of_piece(pc)] += self.pst[entry];
                shift[color_of_piece(pc)] += self.pst_eg[entry] - self.pst[entry];
            }
        }
    }

    /// How far `pos` is from the endgame: `PHASE_FULL` with the start's pieces (or more)
    /// on the board, 0 with none of them left but royals and pawns.
    pub(crate) fn phase<const W: usize>(&self, pos: &Position<W>) -> i32 {
        if self.phase_start == 0 {
            return PHASE_FULL;
        }
        let left = weigh_phase(&self.phase_weight, pos);
        (left * PHASE_FULL as i64 / self.phase_start).min(PHASE_FULL as i64) as i32
    }

    /// The endgame tables' part of a tapered evaluation: `shift` (what they add over the
    /// middlegame ones, side to move less opponent) times the endgame's share of `phase`,
    /// rounded towards 0.
    pub(crate) fn endgame_share(&self, shift: i32, phase: i32) -> i32 {
        shift * (PHASE_FULL - phase) / PHASE_FULL
    }

    /// The mop-up bonus of `strong` when the opponent has only royal pieces left and
    /// `strong` has more: the lone royals driven to the edge and into a corner, where
    /// they can be mated, `strong`'s royal and other pieces brought near them, the
    /// squares next to them taken away. The same while the opponent has at most
    /// `MOP_FEW` other pieces and `strong` a clear material lead (`MOP_MARGIN`), where
    /// the King is mated before its last pieces can be caught. Zero in every other
    /// material situation, so that normal play is untouched.
    pub fn mop_up<const W: usize>(&self, game: &Game<W>, pos: &Position<W>, strong: Color) -> i32 {
        let royals = [pos.royals(game, WHITE), pos.royals(game, BLACK)];
        self.mop_up_with(game, pos, strong, &royals)
    }

    /// `mop_up` with each side's royals already found.
    fn mop_up_with<const W: usize>(
        &self,
        game: &Game<W>,
        pos: &Position<W>,
        strong: Color,
        royal_sets: &[Bitboard<W>; 2],
    ) -> i32 {
        let weak = strong.opposite();
        let royals = royal_sets[strong];
        let ours = pos.by_color[strong].andnot(royals);
        let theirs = pos.by_color[weak].andnot(royal_sets[weak]);
        if ours.is_empty() || theirs.count() > MOP_FEW {
            return 0;
        }
        if !theirs.is_empty() {
            let worth = |set: Bitboard<W>| -> i32 {
                set.into_iter().map(|sq| self.value_of(pos.board[sq])).sum()
            };
            let (s, w) = (worth(ours), worth(theirs));
            if s - w < w.max(MOP_MARGIN) {
                return 0;
            }
        }
        let g = &game.geo;
        let distance = |a: usize, b: usize| {
            (g.file(a) as i32 - g.file(b) as i32)
                .abs()
                .max((g.rank(a) as i32 - g.rank(b) as i32).abs())
        };
        let mut bonus = 0;
        for k in royal_sets[weak] {
            bonus += self.cornered[k];
            if let Some(r) = royals.first() {
                bonus += MOP_CLOSE * (self.span - distance(r, k));
            }
            let hunt: i32 = ours.into_iter().map(|p| self.span - distance(p, k)).sum();
            bonus += MOP_HUNT * hunt.min(MOP_HUNTERS * self.span);
            let free = self.neighbours[k]
                .iter()
                .filter(|&&n| n as usize != k && !game.attacked(pos, n as usize, strong))
                .count();
            bonus += MOP_FREE * (8 - free as i32);
        }
        bonus * self.mop_scale
    }

    /// The zone of each side's lone royal that an attack on it counts (`danger.rs`): none
    /// where the side has no royal or several.
    #[inline]
    fn royal_zones<const W: usize>(&self, lone: &[Option<usize>; 2]) -> [Option<Bitboard<W>>; 2] {
        lone.map(|k| k.map(|k| danger::zone(&self.neighbours[k])))
    }

    /// How many king steps nearer each other `a` and `b` stand than the board's longest
    /// distance (0 at opposite corners).
    #[inline(always)]
    fn nearness(&self, a: usize, b: usize) -> i32 {
        let ((fa, ra), (fb, rb)) = (self.coords[a], self.coords[b]);
        self.span - ((fa - fb).abs().max((ra - rb).abs()) as i32)
    }

    /// How many of `color`'s pieces stand next to its royal, if it has one only (else 0).
    pub(crate) fn shelter_count<const W: usize>(
        &self,
        pos: &Position<W>,
        color: Color,
        royals: Bitboard<W>,
    ) -> usize {
        royals
            .first()
            .filter(|_| !royals.more_than_one())
            .map_or(0, |k| {
                self.neighbours[k]
                    .iter()
                    .filter(|&&n| pos.by_color[color].has(n as usize))
                    .count()
            })
    }

    /// The material value of the piece with board code `code`.
    #[inline(always)]
    pub fn value_of(&self, code: u8) -> i32 {
        if code == 0 {
            0
        } else {
            self.values[type_of_piece(code as usize - 1)]
        }
    }
}

/// What a piece's moves see: the occupancy its slides see and the squares it may reach
/// (`piece_view`), every piece, its own side's and the opponent's.
struct View<const W: usize> {
    seen: Bitboard<W>,
    limit: Bitboard<W>,
    occ: Bitboard<W>,
    own: Bitboard<W>,
    theirs: Bitboard<W>,
}

/// What the pieces of `pos` weigh in the phase (`Eval::phase_weight`).
fn weigh_phase<const W: usize>(weight: &[i32], pos: &Position<W>) -> i64 {
    weight
        .iter()
        .zip(&pos.by_piece)
        .map(|(&w, pieces)| w as i64 * pieces.count() as i64)
        .sum()
}

/// Whether `game` has pawns, so that its pawn structure can be weighed (`pawns.rs`).
pub fn has_pawns<const W: usize>(game: &Game<W>) -> bool {
    (0..2 * game.types).any(|pc| pawns::is_pawn(game, pc))
}

/// What a piece's slides reach and attack (`slide_reach`).
struct SlideReach<const W: usize> {
    /// The squares reached within the limit, not onto its own pieces (the evaluation's
    /// mobility), each slide's counted apart (a square two slides reach counts twice,
    /// as it always has)...
    count: i32,
    /// ...those squares...
    squares: Bitboard<W>,
    /// ...and the squares its capturing slides attack, own pieces included and the
    /// limit left aside (the siege's attacks, `safety.rs`).
    attacked: Bitboard<W>,
}

/// What piece `pc` on `sq` reaches and attacks by its slides, through `occ`, within
/// `limit`, its own pieces being `own`: one walk of each slide for the mobility and the
/// siege (a caller's unused part costs an OR a slide).
#[inline]
fn slide_reach<const W: usize>(
    game: &Game<W>,
    pc: usize,
    sq: usize,
    occ: Bitboard<W>,
    limit: Bitboard<W>,
    own: Bitboard<W>,
) -> SlideReach<W> {
    let mut reach = SlideReach {
        count: 0,
        squares: Bitboard::EMPTY,
        attacked: Bitboard::EMPTY,
    };
    for s in &game.tables[pc].slides {
        let targets = game.slide_targets(s, sq, occ);
        let reached = (targets & limit).andnot(own);
        reach.count += reached.count() as i32;
        reach.squares |= reached;
        if s.mode.can_capture() {
            reach.attacked |= targets;
        }
    }
    reach
}

/// The squares piece `pc` on `sq` reaches by its leaps and steps: empty squares it may
/// move to and opponent pieces (`theirs`) it may take, through `occ`, within `limit`.
#[inline]
fn leap_squares<const W: usize>(
    game: &Game<W>,
    pc: usize,
    sq: usize,
    occ: Bitboard<W>,
    limit: Bitboard<W>,
    theirs: Bitboard<W>,
) -> Bitboard<W> {
    let tab = &game.tables[pc];
    let reach = tab.leap_move[sq].andnot(occ) | (tab.leap_capture[sq] & theirs);
    reach & limit
}

/// How central `sq` is: 1 on the centre, falling linearly with the distance (files plus
/// ranks) to 0 at the corners.
fn centre<const W: usize>(game: &Game<W>, sq: usize) -> f64 {
    let g = &game.geo;
    let (cx, cy) = ((g.width as f64 - 1.0) / 2.0, (g.height as f64 - 1.0) / 2.0);
    let max_d = cx + cy;
    let (f, r) = (g.file(sq) as f64, g.rank(sq) as f64);
    1.0 - ((f - cx).abs() + (r - cy).abs()) / max_d.max(1.0)
}

/// A middlegame and an endgame worth `(mg, eg)` blended by the phase (`phase` of `full`,
/// the middlegame's share) and taken at `percent`, rounded towards 0 at each step.
pub(crate) fn blend((mg, eg): (i32, i32), (phase, full): (i32, i32), percent: i32) -> i32 {
    (mg * phase + eg * (full - phase)) / full * percent / 100
}

/// Per colour and square (`color * squares + sq`), the square as that side sees it, for
/// the square tables (`PieceParams::squares`): White's squares are its own; Black's are
/// mirrored across the middle rank (the a-file stays the a-file), as chess and Courier
/// set up their armies, or turned half round where the start is set up that way and not
/// mirrored (the Shogi games), so that a table means the same for both armies.
pub(crate) fn own_squares<const W: usize>(game: &Game<W>) -> Vec<u16> {
    let g = &game.geo;
    let n = g.squares();
    let mirrored = |sq: usize| (g.height - 1 - g.rank(sq)) * g.width + g.file(sq);
    let turned = |sq: usize| n - 1 - sq;
    let start = Position::from_fen(game, &game.spec.start).ok();
    // Each piece of the start has its opposite number, of the other colour, there.
    let opposite = |a: u8, b: u8| {
        let (a, b) = (a as usize - 1, b as usize - 1);
        type_of_piece(a) == type_of_piece(b) && color_of_piece(a) != color_of_piece(b)
    };
    let symmetric = |image: &dyn Fn(usize) -> usize| {
        start.as_ref().is_some_and(|pos| {
            (0..n).all(|sq| {
                let (a, b) = (pos.board[sq], pos.board[image(sq)]);
                (a == 0 && b == 0) || (a != 0 && b != 0 && opposite(a, b))
            })
        })
    };
    let turn = !symmetric(&mirrored) && symmetric(&turned);
    let black = |sq| if turn { turned(sq) } else { mirrored(sq) };
    (0..n)
        .map(|sq| sq as u16)
        .chain((0..n).map(|sq| black(sq) as u16))
        .collect()
}

/// How far `sq` is advanced for `color`: 0 on its own first rank, 1 on the far rank.
fn progress<const W: usize>(game: &Game<W>, color: Color, sq: usize) -> f64 {
    let g = &game.geo;
    let r = g.rank(sq) as f64;
    let own = if color == WHITE {
        r
    } else {
        g.height as f64 - 1.0 - r
    };
    own / (g.height as f64 - 1.0)
}

/// The occupancy a piece's slides see and the squares it may reach: a restraint rule (a
/// bodyguard's stops and freeze, a frozen binding) cuts mobility as it cuts moves.
#[inline(always)]
pub(crate) fn piece_view<const W: usize>(
    game: &Game<W>,
    pos: &Position<W>,
    pc: usize,
    sq: usize,
    occ: Bitboard<W>,
    restrained: bool,
) -> (Bitboard<W>, Bitboard<W>) {
    if restrained {
        let (stops, limit) = game.restraint(pos, pc, sq);
        (occ | stops, limit.unwrap_or(game.valid))
    } else {
        (occ, game.valid)
    }
}

/// The mobility-derived value of piece type `t` (White's tables).
fn piece_value<const W: usize>(game: &Game<W>, t: usize) -> i32 {
    let pc = piece_index(t, WHITE);
    let tab = &game.tables[pc];
    let n = game.squares;
    let mut total = 0.0;
    let mut squares = 0;
    for sq in (0..n).filter(|&s| !game.geo.holes[s]) {
        squares += 1;
        let both = tab.leap_move[sq] & tab.leap_capture[sq];
        let only = (tab.leap_move[sq] ^ tab.leap_capture[sq]).count();
        let mut m = both.count() as f64 + 0.5 * only as f64;
        for s in &tab.slides {
            let list = &game.ray_lists[s.dir as usize * n + sq];
            let max = if s.max == 0 {
                usize::MAX
            } else {
                s.max as usize
            };
            let weight = if s.mode == Mode::Both { 1.0 } else { 0.5 };
            for (k, _) in list.iter().enumerate().take(max) {
                if k + 1 >= s.min as usize {
                    m += weight * EMPTY.powi(k as i32);
                }
            }
        }
        for sp in &tab.specials[sq] {
            m += if sp.mode == Mode::Both { 0.5 } else { 0.25 };
        }
        // Bent moves reach as far as their second leg does once the first square is
        // empty; capture-first moves (the Lion's) add options, counted lightly.
        for l in &tab.two_legs[sq] {
            if l.via_mode == Mode::Capture {
                m += 0.1;
                continue;
            }
            let list = &game.ray_lists[l.second.dir as usize * n + l.via as usize];
            let max = if l.second.max == 0 {
                usize::MAX
            } else {
                l.second.max as usize
            };
            for (k, _) in list.iter().enumerate().take(max) {
                if k + 1 >= l.second.min as usize {
                    m += EMPTY.powi(k as i32 + 1);
                }
            }
        }
        // Moves of three or more legs are rare options: each route counts lightly.
        m += 0.1 * tab.routes[sq].len() as f64;
        total += m;
    }
    (VALUE_PER_MOVE * total / squares.max(1) as f64).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::AnyGame;

    #[test]
    fn threats_are_not_counted_where_the_mop_up_drives() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let score = |fen: &str, threats: i32| {
                let mut params = Params::of(g);
                params.threats = threats;
                let pos = Position::from_fen(g, fen).unwrap();
                Eval::with_params(g, &params).evaluate(g, &pos)
            };
            // King and Courier against King, two Alfils, Man, Schleich and Fers: the
            // mop-up drives Black's King, and White's Man attacks the lone Courier.
            let driven = "12/12/2k9/12/4b7/3EM2W4/4KF6/3E8 b - - 0 1";
            assert_eq!(score(driven, 0), score(driven, 100));
            assert_eq!(score(driven, 0), score(driven, 300));
            // With a Rook more for Black the mop-up is off, and the threats count.
            let level = "12/12/2k8r/12/4b7/3EM2W4/4KF6/3E8 b - - 0 1";
            assert_ne!(score(level, 0), score(level, 100));
        });
    }

    #[test]
    fn the_pawn_cache_gives_the_scores_of_the_evaluation_without_it() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            // Every pawn term on, so that all of the summary is read.
            let mut params = Params::of(g);
            params.passed = 25.0;
            (params.doubled, params.isolated) = (-12, -21);
            (params.pawn_threat, params.open_file, params.half_open_file) = (11, 17, 19);
            (params.space, params.unsafe_reach) = (9, -3);
            let e = Eval::with_params(g, &params);
            let mut cache = PawnCache::default();
            let mut list = crate::rules::movegen::MoveList::new();
            let mut seed = 12345u64;
            let (mut hits, mut seen) = (0, std::collections::HashSet::new());
            for _ in 0..20 {
                let mut pos = Position::from_fen(g, &g.spec.start).unwrap();
                for _ in 0..80 {
                    let fresh = e.evaluate(g, &pos);
                    assert_eq!(e.evaluate_cached(g, &pos, &mut cache), fresh);
                    // The second time from the cache.
                    assert_eq!(e.evaluate_cached(g, &pos, &mut cache), fresh);
                    if !seen.insert(pawns::squares_of(&pos, &e.pawn)) {
                        hits += 1;
                    }
                    g.legal_moves(&mut pos, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let m = list[(seed >> 33) as usize % list.len()];
                    pos.make(g, m);
                }
            }
            assert!(hits > 100, "structures met again: {hits}");
        });
    }

    #[test]
    fn chess_values_are_close_to_the_classical_ones() {
        let any = AnyGame::builtin("chess").unwrap();
        crate::with_width!(&any, g => {
            // The derived values (chess's own section is fitted to its games).
            let e = Eval::with_params(g, &Params::derived(g));
            let v = |l: &str| e.values[g.spec.piece_index(l).unwrap()];
            assert!((250..350).contains(&v("n")), "knight {}", v("n"));
            assert!((280..400).contains(&v("b")), "bishop {}", v("b"));
            assert!((450..600).contains(&v("r")), "rook {}", v("r"));
            assert!((800..1000).contains(&v("q")), "queen {}", v("q"));
            assert!((60..130).contains(&v("p")), "pawn {}", v("p"));
            let pos = Position::from_fen(g, &g.spec.start).unwrap();
            assert_eq!(e.evaluate(g, &pos), e.tempo, "the start is symmetric: only having the move counts");
            let tuned = Eval::new(g);
            assert_eq!(tuned.evaluate(g, &pos), tuned.tempo);
        });
    }

    #[test]
    fn square_tables_are_seen_from_each_owner() {
        // Courier's armies are mirrored across the middle rank, Sho's turned half round:
        // White's a1 is Black's a8 in the one and its i9 in the other.
        for (name, black_a1) in [("courier", "a8"), ("sho", "i9"), ("chess", "a8")] {
            let any = AnyGame::builtin(name).unwrap();
            crate::with_width!(&any, g => {
                let own = own_squares(g);
                let n = g.squares;
                let a1 = g.geo.parse_square("a1").unwrap();
                let there = g.geo.parse_square(black_a1).unwrap();
                assert_eq!(own[a1], a1 as u16, "{name}");
                assert_eq!(own[n + there], a1 as u16, "{name}");
                // Each side's table covers the board once.
                let mut seen: Vec<u16> = own[n..].to_vec();
                seen.sort_unstable();
                assert!(seen.iter().enumerate().all(|(i, &s)| s as usize == i), "{name}");
            });
        }
    }

    #[test]
    fn too_few_pieces_to_mate_a_bare_royal_evaluate_as_a_draw() {
        let any = AnyGame::builtin("flee").unwrap();
        crate::with_width!(&any, g => {
            let e = Eval::new(g);
            let eval = |fen: &str| e.evaluate(g, &Position::from_fen(g, fen).unwrap());
            // King and two Queens (or a Guard and a Pawn) against a bare King: no mate
            // exists, from either side's view.
            assert_eq!(eval("16/16/16/16/16/16/16/5k10/16/16/16/16/16/16/16/2Q1Q3K7 w - - 0 1"), 0);
            assert_eq!(eval("16/16/16/16/16/16/16/5k10/16/16/16/16/16/16/16/2Q1Q3K7 b - - 0 1"), 0);
            assert_eq!(eval("16/16/16/16/16/16/16/5K10/16/16/16/16/16/16/4p11/4g3k7 w - - 0 1"), 0);
            // Three pieces may mate; and a side that is not bare can be mated with its
            // own pieces in its King's way: the material counts.
            let queens = eval("16/16/16/16/16/16/16/5k10/16/16/16/16/16/16/16/2Q1Q1Q1K7 w - - 0 1");
            assert!(queens > 3000, "{queens}");
            let pawn = eval("16/16/16/16/16/16/16/5k10/5p10/16/16/16/16/16/16/2Q1Q3K7 w - - 0 1");
            assert!(pawn > 3000, "{pawn}");
        });
        // A game without the knowledge keeps its material: chess's King and Rook.
        let any = AnyGame::builtin("chess").unwrap();
        crate::with_width!(&any, g => {
            let pos = Position::from_fen(g, "8/8/8/3k4/8/8/8/R3K3 w - - 0 1").unwrap();
            assert!(Eval::new(g).evaluate(g, &pos) > 400);
        });
    }

    #[test]
    fn mop_up_drives_a_bare_king_to_the_corner_and_the_king_to_it() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            // The derived numbers: no leap reach or nearness terms beside the mop-up.
            let e = Eval::with_params(g, &Params::derived(g));
            let mop = |fen: &str, strong: Color| {
                e.mop_up(g, &Position::from_fen(g, fen).unwrap(), strong)
            };
            // White: King and Rook; Black: a bare King in the centre, on an edge, in a
            // corner.
            let centre = mop("12/12/12/5k6/12/12/12/1R4K5 w - - 0 1", WHITE);
            let edge = mop("5k6/12/12/12/12/12/12/1R4K5 w - - 0 1", WHITE);
            let corner = mop("k11/12/12/12/12/12/12/1R4K5 w - - 0 1", WHITE);
            assert!(0 < centre && centre < edge && edge < corner, "{centre} {edge} {corner}");
            // White's King nearer the bare King.
            let near = mop("k11/12/2K9/12/12/12/12/1R10 w - - 0 1", WHITE);
            assert!(near > corner, "{near} {corner}");
            // Fewer free squares next to the bare King: the Rook cuts off the eighth rank.
            let cut = mop("5k6/R11/12/12/12/12/12/6K5 w - - 0 1", WHITE);
            let open = mop("5k6/12/12/12/12/12/12/1R4K5 w - - 0 1", WHITE);
            assert!(cut > open, "{cut} {open}");
            // Only against a bare side, never for it, and not while both have material.
            assert_eq!(mop("12/12/12/5k6/12/12/12/1R4K5 w - - 0 1", BLACK), 0);
            assert_eq!(mop("k11/12/12/12/12/12/12/11K w - - 0 1", WHITE), 0);
            assert_eq!(mop(&g.spec.start, WHITE), 0);
            // Also while the weaker side has little left and the stronger a clear lead;
            // not while material is even or the weaker side has more pieces.
            let fers = mop("k10f/12/12/12/12/12/12/1R4K5 w - - 0 1", WHITE);
            assert_eq!(fers, corner);
            assert_eq!(mop("k10b/12/12/12/12/12/12/1R4K5 w - - 0 1", WHITE), 0);
            assert_eq!(mop("k8fff/12/12/12/12/12/12/1RRRR1K5 w - - 0 1", WHITE), 0);
            // The evaluation carries it, seen from the bare side to move (beside the
            // bare King's own table entry on the two squares, which a tuned King may
            // have).
            let black = |fen: &str| e.evaluate(g, &Position::from_fen(g, fen).unwrap());
            let king = piece_index(g.spec.piece_index("k").unwrap(), BLACK) * e.squares;
            let (a8, f5) = (g.geo.parse_square("a8").unwrap(), g.geo.parse_square("f5").unwrap());
            assert_eq!(
                black("k11/12/12/12/12/12/12/1R4K5 b - - 0 1")
                    - black("12/12/12/5k6/12/12/12/1R4K5 b - - 0 1"),
                centre - corner + e.pst[king + a8] - e.pst[king + f5]
            );
        });
    }
}
