//! Variant definitions as data: the TOML format of `definitions.toml`, its inheritance,
//! and the checks that turn it into a `VariantSpec`.

use crate::core::Geometry;
use crate::core::geometry::GeometryError;
use crate::rules::betza::{self, Atom, BetzaError};
use crate::rules::fen::FenError;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use thiserror::Error;

/// Why a variant could not be found, read or defined. The messages name the variant and
/// the problem; they are what the command line and the protocols show.
#[derive(Debug, Error)]
pub enum SpecError {
    /// No variant has this name.
    #[error("unknown variant '{name}' (known: {})", known.join(", "))]
    UnknownVariant { name: String, known: Vec<String> },
    /// A user's definitions file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A problem in a user's definitions file.
    #[error("{}: {inner}", path.display())]
    InFile {
        path: PathBuf,
        #[source]
        inner: Box<SpecError>,
    },
    /// Definitions that are not TOML, or not in the definitions' shape.
    #[error("variant definitions: {}", one_line(.0))]
    Toml(#[from] toml::de::Error),
    /// A `--rule` that is not `key=value`.
    #[error("rule '{rule}' is not key=value")]
    RuleNotKeyValue { rule: String },
    /// A `--rule` whose key cannot be one.
    #[error("rule '{rule}': '{key}' is not a key")]
    RuleKey { rule: String, key: String },
    /// A problem in the definition that `--rule`s make of a variant.
    #[error("--rule: {0}")]
    Rule(#[source] Box<SpecError>),
    #[error("variant '{variant}' is defined twice")]
    DefinedTwice { variant: String },
    #[error("variant '{variant}' inherits '{parent}', which is not defined before it")]
    UnknownParent { variant: String, parent: String },
    /// A definition that parses but does not describe a game kirin can play.
    #[error("variant '{variant}': {problem}")]
    Invalid {
        variant: String,
        #[source]
        problem: Problem,
    },
}

/// A TOML error in one line: where it is and what is wrong, without the excerpt of the
/// file drawn under it, so that a protocol's one-line error (UCI's `info string`, CECP's
/// `Error`) carries all of it and a GUI never reads the excerpt as commands.
fn one_line(e: &toml::de::Error) -> String {
    let text = e.to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    // The excerpt's lines start with a line number or a bar; the message follows them.
    let message =
        lines.rfind(|l| !l.starts_with('|') && !l.starts_with(|c: char| c.is_ascii_digit()));
    match message {
        Some(m) if m != first => format!("{first}: {m}"),
        _ => first.to_string(),
    }
}

impl SpecError {
    /// `problem` in the definition of `variant`.
    pub fn invalid(variant: &str, problem: Problem) -> SpecError {
        SpecError::Invalid {
            variant: variant.to_string(),
            problem,
        }
    }

    /// The same error, with the variant `from` called `to` (a definition built under a
    /// working name is reported under the name the user knows).
    pub fn renamed(mut self, from: &str, to: &str) -> SpecError {
        match &mut self {
            SpecError::DefinedTwice { variant }
            | SpecError::UnknownParent { variant, .. }
            | SpecError::Invalid { variant, .. }
                if variant == from =>
            {
                *variant = to.to_string()
            }
            _ => {}
        }
        self
    }
}

/// What is wrong with one variant's definition.
#[derive(Debug, Error)]
pub enum Problem {
    /// A key that is missing or has a value the format does not allow.
    #[error("{0}")]
    Key(String),
    /// A board size, hole or square the board cannot have.
    #[error("{0}")]
    Board(#[from] GeometryError),
    /// A piece described in a way kirin cannot play.
    #[error("piece '{piece}': {why}")]
    Piece { piece: String, why: String },
    /// A piece whose Betza text does not parse.
    #[error("piece '{piece}': {source}")]
    Betza {
        piece: String,
        #[source]
        source: BetzaError,
    },
    /// A start position that is not a legal FEN for the game.
    #[error("start position '{start}': {fen}")]
    Start { start: String, fen: FenError },
    /// A board larger than the bitboard width it was compiled for.
    #[error("{squares} squares do not fit {lanes} lanes")]
    TooWide { squares: usize, lanes: usize },
    /// A `[variant.eval]` section kirin cannot use.
    #[error("eval: {0}")]
    Eval(#[from] EvalProblem),
}

/// What is wrong with a `[variant.eval]` section (its numbers are untrusted input: every
/// one is checked here, so that the evaluation built from them cannot misbehave).
#[derive(Debug, Error, PartialEq)]
pub enum EvalProblem {
    /// A piece entry for a letter the game has no piece for.
    #[error("no piece has the letter '{letter}' (letters: {})", known.join(" "))]
    UnknownLetter { letter: String, known: Vec<String> },
    /// A number outside what the key allows.
    #[error("{key} = {value} is not between {min} and {max}")]
    OutOfRange {
        key: String,
        value: f64,
        min: f64,
        max: f64,
    },
    /// `few_pieces` with more weights than kirin has terms for.
    #[error("few_pieces has {given} weights; at most {max} (for 1, 2, ... non-royal pieces)")]
    TooManyFewPieces { given: usize, max: usize },
    /// `few_pieces` in a game where a bared side plays on: the term would never count.
    #[error("few_pieces needs a bare_king rule other than play (a side about to be bared)")]
    FewPiecesWithoutBareRule,
    /// `mating_pieces` in a game where baring already decides, or where drops or
    /// carried pieces change a side's count of pieces.
    #[error(
        "mating_pieces needs bare_king = play, no drops and no carriers (it counts the \
         pieces that can mate a lone royal)"
    )]
    MatingPiecesUncountable,
    /// A square table whose length is not the board's number of squares.
    #[error("pieces.{letter}.squares has {given} numbers; the board has {expected} squares")]
    SquaresLength {
        letter: String,
        given: usize,
        expected: usize,
    },
}

/// The most `few_pieces` weights: for a side with 1, 2 or 3 non-royal pieces.
pub const FEW_PIECES: usize = 3;

/// Tuned evaluation numbers of one piece type (`[variant.eval.pieces]`); a missing
/// number keeps the value the evaluation derives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PieceEval {
    /// Centipawns.
    pub value: Option<i32>,
    /// Centipawns on the centre square, falling linearly to 0 at the corners.
    pub centre: Option<f64>,
    /// Centipawns on the far rank, growing linearly with the advance.
    pub advance: Option<f64>,
    /// Centipawns on the far rank, growing with the square of the advance (promotion
    /// progress).
    pub promotion: Option<f64>,
    /// Centipawns per square a sliding move reaches.
    pub mobility: Option<i32>,
    /// Centipawns per square a leap or step reaches.
    pub leaps: Option<i32>,
    /// Centipawns per king step closer to the opponent's lone royal than the longest
    /// distance on the board.
    pub attack: Option<i32>,
    /// Centipawns on each square, one number per square of the board, rank by rank from
    /// the owner's first rank and file by file from the a-file: a table fitted on top of
    /// the centre and advance terms (Black's table is White's mirrored, or turned where the Black
    /// army is: `eval::own_squares`).
    pub squares: Option<Vec<i32>>,
    /// The value, centre, advance and promotion weights once most pieces are gone: the
    /// evaluation blends them with the four above by the material left (`eval::Phase`).
    /// Each missing one is the same as its middlegame number.
    pub value_eg: Option<i32>,
    pub centre_eg: Option<f64>,
    pub advance_eg: Option<f64>,
    pub promotion_eg: Option<f64>,
}

/// A variant's `[variant.eval]` section: tuned evaluation parameters. Empty when the
/// definition has none, and the evaluation then derives every number itself.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EvalSpec {
    /// Per piece type (indices of `VariantSpec::pieces`); `None`: derived.
    pub pieces: Vec<Option<PieceEval>>,
    /// Centipawns per friendly piece next to a lone royal.
    pub shelter: Option<i32>,
    /// Centipawns for having the move.
    pub tempo: Option<i32>,
    /// Centipawns for a side with exactly 1, 2, ... non-royal pieces (games whose
    /// `bare_king` rule is not `play`); missing weights are 0.
    pub few_pieces: Option<Vec<i32>>,
    /// Centipawns for a passed pawn on the far rank, growing with the square of its
    /// advance (games with pawns; 0 when missing).
    pub passed: Option<f64>,
    /// Centipawns per pawn beyond the first on a file (0 when missing).
    pub doubled: Option<i32>,
    /// Centipawns per pawn with no friendly pawn on the files next to it (0 when missing).
    pub isolated: Option<i32>,
    /// The fewest non-royal pieces (pawns counted) with which a side can checkmate a lone
    /// royal: against a bare royal, fewer is a draw, and the evaluation says 0. A fact of
    /// the game's pieces, not a tuned number (Flee!: 3, since no checkmate of its King by
    /// King and two Queens exists); `None` or 1: no such knowledge.
    pub mating_pieces: Option<u32>,
    /// How much the attack on a lone royal's zone counts, in percent of kirin's formula
    /// (`eval/danger.rs`: pieces attacking the royal's square and the squares a king step
    /// away, worth the square of their attack units); `None` or 0: not counted. `kirin
    /// tune` fits it; a game sets it where games showed it gains (Sho: `docs/search.md`).
    pub royal_danger: Option<i32>,
    /// How much the siege of a lone royal counts, in percent of kirin's model
    /// (`eval/safety.rs`: attackers of its ring, weak ring squares, safe and unsafe
    /// checks, attacks on its flank); `None` or 0: not counted.
    pub royal_safety: Option<i32>,
    /// How much the threats on pieces count, in percent of kirin's model
    /// (`eval/threats.rs`: pieces attacked by cheaper ones, weak and hanging pieces,
    /// attacks by safe pawns and by pawns' next steps); `None` or 0: not counted.
    pub threats: Option<i32>,
    /// How much the activity of pieces counts, in percent of kirin's model
    /// (`eval/activity.rs`: what each piece attacks in its side's mobility area, on one
    /// scale for every piece); `None` or 0: not counted.
    pub activity: Option<i32>,
    /// What the pawns control (`eval/control.rs`; 0 when missing): centipawns per square
    /// a piece reaches that an opponent pawn attacks...
    pub unsafe_reach: Option<i32>,
    /// ...per opponent piece, neither a pawn nor royal, that a pawn attacks...
    pub pawn_threat: Option<i32>,
    /// ...per piece that slides straight ahead, on a file without pawns...
    pub open_file: Option<i32>,
    /// ...and on a file with opponent pawns only...
    pub half_open_file: Option<i32>,
    /// ...and per square of space (`eval/control.rs`: the middle of a side's own half
    /// safe from the opponent's pawns, twice behind its own), times the square of the
    /// side's piece count less one, over 256.
    pub space: Option<i32>,
}

