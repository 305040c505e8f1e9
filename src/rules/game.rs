//! A variant compiled for fast move generation: per-square leap tables, slide directions
//! with ray tables, lame and multi-leg moves as explicit lists, reverse tables for attack
//! detection, promotion zones and Zobrist keys. `Game<W>` is generic over the bitboard
//! width so that everything built on it is monomorphised per board size.

use crate::core::{Bitboard, Color, Geometry, Move, MoveKind, WHITE, color_of_piece, piece_index};
use crate::rules::betza::{self, Atom, Leg, Mode};
use crate::rules::extension::Rules;
use crate::rules::position::Position;
use crate::rules::reserves::Reserves;
use crate::rules::spec::{Problem, PromotionStyle, Royalty, SpecError, VariantSpec};
use crate::rules::stacks::Stacks;
use crate::rules::zobrist::Zobrist;
use arrayvec::ArrayVec;

/// A slide along one direction, `min..=max` steps (`max == 0`: unlimited).
#[derive(Clone, Copy, Debug)]
pub struct Slide {
    pub dir: u8,
    pub min: u8,
    pub max: u8,
    pub mode: Mode,
}

impl Slide {
    /// True for an ordinary unlimited slider step set, served by ray tables.
    #[inline(always)]
    pub fn is_plain(&self) -> bool {
        self.min == 1 && self.max == 0
    }
}

/// A leap whose path must be empty, or one allowed only from the initial rank.
#[derive(Clone, Debug)]
pub struct Special<const W: usize> {
    pub to: u16,
    pub path: Bitboard<W>,
    pub mode: Mode,
    /// A pawn's initial step of two or more squares straight ahead: every square it
    /// skips gives the opponent an en-passant chance.
    pub double_step: bool,
    /// For a double step: the first square it skips (the move's aux; `make` finds the
    /// others on the way to `to`).
    pub first_skipped: u16,
}

/// A two-leg move: a leap to `via`, then a leap or slide from there.
#[derive(Clone, Copy, Debug)]
pub struct TwoLeg {
    pub via: u16,
    pub via_mode: Mode,
    pub second: Slide,
}

/// A move of three or more legs from one square: where its legs before the last land,
/// then the last leg. A landing square that may hold either an empty square or an enemy
/// gives two routes, so that each route captures a fixed set of pieces (its move text and
/// its undo record then follow from the route alone).
#[derive(Clone, Debug)]
pub struct Route<const W: usize> {
    /// Landing squares that must be empty.
    pub empty: Bitboard<W>,
    /// Landing squares that must hold an enemy, captured by the move.
    pub captures: Bitboard<W>,
    /// Where the last leg starts.
    pub last_from: u16,
    pub last: Slide,
    /// The index of `captures` in `Game::route_captures` of the start square: the aux of
    /// the `MultiLeg` moves the route makes.
    pub capture_list: u16,
}

/// The squares a multi-leg move captures on before its last leg, in the order of its
/// route (the move's text lists them so).
#[derive(Clone, Debug)]
pub struct RouteCaptures<const W: usize> {
    pub set: Bitboard<W>,
    pub squares: Vec<u16>,
}

/// Most pieces a move of several legs may capture before its last leg (`Undo` holds
/// them).
pub const MAX_ROUTE_CAPTURES: usize = 4;

/// A path of a route's legs before the last: the landing squares with what each leg may
/// find there, and the (White) direction of the last of those legs.
type Landings = (Vec<(usize, Mode)>, (i32, i32));

/// How a route's landing squares are met: the squares that must be empty, those that hold
/// an enemy to capture, and the captures in route order.
type StopState<const W: usize> = (Bitboard<W>, Bitboard<W>, Vec<u16>);

/// Move tables of one piece type of one colour.
#[derive(Clone, Debug)]
pub struct PieceTables<const W: usize> {
    pub leap_move: Vec<Bitboard<W>>,
    pub leap_capture: Vec<Bitboard<W>>,
    pub slides: Vec<Slide>,
    /// Per square: lame and initial-rank leaps.
    pub specials: Vec<Vec<Special<W>>>,
    /// Per square: bent and multi-leg moves.
    pub two_legs: Vec<Vec<TwoLeg>>,
    /// Per square: moves of three or more legs.
    pub routes: Vec<Vec<Route<W>>>,
    /// Per square: every square the lame, two-leg and multi-leg moves from it could
    /// capture on, on an empty board (attack detection skips a piece that cannot reach).
    pub complex_reach: Vec<Bitboard<W>>,
    /// Per square: every square its leaps and capturing slides could take on, on an
    /// empty board (the evaluation's attack on a royal skips a piece that cannot reach
    /// the royal's zone).
    pub plain_reach: Vec<Bitboard<W>>,
    pub has_specials: bool,
    pub has_two_legs: bool,
    pub has_routes: bool,
}

