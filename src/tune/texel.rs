//! `kirin tune`: a Texel-style fit of a game's evaluation parameters (`eval::Params`) to
//! the positions of `kirin datagen`.
//!
//! Method. Every position is read once and turned into its feature vector
//! (`Eval::features`, White's view), so that its evaluation under any parameters is a dot
//! product. The prediction for a position is sigmoid(K × eval), an expected score. K is
//! fitted first, with the starting parameters, to the game results alone (a golden-section
//! search on log K); it fixes the scale, centipawns to expected score, for the rest. The
//! target of a position is the game's result blended with sigmoid(K × search score)
//! (`--result-weight`): results are the truth but noisy at low node counts, the search's
//! score is smooth but only as good as the evaluation it came from. Then full-batch Adam
//! on the mean squared error between prediction and target, with a small pull towards
//! the starting numbers (`--l2`) so that a piece seldom seen is not moved by noise. A tenth
//! of the positions, in blocks of a fiftieth of the data and at most a thousand lines
//! (whole games, mostly), is held out and its error reported, to show whether the fit
//! generalises to other games.

use super::data::{self, DataError};
use crate::core::{BLACK, WHITE, piece_index};
use crate::eval::Eval;
use crate::eval::features::Features;
use crate::eval::has_pawns;
use crate::eval::params::{
    CONTROL_TERMS, ENDGAME_TERMS, GLOBAL_TERMS, PAWN_TERMS, PER_PIECE, PIECE_TERMS, Params, VALUE,
    control_index, endgame_index, few_pieces_index, global_indices, pawn_index, percent_indices,
    square_index,
};
use crate::rules::Game;
use crate::rules::spec::{BareKing, ROYAL_DANGER_MAX};
use crate::variants::AnyGame;
use std::path::PathBuf;
use std::time::Instant;
use thiserror::Error;

#[derive(clap::Args)]
#[command(
    after_help = "Reads the positions of `kirin datagen`, fits the scaling constant K and \
    then the evaluation parameters, and prints the error before and after and the fitted \
    [variant.eval] section, ready for the variant's definition (docs/tuning.md)."
)]
pub struct TuneArgs {
    #[command(flatten)]
    pub game: crate::cli_search::GameArgs,
    /// Positions written by `kirin datagen`.
    #[arg(long)]
    pub data: PathBuf,
    /// Adam steps over the whole data.
    #[arg(long, default_value_t = 3000)]
    pub iterations: usize,
    /// Adam's step size, in centipawns (decays to a tenth of it by the last step).
    #[arg(long, default_value_t = 2.0)]
    pub rate: f64,
    /// Share of the game result in the target; the rest is the search's score.
    #[arg(long, default_value_t = 0.7)]
    pub result_weight: f64,
    /// Pull towards the starting numbers: this times the squared change in centipawns is
    /// added to the error (a hundredth of it for piece values).
    #[arg(long, default_value_t = 2e-8)]
    pub l2: f64,
    /// Start from the derived numbers rather than the game's `[variant.eval]` section.
    #[arg(long)]
    pub from_derived: bool,
    /// Fit the piece values only, every positional weight kept as it starts: a fit of a
    /// dozen numbers where the data is too little for a hundred.
    #[arg(long)]
    pub values_only: bool,
    /// Fit each piece type's square table too (a number per piece and square, on top of
    /// its centre and advance terms): for data of thousands of games.
    #[arg(long, conflicts_with = "values_only")]
    pub squares: bool,
    /// With --squares: the pull of the square tables towards their start, as a multiple
    /// of --l2 (a square seldom stood on is otherwise moved by noise).
    #[arg(long, default_value_t = 1.0, requires = "squares")]
    pub squares_pull: f64,
    /// Terms the fit leaves as they start, by their names in the section (`value`,
    /// `centre`, `advance`, `promotion`, `mobility`, `leaps`, `attack` for every piece;
    /// `tempo`, `shelter`, `few_pieces`, `passed`, `doubled`, `isolated`, `royal_danger`,
    /// `royal_safety`, `threats`, `activity`, `unsafe_reach`, `pawn_threat`, `open_file`, `half_open_file`,
    /// `space`):
    /// a term that is 0 and stays 0 costs the evaluation nothing.
    #[arg(long, value_delimiter = ',', value_name = "TERM,...")]
    pub keep: Vec<String>,
    /// Fit each piece's value, centre, advance and promotion weights twice, for the
    /// middlegame and for the endgame (`value_eg`, `centre_eg`, `advance_eg`,
    /// `promotion_eg`), blended by the material left. Without it a game whose section
    /// is not tapered stays so: each pair is fitted as one number. With `--values-only`,
    /// the values of both phases.
    #[arg(long)]
    pub tapered: bool,
    /// The scale K of the sigmoid instead of the one that best predicts the results
    /// under the starting numbers: errors are comparable only at one K, so fits of two
    /// evaluations (two builds, or two sections) are compared at the same one.
    #[arg(long)]
    pub k: Option<f64>,
}