/// How royal pieces are protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Royalty {
    /// A side's last royal may not be left attacked (check and mate). While a side has
    /// several royals, any of them may be left attacked or captured.
    Check,
    /// Royals may be left attacked and captured; losing the last one loses.
    Capture,
}

/// When a move may promote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromotionStyle {
    /// Promotion is compulsory on reaching the zone (chess pawns).
    Entry,
    /// Promotion is optional for a move that starts or ends in the zone (shogi), and
    /// compulsory where the piece could never move again (`forced_ranks`).
    Zone,
    /// The Chu Shogi rule of the CSRM: a capture that starts or ends in the zone may
    /// promote; a non-capture only when it enters the zone (so a piece that deferred must
    /// leave and re-enter); pieces marked `promotes_on_last_rank` also on any move to the
    /// last rank. Never compulsory unless `forced_ranks` says so.
    Csrm,
    /// Any move ending in the zone may promote (the simpler rule of the Chu seed).
    ToZone,
    /// No move promotes by reaching a zone: a rule of the game (Little Great Chess's
    /// honours) takes the pieces' `promotes_to` steps.
    ByRule,
}

/// Lion trading: when a Lion taken from afar must be unprotected, whose protection counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LionProtection {
    /// After the whole move (HaChu): a piece taken on the way protects nothing.
    #[default]
    After,
    /// Before the move (lishogi): a piece taken on the way still protects the Lion.
    Before,
}

/// Lion trading: what the counter-strike forbids after a non-Lion took a Lion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CounterStrike {
    /// Taking any Lion with a non-Lion (HaChu).
    #[default]
    Strict,
    /// Taking a Lion with a non-Lion, except the Lion standing where that Lion was taken
    /// (a Kirin that took a Lion and promoted to one; lishogi).
    CaptureSquare,
}

/// What a repeated position means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// The `repetitions`-th occurrence draws.
    Draw,
    /// A move that recreates an earlier position is illegal for the mover, unless the
    /// mover is in check (Chu Shogi: perpetual check is illegal for the checker).
    Illegal,
    /// A move that recreates an earlier position is illegal, even for a mover in check
    /// (HaChu's default: it refuses such a move as "Repeats earlier position").
    IllegalAlways,
}

impl RepetitionRule {
    /// Whether a move that repeats a position is illegal for a mover who is, or is not,
    /// in check.
    #[inline]
    pub fn forbids(self, mover_in_check: bool) -> bool {
        match self {
            RepetitionRule::Draw => false,
            RepetitionRule::Illegal => !mover_in_check,
            RepetitionRule::IllegalAlways => true,
        }
    }
}

/// Special rules a variant switches on by name; each is a rule extension in
/// `rules::extension`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// Chu Shogi's Lion-trading rules (distant Lion protection, bridge, counter-strike).
    LionTrading,
    /// Little Great Chess's turn after its action: honour and field promotion along the
    /// pieces' `promotes_to` steps, the ransom of prisoners, a Cannon leaving its
    /// passenger behind (`rules::extension::little_great`).
    LittleGreat,
    /// ShoFIDEgi's rules beyond its pieces' moves: frozen bindings and their restoration,
    /// the Tusk swap, the Alibaba's castling and its en-passant capture, and the
    /// promotions that only its points allow (`rules::extension::shofidegi`).
    Shofidegi,
}

/// The result of a position for the side to move, as a rule flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Loss,
    Draw,
}

/// What happens to a side left with only royal pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BareKing {
    /// Nothing: the game goes on.
    Play,
    /// The bared side loses, unless it can bare the opponent at once (a draw).
    LossUnlessRebare,
    /// The game is drawn.
    Draw,
}

/// One piece type of a variant.
#[derive(Clone, Debug)]
pub struct PieceSpec {
    pub name: String,
    /// FEN symbol for Black: a lowercase letter, `+` and a letter for promoted pieces.
    pub letter: String,
    pub betza: String,
    pub atoms: Vec<Atom>,
    pub royal: bool,
    /// Captures en passant and resets the move-rule counter like a pawn.
    pub pawn: bool,
    /// May castle with the royal piece.
    pub castles: bool,
    /// A Lion for the Lion-trading rules.
    pub lion: bool,
    /// Taking this piece with the first leg of a Lion move does not open a "bridge" to a
    /// protected Lion (Chu's Pawn and Go-Between).
    pub no_bridge: bool,
    /// Under `Csrm` promotion, may promote on any move to the last rank.
    pub promotes_on_last_rank: bool,
    /// Piece types this piece may promote to (indices into `VariantSpec::pieces`).
    pub promotes_to: Vec<usize>,
    /// The piece must promote when it ends a move on the last `forced_ranks` ranks.
    pub forced_ranks: u32,
    /// On its last rank the piece rests: it cannot be captured and moves only by
    /// redeployment (Tamerlane's Pawn of Pawns).
    pub rests_on_last_rank: bool,
    /// Where a resting piece may be redeployed.
    pub redeploy: Redeploy,
    /// The piece type a redeployed piece becomes (index into `VariantSpec::pieces`).
    pub redeploys_as: Option<usize>,
    /// Once per game, in check or with no other legal move, this royal may exchange
    /// places with any friendly piece (Tamerlane's King).
    pub swaps: bool,
    /// May enter its own side's citadel (Tamerlane's Adventitious King).
    pub enters_own_citadel: bool,
    /// The piece type this piece becomes in a reserve when captured (index into
    /// `VariantSpec::pieces`); `None`: the type it was promoted from, if it is a promoted
    /// piece (`+` letter) with one such type, else itself.
    pub in_hand: Option<usize>,
    /// The own ranks (from 1, inclusive) on which the piece may be dropped; `None`:
    /// every rank on which it still has a move and need not promote.
    pub drop_ranks: Option<(u32, u32)>,
    /// May carry one friendly piece (the stacking layer, `rules::extension::carrying`).
    pub carrier: bool,
    /// A common piece (Little Great Chess's Spear, Guard and Cannon): its capture earns
    /// no honour to a noble captor (`rules::extension::little_great`).
    pub common: bool,
    /// What the piece is worth in a ransom of prisoners (0: never ransomed).
    pub ransom_value: u32,
    /// May take a fallen royal's place (`rules::extension::royal_replacement`).
    pub regent: bool,
    /// A bodyguard (Hiashatar's Hia): its neighbours are stops for the pieces it affects
    /// (`rules::extension::bodyguards`).
    pub bodyguard: bool,
    /// Never held back by a bodyguard (Hiashatar's Knight).
    pub unrestrained: bool,
    /// Attacks royals: gives check, may capture one (`false` for the Hia).
    pub checks: bool,
    /// The files (White's, Black's; from 0) from which its `i` moves are allowed, if not
    /// from every file (Hiashatar's King's pawn alone steps two squares).
    pub initial_files: Option<[usize; 2]>,
    /// How a board draws the piece in the Shogi style (`kirin serve`): its name in
    /// kanji (one or two characters) and in romaji; `None` draws it as a Western piece.
    pub kanji: Option<String>,
    pub romaji: Option<String>,
}

/// Where a resting piece may be redeployed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Redeploy {
    Never,
    /// To a square from which a pawn would attack two enemy men, or one enemy man that
    /// cannot escape; whatever stands there is removed.
    ForkOrTrap,
    /// To this square (seen from White; mirrored for Black) whenever it is empty.
    To(usize),
}