/// Where and to what a piece of one colour promotes.
#[derive(Clone, Debug)]
pub struct Promotion<const W: usize> {
    pub choices: Vec<usize>,
    /// Squares of the promotion zone.
    pub zone: Bitboard<W>,
    /// Squares where the piece must promote.
    pub forced: Bitboard<W>,
    /// The last rank, for pieces that may always promote there (`Csrm`).
    pub last_rank: Bitboard<W>,
    pub promotes_on_last_rank: bool,
}

/// A compiled variant.
pub struct Game<const W: usize> {
    pub spec: VariantSpec,
    pub geo: Geometry,
    pub squares: usize,
    /// Squares that exist (not holes).
    pub valid: Bitboard<W>,
    pub types: usize,
    /// Indexed by piece index `type * 2 + colour`.
    pub tables: Vec<PieceTables<W>>,
    pub promotions: Vec<Option<Promotion<W>>>,
    pub is_pawn: Vec<bool>,
    pub is_royal: Vec<bool>,
    /// Piece indices of royal pieces, per colour.
    pub royals: [Vec<usize>; 2],
    /// Piece indices that castle, per colour.
    pub castlers: [Vec<usize>; 2],
    /// Slide directions; the set is closed under reversal.
    pub dirs: Vec<(i32, i32)>,
    pub opposite: Vec<u8>,
    /// True when stepping in the direction increases the square index.
    pub positive: Vec<bool>,
    /// `rays[dir * squares + sq]`: the squares from `sq` along `dir`, up to a hole or edge.
    pub rays: Vec<Bitboard<W>>,
    /// The same rays as ordered square lists, for limited slides.
    pub ray_lists: Vec<Vec<u16>>,
    /// `reverse_leaps[piece * squares + sq]`: squares from which `piece` leaps onto `sq`
    /// capturing.
    pub reverse_leaps: Vec<Bitboard<W>>,
    /// `leap_sources[colour][sq]`: the squares from which some piece of the colour leaps
    /// onto `sq` capturing (`reverse_leaps` of all its types at once), so that attack
    /// detection and exchange evaluation look at the pieces there instead of at every
    /// leaping type (`Game::leapers_onto`).
    pub leap_sources: [Vec<Bitboard<W>>; 2],
    /// `slide_capture[piece * dirs + dir]`: the capturing slide of `piece` along `dir`.
    pub slide_capture: Vec<Option<Slide>>,
    /// Directions along which some piece of the colour captures by sliding.
    pub attack_dirs: [Vec<u8>; 2],
    /// Per square: the capture sets of the multi-leg moves from it, indexed by the
    /// `MultiLeg` move's aux (two routes that capture the same pieces make the same move).
    pub route_captures: Vec<Vec<RouteCaptures<W>>>,
    /// Some piece has moves of three or more legs (`PieceTables::routes`).
    pub has_routes: bool,
    /// Pieces whose captures need explicit generation to detect attacks.
    pub complex_attackers: [Vec<usize>; 2],
    /// Each colour's last rank (the far side of the board).
    pub last_rank: [Bitboard<W>; 2],
    /// The rules the definition switches on beyond the pieces' moves (`rules::extension`).
    pub rules: Rules<W>,
    /// The reserves pieces are held in off the board, if the game has them.
    pub reserves: Reserves<W>,
    /// The stacking layer, if some piece is a carrier.
    pub stacks: Stacks,
    /// Castling is written as the royal's move onto its rook (`i1l1`), because the royal
    /// has a plain move of the castling distance that the usual text (`i1k1`) names.
    pub castling_onto_rook: bool,
    /// A turn may have more than one action (`actions_per_turn` above 1, or a rule that
    /// keeps the turn): `make` then asks whether the turn ends.
    pub multi_action: bool,
    /// Keys of the actions already made in a turn (`Position::actions`), 0 for none.
    turn_keys: [u64; 8],
    /// Count of each piece index in the start position (for promotion limits).
    pub initial_counts: Vec<u32>,
    /// Per piece index: the most moves one such piece can have in a position, itself or
    /// anything it may become (see `capacity`).
    pub move_bounds: Vec<usize>,
    pub zobrist: Zobrist,
}

