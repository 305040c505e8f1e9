//! Move generation: pseudo-legal moves from the compiled tables, attack detection, and
//! the legality filter for games with check.
//!
//! Legality is decided without making the move whenever that is safe: a move that is not
//! by the royal, not while in check, not by a piece pinned to the royal and not a special
//! kind (en passant, castling, two-leg) cannot expose the royal to a slider, and a leap
//! never can. Everything else is made, tested and unmade. Opponents with lame or
//! multi-leg captures (which pins cannot describe) make every move take the full test.

use crate::core::{Bitboard, Color, Move, MoveKind, color_of_piece, piece_index};
use crate::rules::betza::Mode;
use crate::rules::game::{Game, Slide};
use crate::rules::position::{Position, color_of};
use crate::rules::spec::{PromotionStyle, RepetitionRule};
use arrayvec::ArrayVec;

/// Most moves a position can have in any supported game.
pub const MAX_MOVES: usize = 8192;
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// The squares of the side to move, of its opponent, of both, and the empty ones.
#[derive(Clone, Copy)]
struct Sides<const W: usize> {
    own: Bitboard<W>,
    enemy: Bitboard<W>,
    occ: Bitboard<W>,
    empty: Bitboard<W>,
}

impl<const W: usize> Sides<W> {
    #[inline(always)]
    fn of(game: &Game<W>, pos: &Position<W>) -> Self {
        let own = pos.by_color[pos.side];
        let enemy = pos.by_color[pos.side.opposite()];
        let occ = own | enemy;
        Sides {
            own,
            enemy,
            occ,
            empty: game.valid.andnot(occ),
        }
    }
}

impl<const W: usize> Game<W> {
    /// The first occupied square from `sq` along `dir`, if any.
    #[inline(always)]
    fn first_blocker(&self, dir: usize, sq: usize, occ: Bitboard<W>) -> Option<usize> {
        let hits = self.rays[dir * self.squares + sq] & occ;
        if self.positive[dir] {
            hits.first()
        } else {
            hits.last()
        }
    }

    /// Squares a slide from `sq` reaches, the first blocker included.
    #[inline(always)]
    pub fn slide_targets(&self, s: &Slide, sq: usize, occ: Bitboard<W>) -> Bitboard<W> {
        let d = s.dir as usize;
        let ray = self.rays[d * self.squares + sq];
        if s.is_plain() {
            return match self.first_blocker(d, sq, occ) {
                Some(b) => ray.andnot(self.rays[d * self.squares + b]),
                None => ray,
            };
        }
        let mut out = Bitboard::EMPTY;
        let max = if s.max == 0 {
            usize::MAX
        } else {
            s.max as usize
        };
        for (i, &t) in self.ray_lists[d * self.squares + sq].iter().enumerate() {
            if i >= max {
                break;
            }
            if i + 1 >= s.min as usize {
                out.set(t as usize);
            }
            if occ.has(t as usize) {
                break;
            }
        }
        out
    }

    /// Number of steps along `dir` from `a` to `b` (which lie on one ray).
    fn steps_between(&self, dir: usize, a: usize, b: usize) -> usize {
        let (dx, dy) = self.dirs[dir];
        let g = &self.geo;
        if dx != 0 {
            (g.file(b) as i32 - g.file(a) as i32).unsigned_abs() as usize
                / dx.unsigned_abs() as usize
        } else {
            (g.rank(b) as i32 - g.rank(a) as i32).unsigned_abs() as usize
                / dy.unsigned_abs() as usize
        }
    }

    /// The piece of colour `by` that captures on `sq` by sliding along direction `d`, the
    /// board being `occ` (pieces outside `occ` are looked through: SEE's x-rays).
    #[inline(always)]
    pub fn slider_on(
        &self,
        pos: &Position<W>,
        sq: usize,
        d: usize,
        by: Color,
        occ: Bitboard<W>,
    ) -> Option<usize> {
        let back = self.opposite[d] as usize;
        let b = self.first_blocker(back, sq, occ)?;
        let code = pos.board[b];
        if code == 0 || color_of(code) != by {
            return None;
        }
        let s = self.slide_capture[(code as usize - 1) * self.dirs.len() + d]?;
        if s.is_plain() {
            return Some(b);
        }
        let dist = self.steps_between(back, sq, b);
        (dist >= s.min as usize && (s.max == 0 || dist <= s.max as usize)).then_some(b)
    }