/// A complete, checked variant definition.
#[derive(Clone, Debug)]
pub struct VariantSpec {
    pub name: String,
    pub description: String,
    pub geometry: Geometry,
    pub start: String,
    /// Named alternative start positions.
    pub starts: Vec<(String, String)>,
    pub royalty: Royalty,
    pub castling: bool,
    pub castling_king_steps: u32,
    pub en_passant: bool,
    /// Rank (from 1, own side) on which `i` moves such as a pawn's double step are allowed.
    pub initial_rank: u32,
    pub promotion: PromotionStyle,
    pub promotion_ranks: u32,
    /// Pieces promote only to types their side has lost.
    pub promotion_limit: bool,
    pub stalemate: Verdict,
    pub bare_king: BareKing,
    /// Plies without a capture or pawn move after which the game is drawn (0 = none).
    pub move_rule: u32,
    /// The how-many-th occurrence of a position draws (0 = repetition never ends a game).
    pub repetitions: u32,
    pub repetition_rule: RepetitionRule,
    pub hooks: Vec<Hook>,
    /// Lion trading: the Okazaki rule (a counter-strike may take an unprotected Lion).
    pub okazaki: bool,
    /// Lion trading: when a Lion's protection is judged (`lion_protection`).
    pub lion_protection: LionProtection,
    /// Lion trading: which Lions a counter-strike forbids (`counter_strike`).
    pub counter_strike: CounterStrike,
    /// Each side's own citadel, White's first: a square only the highest-ranking royal of
    /// the enemy may enter (which draws, unless it exchanges at once with a lesser royal)
    /// and only a piece marked `enters_own_citadel` of the owner. Whatever stands in a
    /// citadel cannot be captured.
    pub citadels: Option<[usize; 2]>,
    /// Captured pieces go to the captor's reserve and may be dropped back.
    pub drops: bool,
    /// A third reserve that belongs to neither side (filled by a game's own rules).
    pub neutral_reserve: bool,
    /// The points of the captors' reserves, as (file odd, rank odd) counted from 1: only
    /// a capture there goes to the captor's reserve (elsewhere to the neutral reserve),
    /// and drops land only there. `None`: every square.
    pub hand_squares: Option<(bool, bool)>,
    /// Captured pieces become prisoners of their captor, held apart from its reserve and
    /// never dropped; a game's rules (ransom) turn them into reserve pieces.
    pub prisoners: bool,
    /// Under the `little-great` hook: a pawn that reaches its last rank by its own move
    /// must take its honour promotion (`forced`), instead of may (`optional`).
    pub last_rank_honour_forced: bool,
    /// Under the `little-great` hook: a side may open its turn by offering the opponent
    /// an exchange of prisoners, which the opponent accepts or declines.
    pub prisoner_exchange: bool,
    /// Moves (actions) each side makes in one turn before the other side moves.
    pub actions_per_turn: u32,
    /// Bodyguards hold back the pieces of both sides, not only the enemy's.
    pub bodyguards_hold_friends: bool,
    /// A piece that starts next to a bodyguard holding it back moves one square only.
    pub bodyguard_freezes: bool,
    /// The named options of the definition: key, value, description.
    pub options: Vec<(String, String, String)>,
    /// Options chosen for this spec (key, value).
    pub chosen: Vec<(String, String)>,
    pub pieces: Vec<PieceSpec>,
    /// Tuned evaluation parameters (`[variant.eval]`), possibly none.
    pub eval: EvalSpec,
}

impl VariantSpec {
    /// The start position called `name` ("start" or empty is the default one).
    pub fn start_position(&self, name: &str) -> Option<&str> {
        if name.is_empty() || name == "start" {
            return Some(&self.start);
        }
        self.starts
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| f.as_str())
    }

    /// The index of the piece with FEN symbol `letter` (case-insensitive letter).
    pub fn piece_index(&self, letter: &str) -> Option<usize> {
        let lower = letter.to_ascii_lowercase();
        self.pieces.iter().position(|p| p.letter == lower)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    variant: Vec<RawVariant>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: String,
    inherits: Option<String>,
    description: Option<String>,
    board: Option<String>,
    holes: Option<Vec<String>>,
    start: Option<String>,
    starts: Option<BTreeMap<String, String>>,
    royalty: Option<String>,
    castling: Option<bool>,
    castling_king_steps: Option<u32>,
    en_passant: Option<bool>,
    initial_rank: Option<u32>,
    promotion: Option<String>,
    promotion_ranks: Option<u32>,
    promotion_limit: Option<String>,
    stalemate: Option<String>,
    bare_king: Option<String>,
    move_rule: Option<u32>,
    repetitions: Option<u32>,
    repetition_rule: Option<String>,
    hooks: Option<Vec<String>>,
    okazaki: Option<bool>,
    lion_protection: Option<String>,
    counter_strike: Option<String>,
    citadels: Option<Vec<String>>,
    drops: Option<bool>,
    neutral_reserve: Option<bool>,
    hand_squares: Option<String>,
    prisoners: Option<bool>,
    last_rank_honour: Option<String>,
    prisoner_exchange: Option<bool>,
    actions_per_turn: Option<u32>,
    bodyguard_power: Option<String>,
    bodyguard_freeze: Option<bool>,
    option: Option<Vec<RawOption>>,
    choose: Option<BTreeMap<String, String>>,
    piece: Option<Vec<RawPiece>>,
    eval: Option<RawEval>,
}

/// `[variant.eval]` as written. Numbers are read wide (`i64`, `f64`) so that an absurd one
/// is reported by its range check rather than as a parse error of the whole file.
#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
struct RawEval {
    tempo: Option<i64>,
    shelter: Option<i64>,
    few_pieces: Option<Vec<i64>>,
    passed: Option<f64>,
    doubled: Option<i64>,
    isolated: Option<i64>,
    mating_pieces: Option<i64>,
    royal_danger: Option<i64>,
    royal_safety: Option<i64>,
    threats: Option<i64>,
    activity: Option<i64>,
    unsafe_reach: Option<i64>,
    pawn_threat: Option<i64>,
    open_file: Option<i64>,
    half_open_file: Option<i64>,
    space: Option<i64>,
    pieces: Option<BTreeMap<String, RawPieceEval>>,
}

#[derive(Deserialize, Clone, Default, PartialEq)]
#[serde(deny_unknown_fields)]
struct RawPieceEval {
    value: Option<i64>,
    centre: Option<f64>,
    advance: Option<f64>,
    promotion: Option<f64>,
    mobility: Option<i64>,
    leaps: Option<i64>,
    attack: Option<i64>,
    squares: Option<Vec<i64>>,
    value_eg: Option<i64>,
    centre_eg: Option<f64>,
    advance_eg: Option<f64>,
    promotion_eg: Option<f64>,
}

/// The most piece types a game under the `little-great` hook may have.
pub const MAX_LITTLE_GREAT_TYPES: usize = 22;

/// The top-level keys of a variant definition, for `--rule KEY=VALUE`: other keys name
/// options (`[[variant.option]]`).
pub const DEFINITION_KEYS: &[&str] = &[
    "description",
    "board",
    "holes",
    "start",
    "royalty",
    "castling",
    "castling_king_steps",
    "en_passant",
    "initial_rank",
    "promotion",
    "promotion_ranks",
    "promotion_limit",
    "stalemate",
    "bare_king",
    "move_rule",
    "repetitions",
    "repetition_rule",
    "hooks",
    "okazaki",
    "lion_protection",
    "counter_strike",
    "citadels",
    "drops",
    "neutral_reserve",
    "hand_squares",
    "prisoners",
    "last_rank_honour",
    "prisoner_exchange",
    "actions_per_turn",
    "bodyguard_power",
    "bodyguard_freeze",
];

