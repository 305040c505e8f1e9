//! The siege of a lone royal: how many pieces attack the ring around it, which of the
//! ring's squares only the royal defends, from where the attacker could give a check that
//! no defender covers, and how crowded with attacks the royal's flank is. The attack
//! units sum these; their square is the cost to the defender (a lone attacker threatens
//! little, a coordinated one mates), blended towards a linear cost as the pieces leave
//! the board. A game weighs it with `royal_safety` (percent of the model,
//! `EvalSpec::royal_safety`); without the key nothing here is computed.
//!
//! The model follows the structure of Stockfish's classical king danger, which
//! Fairy-Stockfish applies to every variant, with kirin's own weights: they were fitted
//! by least squares to the king-safety term of Fairy-Stockfish 11.1's evaluation on
//! 76 040 Courier positions of kirin's games against it (both sides of each position,
//! Fairy-Stockfish's term turned into kirin's centipawns by the ratio of the two engines'
//! piece values, 0.43), where the term spreads by 126 centipawns (its standard deviation)
//! and kirin's attack on the royal zone (`danger.rs`) could follow it only faintly (a
//! Texel fit to Fairy-Stockfish's static scores took that term to 31%). The fitted model
//! follows the term with a correlation of 0.947, a residual spread of 40 centipawns
//! (docs/tuning.md). Weights are generic: one per attacker, one per safe check of a
//! slider and one of a leaper, whatever the pieces.
//!
//! Attacks are a piece's captures by its leaps, steps and slides (`Game::plain_attacks`);
//! lame and multi-leg captures are left out, as in `danger.rs`. The squares a piece type checks the royal
//! from are the squares the same type of the royal's colour attacks from the royal's
//! square (exact for pieces whose moves are symmetric left to right).

use super::threats;
use crate::core::{Bitboard, Color, color_of_piece, piece_index, type_of_piece};
use crate::rules::game::Game;

/// Attack units: per attacker of the ring, times the number of attackers (pawns that
/// attack the ring counted among them, as one attacker each)...
const PER_ATTACKER_PAIR: i32 = 51;
/// ...per attack on a square next to the royal...
const PER_ADJACENT_ATTACK: i32 = 52;
/// ...per ring square attacked and not defended twice, by no piece but the royal...
const PER_WEAK_RING_SQUARE: i32 = 178;
/// ...per square a piece could check from that the defence covers...
const PER_UNSAFE_CHECK: i32 = 121;
/// ...per attacking piece type that could give a check the defence does not cover, by
/// a slide...
const SAFE_SLIDER_CHECK: i32 = 873;
/// ...or by a leap or step...
const SAFE_LEAPER_CHECK: i32 = 661;
/// ...the square of the attacks on the royal's flank over this divisor...
const FLANK_SQUARED_DIVISOR: i32 = 16;
const FLANK_SQUARED: i32 = 9;
/// ...less per flank square the defender attacks...
const PER_FLANK_DEFENCE: i32 = 9;
/// ...and less this, so that a quiet position has none.
const BASE: i32 = -485;
/// Units at most this many cost nothing.
const THRESHOLD: i32 = 100;
/// The cost of the units while the board is full: their square over `DIVISOR`, at most
/// `CAP`...
const DIVISOR: i64 = 9500;
const CAP: i64 = 1290;
/// ...and in the endgame the units over `ENDGAME_DIVISOR`.
const ENDGAME_DIVISOR: i32 = 37;
/// Linear costs, whatever the units: per attack on the royal's flank (a square attacked
/// twice counts twice)...
const PER_FLANK_ATTACK: i32 = 6;
/// ...and for a royal whose flank has no pawn of either side.
const PAWNLESS_FLANK: i32 = 28;
/// How many attacking piece types' check squares are kept apart; more types share the
/// last entry.
const CHECKERS: usize = 8;