/// Why tuning could not be done.
#[derive(Debug, Error)]
pub enum TuneError {
    #[error(transparent)]
    Data(#[from] DataError),
    #[error("--result-weight {0} is not between 0 and 1")]
    ResultWeight(f64),
    #[error("--squares-pull {0} is not a number of 0 or more")]
    SquaresPull(f64),
    #[error("--k {0} is not a number above 0")]
    K(f64),
    #[error("--keep {0}: no such term (terms: {terms})", terms = terms().collect::<Vec<_>>().join(" "))]
    Term(String),
}

/// Held-out positions are every tenth block of lines, blocks of a fiftieth of the data
/// and at most this many lines: a game's positions are written together and share its
/// result, so holding out single lines would test the fit on games it was fitted to.
const HELD_OUT_BLOCK: usize = 1000;

/// One training position: its features from White's view, the game's result and the
/// searched score, both from White's view.
pub struct Sample {
    pub features: Features,
    pub result: f64,
    pub score: f64,
}

/// The fit's settings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub iterations: usize,
    pub rate: f64,
    pub result_weight: f64,
    pub l2: f64,
    /// Parameters the fit must leave as they are.
    pub frozen: Vec<bool>,
    /// Per parameter: its share of the `l2` pull.
    pub pull: Vec<f64>,
    /// Per parameter: the least and the greatest value it may take.
    pub bounds: Vec<(f64, f64)>,
    /// The sigmoid's scale, if given (else fitted to the results).
    pub k: Option<f64>,
}

/// What the fit found.
#[derive(Clone, Debug)]
pub struct Fit {
    pub k: f64,
    pub params: Vec<f64>,
    pub train_before: f64,
    pub train_after: f64,
    pub valid_before: f64,
    pub valid_after: f64,
}

/// `kirin tune`.
pub fn run(any: &AnyGame, args: &TuneArgs) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.result_weight) {
        return Err(TuneError::ResultWeight(args.result_weight).to_string());
    }
    if !(args.squares_pull >= 0.0 && args.squares_pull.is_finite()) {
        return Err(TuneError::SquaresPull(args.squares_pull).to_string());
    }
    if let Some(k) = args.k.filter(|k| !(*k > 0.0 && k.is_finite())) {
        return Err(TuneError::K(k).to_string());
    }
    if let Some(bad) = args.keep.iter().find(|t| !terms().any(|k| k == t.as_str())) {
        return Err(TuneError::Term(bad.clone()).to_string());
    }
    crate::with_width!(any, g => {
        let start = if args.from_derived { Params::derived(g) } else { Params::of(g) };
        let started = Instant::now();
        let tapered = args.tapered || start.tapered();
        let mut samples = read_samples(g, &start, &args.data).map_err(|e| e.to_string())?;
        if !tapered {
            for s in &mut samples {
                fold_endgame(&start, &mut s.features);
            }
        }
        let (train, valid): (Vec<&Sample>, Vec<&Sample>) = {
            let (mut t, mut v) = (Vec::new(), Vec::new());
            let block = (samples.len() / 50).clamp(1, HELD_OUT_BLOCK);
            for (i, s) in samples.iter().enumerate() {
                if (i / block) % 10 == 9 { v.push(s) } else { t.push(s) }
            }
            (t, v)
        };
        eprintln!(
            "kirin: tune {}: {} positions ({} to fit, {} held out), features in {:.1} s",
            g.spec.name, samples.len(), train.len(), valid.len(), started.elapsed().as_secs_f64()
        );
        let settings = Settings {
            iterations: args.iterations,
            rate: args.rate,
            result_weight: args.result_weight,
            l2: args.l2,
            frozen: keep(g, frozen(g, &start, Fitted::of(args), tapered), &args.keep),
            pull: pull(&start, args.squares_pull),
            bounds: bounds(g, &start),
            k: args.k,
        };
        let mut fit = fit(&train, &valid, &start.to_vector(), &settings);
        if !tapered {
            // Each middlegame number was fitted for both phases.
            copy_middlegame_to_endgame(&start, &mut fit.params);
        }
        let tuned = start.from_vector(&fit.params);
        // The printed numbers are whole centipawns: their error is the one reported.
        let rounded = tuned.to_vector();
        let err = |set: &[&Sample], p: &[f64]| error(set, p, fit.k, settings.result_weight);
        say!("# kirin tune {}: {} positions, K = {:.6}", g.spec.name, samples.len(), fit.k);
        say!(
            "# error (fitted / held out): before {:.6} / {:.6}, after {:.6} / {:.6}",
            fit.train_before, fit.valid_before, err(&train, &rounded), err(&valid, &rounded)
        );
        say!("{}", section_text(g, &tuned));
        eprintln!("kirin: tune {}: {:.1} s", g.spec.name, started.elapsed().as_secs_f64());
        Ok(())
    })
}