impl<const W: usize> Game<W> {
    /// Compiles `spec`; fails on a definition this board width cannot hold or a start
    /// position that does not parse.
    pub fn new(spec: &VariantSpec) -> Result<Self, SpecError> {
        let geo = spec.geometry.clone();
        let squares = geo.squares();
        if squares > 64 * W {
            let too_wide = Problem::TooWide { squares, lanes: W };
            return Err(SpecError::invalid(&spec.name, too_wide));
        }
        let types = spec.pieces.len();
        let mut valid = Bitboard::EMPTY;
        (0..squares)
            .filter(|&s| !geo.holes[s])
            .for_each(|s| valid.set(s));
        let mut g = Game {
            spec: spec.clone(),
            geo,
            squares,
            valid,
            types,
            tables: Vec::new(),
            promotions: Vec::new(),
            is_pawn: Vec::new(),
            is_royal: Vec::new(),
            royals: [Vec::new(), Vec::new()],
            castlers: [Vec::new(), Vec::new()],
            dirs: Vec::new(),
            opposite: Vec::new(),
            positive: Vec::new(),
            rays: Vec::new(),
            ray_lists: Vec::new(),
            reverse_leaps: Vec::new(),
            leap_sources: [Vec::new(), Vec::new()],
            slide_capture: Vec::new(),
            attack_dirs: [Vec::new(), Vec::new()],
            complex_attackers: [Vec::new(), Vec::new()],
            route_captures: vec![Vec::new(); squares],
            has_routes: false,
            last_rank: [Bitboard::EMPTY; 2],
            rules: Rules::none(),
            reserves: Reserves::none(),
            stacks: Stacks::new(
                &spec.pieces.iter().map(|p| p.carrier).collect::<Vec<_>>(),
                squares,
            ),
            turn_keys: Self::make_turn_keys(),
            castling_onto_rook: false,
            multi_action: false,
            initial_counts: vec![0; 2 * types],
            move_bounds: Vec::new(),
            zobrist: Zobrist::new(2 * types, squares),
        };
        g.collect_directions();
        g.build_rays();
        for t in 0..types {
            for color in Color::ALL {
                let tables = g.compile_piece(&spec.pieces[t].atoms, color, t)?;
                g.has_routes |= tables.has_routes;
                g.tables.push(tables);
                g.promotions.push(g.compile_promotion(t, color));
                g.is_pawn.push(spec.pieces[t].pawn);
                g.is_royal.push(spec.pieces[t].royal);
                if spec.pieces[t].royal {
                    g.royals[color].push(piece_index(t, color));
                }
                if spec.pieces[t].castles {
                    g.castlers[color].push(piece_index(t, color));
                }
            }
        }
        // The stacking layer follows a carrier's captures on its last square and on a
        // two-leg move's first; captures on the way of longer moves would leave passengers
        // behind, so a game may not have both (no game needs them together).
        if g.stacks.exist && g.has_routes {
            return Err(SpecError::invalid(
                &spec.name,
                Problem::Key("carriers and moves of three or more legs in one game".into()),
            ));
        }
        g.build_attack_tables();
        g.compile_reach();
        g.compile_last_ranks();
        g.rules = Rules::of(&g);
        g.multi_action = spec.actions_per_turn > 1 || g.rules.turns;
        let start_pieces = spec.start.split(['[', ' ']).next().map_or(0, |board| {
            board.chars().filter(char::is_ascii_alphabetic).count()
        });
        g.reserves = Reserves::of(&g, start_pieces);
        g.move_bounds = g.piece_move_bounds();
        g.castling_onto_rook = g.spec.castling && g.royal_steps_like_castling();
        for (name, fen) in std::iter::once((&"start".to_string(), &spec.start))
            .chain(spec.starts.iter().map(|(n, f)| (n, f)))
        {
            let pos = Position::from_fen(&g, fen).map_err(|fen| {
                let start = name.clone();
                SpecError::invalid(&spec.name, Problem::Start { start, fen })
            })?;
            if name == "start" {
                g.initial_counts = pos.by_piece.iter().map(|b| b.count()).collect();
            }
        }
        Ok(g)
    }

    /// Whether a White royal has a plain sideways move of `castling_king_steps` squares
    /// (from the middle of the first rank, on an empty board).
    fn royal_steps_like_castling(&self) -> bool {
        let g = &self.geo;
        let steps = self.spec.castling_king_steps as i32;
        let Some(from) = g.square(g.width as i32 / 2, 0) else {
            return false;
        };
        let Some(to) = g.offset(from, steps, 0) else {
            return false;
        };
        self.royals[WHITE].iter().any(|&pc| {
            let tab = &self.tables[pc];
            tab.leap_move[from].has(to)
                || tab.slides.iter().any(|s| {
                    s.mode.can_move() && self.slide_targets(s, from, Bitboard::EMPTY).has(to)
                })
        })
    }