    /// The pieces of colour `by` within `among` that capture on `sq` by a leap, as their
    /// square and piece index, lowest square first. Only the pieces on the squares some
    /// leap of that colour comes from are asked, usually none or a few, instead of every
    /// leaping type.
    #[inline(always)]
    pub fn leapers_onto(
        &self,
        pos: &Position<W>,
        sq: usize,
        by: Color,
        among: Bitboard<W>,
    ) -> impl Iterator<Item = (usize, usize)> {
        let n = self.squares;
        (self.leap_sources[by][sq] & pos.by_color[by] & among)
            .into_iter()
            .filter_map(move |from| {
                let pc = pos.board[from] as usize - 1;
                self.reverse_leaps[pc * n + sq]
                    .has(from)
                    .then_some((from, pc))
            })
    }

    /// True when a piece of colour `by` attacks `sq` (could capture a royal there).
    pub fn attacked(&self, pos: &Position<W>, sq: usize, by: Color) -> bool {
        if self.rules.sanctuary.has(sq) {
            return false; // A sanctuary of the game's rules (Tamerlane's citadels).
        }
        if self.restraint_now(pos) {
            return self.attacked_under_restraint(pos, sq, by);
        }
        if self.leapers_onto(pos, sq, by, self.valid).next().is_some() {
            return true;
        }
        let occ = pos.occupied();
        for &d in &self.attack_dirs[by] {
            if self.slider_on(pos, sq, d as usize, by, occ).is_some() {
                return true;
            }
        }
        for &pc in &self.complex_attackers[by] {
            let reach = &self.tables[pc].complex_reach;
            for from in pos.by_piece[pc] {
                if reach[from].has(sq) && self.complex_captures(pos, pc, from).has(sq) {
                    return true;
                }
            }
        }
        false
    }

    /// Squares on which a piece with lame or multi-leg moves captures (final captures and
    /// captures on the way).
    #[inline(always)]
    pub(crate) fn complex_captures(
        &self,
        pos: &Position<W>,
        pc: usize,
        from: usize,
    ) -> Bitboard<W> {
        let tab = &self.tables[pc];
        let color = color_of_piece(pc);
        let enemy = pos.by_color[color.opposite()];
        let mut occ = pos.occupied();
        let mut out = Bitboard::EMPTY;
        for s in &tab.specials[from] {
            if s.mode.can_capture() && !s.path.intersects(&occ) {
                out.set(s.to as usize);
            }
        }
        occ.clear(from);
        for l in &tab.two_legs[from] {
            let via = l.via as usize;
            let via_enemy = enemy.has(via);
            let via_ok = match l.via_mode {
                Mode::Move => !occ.has(via),
                Mode::Capture => via_enemy,
                Mode::Both => !occ.has(via) || via_enemy,
            };
            if !via_ok {
                continue;
            }
            if via_enemy {
                out.set(via);
            }
            if l.second.mode.can_capture() {
                out |= self.slide_targets(&l.second, via, occ) & enemy;
            }
        }
        if tab.has_routes {
            out |= self.route_captures_from(pc, from, occ, enemy);
        }
        out
    }

    /// Squares on which the routes (moves of three or more legs) of the piece `pc` on
    /// `from` capture, the board being `occ` (without the piece) and `enemy`.
    #[inline(never)]
    fn route_captures_from(
        &self,
        pc: usize,
        from: usize,
        occ: Bitboard<W>,
        enemy: Bitboard<W>,
    ) -> Bitboard<W> {
        let mut out = Bitboard::EMPTY;
        for r in &self.tables[pc].routes[from] {
            if r.empty.intersects(&occ) || r.captures.andnot(enemy).any() {
                continue;
            }
            out |= r.captures;
            if r.last.mode.can_capture() {
                let after = occ.andnot(r.captures);
                let reach = self.slide_targets(&r.last, r.last_from as usize, after);
                out |= reach & enemy.andnot(r.captures);
            }
        }
        out
    }

    /// All pseudo-legal moves: moves that follow the pieces' movement, ignoring royal
    /// safety.
    pub fn pseudo_moves(&self, pos: &Position<W>, list: &mut MoveList) {
        // Two copies of the piece loop: games without a restraint rule pay nothing for it.
        if self.restraint_now(pos) {
            self.piece_moves::<true, false>(pos, list);
        } else {
            self.piece_moves::<false, false>(pos, list);
        }
    }

    /// The pseudo-legal moves that may capture or promote, for quiescence: every move of
    /// `pseudo_moves` that takes a piece or promotes is among them (with some that do
    /// neither: a promoting piece's and a bent or multi-leg piece's other moves), and
    /// none of the plain moves to empty squares, castlings or drops.
    pub fn pseudo_captures(&self, pos: &Position<W>, list: &mut MoveList) {
        if self.restraint_now(pos) {
            self.piece_moves::<true, true>(pos, list);
        } else {
            self.piece_moves::<false, true>(pos, list);
        }
    }