/// Reads `kirin datagen`'s lines into samples, with features under `params`.
pub fn read_samples<const W: usize>(
    game: &Game<W>,
    params: &Params,
    path: &std::path::Path,
) -> Result<Vec<Sample>, TuneError> {
    let eval = Eval::with_params(game, params);
    Ok(data::read(game, path, |line| {
        Ok(sample(game, &eval, line))
    })?)
}

/// A line of the data as a sample: its features, result and score, from White's view.
fn sample<const W: usize>(game: &Game<W>, eval: &Eval, line: data::Line<W>) -> Sample {
    let mut features = eval.features(game, &line.pos);
    // The features are the side to move's; the fit works from White's view.
    if line.pos.side == BLACK {
        features.fixed = -features.fixed;
        for t in &mut features.terms {
            t.1 = -t.1;
        }
    }
    Sample {
        features,
        result: line.result,
        score: line.score as f64,
    }
}

/// `features` with each endgame coefficient added to its middlegame one: the
/// evaluation of an untapered fit, where the two numbers are one.
fn fold_endgame(params: &Params, features: &mut Features) {
    let (types, squares) = (params.pieces.len(), params.squares());
    let first = endgame_index(types, squares, 0, 0);
    for (i, _) in &mut features.terms {
        let at = *i as usize;
        if at >= first {
            let (t, term) = ((at - first) / ENDGAME_TERMS, (at - first) % ENDGAME_TERMS);
            *i = (t * PER_PIECE + term) as u32;
        }
    }
}

/// Each piece's endgame numbers set to its middlegame ones in the flat vector `v`.
fn copy_middlegame_to_endgame(params: &Params, v: &mut [f64]) {
    let (types, squares) = (params.pieces.len(), params.squares());
    for t in 0..types {
        for term in 0..ENDGAME_TERMS {
            v[endgame_index(types, squares, t, term)] = v[t * PER_PIECE + term];
        }
    }
}

/// Whether parameter `i` is one of the endgame numbers.
fn is_endgame(params: &Params, i: usize) -> bool {
    i >= endgame_index(params.pieces.len(), params.squares(), 0, 0)
}

/// Whether parameter `i` is a piece's endgame value.
fn is_endgame_value(params: &Params, i: usize) -> bool {
    let first = endgame_index(params.pieces.len(), params.squares(), 0, 0);
    i >= first && (i - first) % ENDGAME_TERMS == VALUE
}

/// The parameters the fit leaves alone: the values of royal pieces (a side's one King
/// cancels the other's, so the data says nothing of it, except in the rare positions
/// where a second royal (Sho's Crown Prince) appears, and there the value of a second
/// life is not what the few self-play games measured: the fit priced Sho's Crown
/// Prince at half a Drunk Elephant), the `few_pieces` weights of a game in which a
/// bared side plays on (the definition may not set them there), the pawn structure of a
/// game without pawns; the square tables unless asked for; with `values_only`,
/// everything but the values of the pieces; the endgame numbers unless the fit is
/// `tapered` (then they are fitted as their middlegame numbers are).
fn frozen<const W: usize>(
    game: &Game<W>,
    params: &Params,
    fitted: Fitted,
    tapered: bool,
) -> Vec<bool> {
    let mut frozen: Vec<bool> = (0..params.len())
        .map(|i| match fitted {
            _ if is_endgame(params, i) && !tapered => true,
            Fitted::Values => !(is_value(params, i) || is_endgame_value(params, i)),
            Fitted::Weights => is_square(params, i),
            Fitted::Squares => false,
        })
        .collect();
    for t in 0..game.types {
        if game.is_royal[piece_index(t, WHITE)] {
            frozen[t * PER_PIECE + VALUE] = true;
            frozen[endgame_index(game.types, params.squares(), t, VALUE)] = true;
        }
    }
    if game.spec.bare_king == BareKing::Play {
        for n in 1..=params.few_pieces.len() {
            frozen[few_pieces_index(game.types, n)] = true;
        }
    }
    if !has_pawns(game) {
        for term in 0..PAWN_TERMS {
            frozen[pawn_index(game.types, term)] = true;
        }
        for term in 0..CONTROL_TERMS {
            frozen[control_index(game.types, term)] = true;
        }
    }
    frozen
}