    /// Keys for the count of actions made in a turn, from their own seed (the other keys
    /// stay as they were); the first is 0, so games of one action per turn are unchanged.
    fn make_turn_keys() -> [u64; 8] {
        use rand::{RngCore, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x6b69_7269_6e5f_7475);
        std::array::from_fn(|i| if i == 0 { 0 } else { rng.next_u64() })
    }

    /// The key of `actions` actions already made in the turn.
    #[inline(always)]
    pub fn turn_key(&self, actions: u8) -> u64 {
        // Past the table the last key repeats, which keeps the key consistent.
        self.turn_keys[(actions as usize).min(7)]
    }

    /// Orients a White step for `color`: Black's pieces move down the board.
    fn orient(color: Color, (dx, dy): (i32, i32)) -> (i32, i32) {
        if color == WHITE { (dx, dy) } else { (dx, -dy) }
    }

    fn dir_index(&mut self, step: (i32, i32)) -> u8 {
        if let Some(i) = self.dirs.iter().position(|&d| d == step) {
            return i as u8;
        }
        self.dirs.push(step);
        self.dirs.push((-step.0, -step.1));
        (self.dirs.len() - 2) as u8
    }

    /// Every direction any rider leg uses, for both colours.
    fn collect_directions(&mut self) {
        let atoms: Vec<Atom> = self
            .spec
            .pieces
            .iter()
            .flat_map(|p| p.atoms.clone())
            .collect();
        for a in &atoms {
            for color in Color::ALL {
                for leg in &a.legs {
                    if leg.is_rider() || a.legs.len() > 1 {
                        for &s in &leg.steps {
                            self.dir_index(Self::orient(color, s));
                        }
                    }
                }
            }
        }
        self.opposite = (0..self.dirs.len()).map(|i| (i ^ 1) as u8).collect();
        self.positive = self
            .dirs
            .iter()
            .map(|&(dx, dy)| dy > 0 || (dy == 0 && dx > 0))
            .collect();
    }

    fn build_rays(&mut self) {
        for d in 0..self.dirs.len() {
            let (dx, dy) = self.dirs[d];
            for sq in 0..self.squares {
                let mut bb = Bitboard::EMPTY;
                let mut list = Vec::new();
                if !self.geo.holes[sq] {
                    let mut cur = sq;
                    while let Some(next) = self.geo.offset(cur, dx, dy) {
                        bb.set(next);
                        list.push(next as u16);
                        cur = next;
                    }
                }
                self.rays.push(bb);
                self.ray_lists.push(list);
            }
        }
    }

    fn slide_of(&mut self, step: (i32, i32), leg: &Leg, color: Color) -> Slide {
        Slide {
            dir: self.dir_index(Self::orient(color, step)),
            min: leg.min.min(255) as u8,
            max: leg.max.map_or(0, |m| m.min(255) as u8),
            mode: leg.mode,
        }
    }

