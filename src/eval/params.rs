//! The numbers the evaluation is built from: per piece type a value and six positional
//! weights, and the global terms (shelter, tempo, few pieces, pawn structure, the attack
//! on a lone royal, what the pawns control). A game's `[variant.eval]` section (tuned by `kirin tune`) gives some
//! or all of them; every number it leaves out is derived from the pieces' moves as before
//! tuning existed (or 0, for the terms added since), so a game without the section
//! evaluates exactly as it always did.

use super::{MOBILITY, SHELTER, TEMPO, piece_value};
use crate::core::{WHITE, piece_index, type_of_piece};
use crate::rules::game::Game;
use crate::rules::spec::{FEW_PIECES, ROYAL_DANGER_MAX};

/// Share of a piece's value it gains on the centre square (derived default).
const CENTRE_SHARE: f64 = 0.1;
/// Share of the promotion gain a piece gains on the far rank (derived default).
const PROMOTION_SHARE: f64 = 0.25;

/// The evaluation numbers of one piece type, in centipawns.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceParams {
    pub value: i32,
    /// On the centre square, falling linearly (in king-walk distance) to 0 at a corner.
    pub centre: f64,
    /// On the far rank, linear in the advance from the own first rank.
    pub advance: f64,
    /// On the far rank, quadratic in the advance (promotion progress).
    pub promotion: f64,
    /// Per square its sliding moves reach (always 0 for a piece that does not slide).
    pub mobility: i32,
    /// Per square its leaps and steps reach (always 0 for a piece without them).
    pub leaps: i32,
    /// Per king step nearer the opponent's lone royal than the board's longest distance.
    pub attack: i32,
    /// Per square, seen from the owner (`eval::own_squares`): on top of the terms above.
    /// All 0 unless tuned.
    pub squares: Vec<f64>,
    /// Whether the piece has sliding moves (not a parameter: a fact of its moves).
    pub slides: bool,
    /// Whether it has leaps or steps (a fact too).
    pub leaper: bool,
    /// The value and the three positional weights above as they are once most pieces
    /// are gone (`eval::Phase`); the same numbers as above unless tuned apart.
    pub endgame: Endgame,
}

/// The numbers of a piece type that count differently as the board empties: blended
/// with the middlegame ones (`PieceParams::value`, `centre`, `advance`, `promotion`) by
/// the material left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Endgame {
    pub value: i32,
    pub centre: f64,
    pub advance: f64,
    pub promotion: f64,
}

impl PieceParams {
    /// The middlegame numbers, as an `Endgame` would hold them.
    pub fn middlegame(&self) -> Endgame {
        Endgame {
            value: self.value,
            centre: self.centre,
            advance: self.advance,
            promotion: self.promotion,
        }
    }
}

/// Every number of one game's evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Per piece type (indices of the game's `spec.pieces`).
    pub pieces: Vec<PieceParams>,
    /// Per friendly piece next to a lone royal.
    pub shelter: i32,
    /// For having the move.
    pub tempo: i32,
    /// For a side with exactly 1, 2, 3 non-royal pieces (a side about to be bared).
    pub few_pieces: [i32; FEW_PIECES],
    /// For a passed pawn on the far rank, times the square of its advance (`pawns.rs`).
    pub passed: f64,
    /// Per pawn beyond the first on a file.
    pub doubled: i32,
    /// Per pawn with no friendly pawn on the files beside it.
    pub isolated: i32,
    /// The attack on a lone royal's zone, in percent of its formula (`danger.rs`); 0: not
    /// counted.
    pub royal_danger: i32,
    /// The siege of a lone royal, in percent of its model (`safety.rs`); 0: not counted.
    pub royal_safety: i32,
    /// The threats on pieces, in percent of their model (`threats.rs`); 0: not counted.
    pub threats: i32,
    /// The activity of pieces, in percent of its model (`activity.rs`); 0: not counted.
    pub activity: i32,
    /// What the pawns control (`control.rs`): per square a piece reaches that an opponent
    /// pawn attacks...
    pub unsafe_reach: i32,
    /// ...per opponent piece (not a pawn, not royal) that a pawn attacks...
    pub pawn_threat: i32,
    /// ...per piece that slides straight ahead on a file without pawns...
    pub open_file: i32,
    /// ...on a file with opponent pawns only...
    pub half_open_file: i32,
    /// ...and per square of space (`control::SpaceArea`), times the square of the side's
    /// piece count less one, over 256.
    pub space: i32,
}