/// What the survey needs of a game, built once. The evaluation's tables serve every
/// board width, so the bitboards are kept as their words (`W` per set, the width the
/// layout was built for) and read back as `Bitboard<W>`.
pub(crate) struct Layout {
    /// Per square: the ring of a royal there (its square and the king steps around it,
    /// moved off the board's edge as if the royal stood one square further in).
    ring: Vec<u64>,
    /// Per square: the royal's flank, the files of its ring.
    flank: Vec<u64>,
    /// Per colour: its camp, its own half and one rank beyond.
    camp: [Vec<u64>; 2],
    /// Per piece index: whether it gives check by a slide of more than one step.
    slider: Vec<bool>,
    /// Per piece index: its class of value (`threats::classes`), `threats::NO_CLASS`
    /// for pawns and royals.
    pub(crate) class: Vec<u8>,
}

/// Set `i` of the words `sets`.
#[inline(always)]
fn set_of<const W: usize>(sets: &[u64], i: usize) -> Bitboard<W> {
    let mut b = Bitboard::<W>::EMPTY;
    b.0.copy_from_slice(&sets[i * W..(i + 1) * W]);
    b
}

impl Layout {
    /// The layout of `game`, whose piece types are worth `values`.
    pub(crate) fn new<const W: usize>(game: &Game<W>, values: &[i32]) -> Layout {
        let g = &game.geo;
        let (w, h) = (g.width as i32, g.height as i32);
        let inner = |sq: usize| {
            (
                (g.file(sq) as i32).clamp(1, (w - 2).max(1)),
                (g.rank(sq) as i32).clamp(1, (h - 2).max(1)),
            )
        };
        let on_board = |f: i32, r: i32| g.square(f, r).filter(|&s| !g.holes[s]);
        let words = |sets: Vec<Bitboard<W>>| sets.iter().flat_map(|b| b.0).collect::<Vec<u64>>();
        let ring = (0..game.squares)
            .map(|sq| {
                let (f, r) = inner(sq);
                let mut ring = Bitboard::<W>::EMPTY;
                for (df, dr) in (-1..=1).flat_map(|df| (-1..=1).map(move |dr| (df, dr))) {
                    if let Some(s) = on_board(f + df, r + dr) {
                        ring.set(s);
                    }
                }
                ring
            })
            .collect();
        let flank = (0..game.squares)
            .map(|sq| {
                let (f, _) = inner(sq);
                let mut flank = Bitboard::<W>::EMPTY;
                for s in (0..game.squares).filter(|&s| (g.file(s) as i32 - f).abs() <= 1) {
                    if !g.holes[s] {
                        flank.set(s);
                    }
                }
                flank
            })
            .collect();
        let camp = Color::ALL.map(|color| {
            let mut camp = Bitboard::<W>::EMPTY;
            for s in (0..game.squares).filter(|&s| !g.holes[s]) {
                let r = g.rank(s) as i32;
                let own = if color.index() == 0 { r } else { h - 1 - r };
                if own <= (h - 2) / 2 + 1 {
                    camp.set(s);
                }
            }
            words(vec![camp])
        });
        let slider = (0..2 * game.types)
            .map(|pc| {
                game.tables[pc]
                    .slides
                    .iter()
                    .any(|s| s.mode.can_capture() && (s.max == 0 || s.max > 1))
            })
            .collect();
        Layout {
            ring: words(ring),
            flank: words(flank),
            camp,
            slider,
            class: threats::classes(game, values),
        }
    }
}

/// One side's attack on the other's royal, gathered piece by piece.
#[derive(Clone, Copy, Default)]
struct Siege<const W: usize> {
    /// Its pieces (neither pawns nor royal) that attack the ring...
    attackers: i32,
    /// ...and their attacks on the squares next to the royal.
    adjacent: i32,
    /// Per attacking piece type (up to `CHECKERS`): the squares it attacks that it
    /// would check the royal from, and whether it slides there.
    checks: [(Bitboard<W>, bool); CHECKERS],
    check_types: usize,
}