/// The names of a piece type's endgame numbers (`--tapered`), which `--keep` knows too.
const ENDGAME_NAMES: [&str; ENDGAME_TERMS] =
    ["value_eg", "centre_eg", "advance_eg", "promotion_eg"];

/// Every name `--keep` knows.
fn terms() -> impl Iterator<Item = &'static str> {
    PIECE_TERMS
        .into_iter()
        .chain(GLOBAL_TERMS)
        .chain(ENDGAME_NAMES)
}

/// `frozen` with the terms named in `kept` frozen too (names checked against `terms`).
fn keep<const W: usize>(game: &Game<W>, mut frozen: Vec<bool>, kept: &[String]) -> Vec<bool> {
    let types = game.types;
    for name in kept {
        let term_named = |names: &[&str]| names.iter().position(|t| t == name);
        let indices: Vec<usize> = if let Some(k) = term_named(&GLOBAL_TERMS) {
            global_indices(types, k).collect()
        } else if let Some(term) = term_named(&ENDGAME_NAMES) {
            let squares = game.squares;
            (0..types)
                .map(|t| endgame_index(types, squares, t, term))
                .collect()
        } else {
            let offset = term_named(&PIECE_TERMS).expect("a known term");
            (0..types).map(|t| t * PER_PIECE + offset).collect()
        };
        for i in indices {
            frozen[i] = true;
        }
    }
    frozen
}

/// Which numbers a fit moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fitted {
    /// The piece values alone (`--values-only`).
    Values,
    /// Every weight but the square tables (the default).
    Weights,
    /// Every weight and the square tables (`--squares`).
    Squares,
}

impl Fitted {
    fn of(args: &TuneArgs) -> Fitted {
        if args.values_only {
            Fitted::Values
        } else if args.squares {
            Fitted::Squares
        } else {
            Fitted::Weights
        }
    }
}

/// What each parameter may be: a piece value at least 0, a `few_pieces` weight at most 0
/// (under a bare-king rule a side is never better off for having fewer pieces; in
/// self-play at a few thousand nodes the side with the material often fails to force the
/// win, and unbounded the fit rewarded the side about to be bared, which then cost the
/// engine won endings), the royal danger percentage within what a definition may say,
/// everything else free.
fn bounds<const W: usize>(game: &Game<W>, params: &Params) -> Vec<(f64, f64)> {
    let mut bounds = vec![(f64::NEG_INFINITY, f64::INFINITY); params.len()];
    let (types, squares) = (params.pieces.len(), params.squares());
    for t in 0..types {
        bounds[t * PER_PIECE].0 = 0.0;
        bounds[endgame_index(types, squares, t, VALUE)].0 = 0.0;
    }
    for n in 1..=params.few_pieces.len() {
        bounds[few_pieces_index(game.types, n)].1 = 0.0;
    }
    for i in percent_indices(game.types) {
        bounds[i] = (0.0, ROYAL_DANGER_MAX as f64);
    }
    let tables = square_index(types, squares, 0, 0)..endgame_index(types, squares, 0, 0);
    for b in &mut bounds[tables] {
        *b = (-SQUARE_MAX, SQUARE_MAX);
    }
    bounds
}

/// The largest number a fitted square table may hold (a definition may say up to 2000).
const SQUARE_MAX: f64 = 500.0;

/// How strongly each parameter is pulled to its start: piece values hardly (a value is a
/// count difference that most positions measure, and the derived values are what tuning
/// is there to correct), nor the royal danger percentage (one number, and its gradient is
/// small: under the full pull Sho's fit moved it from 0 to 17 and from 100 to 110, while
/// unpulled both starts reached 190), the positional weights fully: they are nearly
/// collinear (the linear and quadratic advance, the centre and the value), and unpulled
/// they trade huge opposite weights for a sliver of error; the square tables by
/// `squares_pull` (`--squares-pull`).
fn pull(params: &Params, squares_pull: f64) -> Vec<f64> {
    let percents = percent_indices(params.pieces.len());
    (0..params.len())
        .map(|i| {
            let percent = percents.contains(&i);
            if is_value(params, i) || is_endgame_value(params, i) || percent {
                WEAK_PULL
            } else if is_square(params, i) {
                squares_pull
            } else {
                1.0
            }
        })
        .collect()
}

/// Whether parameter `i` is an entry of a square table.
fn is_square(params: &Params, i: usize) -> bool {
    i >= square_index(params.pieces.len(), params.squares(), 0, 0) && !is_endgame(params, i)
}

/// Whether parameter `i` is a piece's value.
fn is_value(params: &Params, i: usize) -> bool {
    i < params.pieces.len() * PER_PIECE && i % PER_PIECE == VALUE
}