/// How many numbers each piece type has in the flat vector (`Params::to_vector`).
pub const PER_PIECE: usize = 7;
/// Offsets of a piece type's numbers in its block of the flat vector.
pub const VALUE: usize = 0;
pub const CENTRE: usize = 1;
pub const ADVANCE: usize = 2;
pub const PROMOTION: usize = 3;
pub const PIECE_MOBILITY: usize = 4;
pub const LEAPS: usize = 5;
pub const ATTACK: usize = 6;
/// The names of a piece type's numbers, in their order in its block (as a definition's
/// `[variant.eval.pieces]` entry and `kirin tune --keep` name them).
pub const PIECE_TERMS: [&str; PER_PIECE] = [
    "value",
    "centre",
    "advance",
    "promotion",
    "mobility",
    "leaps",
    "attack",
];

/// The names of the global numbers, in their order in the flat vector (from
/// `shelter_index` on; `few_pieces` stands for its `FEW_PIECES` weights), as a
/// definition's `[variant.eval]` section and `kirin tune --keep` name them.
pub const GLOBAL_TERMS: [&str; 15] = [
    "shelter",
    "tempo",
    "few_pieces",
    "passed",
    "doubled",
    "isolated",
    "royal_danger",
    "royal_safety",
    "threats",
    "activity",
    "unsafe_reach",
    "pawn_threat",
    "open_file",
    "half_open_file",
    "space",
];

impl Params {
    /// The game's parameters: its `[variant.eval]` section over the derived ones.
    pub fn of<const W: usize>(game: &Game<W>) -> Params {
        Params::build(game, true)
    }

    /// The derived parameters, ignoring any `[variant.eval]` section.
    pub fn derived<const W: usize>(game: &Game<W>) -> Params {
        Params::build(game, false)
    }