/// Every piece's attacks, and each side's siege of the other's lone royal.
pub(crate) struct Survey<'a, const W: usize> {
    layout: &'a Layout,
    /// Per side: the squares it attacks, those it attacks twice or more, those its pawns
    /// attack and those they attack twice...
    pub(crate) all: [Bitboard<W>; 2],
    pub(crate) twice: [Bitboard<W>; 2],
    pub(crate) pawns: [Bitboard<W>; 2],
    pawns_twice: [Bitboard<W>; 2],
    /// ...those its royals attack, and those its other pieces of each class of value
    /// attack (`threats.rs`).
    pub(crate) royals: [Bitboard<W>; 2],
    pub(crate) by_class: [[Bitboard<W>; threats::CLASSES]; 2],
    /// Per side: its lone royal's square, its ring and the squares next to it.
    royal: [Option<(usize, Bitboard<W>, Bitboard<W>)>; 2],
    siege: [Siege<W>; 2],
    /// The piece type being added, and the squares it checks the opponent's royal from
    /// once they were needed.
    current: Option<(usize, Option<Bitboard<W>>)>,
}

impl<'a, const W: usize> Survey<'a, W> {
    /// A survey of a position whose lone royals stand on `lone` (`None`: none, or more
    /// than one), its pieces seeing `occ`.
    pub(crate) fn new(
        game: &Game<W>,
        layout: &'a Layout,
        lone: &[Option<usize>; 2],
        occ: Bitboard<W>,
    ) -> Survey<'a, W> {
        let royal = Color::ALL.map(|color| {
            lone[color].map(|k| {
                let pc = game.royals[color.index()][0];
                (k, set_of(&layout.ring, k), game.plain_attacks(pc, k, occ))
            })
        });
        Survey {
            layout,
            all: [Bitboard::EMPTY; 2],
            twice: [Bitboard::EMPTY; 2],
            pawns: [Bitboard::EMPTY; 2],
            pawns_twice: [Bitboard::EMPTY; 2],
            royals: [Bitboard::EMPTY; 2],
            by_class: [[Bitboard::EMPTY; threats::CLASSES]; 2],
            royal,
            siege: [Siege::default(); 2],
            current: None,
        }
    }

    /// Adds a piece `pc` (a pawn: `pawn`) whose attacks are `hit`.
    #[inline(always)]
    pub(crate) fn add(
        &mut self,
        game: &Game<W>,
        pc: usize,
        hit: Bitboard<W>,
        pawn: bool,
        occ: Bitboard<W>,
    ) {
        let color = color_of_piece(pc);
        let c = color.index();
        self.twice[c] |= self.all[c] & hit;
        self.all[c] |= hit;
        if pawn {
            self.pawns_twice[c] |= self.pawns[c] & hit;
            self.pawns[c] |= hit;
            return;
        }
        if game.is_royal[pc] {
            self.royals[c] |= hit;
            return;
        }
        self.by_class[c][self.layout.class[pc] as usize] |= hit;
        let Some((k, ring, next)) = self.royal[color.opposite().index()] else {
            return;
        };
        let siege = &mut self.siege[c];
        if hit.intersects(&ring) {
            siege.attackers += 1;
            siege.adjacent += (hit & next).count() as i32;
        }
        if !matches!(self.current, Some((p, _)) if p == pc) {
            self.current = Some((pc, None));
            if siege.check_types < CHECKERS {
                siege.check_types += 1;
            }
            siege.checks[siege.check_types - 1].1 |= self.layout.slider[pc];
        }
        // The squares this type checks from: found once per type, and only for a piece
        // that attacks some square it could check from on an empty board (most do not).
        let twin = piece_index(type_of_piece(pc), color.opposite());
        if hit.intersects(&game.tables[twin].plain_reach[k]) {
            let Some((_, from)) = self.current.as_mut() else {
                return;
            };
            let from = *from.get_or_insert_with(|| game.plain_attacks(twin, k, occ) & game.valid);
            siege.checks[siege.check_types - 1].0 |= hit & from;
        }
    }

    /// What the siege of `color`'s royal costs it, in centipawns at `percent` of the
    /// model, where `phase` of `full` is the middlegame's share; `pawns` holds every
    /// pawn on the board.
    pub(crate) fn cost(
        &self,
        game: &Game<W>,
        by_color: &[Bitboard<W>; 2],
        pawns: Bitboard<W>,
        color: Color,
        (phase, full): (i32, i32),
        percent: i32,
    ) -> i32 {
        let Some((k, ring, next)) = self.royal[color.index()] else {
            return 0;
        };
        let (us, them) = (color.index(), color.opposite().index());
        let siege = &self.siege[them];
        let unguarded = game.valid.andnot(self.all[us]);
        let weak = self.all[them].andnot(self.twice[us]) & (unguarded | next);
        let safe = game.valid.andnot(by_color[them]) & (unguarded | (weak & self.twice[them]));
        let mut units = BASE;
        let mut unsafe_checks = Bitboard::<W>::EMPTY;
        for &(squares, slider) in &siege.checks[..siege.check_types] {
            if squares.intersects(&safe) {
                units += if slider {
                    SAFE_SLIDER_CHECK
                } else {
                    SAFE_LEAPER_CHECK
                };
            } else {
                unsafe_checks |= squares;
            }
        }
        let count = siege.attackers + (ring & self.pawns[them]).count() as i32;
        let ring = ring.andnot(self.pawns_twice[us]);
        let flank_files = set_of::<W>(&self.layout.flank, k);
        let flank = flank_files & set_of(&self.layout.camp[us], 0);
        let flank_attacks =
            ((self.all[them] & flank).count() + (self.twice[them] & flank).count()) as i32;
        units += PER_ATTACKER_PAIR * count * siege.attackers
            + PER_ADJACENT_ATTACK * siege.adjacent
            + PER_WEAK_RING_SQUARE * (ring & weak).count() as i32
            + PER_UNSAFE_CHECK * unsafe_checks.count() as i32
            + FLANK_SQUARED * flank_attacks * flank_attacks / FLANK_SQUARED_DIVISOR
            - PER_FLANK_DEFENCE * (self.all[us] & flank).count() as i32;
        let mut cost = PER_FLANK_ATTACK * flank_attacks;
        if !pawns.intersects(&flank_files) {
            cost += PAWNLESS_FLANK;
        }
        if units > THRESHOLD {
            let middlegame = ((units as i64 * units as i64) / DIVISOR).min(CAP) as i32;
            let endgame = units / ENDGAME_DIVISOR;
            cost += super::blend((middlegame, endgame), (phase, full), 100);
        }
        cost * percent / 100
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::{BLACK, WHITE};
    use crate::eval::pawns::is_pawn;
    use crate::rules::position::Position;
    use crate::variants::AnyGame;

    /// The survey of every piece of `pos` (the first royal of each side taken as lone).
    pub(crate) fn surveyed<'a, const W: usize>(
        g: &Game<W>,
        layout: &'a Layout,
        pos: &Position<W>,
    ) -> Survey<'a, W> {
        let occ = pos.occupied();
        let lone = Color::ALL.map(|c| pos.royals(g, c).first());
        let mut survey = Survey::new(g, layout, &lone, occ);
        for pc in 0..2 * g.types {
            for sq in pos.by_piece[pc] {
                let hit = g.plain_attacks(pc, sq, occ) & g.valid;
                survey.add(g, pc, hit, is_pawn(g, pc), occ);
            }
        }
        survey
    }

    /// What the siege of each side's royal costs it in `fen`, at 100%, the board full.
    fn costs_in<const W: usize>(g: &Game<W>, fen: &str) -> [i32; 2] {
        let layout = Layout::new(g, &vec![100; g.types]);
        let pos = Position::from_fen(g, fen).unwrap();
        let survey = surveyed(g, &layout, &pos);
        let pawn: Vec<bool> = (0..2 * g.types).map(|pc| is_pawn(g, pc)).collect();
        let [white, black] = crate::eval::pawns::squares_of(&pos, &pawn);
        let pawns = white | black;
        Color::ALL.map(|c| survey.cost(g, &pos.by_color, pawns, c, (256, 256), 100))
    }

    fn costs(fen: &str) -> [i32; 2] {
        let any = AnyGame::builtin("chess").unwrap();
        crate::with_width!(&any, g => costs_in(g, fen))
    }

    #[test]
    fn a_quiet_royal_costs_nothing_and_a_besieged_one_much() {
        // The start: nothing attacks either camp.
        let start = costs("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(start, [0, 0]);
        // Black's Queen on h4 and Knight on g4 attack f2, which only White's King
        // defends (a weak ring square, and a safe Queen check since both attack it); a
        // Bishop on c5 is a third attacker.
        let besieged = costs("rnb1k2r/pppp1ppp/8/2b5/6nq/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let lesser = costs("rnb1k2r/pppp1ppp/8/8/6nq/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(
            besieged[WHITE.index()] > lesser[WHITE.index()],
            "{besieged:?} {lesser:?}"
        );
        assert!(lesser[WHITE.index()] > 0, "{lesser:?}");
        assert_eq!(besieged[BLACK.index()], 0);
    }

    /// `fen` with the board turned upside down and the colours swapped (the board and
    /// the side to move; no castling or en passant in the games it is used for).
    pub(crate) fn flipped(fen: &str) -> String {
        let mut fields = fen.split(' ');
        let board: Vec<String> = fields
            .next()
            .unwrap()
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| match c.is_ascii_uppercase() {
                        true => c.to_ascii_lowercase(),
                        false => c.to_ascii_uppercase(),
                    })
                    .collect()
            })
            .collect();
        let side = if fields.next() == Some("w") { "b" } else { "w" };
        format!("{} {side} - - 0 1", board.join("/"))
    }

    fn check_colour_symmetry<const W: usize>(g: &Game<W>) {
        let mut seen = std::collections::HashSet::new();
        for pos in crate::rules::random_lines::random_positions(g, 150, 11) {
            let fen = pos.to_fen(g);
            let (a, b) = (costs_in(g, &fen), costs_in(g, &flipped(&fen)));
            assert_eq!(a, [b[1], b[0]], "{fen}");
            seen.extend(a);
        }
        // The costs vary along the line, or the mirror would prove little.
        assert!(seen.len() > 20, "{seen:?}");
    }

    #[test]
    fn each_colour_pays_what_the_other_would_in_the_mirrored_position() {
        // Courier's pieces are all symmetric left to right, so the check squares found
        // from the royal are exact, and every count must mirror.
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => check_colour_symmetry(g));
    }

    fn check_layout<const W: usize>(g: &Game<W>) {
        let layout = Layout::new(g, &vec![100; g.types]);
        let sq = |name: &str| g.geo.parse_square(name).unwrap();
        let names = |b: Bitboard<W>| b.into_iter().map(|s| g.geo.name(s)).collect::<Vec<_>>();
        // A royal on h1 is ringed as if on g2.
        let ring = set_of::<W>(&layout.ring, sq("h1"));
        assert_eq!(
            names(ring),
            ["f1", "g1", "h1", "f2", "g2", "h2", "f3", "g3", "h3"]
        );
        assert_eq!(set_of::<W>(&layout.flank, sq("h1")).count(), 24);
        // White's camp: ranks 1 to 4 of 8 (its half) and the 5th.
        let camp = set_of::<W>(&layout.camp[WHITE.index()], 0);
        assert_eq!(camp.count(), 40);
        assert!(camp.has(sq("a5")) && !camp.has(sq("a6")));
    }

    #[test]
    fn the_ring_moves_off_the_edge_and_the_flank_spans_three_files() {
        let any = AnyGame::builtin("chess").unwrap();
        crate::with_width!(&any, g => check_layout(g));
    }
}