    /// The pseudo-legal moves, `RESTRAINED` telling whether a rule restrains pieces, and
    /// `CAPTURES` asking for the captures and promotions (`pseudo_captures`).
    #[inline(always)]
    fn piece_moves<const RESTRAINED: bool, const CAPTURES: bool>(
        &self,
        pos: &Position<W>,
        list: &mut MoveList,
    ) {
        let us = pos.side;
        let sides = Sides::of(self, pos);
        let mut passed = false;
        for t in 0..self.types {
            let pc = piece_index(t, us);
            let pieces = pos.by_piece[pc];
            if pieces.is_empty() {
                continue;
            }
            let tab = &self.tables[pc];
            for from in pieces {
                let targets =
                    self.piece_targets::<RESTRAINED, CAPTURES>(pos, &sides, pc, from, list);
                if self.promotions[pc].is_some() {
                    for to in targets {
                        self.push_promotions(pos, pc, from, to, list);
                    }
                } else {
                    for to in targets {
                        list.push(Move::new(from, to, MoveKind::Normal));
                    }
                }
                if tab.has_two_legs {
                    self.two_leg_moves(pos, pc, from, list, &mut passed);
                }
            }
        }
        if self.has_routes {
            self.all_route_moves(pos, list, &mut passed);
        }
        if pos.ep.any() {
            self.en_passant_moves(pos, list);
        }
        if CAPTURES {
            return;
        }
        if pos.castling >> (2 * us.index()) & 3 != 0 {
            self.castling_moves(pos, list);
        }
        if self.reserves.exist() {
            self.drop_moves(pos, list);
        }
    }

    /// The squares the piece of index `pc` on `from` moves to by its leaps, slides and
    /// one-leg special moves (its double steps, a move kind of their own, are pushed to
    /// `list`), as `piece_moves` asks with `RESTRAINED` and `CAPTURES`.
    #[inline(always)]
    fn piece_targets<const RESTRAINED: bool, const CAPTURES: bool>(
        &self,
        pos: &Position<W>,
        sides: &Sides<W>,
        pc: usize,
        from: usize,
        list: &mut MoveList,
    ) -> Bitboard<W> {
        let Sides {
            own,
            enemy,
            occ,
            empty,
        } = *sides;
        let tab = &self.tables[pc];
        // A rule may make some squares stops (a slide or a lame leap may end on the first
        // of them but not pass it) and limit a piece to some targets.
        let (path_occ, limit) = if RESTRAINED {
            let (stops, limit) = self.restraint(pos, pc, from);
            (occ | stops, limit)
        } else {
            (occ, None)
        };
        let mut targets = (tab.leap_move[from] & empty) | (tab.leap_capture[from] & enemy);
        for s in &tab.slides {
            let reach = self.slide_targets(s, from, path_occ);
            targets |= match s.mode {
                Mode::Both => reach.andnot(own),
                Mode::Move => reach & empty,
                Mode::Capture => reach & enemy,
            };
        }
        if tab.has_specials {
            for s in &tab.specials[from] {
                if CAPTURES && s.double_step {
                    continue;
                }
                let to = s.to as usize;
                let fits = match s.mode {
                    Mode::Both => !own.has(to),
                    Mode::Move => empty.has(to),
                    Mode::Capture => enemy.has(to),
                };
                if fits && !s.path.intersects(&path_occ) {
                    if !s.double_step {
                        targets.set(to);
                    } else if limit.is_none_or(|l| l.has(to)) {
                        let skipped = s.first_skipped as usize;
                        list.push(Move::with_aux(from, to, skipped, MoveKind::DoubleStep));
                    }
                }
            }
        }
        if let Some(limit) = limit {
            targets &= limit;
        }
        if CAPTURES && self.promotions[pc].is_none() {
            targets &= enemy;
        }
        targets
    }