    fn build<const W: usize>(game: &Game<W>, tuned: bool) -> Params {
        let section = &game.spec.eval;
        let entry = |t: usize| {
            section
                .pieces
                .get(t)
                .and_then(|e| e.as_ref())
                .filter(|_| tuned)
        };
        // Values first: the derived promotion weights depend on the values of the pieces
        // a piece promotes to.
        let values: Vec<i32> = (0..game.types)
            .map(|t| {
                entry(t)
                    .and_then(|e| e.value)
                    .unwrap_or_else(|| piece_value(game, t))
            })
            .collect();
        let pieces = (0..game.types)
            .map(|t| {
                let pc = piece_index(t, WHITE);
                let value = values[t];
                let e = entry(t).cloned().unwrap_or_default();
                // A royal that must stay out of check is not drawn to the centre.
                let centre = if game.is_royal[pc] && game.uses_check() {
                    0.0
                } else {
                    value as f64 * CENTRE_SHARE
                };
                let gain = promotion_gain(game, &values, t);
                let tab = &game.tables[pc];
                let slides = !tab.slides.is_empty();
                let leaper = tab
                    .leap_move
                    .iter()
                    .chain(&tab.leap_capture)
                    .any(|b| !b.is_empty());
                let centre = e.centre.unwrap_or(centre);
                let advance = e.advance.unwrap_or(0.0);
                let promotion = e.promotion.unwrap_or(gain as f64 * PROMOTION_SHARE);
                PieceParams {
                    value,
                    centre,
                    advance,
                    promotion,
                    mobility: if slides {
                        e.mobility.unwrap_or(MOBILITY)
                    } else {
                        0
                    },
                    // Leap reach and nearness to the opponent's royal weigh nothing
                    // unless tuned: an untuned game evaluates as before they existed.
                    leaps: if leaper { e.leaps.unwrap_or(0) } else { 0 },
                    attack: e.attack.unwrap_or(0),
                    squares: match &e.squares {
                        Some(table) => table.iter().map(|&v| v as f64).collect(),
                        None => vec![0.0; game.squares],
                    },
                    slides,
                    leaper,
                    // Not tapered unless the section says so: each endgame number it
                    // leaves out is the middlegame one.
                    endgame: Endgame {
                        value: e.value_eg.unwrap_or(value),
                        centre: e.centre_eg.unwrap_or(centre),
                        advance: e.advance_eg.unwrap_or(advance),
                        promotion: e.promotion_eg.unwrap_or(promotion),
                    },
                }
            })
            .collect();
        let mut few_pieces = [0; FEW_PIECES];
        if tuned {
            for (w, &v) in few_pieces
                .iter_mut()
                .zip(section.few_pieces.iter().flatten())
            {
                *w = v;
            }
        }
        Params {
            pieces,
            shelter: section.shelter.filter(|_| tuned).unwrap_or(SHELTER),
            tempo: section.tempo.filter(|_| tuned).unwrap_or(TEMPO),
            few_pieces,
            // No pawn-structure terms unless tuned: an untuned game evaluates as before.
            passed: section.passed.filter(|_| tuned).unwrap_or(0.0),
            doubled: section.doubled.filter(|_| tuned).unwrap_or(0),
            isolated: section.isolated.filter(|_| tuned).unwrap_or(0),
            // Not counted unless the definition says so: it is a loss in some games.
            royal_danger: section.royal_danger.filter(|_| tuned).unwrap_or(0),
            royal_safety: section.royal_safety.filter(|_| tuned).unwrap_or(0),
            threats: section.threats.filter(|_| tuned).unwrap_or(0),
            activity: section.activity.filter(|_| tuned).unwrap_or(0),
            // Nor what the pawns control: an untuned game evaluates as before.
            unsafe_reach: section.unsafe_reach.filter(|_| tuned).unwrap_or(0),
            pawn_threat: section.pawn_threat.filter(|_| tuned).unwrap_or(0),
            open_file: section.open_file.filter(|_| tuned).unwrap_or(0),
            half_open_file: section.half_open_file.filter(|_| tuned).unwrap_or(0),
            space: section.space.filter(|_| tuned).unwrap_or(0),
        }
    }

    /// Every number as one flat vector: `PER_PIECE` per piece type, then shelter, tempo,
    /// the `few_pieces` weights, then passed, doubled and isolated, then the royal danger
    /// and royal safety percentages and the threats', then the five pawn-control weights (`CONTROL_TERMS`), then each piece
    /// type's square table, then each piece type's endgame numbers (`ENDGAME_TERMS`; the
    /// tuner's parameter vector).
    pub fn to_vector(&self) -> Vec<f64> {
        let mut v = Vec::with_capacity(self.len());
        for p in &self.pieces {
            v.extend([
                p.value as f64,
                p.centre,
                p.advance,
                p.promotion,
                p.mobility as f64,
                p.leaps as f64,
                p.attack as f64,
            ]);
        }
        v.push(self.shelter as f64);
        v.push(self.tempo as f64);
        v.extend(self.few_pieces.iter().map(|&w| w as f64));
        v.extend([self.passed, self.doubled as f64, self.isolated as f64]);
        v.push(self.royal_danger as f64);
        v.push(self.royal_safety as f64);
        v.push(self.threats as f64);
        v.push(self.activity as f64);
        v.extend(self.control().map(|w| w as f64));
        for p in &self.pieces {
            v.extend(&p.squares);
        }
        for p in &self.pieces {
            let e = &p.endgame;
            v.extend([e.value as f64, e.centre, e.advance, e.promotion]);
        }
        v
    }