    fn compile_piece(
        &mut self,
        atoms: &[Atom],
        color: Color,
        t: usize,
    ) -> Result<PieceTables<W>, SpecError> {
        let n = self.squares;
        debug_assert!(t < self.types);
        let mut tab = PieceTables {
            leap_move: vec![Bitboard::EMPTY; n],
            leap_capture: vec![Bitboard::EMPTY; n],
            slides: Vec::new(),
            specials: vec![Vec::new(); n],
            two_legs: vec![Vec::new(); n],
            routes: vec![Vec::new(); n],
            complex_reach: Vec::new(),
            plain_reach: Vec::new(),
            has_specials: false,
            has_two_legs: false,
            has_routes: false,
        };
        let name = self.spec.pieces[t].name.clone();
        let variant = self.spec.name.clone();
        let err = |why: &str| {
            let (piece, why) = (name.clone(), why.to_string());
            SpecError::invalid(&variant, Problem::Piece { piece, why })
        };
        for atom in atoms {
            if atom.initial && atom.legs.len() > 1 {
                self.compile_initial_chain(&atom.legs, color, t, &mut tab)
                    .map_err(|e| err(&e))?;
                continue;
            }
            match atom.legs.as_slice() {
                [leg] if !atom.initial && !leg.lame => {
                    if leg.is_rider() {
                        for &s in &leg.steps {
                            let slide = self.slide_of(s, leg, color);
                            if !tab.slides.iter().any(|x| {
                                x.dir == slide.dir
                                    && x.min == slide.min
                                    && x.max == slide.max
                                    && x.mode == slide.mode
                            }) {
                                tab.slides.push(slide);
                            }
                        }
                    } else {
                        for sq in (0..n).filter(|&s| !self.geo.holes[s]) {
                            for &s in &leg.steps {
                                let (dx, dy) = Self::orient(color, s);
                                if let Some(to) = self.geo.offset(sq, dx, dy) {
                                    if leg.mode.can_move() {
                                        tab.leap_move[sq].set(to);
                                    }
                                    if leg.mode.can_capture() {
                                        tab.leap_capture[sq].set(to);
                                    }
                                }
                            }
                        }
                    }
                }
                [leg] => {
                    if leg.is_rider() {
                        return Err(err("lame or initial riders are not supported"));
                    }
                    for sq in (0..n).filter(|&s| !self.geo.holes[s]) {
                        if atom.initial && !self.on_initial_square(t, color, sq) {
                            continue;
                        }
                        for &s in &leg.steps {
                            let (dx, dy) = Self::orient(color, s);
                            if self.geo.offset(sq, dx, dy).is_none() {
                                continue;
                            }
                            let path = if leg.lame {
                                match self.leap_path(sq, dx, dy) {
                                    Some(p) => p,
                                    None => continue,
                                }
                            } else {
                                Bitboard::EMPTY
                            };
                            let special =
                                self.special(t, atom.initial, sq, (dx, dy), path, leg.mode);
                            tab.specials[sq].push(special);
                            tab.has_specials = true;
                        }
                    }
                }
                [first, second] => {
                    if first.is_rider() {
                        return Err(err("only the last leg of a move may slide"));
                    }
                    if atom.initial || first.lame || second.lame {
                        return Err(err("multi-leg moves cannot be lame or initial"));
                    }
                    let holes = self.geo.holes.clone();
                    for sq in (0..n).filter(|&s| !holes[s]) {
                        for &s in &first.steps {
                            let (dx, dy) = Self::orient(color, s);
                            let Some(via) = self.geo.offset(sq, dx, dy) else {
                                continue;
                            };
                            for s2 in betza::continue_steps(second, s) {
                                let mut slide = self.slide_of(s2, second, color);
                                if !second.is_rider() {
                                    slide.max = 1;
                                }
                                tab.two_legs[sq].push(TwoLeg {
                                    via: via as u16,
                                    via_mode: first.mode,
                                    second: slide,
                                });
                                tab.has_two_legs = true;
                            }
                        }
                    }
                }
                legs => {
                    if legs[..legs.len() - 1].iter().any(Leg::is_rider) {
                        return Err(err("only the last leg of a move may slide"));
                    }
                    if atom.initial || legs.iter().any(|l| l.lame) {
                        return Err(err("multi-leg moves cannot be lame or initial"));
                    }
                    self.compile_routes(legs, color, &mut tab)
                        .map_err(|e| err(&e))?;
                }
            }
        }
        Ok(tab)
    }

    /// Fills every piece's `complex_reach` and `plain_reach`, square by square.
    fn compile_reach(&mut self) {
        let reach: Vec<(Vec<Bitboard<W>>, Vec<Bitboard<W>>)> = self
            .tables
            .iter()
            .map(|tab| {
                (0..self.squares)
                    .map(|from| {
                        (
                            self.complex_reach_from(tab, from),
                            self.plain_reach_from(tab, from),
                        )
                    })
                    .unzip()
            })
            .collect();
        for (tab, (complex, plain)) in self.tables.iter_mut().zip(reach) {
            tab.complex_reach = complex;
            tab.plain_reach = plain;
        }
    }

    /// The squares the lame, two-leg and multi-leg moves of `tab` could capture on from
    /// `from`, whatever stands on the way.
    fn complex_reach_from(&self, tab: &PieceTables<W>, from: usize) -> Bitboard<W> {
        let mut b = Bitboard::EMPTY;
        for s in tab.specials[from].iter().filter(|s| s.mode.can_capture()) {
            b.set(s.to as usize);
        }
        for l in &tab.two_legs[from] {
            b.set(l.via as usize);
            if l.second.mode.can_capture() {
                b |= self.slide_targets(&l.second, l.via as usize, Bitboard::EMPTY);
            }
        }
        for r in &tab.routes[from] {
            b |= r.captures;
            if r.last.mode.can_capture() {
                let at = r.last_from as usize;
                b |= self.slide_targets(&r.last, at, Bitboard::EMPTY);
            }
        }
        b
    }

    /// The squares the leaps and capturing slides of `tab` could take on from `from`,
    /// whatever stands on the way.
    fn plain_reach_from(&self, tab: &PieceTables<W>, from: usize) -> Bitboard<W> {
        self.plain_attacks_of(tab, from, Bitboard::EMPTY)
    }