/// A named option of a variant: choosing `key = value` replaces or adds the listed
/// pieces (matched by letter).
#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
struct RawOption {
    key: String,
    value: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    piece: Vec<RawPiece>,
    /// Definition keys the option sets (`[variant.option.set]`), such as another start
    /// position or en passant.
    set: Option<toml::Table>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
struct RawPiece {
    name: String,
    letter: String,
    betza: String,
    #[serde(default)]
    royal: bool,
    #[serde(default)]
    pawn: bool,
    #[serde(default)]
    castles: bool,
    #[serde(default)]
    lion: bool,
    #[serde(default)]
    no_bridge: bool,
    #[serde(default)]
    promotes_on_last_rank: bool,
    #[serde(default)]
    promotes_to: Vec<String>,
    #[serde(default)]
    forced_ranks: u32,
    #[serde(default)]
    rests_on_last_rank: bool,
    redeploy: Option<String>,
    redeploys_as: Option<String>,
    #[serde(default)]
    swaps: bool,
    #[serde(default)]
    enters_own_citadel: bool,
    in_hand: Option<String>,
    drop_ranks: Option<[u32; 2]>,
    #[serde(default)]
    carrier: bool,
    #[serde(default)]
    common: bool,
    #[serde(default)]
    ransom_value: u32,
    #[serde(default)]
    regent: bool,
    #[serde(default)]
    bodyguard: bool,
    #[serde(default)]
    unrestrained: bool,
    checks: Option<bool>,
    initial_files: Option<[String; 2]>,
    kanji: Option<String>,
    romaji: Option<String>,
}

/// The longest `kanji` (characters) and `romaji` (bytes) a piece may have: what a tile
/// of a board square can show.
const MAX_KANJI: usize = 3;
const MAX_ROMAJI: usize = 24;

/// A piece's `kanji` or `romaji`, checked to be short and printable.
fn tile_text(
    piece: &str,
    key: &str,
    text: &Option<String>,
    max: usize,
) -> Result<Option<String>, String> {
    let Some(text) = text else { return Ok(None) };
    let count = if key == "kanji" {
        text.chars().count()
    } else {
        text.len()
    };
    if text.trim().is_empty() || count > max || text.chars().any(char::is_control) {
        return Err(format!(
            "piece '{piece}': {key} '{}' must be 1 to {max} printable {}",
            text.escape_debug(),
            if key == "kanji" {
                "characters"
            } else {
                "bytes"
            }
        ));
    }
    Ok(Some(text.clone()))
}

/// Parses a definitions file and resolves inheritance (a parent must come first).
pub fn parse_definitions(text: &str) -> Result<Vec<VariantSpec>, SpecError> {
    parse_definitions_over(text, "")
}

/// Parses `text`, whose variants may inherit those of `base` (another definitions file,
/// such as the built-in one). Returns only the variants of `text`.
pub fn parse_definitions_over(text: &str, base: &str) -> Result<Vec<VariantSpec>, SpecError> {
    let mut known = Vec::new();
    if !base.is_empty() {
        resolve(read_raw(base)?, &mut known)?;
    }
    let before = known.len();
    resolve(read_raw(text)?, &mut known)?;
    known[before..].iter().map(check).collect()
}

fn read_raw(text: &str) -> Result<Vec<RawVariant>, SpecError> {
    let file: RawFile = toml::from_str(text)?;
    Ok(file.variant)
}

/// Appends `raws` to `known`, each merged with the parent it inherits.
fn resolve(raws: Vec<RawVariant>, known: &mut Vec<RawVariant>) -> Result<(), SpecError> {
    for raw in raws {
        if known.iter().any(|v| v.name == raw.name) {
            return Err(SpecError::DefinedTwice { variant: raw.name });
        }
        let merged = match &raw.inherits {
            Some(parent) => {
                let base = known.iter().find(|v| &v.name == parent).ok_or_else(|| {
                    SpecError::UnknownParent {
                        variant: raw.name.clone(),
                        parent: parent.clone(),
                    }
                })?;
                inherit(base, &raw)
            }
            None => raw,
        };
        known.push(merged);
    }
    Ok(())
}

/// The child's fields override the parent's; pieces merge by letter.
fn inherit(parent: &RawVariant, child: &RawVariant) -> RawVariant {
    macro_rules! pick {
        ($($f:ident),*) => { RawVariant { $($f: child.$f.clone().or_else(|| parent.$f.clone()),)*
            name: child.name.clone(), inherits: None, piece: None, choose: None, option: None,
            eval: None } };
    }
    let mut v = pick!(
        description,
        board,
        holes,
        start,
        starts,
        royalty,
        castling,
        castling_king_steps,
        en_passant,
        initial_rank,
        promotion,
        promotion_ranks,
        promotion_limit,
        stalemate,
        bare_king,
        move_rule,
        repetitions,
        repetition_rule,
        hooks,
        okazaki,
        lion_protection,
        counter_strike,
        citadels,
        drops,
        neutral_reserve,
        hand_squares,
        prisoners,
        last_rank_honour,
        prisoner_exchange,
        actions_per_turn,
        bodyguard_power,
        bodyguard_freeze
    );
    let mut options = parent.option.clone().unwrap_or_default();
    for o in child.option.clone().unwrap_or_default() {
        match options
            .iter_mut()
            .find(|q| q.key == o.key && q.value == o.value)
        {
            Some(slot) => *slot = o,
            None => options.push(o),
        }
    }
    v.option = (!options.is_empty()).then_some(options);
    let mut choose = parent.choose.clone().unwrap_or_default();
    choose.extend(child.choose.clone().unwrap_or_default());
    v.choose = (!choose.is_empty()).then_some(choose);
    let mut pieces = parent.piece.clone().unwrap_or_default();
    for p in child.piece.clone().unwrap_or_default() {
        match pieces.iter_mut().find(|q| q.letter == p.letter) {
            Some(slot) => *slot = p,
            None => pieces.push(p),
        }
    }
    v.eval = inherit_eval(parent, child);
    v.piece = Some(pieces);
    v
}

/// The child's `[variant.eval]` over the parent's: its keys override, its piece entries
/// replace the parent's letter by letter, and a parent's entry for a piece the child
/// redefines with other moves is dropped (it was tuned for another piece).
fn inherit_eval(parent: &RawVariant, child: &RawVariant) -> Option<RawEval> {
    let (from_parent, from_child) = (parent.eval.clone(), child.eval.clone());
    let Some(mut merged) = from_parent else {
        return from_child;
    };
    let redefined: Vec<&str> = child
        .piece
        .iter()
        .flatten()
        .filter(|c| {
            parent
                .piece
                .iter()
                .flatten()
                .any(|p| p.letter == c.letter && p.betza != c.betza)
        })
        .map(|c| c.letter.as_str())
        .collect();
    if let Some(pieces) = &mut merged.pieces {
        pieces.retain(|letter, _| !redefined.contains(&letter.as_str()));
    }
    let Some(child_eval) = from_child else {
        return Some(merged);
    };
    let mut pieces = merged.pieces.unwrap_or_default();
    pieces.extend(child_eval.pieces.unwrap_or_default());
    Some(RawEval {
        tempo: child_eval.tempo.or(merged.tempo),
        shelter: child_eval.shelter.or(merged.shelter),
        few_pieces: child_eval.few_pieces.or(merged.few_pieces),
        passed: child_eval.passed.or(merged.passed),
        doubled: child_eval.doubled.or(merged.doubled),
        isolated: child_eval.isolated.or(merged.isolated),
        mating_pieces: child_eval.mating_pieces.or(merged.mating_pieces),
        royal_danger: child_eval.royal_danger.or(merged.royal_danger),
        royal_safety: child_eval.royal_safety.or(merged.royal_safety),
        threats: child_eval.threats.or(merged.threats),
        activity: child_eval.activity.or(merged.activity),
        unsafe_reach: child_eval.unsafe_reach.or(merged.unsafe_reach),
        pawn_threat: child_eval.pawn_threat.or(merged.pawn_threat),
        open_file: child_eval.open_file.or(merged.open_file),
        half_open_file: child_eval.half_open_file.or(merged.half_open_file),
        space: child_eval.space.or(merged.space),
        pieces: (!pieces.is_empty()).then_some(pieces),
    })
}

/// Checks a `[variant.eval]` section against the game's pieces (`defined`: the pieces
/// as the definition gives them; `pieces`: with its chosen options, whose replaced pieces
/// lose their entries), its bare-king rule and whether it has drops.
fn check_eval(
    raw: Option<&RawEval>,
    defined: &[RawPiece],
    pieces: &[PieceSpec],
    bare_king: BareKing,
    drops: bool,
    squares: usize,
) -> Result<EvalSpec, EvalProblem> {
    let mut spec = EvalSpec {
        pieces: vec![None; pieces.len()],
        ..EvalSpec::default()
    };
    let Some(raw) = raw else {
        return Ok(spec);
    };
    let int = |key: &str, v: i64, min: i64, max: i64| {
        if (min..=max).contains(&v) {
            Ok(v as i32)
        } else {
            Err(EvalProblem::OutOfRange {
                key: key.to_string(),
                value: v as f64,
                min: min as f64,
                max: max as f64,
            })
        }
    };
    let real = |key: &str, v: f64| {
        if v.is_finite() && (-EVAL_WEIGHT_MAX..=EVAL_WEIGHT_MAX).contains(&v) {
            Ok(v)
        } else {
            Err(EvalProblem::OutOfRange {
                key: key.to_string(),
                value: v,
                min: -EVAL_WEIGHT_MAX,
                max: EVAL_WEIGHT_MAX,
            })
        }
    };
    spec.tempo = raw.tempo.map(|v| int("tempo", v, -200, 200)).transpose()?;
    spec.shelter = raw
        .shelter
        .map(|v| int("shelter", v, -200, 200))
        .transpose()?;
    spec.passed = raw.passed.map(|v| real("passed", v)).transpose()?;
    spec.doubled = raw
        .doubled
        .map(|v| int("doubled", v, -EVAL_VALUE_MAX, EVAL_VALUE_MAX))
        .transpose()?;
    spec.isolated = raw
        .isolated
        .map(|v| int("isolated", v, -EVAL_VALUE_MAX, EVAL_VALUE_MAX))
        .transpose()?;
    if let Some(n) = raw.mating_pieces {
        if bare_king != BareKing::Play || drops || pieces.iter().any(|p| p.carrier) {
            return Err(EvalProblem::MatingPiecesUncountable);
        }
        spec.mating_pieces = Some(int("mating_pieces", n, 1, MATING_PIECES_MAX)? as u32);
    }
    // The percentages of kirin's models (the royal zone's attack, the siege, the threats,
    // the activity).
    let percent = |key: &str, v: Option<i64>| {
        v.map(|v| int(key, v, 0, ROYAL_DANGER_MAX as i64))
            .transpose()
    };
    spec.royal_danger = percent("royal_danger", raw.royal_danger)?;
    spec.royal_safety = percent("royal_safety", raw.royal_safety)?;
    spec.threats = percent("threats", raw.threats)?;
    spec.activity = percent("activity", raw.activity)?;
    let weight = |key: &str, v: Option<i64>| {
        v.map(|v| int(key, v, -EVAL_VALUE_MAX, EVAL_VALUE_MAX))
            .transpose()
    };
    spec.unsafe_reach = weight("unsafe_reach", raw.unsafe_reach)?;
    spec.pawn_threat = weight("pawn_threat", raw.pawn_threat)?;
    spec.open_file = weight("open_file", raw.open_file)?;
    spec.half_open_file = weight("half_open_file", raw.half_open_file)?;
    spec.space = weight("space", raw.space)?;
    if let Some(weights) = &raw.few_pieces {
        if bare_king == BareKing::Play {
            return Err(EvalProblem::FewPiecesWithoutBareRule);
        }
        if weights.len() > FEW_PIECES {
            return Err(EvalProblem::TooManyFewPieces {
                given: weights.len(),
                max: FEW_PIECES,
            });
        }
        let checked: Result<Vec<i32>, _> = weights
            .iter()
            .map(|&v| int("few_pieces", v, -EVAL_VALUE_MAX, EVAL_VALUE_MAX))
            .collect();
        spec.few_pieces = Some(checked?);
    }
    for (letter, entry) in raw.pieces.iter().flatten() {
        let Some(t) = pieces.iter().position(|p| &p.letter == letter) else {
            return Err(EvalProblem::UnknownLetter {
                letter: letter.clone(),
                known: pieces.iter().map(|p| p.letter.clone()).collect(),
            });
        };
        let key = |k: &str| format!("pieces.{letter}.{k}");
        let piece = PieceEval {
            value: entry
                .value
                .map(|v| int(&key("value"), v, 0, EVAL_VALUE_MAX))
                .transpose()?,
            centre: entry.centre.map(|v| real(&key("centre"), v)).transpose()?,
            advance: entry
                .advance
                .map(|v| real(&key("advance"), v))
                .transpose()?,
            promotion: entry
                .promotion
                .map(|v| real(&key("promotion"), v))
                .transpose()?,
            mobility: entry
                .mobility
                .map(|v| int(&key("mobility"), v, -50, 50))
                .transpose()?,
            leaps: entry
                .leaps
                .map(|v| int(&key("leaps"), v, -50, 50))
                .transpose()?,
            attack: entry
                .attack
                .map(|v| int(&key("attack"), v, -100, 100))
                .transpose()?,
            squares: entry
                .squares
                .as_ref()
                .map(|table| {
                    if table.len() != squares {
                        return Err(EvalProblem::SquaresLength {
                            letter: letter.clone(),
                            given: table.len(),
                            expected: squares,
                        });
                    }
                    let max = EVAL_SQUARE_MAX;
                    table
                        .iter()
                        .map(|&v| int(&key("squares"), v, -max, max))
                        .collect()
                })
                .transpose()?,
            value_eg: entry
                .value_eg
                .map(|v| int(&key("value_eg"), v, 0, EVAL_VALUE_MAX))
                .transpose()?,
            centre_eg: entry
                .centre_eg
                .map(|v| real(&key("centre_eg"), v))
                .transpose()?,
            advance_eg: entry
                .advance_eg
                .map(|v| real(&key("advance_eg"), v))
                .transpose()?,
            promotion_eg: entry
                .promotion_eg
                .map(|v| real(&key("promotion_eg"), v))
                .transpose()?,
        };
        // An option that replaced the piece made it another piece than the one tuned.
        let same = defined
            .iter()
            .any(|d| &d.letter == letter && d.betza == pieces[t].betza);
        if same {
            spec.pieces[t] = Some(piece);
        }
    }
    Ok(spec)
}

/// The largest piece value (and `few_pieces` weight) a `[variant.eval]` may give, in
/// centipawns: far below the search's mate scores even summed over a full Chu board.
const EVAL_VALUE_MAX: i64 = 10_000;
/// The largest number of a piece's square table, in centipawns.
const EVAL_SQUARE_MAX: i64 = 2_000;
/// The most pieces `mating_pieces` may ask for.
const MATING_PIECES_MAX: i64 = 64;
/// The largest `royal_danger`, in percent of the formula: four times its weight.
pub const ROYAL_DANGER_MAX: i32 = 400;
/// The largest positional weight (`centre`, `advance`, `promotion`, `passed`), in centipawns.
const EVAL_WEIGHT_MAX: f64 = 2_000.0;

/// Two file letters (White's, Black's) as file indices on a board `width` files wide.
fn initial_files(files: &[String; 2], width: usize) -> Result<[usize; 2], String> {
    let file = |f: &String| match f.as_bytes() {
        [c] if c.is_ascii_lowercase() && ((c - b'a') as usize) < width => Ok((c - b'a') as usize),
        _ => Err(format!("'{f}' is not a file letter of the board")),
    };
    Ok([file(&files[0])?, file(&files[1])?])
}

/// The value of the keyword `key` names among `choices` (the first one when the key is
/// absent), or the error "KEY 'x' is not a, b or c".
fn one_of<T: Copy>(key: &str, value: &Option<String>, choices: &[(&str, T)]) -> Result<T, String> {
    let Some(text) = value.as_deref() else {
        return Ok(choices[0].1);
    };
    if let Some(&(_, v)) = choices.iter().find(|(name, _)| *name == text) {
        return Ok(v);
    }
    let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
    let (last, rest) = names.split_last().expect("choices are given");
    Err(format!(
        "{key} '{text}' is not {} or {last}",
        rest.join(", ")
    ))
}

/// `raw` with the definition keys of its chosen options set (an option's `set` table).
fn with_option_keys(raw: &RawVariant) -> Result<RawVariant, String> {
    let mut out = raw.clone();
    let options = raw.option.clone().unwrap_or_default();
    for (key, value) in raw.choose.iter().flatten() {
        let Some(set) = options
            .iter()
            .find(|o| &o.key == key && &o.value == value)
            .and_then(|o| o.set.clone())
        else {
            continue;
        };
        let mut table = set;
        table.insert("name".into(), toml::Value::String(raw.name.clone()));
        let keys: RawVariant = toml::Value::Table(table)
            .try_into()
            .map_err(|e| format!("option {key}={value}: {e}"))?;
        let mut merged = inherit(&out, &keys);
        merged.option = out.option.clone();
        merged.choose = out.choose.clone();
        merged.piece = out.piece.clone();
        out = merged;
    }
    Ok(out)
}

fn check(raw: &RawVariant) -> Result<VariantSpec, SpecError> {
    let raw = &with_option_keys(raw).map_err(|e| SpecError::invalid(&raw.name, Problem::Key(e)))?;
    let name = &raw.name;
    let err = |what: String| SpecError::invalid(name, Problem::Key(what));
    let board_err = |e: GeometryError| SpecError::invalid(name, Problem::Board(e));
    let piece_err = |piece: &str, why: String| {
        let piece = piece.to_string();
        SpecError::invalid(name, Problem::Piece { piece, why })
    };
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(err("names use letters, digits and '-'".into()));
    }
    let board = raw.board.as_deref().ok_or_else(|| err("no board".into()))?;
    let (w, h) = Geometry::parse_size(board).map_err(board_err)?;
    let mut geometry = Geometry::new(w, h).map_err(board_err)?;
    for hole in raw.holes.iter().flatten() {
        let sq = geometry.parse_square(hole).map_err(board_err)?;
        geometry.holes[sq] = true;
    }
    let raw_pieces = chosen_pieces(raw).map_err(err)?;
    if raw_pieces.is_empty() {
        return Err(err("no pieces".into()));
    }
    if raw_pieces.len() > 60 {
        return Err(err("at most 60 piece types".into()));
    }
    let mut pieces = Vec::new();
    for p in &raw_pieces {
        if !is_piece_symbol(&p.letter) {
            return Err(piece_err(
                &p.name,
                format!(
                    "letter '{}' must be a lowercase letter, optionally with '+' before it or \
                     a ' or ! after it",
                    p.letter
                ),
            ));
        }
        if pieces.iter().any(|q: &PieceSpec| q.letter == p.letter) {
            return Err(err(format!("letter '{}' is used twice", p.letter)));
        }
        if p.royal && p.castles {
            return Err(piece_err(
                &p.name,
                "a royal piece cannot be its own castling partner (castles = true marks the \
                 piece the royal castles with)"
                    .into(),
            ));
        }
        if p.forced_ranks as usize > h {
            return Err(piece_err(
                &p.name,
                format!(
                    "forced_ranks {} is more than the board's {h} ranks",
                    p.forced_ranks
                ),
            ));
        }
        let atoms = betza::parse(&p.betza).map_err(|source| {
            let piece = p.name.clone();
            SpecError::invalid(name, Problem::Betza { piece, source })
        })?;
        pieces.push(PieceSpec {
            name: p.name.clone(),
            letter: p.letter.clone(),
            betza: p.betza.clone(),
            atoms,
            royal: p.royal,
            pawn: p.pawn,
            castles: p.castles,
            lion: p.lion,
            no_bridge: p.no_bridge,
            promotes_on_last_rank: p.promotes_on_last_rank,
            promotes_to: Vec::new(),
            forced_ranks: p.forced_ranks,
            rests_on_last_rank: p.rests_on_last_rank,
            redeploy: match p.redeploy.as_deref() {
                None => Redeploy::Never,
                Some("fork-or-trap") => Redeploy::ForkOrTrap,
                Some(square) => Redeploy::To(geometry.parse_square(square).map_err(|e| {
                    piece_err(
                        &p.name,
                        format!("redeploy '{square}' is neither fork-or-trap nor a square: {e}"),
                    )
                })?),
            },
            redeploys_as: None,
            swaps: p.swaps,
            enters_own_citadel: p.enters_own_citadel,
            in_hand: None,
            drop_ranks: match p.drop_ranks {
                None => None,
                Some([lo, hi]) if 1 <= lo && lo <= hi && hi as usize <= h => Some((lo, hi)),
                Some([lo, hi]) => {
                    return Err(err(format!(
                        "piece '{}': drop_ranks [{lo}, {hi}] is not a range of the board's \
                         ranks 1-{h}",
                        p.name
                    )));
                }
            },
            carrier: p.carrier,
            common: p.common,
            ransom_value: p.ransom_value,
            regent: p.regent,
            bodyguard: p.bodyguard,
            unrestrained: p.unrestrained,
            checks: p.checks.unwrap_or(true),
            initial_files: match &p.initial_files {
                None => None,
                Some(files) => Some(
                    initial_files(files, w)
                        .map_err(|why| err(format!("piece '{}': initial_files: {why}", p.name)))?,
                ),
            },
            kanji: tile_text(&p.name, "kanji", &p.kanji, MAX_KANJI).map_err(err)?,
            romaji: tile_text(&p.name, "romaji", &p.romaji, MAX_ROMAJI).map_err(err)?,
        });
    }
    let index_of = |pieces: &[PieceSpec], from: &str, target: &str| {
        pieces
            .iter()
            .position(|q| q.letter == target)
            .ok_or_else(|| piece_err(from, format!("names the unknown letter '{target}'")))
    };
    for (i, p) in raw_pieces.iter().enumerate() {
        for target in &p.promotes_to {
            let t = index_of(&pieces, &p.name, target)?;
            pieces[i].promotes_to.push(t);
        }
        if let Some(target) = &p.redeploys_as {
            pieces[i].redeploys_as = Some(index_of(&pieces, &p.name, target)?);
        }
        if let Some(target) = &p.in_hand {
            pieces[i].in_hand = Some(index_of(&pieces, &p.name, target)?);
        }
        if (pieces[i].redeploy == Redeploy::Never) != pieces[i].redeploys_as.is_none() {
            return Err(piece_err(
                &p.name,
                "redeploy and redeploys_as go together".into(),
            ));
        }
        if p.forced_ranks as usize >= h {
            return Err(piece_err(&p.name, "forced_ranks too large".into()));
        }
    }
    if !pieces.iter().any(|p| p.royal) {
        return Err(err("no royal piece".into()));
    }
    let royalty = one_of(
        "royalty",
        &raw.royalty,
        &[("check", Royalty::Check), ("capture", Royalty::Capture)],
    )
    .map_err(err)?;
    let promotion = one_of(
        "promotion",
        &raw.promotion,
        &[
            ("entry", PromotionStyle::Entry),
            ("zone", PromotionStyle::Zone),
            ("csrm", PromotionStyle::Csrm),
            ("to-zone", PromotionStyle::ToZone),
            ("rule", PromotionStyle::ByRule),
        ],
    )
    .map_err(err)?;
    let promotion_limit = one_of(
        "promotion_limit",
        &raw.promotion_limit,
        &[("none", false), ("captured", true)],
    )
    .map_err(err)?;
    let stalemate = one_of(
        "stalemate",
        &raw.stalemate,
        &[
            ("draw", Verdict::Draw),
            ("loss", Verdict::Loss),
            ("win", Verdict::Win),
        ],
    )
    .map_err(err)?;
    let bare_king = one_of(
        "bare_king",
        &raw.bare_king,
        &[
            ("play", BareKing::Play),
            ("draw", BareKing::Draw),
            ("loss-unless-rebare", BareKing::LossUnlessRebare),
        ],
    )
    .map_err(err)?;
    let repetition_rule = one_of(
        "repetition_rule",
        &raw.repetition_rule,
        &[
            ("draw", RepetitionRule::Draw),
            ("illegal", RepetitionRule::Illegal),
            ("illegal-always", RepetitionRule::IllegalAlways),
        ],
    )
    .map_err(err)?;
    let mut hooks = Vec::new();
    for h in raw.hooks.iter().flatten() {
        hooks.push(match h.as_str() {
            "lion-trading" => Hook::LionTrading,
            "little-great" => Hook::LittleGreat,
            "shofidegi" => Hook::Shofidegi,
            other => {
                return Err(err(format!(
                    "unknown hook '{other}' (known: lion-trading, little-great, shofidegi)"
                )));
            }
        });
    }
    // Keys that would be silently ignored are refused instead.
    let lion_protection = one_of(
        "lion_protection",
        &raw.lion_protection,
        &[
            ("after", LionProtection::After),
            ("before", LionProtection::Before),
        ],
    )
    .map_err(err)?;
    let counter_strike = one_of(
        "counter_strike",
        &raw.counter_strike,
        &[
            ("strict", CounterStrike::Strict),
            ("capture-square", CounterStrike::CaptureSquare),
        ],
    )
    .map_err(err)?;
    let refines_lions = raw.lion_protection.is_some() || raw.counter_strike.is_some();
    if refines_lions && !hooks.contains(&Hook::LionTrading) {
        return Err(err(
            "lion_protection and counter_strike need hooks = [\"lion-trading\"] (they refine the Lion-trading rules)"
                .into(),
        ));
    }
    if raw.okazaki == Some(true) && !hooks.contains(&Hook::LionTrading) {
        return Err(err(
            "okazaki = true needs hooks = [\"lion-trading\"] (it refines the Lion-trading rules)"
                .into(),
        ));
    }
    if raw.castling == Some(true) && !pieces.iter().any(|p: &PieceSpec| p.castles) {
        return Err(err(
            "castling = true, but no piece has castles = true (the piece the royal castles with)"
                .into(),
        ));
    }
    let drops = raw.drops.unwrap_or(false);
    if !drops
        && raw_pieces
            .iter()
            .any(|p| p.in_hand.is_some() || p.drop_ranks.is_some())
    {
        return Err(err(
            "in_hand and drop_ranks need drops = true (captured pieces go to a reserve)".into(),
        ));
    }
    if raw.prisoners == Some(true) && !drops {
        return Err(err(
            "prisoners = true needs drops = true (ransomed pieces return as drops)".into(),
        ));
    }
    let little_great = hooks.contains(&Hook::LittleGreat);
    if !little_great
        && (raw.prisoners == Some(true)
            || raw_pieces.iter().any(|p| p.common || p.ransom_value != 0))
    {
        return Err(err(
            "prisoners, common and ransom_value need hooks = [\"little-great\"]".into(),
        ));
    }
    if little_great && raw.prisoners != Some(true) {
        return Err(err(
            "hooks = [\"little-great\"] needs prisoners = true (its ransom uses them)".into(),
        ));
    }
    // The hook writes a piece type, a set of prisoners or an offer into a move's 9-bit
    // `aux` (rules::extension::little_great).
    if little_great && raw_pieces.len() > MAX_LITTLE_GREAT_TYPES {
        return Err(err(format!(
            "hooks = [\"little-great\"] allows at most {MAX_LITTLE_GREAT_TYPES} piece types"
        )));
    }
    if little_great && raw_pieces.iter().filter(|p| p.ransom_value != 0).count() > 4 {
        return Err(err(
            "hooks = [\"little-great\"] allows at most 4 piece types with a ransom_value".into(),
        ));
    }
    if royalty != Royalty::Capture && raw_pieces.iter().any(|p| p.regent) {
        return Err(err(
            "regent = true needs royalty = \"capture\" (a regent takes the place of a \
             captured royal)"
                .into(),
        ));
    }
    let last_rank_honour_forced = one_of(
        "last_rank_honour",
        &raw.last_rank_honour,
        &[("optional", false), ("forced", true)],
    )
    .map_err(err)?;
    if raw.last_rank_honour.is_some() && !little_great {
        return Err(err(
            "last_rank_honour needs hooks = [\"little-great\"]".into()
        ));
    }
    let prisoner_exchange = raw.prisoner_exchange.unwrap_or(false);
    let hand_squares = match raw.hand_squares.as_deref() {
        None | Some("all") => None,
        Some("odd-odd") => Some((true, true)),
        Some("odd-even") => Some((true, false)),
        Some("even-odd") => Some((false, true)),
        Some("even-even") => Some((false, false)),
        Some(other) => {
            return Err(err(format!(
                "hand_squares '{other}' is not all, odd-odd, odd-even, even-odd or even-even"
            )));
        }
    };
    if hand_squares.is_some() && !(drops && raw.neutral_reserve == Some(true)) {
        return Err(err(
            "hand_squares needs drops = true and neutral_reserve = true (captures elsewhere \
             go to the neutral reserve)"
                .into(),
        ));
    }
    if prisoner_exchange && !little_great {
        return Err(err(
            "prisoner_exchange needs hooks = [\"little-great\"]".into()
        ));
    }
    let bodyguards_hold_friends = one_of(
        "bodyguard_power",
        &raw.bodyguard_power,
        &[("enemy", false), ("all", true)],
    )
    .map_err(err)?;
    let has_bodyguard = raw_pieces.iter().any(|p| p.bodyguard);
    let bodyguard_keys = raw.bodyguard_power.is_some()
        || raw.bodyguard_freeze.is_some()
        || raw_pieces.iter().any(|p| p.unrestrained);
    if bodyguard_keys && !has_bodyguard {
        return Err(err(
            "bodyguard_power, bodyguard_freeze and unrestrained need a piece with \
             bodyguard = true"
                .into(),
        ));
    }
    let actions_per_turn = raw.actions_per_turn.unwrap_or(1);
    if !(1..=8).contains(&actions_per_turn) {
        return Err(err(format!(
            "actions_per_turn {actions_per_turn} is not between 1 and 8"
        )));
    }
    let promotion_ranks = raw.promotion_ranks.unwrap_or(1);
    if promotion_ranks == 0 || promotion_ranks as usize > h {
        return Err(err("promotion_ranks out of range".into()));
    }
    let initial_rank = raw.initial_rank.unwrap_or(2);
    if initial_rank == 0 || initial_rank as usize > h {
        return Err(err("initial_rank out of range".into()));
    }
    // The king must move at least one square and stay on the board's rank.
    let castling_king_steps = raw.castling_king_steps.unwrap_or(2);
    if castling_king_steps == 0 || castling_king_steps as usize + 2 > w {
        return Err(err(format!(
            "castling_king_steps {castling_king_steps} is not between 1 and {} (the board is \
             {w} files wide)",
            w.saturating_sub(2).max(1)
        )));
    }
    let citadels = match raw.citadels.as_deref() {
        None => None,
        Some([white, black]) => {
            let square = |s: &String| geometry.parse_square(s).map_err(board_err);
            Some([square(white)?, square(black)?])
        }
        Some(_) => return Err(err("citadels lists White's and then Black's square".into())),
    };
    let eval = check_eval(
        raw.eval.as_ref(),
        raw.piece.as_deref().unwrap_or_default(),
        &pieces,
        bare_king,
        drops,
        geometry.squares(),
    )
    .map_err(|e| SpecError::invalid(name, Problem::Eval(e)))?;
    Ok(VariantSpec {
        name: name.clone(),
        description: raw.description.clone().unwrap_or_default(),
        geometry,
        start: raw
            .start
            .clone()
            .ok_or_else(|| err("no start position".into()))?,
        starts: raw.starts.clone().unwrap_or_default().into_iter().collect(),
        royalty,
        castling: raw.castling.unwrap_or(false),
        castling_king_steps,
        en_passant: raw.en_passant.unwrap_or(false),
        initial_rank,
        promotion,
        promotion_ranks,
        promotion_limit,
        stalemate,
        bare_king,
        move_rule: raw.move_rule.unwrap_or(0),
        repetitions: raw.repetitions.unwrap_or(3),
        repetition_rule,
        hooks,
        okazaki: raw.okazaki.unwrap_or(false),
        lion_protection,
        counter_strike,
        citadels,
        drops,
        neutral_reserve: raw.neutral_reserve.unwrap_or(false),
        hand_squares,
        prisoners: raw.prisoners.unwrap_or(false),
        last_rank_honour_forced,
        prisoner_exchange,
        actions_per_turn,
        bodyguards_hold_friends,
        bodyguard_freezes: raw.bodyguard_freeze.unwrap_or(true),
        options: raw
            .option
            .iter()
            .flatten()
            .map(|o| (o.key.clone(), o.value.clone(), o.description.clone()))
            .collect(),
        chosen: raw.choose.clone().unwrap_or_default().into_iter().collect(),
        pieces,
        eval,
    })
}