    /// The parameters of the flat vector `v` (`to_vector`'s layout), whole-centipawn
    /// numbers rounded.
    pub fn from_vector(&self, v: &[f64]) -> Params {
        let int = |x: f64| x.round() as i32;
        let types = self.pieces.len();
        let squares = self.squares();
        let pieces = self
            .pieces
            .iter()
            .enumerate()
            .map(|(t, old)| {
                let b = &v[t * PER_PIECE..(t + 1) * PER_PIECE];
                let e = &v[endgame_index(types, squares, t, 0)..][..ENDGAME_TERMS];
                PieceParams {
                    value: int(b[VALUE]).max(0),
                    centre: b[CENTRE],
                    advance: b[ADVANCE],
                    promotion: b[PROMOTION],
                    // A piece that does not slide has no mobility to weigh.
                    mobility: if old.slides {
                        int(b[PIECE_MOBILITY])
                    } else {
                        0
                    },
                    leaps: if old.leaper { int(b[LEAPS]) } else { 0 },
                    attack: int(b[ATTACK]),
                    squares: v[square_index(types, squares, t, 0)..][..squares].to_vec(),
                    slides: old.slides,
                    leaper: old.leaper,
                    endgame: Endgame {
                        value: int(e[VALUE]).max(0),
                        centre: e[CENTRE],
                        advance: e[ADVANCE],
                        promotion: e[PROMOTION],
                    },
                }
            })
            .collect();
        let mut few_pieces = [0; FEW_PIECES];
        for (i, w) in few_pieces.iter_mut().enumerate() {
            *w = int(v[few_pieces_index(types, i + 1)]);
        }
        let pawn = |term: usize| v[pawn_index(types, term)];
        let control = |term: usize| int(v[control_index(types, term)]);
        Params {
            pieces,
            shelter: int(v[shelter_index(types)]),
            tempo: int(v[tempo_index(types)]),
            few_pieces,
            passed: pawn(PASSED),
            doubled: int(pawn(DOUBLED)),
            isolated: int(pawn(ISOLATED)),
            royal_danger: int(v[danger_index(types)]).clamp(0, ROYAL_DANGER_MAX),
            royal_safety: int(v[safety_index(types)]).clamp(0, ROYAL_DANGER_MAX),
            threats: int(v[threats_index(types)]).clamp(0, ROYAL_DANGER_MAX),
            activity: int(v[activity_index(types)]).clamp(0, ROYAL_DANGER_MAX),
            unsafe_reach: control(UNSAFE_REACH),
            pawn_threat: control(PAWN_THREAT),
            open_file: control(OPEN_FILE),
            half_open_file: control(HALF_OPEN_FILE),
            space: control(SPACE),
        }
    }

    /// The pawn-control weights in their order in the flat vector (`UNSAFE_REACH`,
    /// `PAWN_THREAT`, `OPEN_FILE`, `HALF_OPEN_FILE`, `SPACE`).
    pub fn control(&self) -> [i32; CONTROL_TERMS] {
        [
            self.unsafe_reach,
            self.pawn_threat,
            self.open_file,
            self.half_open_file,
            self.space,
        ]
    }

    /// The length of the flat vector.
    pub fn len(&self) -> usize {
        endgame_index(self.pieces.len(), self.squares(), self.pieces.len(), 0)
    }

    /// Whether some piece's endgame numbers differ from its middlegame ones (else the
    /// evaluation has one phase).
    pub fn tapered(&self) -> bool {
        self.pieces.iter().any(|p| p.endgame != p.middlegame())
    }

    /// The board's number of squares (the length of each square table).
    pub fn squares(&self) -> usize {
        self.pieces.first().map_or(0, |p| p.squares.len())
    }