    /// The squares piece `pc` on `from` attacks by its leaps, steps and capturing slides,
    /// the slides stopping at the first piece of `occ` (which they attack, of either
    /// colour); lame and multi-leg moves are left out. The evaluation's attack maps.
    #[inline(always)]
    pub fn plain_attacks(&self, pc: usize, from: usize, occ: Bitboard<W>) -> Bitboard<W> {
        self.plain_attacks_of(&self.tables[pc], from, occ)
    }

    #[inline(always)]
    fn plain_attacks_of(&self, tab: &PieceTables<W>, from: usize, occ: Bitboard<W>) -> Bitboard<W> {
        let mut attacks = tab.leap_capture[from];
        // Most pieces of most games only leap and step: no slide to look at.
        if !tab.slides.is_empty() {
            for s in tab.slides.iter().filter(|s| s.mode.can_capture()) {
                attacks |= self.slide_targets(s, from, occ);
            }
        }
        attacks
    }

    /// Whether a piece of type `t` and colour `color` on `sq` may make its `i` moves: on
    /// its initial rank, and on its initial file if the definition names one.
    fn on_initial_square(&self, t: usize, color: Color, sq: usize) -> bool {
        let rank = self.geo.rank(sq);
        let own_rank = if color == WHITE {
            rank
        } else {
            self.geo.height - 1 - rank
        };
        let on_file = self.spec.pieces[t]
            .initial_files
            .is_none_or(|f| self.geo.file(sq) == f[color]);
        own_rank == self.spec.initial_rank as usize - 1 && on_file
    }

    /// A lame or initial leap of a piece of type `t` from `sq` by `(dx, dy)` (White's
    /// orientation applied) over the squares `path`, which must be empty.
    fn special(
        &self,
        t: usize,
        initial: bool,
        sq: usize,
        (dx, dy): (i32, i32),
        path: Bitboard<W>,
        mode: Mode,
    ) -> Special<W> {
        let to = self
            .geo
            .offset(sq, dx, dy)
            .expect("the leap stays on the board");
        // Only a game with en passant lets a double step be taken on the squares it
        // skipped (`en_passant = false` is honoured).
        let double_step = self.spec.en_passant
            && initial
            && self.spec.pieces[t].pawn
            && dx == 0
            && dy.abs() >= 2
            && mode == Mode::Move;
        let first_skipped = self.geo.offset(sq, 0, dy.signum());
        Special {
            to: to as u16,
            path,
            mode,
            double_step: double_step && first_skipped.is_some(),
            first_skipped: first_skipped.map_or(u16::MAX, |s| s as u16),
        }
    }

    /// An initial move of several legs (`[ifmD-fmD]`, ShoFIDEgi's Vanguard four-step):
    /// every leg a leap, every leg before the last to an empty square, so it is a lame
    /// leap over its landing squares alone (the squares it jumps need not be empty), and a
    /// pawn's such move straight ahead is a double step that en passant may answer.
    fn compile_initial_chain(
        &self,
        legs: &[Leg],
        color: Color,
        t: usize,
        tab: &mut PieceTables<W>,
    ) -> Result<(), String> {
        let (last, before) = legs.split_last().expect("two legs or more");
        if legs.iter().any(|l| l.is_rider() || l.lame)
            || before.iter().any(|l| l.mode != Mode::Move)
        {
            return Err(
                "an initial move of several legs must leap, every leg before the last \
                        to an empty square"
                    .into(),
            );
        }
        for sq in (0..self.squares).filter(|&s| !self.geo.holes[s]) {
            if !self.on_initial_square(t, color, sq) {
                continue;
            }
            let mut paths = Vec::new();
            self.landings(sq, legs, color, None, &mut Vec::new(), &mut paths);
            for (stops, prev) in paths {
                let last_from = stops.last().map_or(sq, |s| s.0);
                let mut path = Bitboard::EMPTY;
                stops.iter().for_each(|&(s, _)| path.set(s));
                for step in betza::continue_steps(last, prev) {
                    let (dx, dy) = Self::orient(color, step);
                    let Some(to) = self.geo.offset(last_from, dx, dy) else {
                        continue;
                    };
                    let (fx, fy) = (
                        self.geo.file(to) as i32 - self.geo.file(sq) as i32,
                        self.geo.rank(to) as i32 - self.geo.rank(sq) as i32,
                    );
                    if (fx, fy) == (0, 0) || path.has(to) {
                        continue;
                    }
                    tab.specials[sq].push(self.special(t, true, sq, (fx, fy), path, last.mode));
                    tab.has_specials = true;
                }
            }
        }
        Ok(())
    }