/// The share of the `l2` pull on piece values and the royal danger percentage.
const WEAK_PULL: f64 = 0.01;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of a sample: its result blended with its searched score.
fn target(s: &Sample, k: f64, result_weight: f64) -> f64 {
    result_weight * s.result + (1.0 - result_weight) * sigmoid(k * s.score)
}

/// Mean squared error of the predictions under `params` and `k`.
pub fn error(samples: &[&Sample], params: &[f64], k: f64, result_weight: f64) -> f64 {
    // Summed from +0 (`Iterator::sum` of no floats is -0, printed "-0.000000").
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(k * s.features.dot(params)) - target(s, k, result_weight);
            d * d
        })
        .fold(0.0, |a, b| a + b);
    total / samples.len().max(1) as f64
}

/// The K that best predicts the results alone under `params`: a golden-section search
/// on log10 K between 10^-5 and 10^-1 (the error is unimodal in K).
pub fn fit_k(samples: &[&Sample], params: &[f64]) -> f64 {
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (s.features.dot(params), s.result))
        .collect();
    let err = |log_k: f64| {
        let k = 10f64.powf(log_k);
        evals
            .iter()
            .map(|&(e, r)| (sigmoid(k * e) - r).powi(2))
            .sum::<f64>()
    };
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (-5.0f64, -1.0f64);
    let (mut c, mut d) = (b - phi * (b - a), a + phi * (b - a));
    let (mut fc, mut fd) = (err(c), err(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = err(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = err(d);
        }
    }
    10f64.powf((a + b) / 2.0)
}

/// Fits K, then the parameters from `start` (see the module's comment).
pub fn fit(train: &[&Sample], valid: &[&Sample], start: &[f64], settings: &Settings) -> Fit {
    let k = settings.k.unwrap_or_else(|| fit_k(train, start));
    let w = settings.result_weight;
    let targets: Vec<f64> = train.iter().map(|s| target(s, k, w)).collect();
    let mut x = start.to_vec();
    let (mut m, mut v) = (vec![0.0; x.len()], vec![0.0; x.len()]);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8);
    let n = train.len().max(1) as f64;
    let mut grad = vec![0.0; x.len()];
    for step in 1..=settings.iterations {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for (s, &y) in train.iter().zip(&targets) {
            let p = sigmoid(k * s.features.dot(&x));
            // d/dx of (p - y)^2 = 2 (p - y) p (1 - p) K f.
            let scale = 2.0 * (p - y) * p * (1.0 - p) * k / n;
            for &(i, c) in &s.features.terms {
                grad[i as usize] += scale * c as f64;
            }
        }
        let progress = step as f64 / settings.iterations as f64;
        let rate = settings.rate * (1.0 - 0.9 * progress);
        for i in 0..x.len() {
            if settings.frozen[i] {
                continue;
            }
            let g = grad[i] + 2.0 * settings.l2 * settings.pull[i] * (x[i] - start[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(step as i32));
            x[i] -= rate * m_hat / (v_hat.sqrt() + eps);
        }
        for (v, &(low, high)) in x.iter_mut().zip(&settings.bounds) {
            *v = v.clamp(low, high);
        }
    }
    Fit {
        k,
        train_before: error(train, start, k, w),
        valid_before: error(valid, start, k, w),
        train_after: error(train, &x, k, w),
        valid_after: error(valid, &x, k, w),
        params: x,
    }
}