    /// Whether there are no parameters (never: a game has pieces).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `few_pieces`' place in `GLOBAL_TERMS`, the one name with several numbers.
const FEW: usize = 2;

/// The flat vector's indices of global number `k` of `GLOBAL_TERMS` in a game with `types`
/// piece types: the global numbers follow each other from `shelter_index` on, one index
/// per name but `few_pieces`' `FEW_PIECES`.
pub fn global_indices(types: usize, k: usize) -> std::ops::Range<usize> {
    let start = shelter_index(types) + k + if k > FEW { FEW_PIECES - 1 } else { 0 };
    start..start + if k == FEW { FEW_PIECES } else { 1 }
}

/// Which global number of `GLOBAL_TERMS` flat index `i` belongs to (`i` between
/// `shelter_index` and the first square table): the inverse of `global_indices`, found
/// through it so that the layout is written once. For `kirin eval`'s rows, not the search.
pub fn global_term(types: usize, i: usize) -> usize {
    (0..GLOBAL_TERMS.len())
        .find(|&k| global_indices(types, k).contains(&i))
        .expect("a global number's index")
}

/// Index of the shelter weight in the flat vector of a game with `types` piece types.
pub fn shelter_index(types: usize) -> usize {
    types * PER_PIECE
}

/// Index of the tempo in the flat vector.
pub fn tempo_index(types: usize) -> usize {
    types * PER_PIECE + 1
}

/// Index of the weight for a side with `n` (1 to `FEW_PIECES`) non-royal pieces.
pub fn few_pieces_index(types: usize, n: usize) -> usize {
    types * PER_PIECE + 2 + n - 1
}

/// How many pawn-structure numbers follow the `few_pieces` weights, and their order.
pub const PAWN_TERMS: usize = 3;
pub const PASSED: usize = 0;
pub const DOUBLED: usize = 1;
pub const ISOLATED: usize = 2;

/// Index of pawn-structure number `term` (`PASSED`, `DOUBLED`, `ISOLATED`) in the flat
/// vector.
pub fn pawn_index(types: usize, term: usize) -> usize {
    types * PER_PIECE + 2 + FEW_PIECES + term
}

/// Index of the royal danger percentage in the flat vector.
pub fn danger_index(types: usize) -> usize {
    types * PER_PIECE + 2 + FEW_PIECES + PAWN_TERMS
}

/// Index of the royal safety percentage in the flat vector, after the royal danger's.
pub fn safety_index(types: usize) -> usize {
    danger_index(types) + 1
}

/// Index of the threats' percentage in the flat vector, after the royal safety's.
pub fn threats_index(types: usize) -> usize {
    safety_index(types) + 1
}

/// Index of the activity's percentage in the flat vector, after the threats'.
pub fn activity_index(types: usize) -> usize {
    threats_index(types) + 1
}

/// Indices of the four percentages of kirin's models in the flat vector: the royal
/// danger's, the royal safety's, the threats' and the activity's.
pub fn percent_indices(types: usize) -> [usize; 4] {
    [
        danger_index(types),
        safety_index(types),
        threats_index(types),
        activity_index(types),
    ]
}

/// How many pawn-control numbers follow the activity's percentage, and their order.
pub const CONTROL_TERMS: usize = 5;
pub const UNSAFE_REACH: usize = 0;
pub const PAWN_THREAT: usize = 1;
pub const OPEN_FILE: usize = 2;
pub const HALF_OPEN_FILE: usize = 3;
pub const SPACE: usize = 4;

/// Index of pawn-control number `term` (`UNSAFE_REACH` ... `SPACE`) in the flat
/// vector.
pub fn control_index(types: usize, term: usize) -> usize {
    activity_index(types) + 1 + term
}

/// Index of the square table's entry of piece type `t` on `own` (the square seen from
/// its owner) in the flat vector of a game with `types` piece types and `squares` squares.
pub fn square_index(types: usize, squares: usize, t: usize, own: usize) -> usize {
    control_index(types, CONTROL_TERMS) + t * squares + own
}

/// How many endgame numbers each piece type has, in the order of its first four
/// (`VALUE`, `CENTRE`, `ADVANCE`, `PROMOTION`).
pub const ENDGAME_TERMS: usize = 4;

/// Index of endgame number `term` (`VALUE` ... `PROMOTION`) of piece type `t` in the flat
/// vector, after every square table.
pub fn endgame_index(types: usize, squares: usize, t: usize, term: usize) -> usize {
    square_index(types, squares, types, 0) + t * ENDGAME_TERMS + term
}

/// What promoting gains piece type `t` at best, under `values` (0 if it cannot promote).
fn promotion_gain<const W: usize>(game: &Game<W>, values: &[i32], t: usize) -> i32 {
    game.promotions[piece_index(t, WHITE)]
        .as_ref()
        .map(|p| {
            p.choices
                .iter()
                .map(|&c| values[type_of_piece(c)] - values[t])
                .max()
                .unwrap_or(0)
                .max(0)
        })
        .unwrap_or(0)
}