    /// Adds to `tab` the routes of a move of three or more `legs` from every square.
    fn compile_routes(
        &mut self,
        legs: &[Leg],
        color: Color,
        tab: &mut PieceTables<W>,
    ) -> Result<(), String> {
        for sq in 0..self.squares {
            if self.geo.holes[sq] {
                continue;
            }
            let mut paths = Vec::new();
            self.landings(sq, legs, color, None, &mut Vec::new(), &mut paths);
            for (stops, prev) in paths {
                let last = &legs[legs.len() - 1];
                let last_from = stops.last().map_or(sq, |s| s.0);
                for step in betza::continue_steps(last, prev) {
                    let mut slide = self.slide_of(step, last, color);
                    if !last.is_rider() {
                        slide.max = 1;
                    }
                    for (empty, captures, order) in Self::stop_states(sq, &stops)? {
                        let capture_list = self.capture_list(sq, captures, order)?;
                        let route = Route {
                            empty,
                            captures,
                            last_from: last_from as u16,
                            last: slide,
                            capture_list,
                        };
                        let routes = &mut tab.routes[sq];
                        if !routes.iter().any(|r| Self::same_route(r, &route)) {
                            routes.push(route);
                            tab.has_routes = true;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Every path of the legs before the last from `sq`: the landing squares with what
    /// each leg may find there, and the (White) direction of the last of them, which the
    /// last leg turns from.
    fn landings(
        &self,
        sq: usize,
        legs: &[Leg],
        color: Color,
        prev: Option<(i32, i32)>,
        stops: &mut Vec<(usize, Mode)>,
        out: &mut Vec<Landings>,
    ) {
        let Some((leg, rest)) = legs.split_first() else {
            return;
        };
        if rest.is_empty() {
            out.push((stops.clone(), prev.expect("a route has two legs or more")));
            return;
        }
        let at = stops.last().map_or(sq, |s| s.0);
        let allowed = |&s: &(i32, i32)| prev.is_none_or(|p| betza::turn_allowed(leg, p, s));
        for s in leg.steps.iter().copied().filter(allowed) {
            let (dx, dy) = Self::orient(color, s);
            let Some(next) = self.geo.offset(at, dx, dy) else {
                continue;
            };
            stops.push((next, leg.mode));
            self.landings(sq, rest, color, Some(s), stops, out);
            stops.pop();
        }
    }

    /// The ways the landing squares `stops` of a route from `sq` can be met: which must
    /// be empty and which hold an enemy to capture (with the captures in route order). A
    /// square the route has already left (its start, or a square it landed on before) is
    /// empty by then: a leg that must capture there makes no route.
    fn stop_states(sq: usize, stops: &[(usize, Mode)]) -> Result<Vec<StopState<W>>, String> {
        let mut states = vec![(Bitboard::EMPTY, Bitboard::EMPTY, Vec::new())];
        for &(stop, mode) in stops {
            let mut next = Vec::new();
            for (empty, captures, order) in states {
                let left = stop == sq || empty.has(stop) || captures.has(stop);
                if mode.can_move() {
                    let mut e: Bitboard<W> = empty;
                    if !left {
                        e.set(stop);
                    }
                    next.push((e, captures, order.clone()));
                }
                if !left && mode.can_capture() {
                    let mut c: Bitboard<W> = captures;
                    c.set(stop);
                    let mut o: Vec<u16> = order.clone();
                    o.push(stop as u16);
                    if o.len() > MAX_ROUTE_CAPTURES {
                        return Err(format!(
                            "a move may capture on at most {MAX_ROUTE_CAPTURES} squares before its last leg"
                        ));
                    }
                    next.push((empty, c, o));
                }
            }
            states = next;
        }
        Ok(states)
    }

    /// The index of the capture set `captures` among those of moves from `sq`, added if
    /// new.
    fn capture_list(
        &mut self,
        sq: usize,
        captures: Bitboard<W>,
        order: Vec<u16>,
    ) -> Result<u16, String> {
        let lists = &mut self.route_captures[sq];
        if let Some(i) = lists.iter().position(|l| l.set == captures) {
            return Ok(i as u16);
        }
        if lists.len() >= 512 {
            return Err("more than 512 capture sets of multi-leg moves from one square".into());
        }
        lists.push(RouteCaptures {
            set: captures,
            squares: order,
        });
        Ok((lists.len() - 1) as u16)
    }

    fn same_route(a: &Route<W>, b: &Route<W>) -> bool {
        a.empty == b.empty
            && a.captures == b.captures
            && a.last_from == b.last_from
            && a.last.dir == b.last.dir
            && a.last.min == b.last.min
            && a.last.max == b.last.max
            && a.last.mode == b.last.mode
    }

    /// Squares a lame leap passes over: the orthogonal/diagonal line for straight leaps,
    /// and for oblique leaps the orthogonal first step (the Xiangqi horse).
    fn leap_path(&self, sq: usize, dx: i32, dy: i32) -> Option<Bitboard<W>> {
        let mut path = Bitboard::EMPTY;
        if dx == 0 || dy == 0 || dx.abs() == dy.abs() {
            let n = dx.abs().max(dy.abs());
            for k in 1..n {
                path.set(self.geo.offset(sq, dx / n * k, dy / n * k)?);
            }
        } else if dx.abs() > dy.abs() {
            path.set(self.geo.offset(sq, dx.signum(), 0)?);
        } else {
            path.set(self.geo.offset(sq, 0, dy.signum())?);
        }
        Some(path)
    }

    fn compile_promotion(&self, t: usize, color: Color) -> Option<Promotion<W>> {
        let piece = &self.spec.pieces[t];
        if piece.promotes_to.is_empty() || self.spec.promotion == PromotionStyle::ByRule {
            return None;
        }
        let h = self.geo.height;
        let mut zone = Bitboard::EMPTY;
        let mut forced = Bitboard::EMPTY;
        let mut last_rank = Bitboard::EMPTY;
        for sq in (0..self.squares).filter(|&s| !self.geo.holes[s]) {
            let r = self.geo.rank(sq);
            let own = if color == WHITE { r } else { h - 1 - r };
            if own + self.spec.promotion_ranks as usize >= h {
                zone.set(sq);
            }
            if own + 1 == h {
                last_rank.set(sq);
            }
            let must = match self.spec.promotion {
                PromotionStyle::Entry => own + self.spec.promotion_ranks as usize >= h,
                _ => own + piece.forced_ranks as usize >= h,
            };
            if must {
                forced.set(sq);
            }
        }
        Some(Promotion {
            choices: piece
                .promotes_to
                .iter()
                .map(|&c| piece_index(c, color))
                .collect(),
            zone,
            forced,
            last_rank,
            promotes_on_last_rank: piece.promotes_on_last_rank,
        })
    }

    fn build_attack_tables(&mut self) {
        let n = self.squares;
        let nd = self.dirs.len();
        self.reverse_leaps = vec![Bitboard::EMPTY; 2 * self.types * n];
        self.leap_sources = [vec![Bitboard::EMPTY; n], vec![Bitboard::EMPTY; n]];
        self.slide_capture = vec![None; 2 * self.types * nd];
        for pc in 0..2 * self.types {
            let color = color_of_piece(pc);
            let tab = &self.tables[pc];
            for from in 0..n {
                for to in tab.leap_capture[from].iter() {
                    self.reverse_leaps[pc * n + to].set(from);
                    self.leap_sources[color][to].set(from);
                }
            }
            for s in tab.slides.iter().filter(|s| s.mode.can_capture()) {
                self.slide_capture[pc * nd + s.dir as usize] = Some(*s);
                if !self.attack_dirs[color].contains(&s.dir) {
                    self.attack_dirs[color].push(s.dir);
                }
            }
            let complex = tab.specials.iter().flatten().any(|s| s.mode.can_capture())
                || tab
                    .two_legs
                    .iter()
                    .flatten()
                    .any(|l| l.via_mode.can_capture() || l.second.mode.can_capture())
                || tab
                    .routes
                    .iter()
                    .flatten()
                    .any(|r| r.captures.any() || r.last.mode.can_capture());
            if complex {
                self.complex_attackers[color].push(pc);
            }
        }
    }

    fn compile_last_ranks(&mut self) {
        let g = &self.geo;
        for sq in (0..self.squares).filter(|&s| !g.holes[s]) {
            if g.rank(sq) == g.height - 1 {
                self.last_rank[WHITE].set(sq);
            }
            if g.rank(sq) == 0 {
                self.last_rank[1].set(sq);
            }
        }
    }

    /// The squares on which `m` captures besides `to`: an en-passant victim's, a two-leg
    /// move's intermediate square, a multi-leg move's captures on its way (in route order).
    #[inline]
    pub fn captures_on_the_way(&self, m: Move) -> ArrayVec<u16, MAX_ROUTE_CAPTURES> {
        let mut out = ArrayVec::new();
        match m.kind() {
            MoveKind::EnPassant | MoveKind::TwoLeg => out.push(m.aux() as u16),
            MoveKind::MultiLeg => {
                out.extend(
                    self.route_captures[m.from()][m.aux()]
                        .squares
                        .iter()
                        .copied(),
                );
            }
            _ => {}
        }
        out
    }

    /// Whether the last royal must be kept out of attack.
    #[inline(always)]
    pub fn uses_check(&self) -> bool {
        self.spec.royalty == Royalty::Check
    }
}