    /// Adds the move from-to with every promotion it may or must make.
    fn push_promotions(
        &self,
        pos: &Position<W>,
        pc: usize,
        from: usize,
        to: usize,
        list: &mut MoveList,
    ) {
        let promo = self.promotions[pc].as_ref().expect("caller checked");
        let may = match self.spec.promotion {
            PromotionStyle::Entry | PromotionStyle::ToZone => promo.zone.has(to),
            // Such a game compiles no promotions (`Game::compile_promotion`).
            PromotionStyle::ByRule => false,
            PromotionStyle::Zone => promo.zone.has(to) || promo.zone.has(from),
            PromotionStyle::Csrm => {
                if pos.board[to] != 0 {
                    promo.zone.has(to) || promo.zone.has(from)
                } else {
                    (promo.zone.has(to) && !promo.zone.has(from))
                        || (promo.promotes_on_last_rank && promo.last_rank.has(to))
                }
            }
        };
        if may {
            for &choice in &promo.choices {
                if !self.spec.promotion_limit
                    || pos.by_piece[choice].count() < self.initial_counts[choice]
                {
                    list.push(Move::promotion(from, to, choice));
                }
            }
        }
        if !promo.forced.has(to) {
            list.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    /// Two-leg moves of the piece on `from`. A first leg that captures makes a `TwoLeg`
    /// move (a double capture, hit-and-run or igui); one that lands on an empty square
    /// makes an ordinary move to the end square (a bent move), except a step and return,
    /// which is the pass, generated once per position (`passed`).
    fn two_leg_moves(
        &self,
        pos: &Position<W>,
        pc: usize,
        from: usize,
        list: &mut MoveList,
        passed: &mut bool,
    ) {
        let us = color_of_piece(pc);
        let enemy = pos.by_color[us.opposite()];
        let mut occ = pos.occupied();
        occ.clear(from);
        let own = pos.by_color[us].andnot(Bitboard::from_square(from));
        // Targets of ordinary moves of this piece already listed, read when first needed:
        // a square that a bent move reaches by two paths, or that a leap reaches too, is
        // one move.
        let mut seen: Option<Bitboard<W>> = None;
        for l in &self.tables[pc].two_legs[from] {
            let via = l.via as usize;
            let via_ok = match l.via_mode {
                Mode::Move => !occ.has(via),
                Mode::Capture => enemy.has(via),
                Mode::Both => !own.has(via),
            };
            if !via_ok {
                continue;
            }
            let reach = self.slide_targets(&l.second, via, occ);
            let targets = match l.second.mode {
                Mode::Both => reach.andnot(own),
                Mode::Move => reach.andnot(occ),
                Mode::Capture => reach & enemy,
            };
            for to in targets {
                if enemy.has(via) {
                    list.push(Move::with_aux(from, to, via, MoveKind::TwoLeg));
                } else if to == from {
                    if !*passed {
                        *passed = true;
                        list.push(Move::with_aux(from, from, via, MoveKind::Pass));
                    }
                } else if first_arrival(&mut seen, list, from, to) {
                    if self.promotions[pc].is_some() {
                        self.push_promotions(pos, pc, from, to, list);
                    } else {
                        list.push(Move::new(from, to, MoveKind::Normal));
                    }
                }
            }
        }
    }

    /// Moves of three or more legs of every piece of the side to move (kept out of the
    /// main loop: only games with such pieces pay for them).
    #[inline(never)]
    fn all_route_moves(&self, pos: &Position<W>, list: &mut MoveList, passed: &mut bool) {
        for t in 0..self.types {
            let pc = piece_index(t, pos.side);
            if self.tables[pc].has_routes {
                for from in pos.by_piece[pc] {
                    self.route_moves(pos, pc, from, list, passed);
                }
            }
        }
    }

    /// Moves of three or more legs of the piece on `from`. A route that captures on its way makes a `MultiLeg` move, whose
    /// aux names the pieces it takes; one that only passes empty squares makes an
    /// ordinary move (or the pass, when it returns to `from`). A move another route or an
    /// ordinary move of the piece already made is not repeated.
    fn route_moves(
        &self,
        pos: &Position<W>,
        pc: usize,
        from: usize,
        list: &mut MoveList,
        passed: &mut bool,
    ) {
        let us = color_of_piece(pc);
        let mut occ = pos.occupied();
        occ.clear(from);
        let own = pos.by_color[us].andnot(Bitboard::from_square(from));
        let enemy = pos.by_color[us.opposite()];
        let mut seen: Option<Bitboard<W>> = None;
        for r in &self.tables[pc].routes[from] {
            if r.empty.intersects(&occ) || r.captures.andnot(enemy).any() {
                continue;
            }
            // The pieces taken on the way are gone when the last leg moves.
            let occ = occ.andnot(r.captures);
            let enemy = enemy.andnot(r.captures);
            let reach = self.slide_targets(&r.last, r.last_from as usize, occ);
            let targets = match r.last.mode {
                Mode::Both => reach.andnot(own),
                Mode::Move => reach.andnot(occ),
                Mode::Capture => reach & enemy,
            };
            for to in targets {
                if r.captures.any() {
                    let m = Move::with_aux(from, to, r.capture_list as usize, MoveKind::MultiLeg);
                    if !list.contains(&m) {
                        list.push(m);
                    }
                } else if to == from {
                    if !*passed {
                        *passed = true;
                        list.push(Move::with_aux(
                            from,
                            from,
                            r.last_from as usize,
                            MoveKind::Pass,
                        ));
                    }
                } else if first_arrival(&mut seen, list, from, to) {
                    if self.promotions[pc].is_some() {
                        self.push_promotions(pos, pc, from, to, list);
                    } else {
                        list.push(Move::new(from, to, MoveKind::Normal));
                    }
                }
            }
        }
    }

    /// Captures by pawns onto any of the en-passant squares, taking the pawn that skipped
    /// them.
    fn en_passant_moves(&self, pos: &Position<W>, list: &mut MoveList) {
        for ep in pos.ep {
            for t in 0..self.types {
                let pc = piece_index(t, pos.side);
                if !self.is_pawn[pc] {
                    continue;
                }
                for from in self.reverse_leaps[pc * self.squares + ep] & pos.by_piece[pc] {
                    list.push(Move::with_aux(
                        from,
                        ep,
                        pos.ep_victim as usize,
                        MoveKind::EnPassant,
                    ));
                }
            }
        }
    }

    /// Castling with each remaining right: the king moves `castling_king_steps` towards
    /// the rook, the rook lands on the square the king crossed next to its destination.
    /// Every square between the king's and rook's start and end squares must be empty
    /// (except the two pieces), and the king may not start on, cross or land on an
    /// attacked square.
    fn castling_moves(&self, pos: &Position<W>, list: &mut MoveList) {
        let us = pos.side;
        let royals = pos.royals(self, us);
        let Some(king) = royals.first().filter(|_| !royals.more_than_one()) else {
            return;
        };
        let g = &self.geo;
        let steps = self.spec.castling_king_steps as i32;
        for i in 0..2 {
            let right = 2 * us.index() + i;
            if pos.castling >> right & 1 == 0 {
                continue;
            }
            let rook = pos.castle_rooks[right] as usize;
            let dir = if g.file(rook) > g.file(king) { 1 } else { -1 };
            let Some(to) = g.offset(king, dir * steps, 0) else {
                continue;
            };
            let rook_to = Position::<W>::castle_rook_target(king, to);
            let lo = king.min(to).min(rook).min(rook_to);
            let hi = king.max(to).max(rook).max(rook_to);
            let blocked = (lo..=hi).any(|sq| sq != king && sq != rook && pos.board[sq] != 0);
            if blocked {
                continue;
            }
            let (a, b) = (king.min(to), king.max(to));
            if (a..=b).any(|sq| self.attacked(pos, sq, us.opposite())) {
                continue;
            }
            list.push(Move::with_aux(king, to, rook, MoveKind::Castle));
        }
    }

    /// Pieces of `us` that stand alone between `king` and an enemy slider aiming at it.
    fn pinned(&self, pos: &Position<W>, king: usize, us: Color) -> Bitboard<W> {
        let occ = pos.occupied();
        let nd = self.dirs.len();
        let mut pinned = Bitboard::EMPTY;
        for &d in &self.attack_dirs[us.opposite()] {
            let back = self.opposite[d as usize] as usize;
            let Some(b1) = self.first_blocker(back, king, occ) else {
                continue;
            };
            if color_of(pos.board[b1]) != us {
                continue;
            }
            let Some(b2) = self.first_blocker(back, b1, occ) else {
                continue;
            };
            let code = pos.board[b2];
            if color_of(code) != us
                && self.slide_capture[(code as usize - 1) * nd + d as usize].is_some()
            {
                pinned.set(b1);
            }
        }
        pinned
    }

    /// All legal moves. Under check rules a side with one royal may not leave it
    /// attacked; a side with several royals may (the Crown Prince rule); a side with no
    /// royal has lost and has no moves, unless a rule gives it one back (succession).
    pub fn legal_moves(&self, pos: &mut Position<W>, list: &mut MoveList) {
        self.legal_moves_of::<false>(pos, list);
    }

    /// The legal moves among those of `pseudo_captures` (with the rules' own moves):
    /// every legal capture and promotion, and some other legal moves. For quiescence,
    /// which then keeps the moves it calls tactical: legality is tested for these only.
    pub fn legal_captures(&self, pos: &mut Position<W>, list: &mut MoveList) {
        // A rule that adds legal moves may add them by what else is legal (Tamerlane's
        // swap out of a position without another move): it sees all of them.
        if self.rules.legal_moves {
            self.legal_moves_of::<false>(pos, list);
        } else {
            self.legal_moves_of::<true>(pos, list);
        }
    }

    /// Whether `m` is one of `legal_moves`, tested for this move alone, so that the
    /// search can try the table's move before generating any. Only ordinary moves are
    /// tested (a piece's own leap, slide or one-leg special move to `to`, with the
    /// promotion it names); for every other kind of move, and where a rule's follow-ups
    /// or a succession are due, the answer is no and the move is found among the
    /// generated ones. A yes is always right: the move passes the same steps as in
    /// `legal_moves_of` (the piece's targets, its promotion choices, the rules' filters
    /// and immunity, the royal's safety).
    pub fn surely_legal(&self, pos: &mut Position<W>, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        // A square off the board holds no piece and is no piece's target.
        if m.kind() != MoveKind::Normal || from >= self.squares || to >= self.squares {
            return false;
        }
        let code = pos.board[from];
        let us = pos.side;
        if code == 0 || color_of(code) != us {
            return false;
        }
        let royals = pos.royals(self, us);
        if royals.is_empty() || self.settling(pos) {
            return false;
        }
        let pc = code as usize - 1;
        let sides = Sides::of(self, pos);
        let mut list = MoveList::new();
        let targets = if self.restraint_now(pos) {
            self.piece_targets::<true, false>(pos, &sides, pc, from, &mut list)
        } else {
            self.piece_targets::<false, false>(pos, &sides, pc, from, &mut list)
        };
        if !targets.has(to) {
            return false;
        }
        list.clear();
        let offered = if self.promotions[pc].is_some() {
            self.push_promotions(pos, pc, from, to, &mut list);
            list.contains(&m)
        } else {
            m == Move::new(from, to, MoveKind::Normal)
        };
        if !offered {
            return false;
        }
        if !self.rules.is_empty() {
            list.clear();
            list.push(m);
            self.rule_filters(pos, &mut list);
            if !list.contains(&m) {
                return false;
            }
        }
        if self.uses_check() && !royals.more_than_one() {
            return self.keeps_royal_safe(pos, m, royals.first().expect("one royal"));
        }
        true
    }

    fn legal_moves_of<const CAPTURES: bool>(&self, pos: &mut Position<W>, list: &mut MoveList) {
        list.clear();
        let us = pos.side;
        let royals = pos.royals(self, us);
        if royals.is_empty() {
            if self.rules.succession {
                self.rule_succession_moves(pos, list);
            }
            return;
        }
        if self.settling(pos) {
            self.rule_follow_ups(pos, list);
            return;
        }
        if CAPTURES {
            self.pseudo_captures(pos, list);
        } else {
            self.pseudo_moves(pos, list);
        }
        if !self.rules.is_empty() {
            self.rule_moves(pos, list);
        }
        if self.uses_check() && !royals.more_than_one() {
            self.keep_royal_safe(pos, list, royals.first().expect("one royal"));
        }
        if self.rules.legal_moves {
            self.rule_legal_moves(pos, list);
        }
    }

    /// Removes the moves that leave the side's only royal, on `king`, attacked.
    fn keep_royal_safe(&self, pos: &mut Position<W>, list: &mut MoveList, king: usize) {
        let us = pos.side;
        let them = us.opposite();
        let complex = if self.complex_attackers[them].is_empty() {
            Some(Bitboard::EMPTY)
        } else {
            self.complex_lines(pos, king, them)
        };
        // Under a restraint rule pins are not lines: every move is made and tested.
        let test_all =
            complex.is_none() || self.restraint_now(pos) || self.attacked(pos, king, them);
        let pinned = if test_all {
            Bitboard::EMPTY
        } else {
            self.pinned(pos, king, us) | complex.unwrap_or_default()
        };
        let mut i = 0;
        while i < list.len() {
            let m = list[i];
            // A drop only adds a piece: it cannot expose the royal, unless it is in check
            // or a multi-leg capture (which a new piece can open) threatens it.
            let risky = test_all
                || if m.is_plain() {
                    m.from() == king || pinned.has(m.from())
                } else {
                    m.kind() != MoveKind::Drop
                };
            if risky && !self.keeps_royal_safe(pos, m, king) {
                list.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// Squares whose piece, by moving away, could open a lame or multi-leg capture of
    /// `them` onto `king`: the blocking squares of lame leaps and the intermediate and
    /// sliding squares of multi-leg moves whose geometry reaches the king. `None` when a
    /// multi-leg move that captures on its way could reach the king: a piece moving onto
    /// the intermediate square could then open the attack, so every move must be tested.
    fn complex_lines(&self, pos: &Position<W>, king: usize, them: Color) -> Option<Bitboard<W>> {
        let mut lines = Bitboard::EMPTY;
        for &pc in &self.complex_attackers[them] {
            let tab = &self.tables[pc];
            // A piece whose moves cannot reach the royal draws no line to it.
            for from in pos.by_piece[pc]
                .iter()
                .filter(|&f| tab.complex_reach[f].has(king))
            {
                for s in &tab.specials[from] {
                    if s.to as usize == king && s.mode.can_capture() {
                        lines |= s.path;
                    }
                }
                for r in tab.routes[from].iter() {
                    // A route that captures on its way: test every move.
                    if r.captures.any() {
                        return None;
                    }
                    // One through empty landings: its landings and the last leg's path.
                    if let Some(path) = self.last_leg_path(&r.last, r.last_from as usize, king) {
                        lines |= r.empty | path;
                    }
                }
                for l in &tab.two_legs[from] {
                    let via = l.via as usize;
                    let path = self.last_leg_path(&l.second, via, king);
                    if path.is_none() && via != king {
                        continue;
                    }
                    if l.via_mode != Mode::Move {
                        return None;
                    }
                    lines.set(via);
                    lines |= path.unwrap_or(Bitboard::EMPTY);
                }
            }
        }
        Some(lines)
    }

    /// If the last leg `leg` of a move, starting on `at`, can capture on `king`: the
    /// squares between them, which must be empty for it.
    fn last_leg_path(&self, leg: &Slide, at: usize, king: usize) -> Option<Bitboard<W>> {
        let d = leg.dir as usize;
        let reaches = self.rays[d * self.squares + at].has(king) && {
            let dist = self.steps_between(d, at, king);
            dist >= leg.min as usize && (leg.max == 0 || dist <= leg.max as usize)
        };
        (reaches && leg.mode.can_capture()).then(|| {
            self.rays[d * self.squares + at]
                .andnot(self.rays[d * self.squares + king])
                .andnot(Bitboard::from_square(king))
        })
    }

    /// Makes `m` and tells whether the mover's royal (on `king` before the move) is safe.
    pub(crate) fn keeps_royal_safe(&self, pos: &mut Position<W>, m: Move, king: usize) -> bool {
        let us = pos.side;
        let u = pos.make(self, m);
        let at = if m.from() == king && m.kind() != MoveKind::Drop {
            m.to()
        } else {
            king
        };
        let safe = !self.attacked(pos, at, us.opposite());
        pos.unmake(self, m, u);
        safe
    }

    /// True when the side to move has a royal under attack (and only one royal, so that
    /// the attack matters).
    pub fn in_check(&self, pos: &Position<W>) -> bool {
        let royals = pos.royals(self, pos.side);
        match royals.first() {
            Some(k) if !royals.more_than_one() => self.attacked(pos, k, pos.side.opposite()),
            _ => false,
        }
    }

    /// Whether `m` leaves the opponent in check (games of the check rule; a move after
    /// which its side is still to move checks nobody). Only a move that could check
    /// (`could_check`) is made to find out: the search asks this of the quiet moves its
    /// pruning would drop, most of which cannot.
    pub fn gives_check(&self, pos: &mut Position<W>, m: Move) -> bool {
        if !self.uses_check() || (m.kind() == MoveKind::Normal && !self.could_check(pos, m)) {
            return false;
        }
        let side = pos.side;
        let u = pos.make(self, m);
        let check = pos.side != side && self.in_check(pos);
        pos.unmake(self, m, u);
        check
    }

    /// Whether the plain move `m` could check the opponent's lone royal: its piece, from
    /// where it lands, reaches the royal through the board as the move leaves it (a leap,
    /// a slide, a lame leap) or could by a two-leg or multi-leg move, or it leaves a file,
    /// rank or diagonal of the royal (a check discovered). A check discovered along
    /// another line is missed, which costs a move only the search's sparing. A promotion
    /// lands as another piece, a restraint (a bodyguard's) may free a line by leaving any
    /// square, and a stack may leave a carried piece behind: those always could.
    pub(crate) fn could_check(&self, pos: &Position<W>, m: Move) -> bool {
        let royals = pos.royals(self, pos.side.opposite());
        // With several royals (or none), none is in check (`in_check`).
        let Some(royal) = royals.first().filter(|_| !royals.more_than_one()) else {
            return false;
        };
        if m.promotes_to().is_some() || self.restraint_now(pos) || self.stacks.exist {
            return true;
        }
        let (from, to) = (m.from(), m.to());
        let g = &self.geo;
        let file = g.file(royal) as i32 - g.file(from) as i32;
        let rank = g.rank(royal) as i32 - g.rank(from) as i32;
        if file == 0 || rank == 0 || file.abs() == rank.abs() {
            return true;
        }
        let pc = pos.board[from] as usize - 1;
        let mut occ = pos.occupied();
        occ.clear(from);
        occ.set(to);
        let (_, captures) = self.one_leg_reach(pc, to, occ);
        captures.has(royal) || self.tables[pc].complex_reach[to].has(royal)
    }

    /// True when, in a game where royals are captured, the side to move can take the
    /// opponent's last royal and with it the game (no rule lets another piece succeed
    /// it). The search scores such a position as won at once: a capture of a royal is
    /// worth far more than its material, and without this a side in danger searched every
    /// reply, deep into quiescence (a Chu middlegame took 139M nodes at depth 1).
    pub fn can_take_last_royal(&self, pos: &Position<W>) -> bool {
        if self.uses_check() || self.rules.succession {
            return false;
        }
        let them = pos.side.opposite();
        let royals = pos.royals(self, them);
        match royals.first() {
            Some(k) if !royals.more_than_one() => self.attacked(pos, k, pos.side),
            _ => false,
        }
    }

    /// The move that takes the opponent's last royal where `can_take_last_royal` holds.
    /// The search scores such a position as won without playing the capture, so a
    /// principal variation ends one move short of the game's end; this is that move.
    pub fn last_royal_capture(&self, pos: &mut Position<W>) -> Option<Move> {
        if !self.can_take_last_royal(pos) {
            return None;
        }
        let mut list = MoveList::new();
        self.legal_captures(pos, &mut list);
        list.iter().copied().find(|&m| {
            let undo = pos.make(self, m);
            let taken = self.royals_lost(pos);
            pos.unmake(self, m, undo);
            taken
        })
    }

    /// The moves a player may make in a game: the legal moves, less those that the
    /// variant's repetition rule forbids. (Perft counts `legal_moves`, with no repetition
    /// rule, as the reference engines do.)
    pub fn game_moves(&self, pos: &mut Position<W>, list: &mut MoveList) {
        self.legal_moves(pos, list);
        let rule = self.spec.repetition_rule;
        if rule == RepetitionRule::Draw || !rule.forbids(self.in_check(pos)) {
            return;
        }
        let mut i = 0;
        while i < list.len() {
            let m = list[i];
            let u = pos.make(self, m);
            let repeats = pos.repetitions(self) > 0;
            pos.unmake(self, m, u);
            if repeats {
                list.swap_remove(i);
            } else {
                i += 1;
            }
        }
    }
}

/// Whether an ordinary move from `from` to `to` is new: not in `list` already (`seen`
/// holds the targets of the ordinary moves from `from`, read from `list` on first use and
/// kept up to date by this call).
fn first_arrival<const W: usize>(
    seen: &mut Option<Bitboard<W>>,
    list: &MoveList,
    from: usize,
    to: usize,
) -> bool {
    let seen = seen.get_or_insert_with(|| {
        let mut b = Bitboard::EMPTY;
        for m in list
            .iter()
            .filter(|m| m.from() == from && m.kind() == MoveKind::Normal)
        {
            b.set(m.to());
        }
        b
    });
    if seen.has(to) {
        return false;
    }
    seen.set(to);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::random_lines::random_positions;
    use crate::variants::AnyGame;

    /// Every plain move that gives check is one `could_check` says could (none of these
    /// games has a check discovered along a line that is not a file, rank or diagonal),
    /// and `gives_check` says what making the move says where the check rule holds.
    #[test]
    fn every_check_is_a_move_that_could_check() {
        for name in [
            "chess",
            "courier",
            "sho",
            "duodecimal",
            "hiashatar",
            "littlegreat",
            "flee",
        ] {
            let any = AnyGame::builtin(name).unwrap();
            crate::with_width!(&any, g => {
                let (mut checks, mut could, mut plain) = (0, 0, 0);
                for seed in 0..6 {
                    for mut pos in random_positions(g, 120, seed) {
                        let mut list = MoveList::new();
                        g.legal_moves(&mut pos, &mut list);
                        for &m in list.iter().filter(|m| m.kind() == MoveKind::Normal) {
                            let side = pos.side;
                            let u = pos.make(g, m);
                            let check = pos.side != side && g.in_check(&pos);
                            pos.unmake(g, m, u);
                            plain += 1;
                            could += g.could_check(&pos, m) as usize;
                            if check {
                                checks += 1;
                                assert!(g.could_check(&pos, m), "{name}: {m:?} checks in {}", pos.to_fen(g));
                            }
                            let expected = check && g.uses_check();
                            assert_eq!(g.gives_check(&mut pos, m), expected, "{name}: {m:?} in {}", pos.to_fen(g));
                        }
                    }
                }
                assert!(checks > 0, "{name}: no check met");
                // And it is a filter: most plain moves are not made to find out (but for
                // Hiashatar's bodyguard and Little Great Chess's stacks, which send every
                // move to be made).
                assert!(
                    ["hiashatar", "littlegreat"].contains(&name) || could < plain / 2,
                    "{name}: {could} of {plain} plain moves could check"
                );
            });
        }
    }
}