/// `params` as a `[variant.eval]` section for `game`'s definition.
pub fn section_text<const W: usize>(game: &Game<W>, params: &Params) -> String {
    let mut out = String::from("  [variant.eval]\n");
    out += &format!(
        "  tempo = {}\n  shelter = {}\n",
        params.tempo, params.shelter
    );
    if game.spec.bare_king != BareKing::Play {
        let few: Vec<String> = params.few_pieces.iter().map(|w| w.to_string()).collect();
        out += &format!("  few_pieces = [{}]\n", few.join(", "));
    }
    if let Some(n) = game.spec.eval.mating_pieces {
        // A fact of the game, not a fitted number: the section keeps it as it was.
        out += &format!("  mating_pieces = {n}\n");
    }
    if params.royal_danger != 0 || game.spec.eval.royal_danger.is_some() {
        out += &format!("  royal_danger = {}\n", params.royal_danger);
    }
    if params.royal_safety != 0 || game.spec.eval.royal_safety.is_some() {
        out += &format!("  royal_safety = {}\n", params.royal_safety);
    }
    if params.threats != 0 || game.spec.eval.threats.is_some() {
        out += &format!("  threats = {}\n", params.threats);
    }
    if params.activity != 0 || game.spec.eval.activity.is_some() {
        out += &format!("  activity = {}\n", params.activity);
    }
    if has_pawns(game) {
        out += &format!(
            "  passed = {}\n  doubled = {}\n  isolated = {}\n",
            params.passed.round() + 0.0,
            params.doubled,
            params.isolated
        );
        // Only where fitted off 0 or already set: the sections before these terms existed
        // stay as they were.
        let set = &game.spec.eval;
        for (name, weight, was) in [
            ("unsafe_reach", params.unsafe_reach, set.unsafe_reach),
            ("pawn_threat", params.pawn_threat, set.pawn_threat),
            ("open_file", params.open_file, set.open_file),
            ("half_open_file", params.half_open_file, set.half_open_file),
            ("space", params.space, set.space),
        ] {
            if weight != 0 || was.is_some() {
                out += &format!("  {name} = {weight}\n");
            }
        }
    }
    out += "  [variant.eval.pieces]\n";
    for (piece, p) in game.spec.pieces.iter().zip(&params.pieces) {
        let letter = &piece.letter;
        let key = if letter.chars().all(|c| c.is_ascii_alphanumeric()) {
            letter.clone()
        } else {
            format!("\"{letter}\"")
        };
        // Whole centipawns (adding 0 turns a rounded -0 into 0).
        let whole = |x: f64| x.round() + 0.0;
        let mut fields = format!(
            "value = {}, centre = {}, advance = {}, promotion = {}",
            p.value,
            whole(p.centre),
            whole(p.advance),
            whole(p.promotion)
        );
        if p.slides {
            fields += &format!(", mobility = {}", p.mobility);
        }
        if p.leaper {
            fields += &format!(", leaps = {}", p.leaps);
        }
        fields += &format!(", attack = {}", p.attack);
        let e = &p.endgame;
        if p.endgame != p.middlegame() {
            fields += &format!(
                ", value_eg = {}, centre_eg = {}, advance_eg = {}, promotion_eg = {}",
                e.value,
                whole(e.centre),
                whole(e.advance),
                whole(e.promotion)
            );
        }
        if p.squares.iter().any(|&x| x.round() != 0.0) {
            fields += &format!(", squares = [\n{}    ]", square_table(game, &p.squares));
        }
        out += &format!("  {key} = {{ {fields} }}  # {}\n", piece.name);
    }
    out
}