/// A piece symbol: a lowercase letter, with `+` before it (a promoted piece) or a `'` or
/// `!` after it (XBoard's dressed letters, for games with more than 26 piece types).
pub fn is_piece_symbol(symbol: &str) -> bool {
    matches!(
        symbol.as_bytes(),
        [c] | [b'+', c] | [c, b'\'' | b'!'] if c.is_ascii_lowercase()
    )
}

/// The variant's pieces with its chosen options applied.
fn chosen_pieces(raw: &RawVariant) -> Result<Vec<RawPiece>, String> {
    let mut pieces = raw.piece.clone().unwrap_or_default();
    let options = raw.option.clone().unwrap_or_default();
    for (key, value) in raw.choose.iter().flatten() {
        let Some(option) = options.iter().find(|o| &o.key == key && &o.value == value) else {
            let known: Vec<String> = options
                .iter()
                .map(|o| format!("{}={}", o.key, o.value))
                .collect();
            return Err(format!(
                "no option {key}={value} (options: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        };
        for p in &option.piece {
            match pieces.iter_mut().find(|q| q.letter == p.letter) {
                Some(slot) => *slot = p.clone(),
                None => pieces.push(p.clone()),
            }
        }
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = r#"
[[variant]]
name = "mini"
board = "5x5"
start = "k4/5/5/5/4K w - - 0 1"
  [[variant.piece]]
  name = "king"
  letter = "k"
  betza = "K"
  royal = true
"#;

    #[test]
    fn an_option_may_set_definition_keys_and_initial_files_limit_initial_moves() {
        // The option is chosen as `--rule array=other` chooses it.
        let mini = MINI.replace(
            "start = \"k4/5/5/5/4K w - - 0 1\"",
            "start = \"k4/5/5/5/4K w - - 0 1\"\nchoose.array = \"other\"",
        );
        let text = format!(
            "{mini}  [[variant.piece]]\n  name = \"pawn\"\n  letter = \"p\"\n  \
             betza = \"mfWifmnD\"\n  initial_files = [\"c\", \"b\"]\n  \
             [[variant.option]]\n  key = \"array\"\n  value = \"other\"\n    \
             [variant.option.set]\n    start = \"k4/5/5/5/3K1 w - - 0 1\"\n    \
             en_passant = true\n"
        );
        let specs = parse_definitions(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(specs[0].start, "k4/5/5/5/3K1 w - - 0 1");
        assert!(specs[0].en_passant);
        assert_eq!(specs[0].pieces[1].initial_files, Some([2, 1]));
        let bad = text.replace("[\"c\", \"b\"]", "[\"c\", \"z\"]");
        assert!(parse_definitions(&bad).is_err());
        let bad = text.replace("en_passant = true", "colour = true");
        assert!(parse_definitions(&bad).is_err());
    }

    #[test]
    fn inheritance_overrides_fields_and_merges_pieces() {
        let text = format!(
            "{MINI}\n[[variant]]\nname = \"mini2\"\ninherits = \"mini\"\nboard = \"6x6\"\n  [[variant.piece]]\n  name = \"rook\"\n  letter = \"r\"\n  betza = \"R\"\n"
        );
        let specs = parse_definitions(&text).unwrap();
        assert_eq!(specs[1].geometry.width, 6);
        assert_eq!(specs[1].pieces.len(), 2);
        assert_eq!(specs[1].start, specs[0].start);
    }

    #[test]
    fn errors_name_variant_and_problem() {
        let bad = MINI.replace("betza = \"K\"", "betza = \"Kx\"");
        let e = parse_definitions(&bad).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("mini") && text.contains("Betza"), "{e}");
        assert!(matches!(
            e,
            SpecError::Invalid {
                problem: Problem::Betza { .. },
                ..
            }
        ));
        let bad = MINI.replace("5x5", "18x5");
        assert!(parse_definitions(&bad).is_err());
        let bad = MINI.replace("royal = true", "");
        assert!(
            parse_definitions(&bad)
                .unwrap_err()
                .to_string()
                .contains("royal")
        );
        assert!(parse_definitions("nonsense = [").is_err());
        let bad = MINI.replace("board = \"5x5\"", "board = \"5x5\"\nstalemate = \"tie\"");
        let e = parse_definitions(&bad).unwrap_err().to_string();
        assert!(
            e.contains("stalemate 'tie' is not draw, loss or win"),
            "{e}"
        );
        let bad = MINI.replace("name = \"king\"", "name = \"king\"\nwings = 2");
        assert!(parse_definitions(&bad).is_err());
    }

    /// `MINI` with a second piece and a `[variant.eval]` section after its pieces.
    fn with_eval(section: &str) -> String {
        format!(
            "{MINI}  [[variant.piece]]\n  name = \"rook\"\n  letter = \"r\"\n  betza = \"R\"\n\
             [[variant.piece]]\n  name = \"gold\"\n  letter = \"+r\"\n  betza = \"WfF\"\n\
             [variant.eval]\n{section}\n"
        )
    }

    fn eval_problem(text: &str) -> EvalProblem {
        match parse_definitions(text) {
            Err(SpecError::Invalid {
                problem: Problem::Eval(p),
                ..
            }) => p,
            other => panic!(
                "expected an eval problem, got {:?}",
                other.map(|s| s[0].eval.clone())
            ),
        }
    }

    #[test]
    fn an_eval_section_is_read_per_letter() {
        let text = with_eval(
            "tempo = 12\nshelter = 4\n[variant.eval.pieces]\nr = { value = 480, centre = 7.5, \
             mobility = 2 }\n\"+r\" = { advance = -3, promotion = 20 }",
        );
        let specs = parse_definitions(&text).unwrap_or_else(|e| panic!("{e}"));
        let eval = &specs[0].eval;
        assert_eq!(eval.tempo, Some(12));
        assert_eq!(eval.shelter, Some(4));
        assert_eq!(eval.few_pieces, None);
        assert_eq!(eval.pieces[0], None, "the king keeps its derived numbers");
        let rook = eval.pieces[1].clone().unwrap();
        assert_eq!(
            (rook.value, rook.centre, rook.mobility),
            (Some(480), Some(7.5), Some(2))
        );
        assert_eq!(rook.advance, None);
        let gold = eval.pieces[2].clone().unwrap();
        assert_eq!((gold.advance, gold.promotion), (Some(-3.0), Some(20.0)));
        // Without the section every number is derived.
        let plain = parse_definitions(MINI).unwrap();
        assert_eq!(plain[0].eval.pieces, vec![None]);
        assert_eq!(plain[0].eval.tempo, None);
    }

    #[test]
    fn bad_eval_sections_are_refused_with_the_reason() {
        let p = eval_problem(&with_eval("[variant.eval.pieces]\nq = { value = 900 }"));
        assert!(
            matches!(&p, EvalProblem::UnknownLetter { letter, .. } if letter == "q"),
            "{p}"
        );
        assert!(p.to_string().contains("letters: k r +r"), "{p}");
        let p = eval_problem(&with_eval("[variant.eval.pieces]\nr = { value = -5 }"));
        assert!(
            matches!(&p, EvalProblem::OutOfRange { key, .. } if key == "pieces.r.value"),
            "{p}"
        );
        let p = eval_problem(&with_eval("tempo = 100000000000"));
        assert!(
            matches!(&p, EvalProblem::OutOfRange { key, .. } if key == "tempo"),
            "{p}"
        );
        let p = eval_problem(&with_eval("[variant.eval.pieces]\nr = { centre = nan }"));
        assert!(matches!(&p, EvalProblem::OutOfRange { .. }), "{p}");
        let p = eval_problem(&with_eval(
            "[variant.eval.pieces]\nr = { promotion = 1e300 }",
        ));
        assert!(matches!(&p, EvalProblem::OutOfRange { .. }), "{p}");
        // The mini game plays on with a bare king: no term for a side about to be bared.
        let p = eval_problem(&with_eval("few_pieces = [-50]"));
        assert_eq!(p, EvalProblem::FewPiecesWithoutBareRule);
        let bare = with_eval("few_pieces = [-50, -20, -5, 0]")
            .replace("board = \"5x5\"", "board = \"5x5\"\nbare_king = \"draw\"");
        assert_eq!(
            eval_problem(&bare),
            EvalProblem::TooManyFewPieces { given: 4, max: 3 }
        );
        let ok = bare.replace("[-50, -20, -5, 0]", "[-50, -20]");
        let specs = parse_definitions(&ok).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(specs[0].eval.few_pieces, Some(vec![-50, -20]));
        // mating_pieces: a count, only where baring decides nothing and nothing is dropped.
        let specs = parse_definitions(&with_eval("mating_pieces = 3")).unwrap();
        assert_eq!(specs[0].eval.mating_pieces, Some(3));
        assert_eq!(
            eval_problem(&with_eval("mating_pieces = 0")),
            EvalProblem::OutOfRange {
                key: "mating_pieces".into(),
                value: 0.0,
                min: 1.0,
                max: 64.0
            }
        );
        let bared = with_eval("mating_pieces = 3")
            .replace("board = \"5x5\"", "board = \"5x5\"\nbare_king = \"draw\"");
        assert_eq!(eval_problem(&bared), EvalProblem::MatingPiecesUncountable);
        let dropping = with_eval("mating_pieces = 3")
            .replace("board = \"5x5\"", "board = \"5x5\"\ndrops = true");
        assert_eq!(
            eval_problem(&dropping),
            EvalProblem::MatingPiecesUncountable
        );
        let carrying = with_eval("mating_pieces = 3")
            .replace("betza = \"R\"", "betza = \"R\"\n  carrier = true");
        assert_eq!(
            eval_problem(&carrying),
            EvalProblem::MatingPiecesUncountable
        );
        // royal_danger, royal_safety, threats and activity: percentages of their models,
        // 0 to 400.
        for key in ["royal_danger", "royal_safety", "threats", "activity"] {
            let specs = parse_definitions(&with_eval(&format!("{key} = 100"))).unwrap();
            let percent = match key {
                "royal_danger" => specs[0].eval.royal_danger,
                "royal_safety" => specs[0].eval.royal_safety,
                "threats" => specs[0].eval.threats,
                _ => specs[0].eval.activity,
            };
            assert_eq!(percent, Some(100));
            assert_eq!(
                eval_problem(&with_eval(&format!("{key} = 401"))),
                EvalProblem::OutOfRange {
                    key: key.into(),
                    value: 401.0,
                    min: 0.0,
                    max: 400.0
                }
            );
        }
        // The pawn-control weights: whole centipawns, read by their names.
        let control =
            "unsafe_reach = -3\npawn_threat = 40\nopen_file = 25\nhalf_open_file = 10\nspace = 7";
        let eval = &parse_definitions(&with_eval(control)).unwrap()[0].eval;
        assert_eq!(
            (
                eval.unsafe_reach,
                eval.pawn_threat,
                eval.open_file,
                eval.half_open_file,
                eval.space
            ),
            (Some(-3), Some(40), Some(25), Some(10), Some(7))
        );
        assert!(matches!(
            eval_problem(&with_eval("pawn_threat = 20000")),
            EvalProblem::OutOfRange { key, .. } if key == "pawn_threat"
        ));
        // A square table: one number per square of the 5x5 board, within +-2000.
        let table = |n: usize, v: i64| {
            let numbers: Vec<String> = (0..n).map(|_| v.to_string()).collect();
            with_eval(&format!(
                "[variant.eval.pieces]\nr = {{ squares = [\n{}\n] }}",
                numbers.join(", ")
            ))
        };
        let specs = parse_definitions(&table(25, -40)).unwrap_or_else(|e| panic!("{e}"));
        let rook = specs[0].eval.pieces[1].clone().unwrap();
        assert_eq!(rook.squares, Some(vec![-40; 25]));
        assert_eq!(
            eval_problem(&table(24, 0)),
            EvalProblem::SquaresLength {
                letter: "r".into(),
                given: 24,
                expected: 25
            }
        );
        assert!(matches!(
            eval_problem(&table(25, 2001)),
            EvalProblem::OutOfRange { key, .. } if key == "pieces.r.squares"
        ));
        // Keys the section does not have, and numbers of the wrong kind, are TOML errors.
        for bad in [
            "colour = 1",
            "[variant.eval.pieces]\nr = { worth = 5 }",
            "[variant.eval.pieces]\nr = { value = 4.5 }",
            "tempo = \"fast\"",
        ] {
            let e = parse_definitions(&with_eval(bad)).unwrap_err();
            assert!(matches!(e, SpecError::Toml(_)), "{bad}: {e}");
        }
    }

    #[test]
    fn a_toml_error_is_told_in_one_line() {
        let e = parse_definitions("[[variant]]\nname = \"x\"\nboard = 8\n").unwrap_err();
        let text = e.to_string();
        assert!(!text.contains('\n'), "{text}");
        assert!(
            text.contains("line 3") && text.contains("expected a string"),
            "{text}"
        );
    }

    #[test]
    fn an_eval_section_is_inherited_and_follows_its_pieces() {
        let parent =
            with_eval("tempo = 12\n[variant.eval.pieces]\nr = { value = 480 }\nk = { value = 1 }");
        // The child redefines the rook: the parent's rook entry was for another piece.
        let text = format!(
            "{parent}\n[[variant]]\nname = \"mini2\"\ninherits = \"mini\"\n  [[variant.piece]]\n  \
             name = \"rook\"\n  letter = \"r\"\n  betza = \"R4\"\n  [variant.eval]\n  shelter = 3\n\
             \n[[variant]]\nname = \"mini3\"\ninherits = \"mini\"\n"
        );
        let specs = parse_definitions(&text).unwrap_or_else(|e| panic!("{e}"));
        let child = &specs[1].eval;
        assert_eq!((child.tempo, child.shelter), (Some(12), Some(3)));
        assert_eq!(child.pieces[1], None, "the redefined rook is derived again");
        assert_eq!(child.pieces[0].as_ref().and_then(|p| p.value), Some(1));
        let same = &specs[2].eval;
        assert_eq!(
            same, &specs[0].eval,
            "an unchanged child has its parent's section"
        );
    }
}