/// A square table in whole centipawns, one rank a line from the owner's first rank (the
/// order `PieceParams::squares` has), each line ending in its rank's number.
fn square_table<const W: usize>(game: &Game<W>, table: &[f64]) -> String {
    let width = game.geo.width;
    table
        .chunks(width)
        .enumerate()
        .map(|(rank, row)| {
            let numbers: Vec<String> = row
                .iter()
                .map(|x| format!("{:4}", x.round() + 0.0))
                .collect();
            format!("      {},  # {}\n", numbers.join(","), rank + 1)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::params::{LEAPS, PASSED, danger_index};
    use crate::rules::Position;

    #[test]
    fn the_fit_finds_the_ratio_of_two_values_and_lowers_the_error() {
        use rand::{Rng, SeedableRng};
        // Synthetic positions: two piece-count differences decide the result with K =
        // 0.01 and values 100 and 50; the fit starts from 100 and 0.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let samples: Vec<Sample> = (0..4000)
            .map(|_| {
                let (a, b) = (rng.gen_range(-3..=3) as f32, rng.gen_range(-3..=3) as f32);
                let eval = 100.0 * a as f64 + 50.0 * b as f64;
                let result = if rng.r#gen::<f64>() < sigmoid(0.01 * eval) {
                    1.0
                } else {
                    0.0
                };
                Sample {
                    features: Features {
                        terms: vec![(0, a), (1, b)],
                        fixed: 0.0,
                    },
                    result,
                    score: eval,
                }
            })
            .collect();
        let refs: Vec<&Sample> = samples.iter().collect();
        let settings = Settings {
            iterations: 800,
            rate: 2.0,
            result_weight: 1.0,
            l2: 0.0,
            frozen: vec![false, false],
            pull: vec![1.0, 1.0],
            bounds: vec![(0.0, f64::INFINITY); 2],
            k: None,
        };
        let fit = fit(&refs, &refs, &[100.0, 0.0], &settings);
        assert!(fit.train_after < fit.train_before);
        let ratio = fit.params[1] / fit.params[0];
        assert!((ratio - 0.5).abs() < 0.1, "{:?}", fit.params);
        // The scale: K x value of the first piece near the true 0.01 x 100.
        assert!(
            (fit.k * fit.params[0] - 1.0).abs() < 0.25,
            "{} {:?}",
            fit.k,
            fit.params
        );
        // A K given is kept, and the values scale to it.
        let given = Settings {
            k: Some(0.02),
            ..settings
        };
        let scaled = super::fit(&refs, &refs, &[100.0, 0.0], &given);
        assert_eq!(scaled.k, 0.02);
        assert!(
            (scaled.k * scaled.params[0] - 1.0).abs() < 0.25,
            "{:?}",
            scaled.params
        );
    }

    #[test]
    fn values_only_leaves_every_weight_but_the_values_of_non_royal_pieces() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let params = Params::of(g);
            let values_only = frozen(g, &params, Fitted::Values, false);
            for (i, &f) in values_only.iter().enumerate() {
                let free_value = i < g.types * PER_PIECE
                    && i % PER_PIECE == VALUE
                    && !g.is_royal[piece_index(i / PER_PIECE, WHITE)];
                assert_eq!(f, !free_value, "parameter {i}");
            }
            // Tapered, each non-royal piece's endgame value is free as well.
            let tapered = frozen(g, &params, Fitted::Values, true);
            let endgame = endgame_index(g.types, g.squares, 0, 0);
            for (i, &f) in tapered.iter().enumerate() {
                let free_value = if i < endgame {
                    i < g.types * PER_PIECE && i % PER_PIECE == VALUE
                } else {
                    (i - endgame) % ENDGAME_TERMS == VALUE
                };
                let royal = if i < endgame {
                    i < g.types * PER_PIECE && g.is_royal[piece_index(i / PER_PIECE, WHITE)]
                } else {
                    g.is_royal[piece_index((i - endgame) / ENDGAME_TERMS, WHITE)]
                };
                assert_eq!(f, !free_value || royal, "parameter {i}");
            }
            // Without it the positional weights are free too, the square tables only
            // when asked for.
            let tables = square_index(g.types, g.squares, 0, 0);
            let free = |fitted| -> Vec<usize> {
                let f = frozen(g, &params, fitted, false);
                (0..f.len()).filter(|&i| !f[i]).collect()
            };
            let weights = free(Fitted::Weights);
            assert!(weights.len() > tables / 2 && weights.iter().all(|&i| i < tables));
            let squares = free(Fitted::Squares);
            assert_eq!(squares.len(), weights.len() + g.types * g.squares);
            assert_eq!(
                params.len(),
                tables + g.types * g.squares + g.types * ENDGAME_TERMS
            );
        });
    }

    #[test]
    fn kept_terms_stay_as_they_start() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let params = Params::of(g);
            let free = frozen(g, &params, Fitted::Weights, false);
            let kept = ["leaps", "royal_danger", "passed"].map(String::from);
            let frozen = keep(g, free.clone(), &kept);
            for (i, (&before, &after)) in free.iter().zip(&frozen).enumerate() {
                let named = (i < g.types * PER_PIECE && i % PER_PIECE == LEAPS)
                    || i == danger_index(g.types)
                    || i == pawn_index(g.types, PASSED);
                assert_eq!(after, before || named, "parameter {i}");
            }
            // Every name of the list is known to `keep`.
            let all: Vec<String> = terms().map(String::from).collect();
            assert!(keep(g, free, &all).iter().take(control_index(g.types, CONTROL_TERMS)).all(|&f| f));
        });
    }

    /// A child of Courier with the written section `text`, as a definition file reads it.
    fn courier_with_section(text: &str) -> AnyGame {
        let toml = format!("[[variant]]\nname = \"c2\"\ninherits = \"courier\"\n{text}");
        let specs =
            crate::rules::spec::parse_definitions_over(&toml, crate::variants::BUILTIN_DEFINITIONS)
                .unwrap();
        AnyGame::new(&specs[0]).unwrap()
    }

    #[test]
    fn a_square_table_counts_for_both_owners_and_is_written_and_read_back() {
        // Courier: Black's army is White's mirrored across the middle rank; a table is
        // written from its owner's first rank, and a definition reads it back so.
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let mut params = Params::of(g);
            let rook = g.spec.pieces.iter().position(|p| p.letter == "r").unwrap();
            // b1, the owner's second square, and h7, on its seventh rank (added to what
            // Courier's section has there).
            params.pieces[rook].squares[1] += 37.0;
            params.pieces[rook].squares[6 * 12 + 7] -= 12.0;
            let (before, after) = (Eval::new(g), Eval::with_params(g, &params));
            let fens = [
                ("k11/12/12/12/12/12/12/1R8K1 w - - 0 1", 37),
                ("1r8k1/12/12/12/12/12/12/K11 b - - 0 1", 37),
                ("k11/7R4/12/12/12/12/12/K11 w - - 0 1", -12),
                ("k11/12/12/12/12/12/7r4/K11 b - - 0 1", -12),
                ("k11/12/12/12/12/12/12/2R7K1 w - - 0 1", 0),
            ];
            for (fen, gain) in fens {
                let pos = Position::from_fen(g, fen).unwrap();
                assert_eq!(after.evaluate(g, &pos) - before.evaluate(g, &pos), gain, "{fen}");
            }
            let text = section_text(g, &params);
            assert!(text.contains("squares = [\n"), "{text}");
            let read = courier_with_section(&text);
            crate::with_width!(&read, g2 => {
                let e = Eval::new(g2);
                for (fen, _) in fens {
                    let (pos, pos2) = (Position::from_fen(g, fen).unwrap(),
                                       Position::from_fen(g2, fen).unwrap());
                    assert_eq!(e.evaluate(g2, &pos2), after.evaluate(g, &pos), "{fen}");
                }
            });
        });
    }

    #[test]
    fn endgame_numbers_count_as_the_board_empties_and_are_written_and_read_back() {
        // Courier's Rook given an endgame value 300 cp above its middlegame one: with the
        // start's pieces on the board it counts as before, with no piece but royals and
        // pawns its full endgame value, and in between by the material left.
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let mut params = Params::of(g);
            let rook = g.spec.pieces.iter().position(|p| p.letter == "r").unwrap();
            params.pieces[rook].endgame.value += 300;
            assert!(params.tapered() && !Params::of(g).tapered());
            let (before, after) = (Eval::new(g), Eval::with_params(g, &params));
            let start = Position::from_fen(g, &g.spec.start).unwrap();
            assert_eq!(after.evaluate(g, &start), before.evaluate(g, &start));
            let full = crate::eval::PHASE_FULL;
            // Kings and pawns only: the endgame.
            let pawns = Position::from_fen(g, "k11/p11/12/12/12/12/P11/11K w - - 0 1").unwrap();
            assert_eq!(after.phase(&pawns), 0);
            // One White Rook besides the Kings: nearly all of the endgame's 300 (the Rook
            // is material of the phase too).
            let lone = Position::from_fen(g, "k11/12/12/12/12/12/12/1R8K1 w - - 0 1").unwrap();
            let phase = after.phase(&lone);
            assert!(0 < phase && phase < full / 8, "{phase}");
            let gain = after.evaluate(g, &lone) - before.evaluate(g, &lone);
            assert_eq!(gain, 300 * (full - phase) / full);
            // The start without White's two Rooks: Black's two Rooks gain their endgame
            // share, White has none.
            let fewer = "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/1NEBMK1WBEN1 w - - 0 1";
            let pos = Position::from_fen(g, fewer).unwrap();
            let phase = after.phase(&pos);
            assert!(full / 2 < phase && phase < full, "{phase}");
            let gain = after.evaluate(g, &pos) - before.evaluate(g, &pos);
            assert_eq!(gain, -(2 * 300 * (full - phase) / full));
            // The section writes the endgame numbers, and a definition reads them back.
            let text = section_text(g, &params);
            assert!(text.contains("value_eg = "), "{text}");
            let read = courier_with_section(&text);
            crate::with_width!(&read, g2 => {
                let e = Eval::new(g2);
                for p in [&start, &pawns, &lone, &pos] {
                    let fen = p.to_fen(g);
                    let p2 = Position::from_fen(g2, &fen).unwrap();
                    assert_eq!(e.evaluate(g2, &p2), after.evaluate(g, p), "{fen}");
                }
            });
        });
    }

    #[test]
    fn the_written_section_keeps_mating_pieces_and_writes_the_fitted_royal_danger() {
        // mating_pieces is a fact of the game, never fitted; royal_danger is fitted, and
        // written where the definition has it (Sho's number, whatever SPRT last made
        // it) or the fit moved it off 0.
        for (name, absent) in [("flee", "royal_danger"), ("sho", "mating_pieces")] {
            let any = AnyGame::builtin(name).unwrap();
            crate::with_width!(&any, g => {
                let eval = &g.spec.eval;
                let kept = match (eval.mating_pieces, eval.royal_danger) {
                    (Some(n), None) => format!("  mating_pieces = {n}\n"),
                    (None, Some(p)) => format!("  royal_danger = {p}\n"),
                    other => panic!("{name}: {other:?}"),
                };
                let text = section_text(g, &Params::of(g));
                assert!(text.contains(&kept), "{name}: {text}");
                assert!(!text.contains(absent), "{name}: {text}");
            });
        }
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let mut params = Params::of(g);
            params.royal_danger = 37;
            assert!(section_text(g, &params).contains("  royal_danger = 37\n"));
            // The fit keeps it within the definition's range.
            let mut v = params.to_vector();
            v[danger_index(g.types)] = 900.0;
            assert_eq!(params.from_vector(&v).royal_danger, ROYAL_DANGER_MAX);
            assert_eq!(bounds(g, &params)[danger_index(g.types)], (0.0, 400.0));
        });
    }
}
