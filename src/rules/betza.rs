//! Betza piece descriptions, parsed into a small intermediate form (`Atom`s and `Leg`s)
//! that the table compiler (`pieces.rs`) turns into per-square tables and that later
//! serves to write XBoard `piece` commands. The dialect is documented in `docs/betza.md`.
//!
//! Supported:
//! - leaper letters `W F D N A H C Z G` and `(x,y)` for any leap up to (4,4); `K` = `WF`;
//! - riders: `R B Q`, a doubled letter (`DD`, `AA`, `NN`), a range limit (`R4`, `B4`), and a
//!   range window `{min,max}` or `{min,}` (kirin extension); `j` on a rider = `{2,}`;
//! - modes `m` (move only) and `c` (capture only);
//! - directions `f b l r v s` and the pairs `ff bb ll rr fs bs fl fr bl br`;
//! - `n`: lame leap, every square the leap passes must be empty (`nD` = pawn double step);
//! - `i`: only from the piece's initial ranks;
//! - multi-leg moves, in XBetza's form (`caK`, `mabK`: one atom, a modifier group per leg,
//!   separated by `a`) or as a bracketed chain of atoms (`[mF-fsR{3,}]`, the Giraffe); the
//!   directions of every leg after the first are relative to the leg before it.

use std::fmt;

mod write;
pub use write::{XBetza, to_xbetza};

/// Whether a leg may end on an empty square, on an enemy piece, or on either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Both,
    Move,
    Capture,
}

impl Mode {
    pub fn can_move(self) -> bool {
        self != Mode::Capture
    }
    pub fn can_capture(self) -> bool {
        self != Mode::Move
    }
}

/// One leg of a move: a leap or a ride in a set of directions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leg {
    pub mode: Mode,
    /// Step vectors from White's point of view (+y is forward). For legs after the first
    /// these are all the atom's vectors; `relative` selects among them per previous leg.
    pub steps: Vec<(i32, i32)>,
    /// Fewest steps the leg takes (1 for leaps).
    pub min: u32,
    /// Most steps the leg takes; `None` = unlimited.
    pub max: Option<u32>,
    /// Every square the leap passes over must be empty.
    pub lame: bool,
    /// For legs after the first: allowed turns relative to the previous leg, as a mask of
    /// 45-degree classes (bit 0 = straight on, bit 2 = left, bit 4 = back, bit 6 = right).
    pub relative: u8,
}

impl Leg {
    pub fn is_rider(&self) -> bool {
        self.max != Some(1)
    }
}

/// One way of moving: one leg, or several for bent and multi-leg moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub legs: Vec<Leg>,
    /// Only allowed from the piece's initial ranks.
    pub initial: bool,
}

/// A parse error with the position of the offending character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    pub text: String,
    pub at: usize,
    pub why: String,
}

impl std::error::Error for BetzaError {}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad Betza '{}' at character {}: {}",
            self.text,
            self.at + 1,
            self.why
        )
    }
}

/// Parses a Betza description into atoms.
pub fn parse(text: &str) -> Result<Vec<Atom>, BetzaError> {
    let mut p = Parser {
        text,
        chars: text.chars().collect(),
        at: 0,
    };
    let mut atoms = Vec::new();
    while p.at < p.chars.len() {
        if p.chars[p.at].is_whitespace() {
            p.at += 1;
            continue;
        }
        if p.peek() == Some('[') {
            let chain = p.chain()?;
            if p.peek() == Some('*') {
                atoms.extend(p.repeat(chain)?);
            } else if chain.legs.len() < 2 {
                return Err(p.err("a chain needs at least two legs"));
            } else {
                atoms.push(chain);
            }
        } else {
            atoms.push(p.atom()?);
        }
    }
    if atoms.is_empty() {
        return Err(p.err("no moves described"));
    }
    Ok(atoms)
}

/// Most legs of a repeating chain (`[...]*` without a number): a path of steps that
/// each move on by a square crosses the largest board (17x17) in 16 legs, and one that
/// winds back on itself gains nothing from going on.
pub const MAX_REPEAT_LEGS: usize = 32;

/// An atom's step vectors with its range (min, max; `None` = unlimited).
type Body = (Vec<(i32, i32)>, u32, Option<u32>);

struct Parser<'a> {
    text: &'a str,
    chars: Vec<char>,
    at: usize,
}

/// Modifiers written before one leg's atom.
#[derive(Default, Clone)]
struct Mods {
    mode: Option<Mode>,
    dirs: String,
    lame: bool,
    initial: bool,
    skip_first: bool,
}

impl Parser<'_> {
    fn err(&self, why: &str) -> BetzaError {
        BetzaError {
            text: self.text.to_string(),
            at: self.at.min(self.chars.len()),
            why: why.to_string(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    /// Reads modifier groups, split by `a` into legs.
    fn modifier_groups(&mut self) -> Result<Vec<Mods>, BetzaError> {
        let mut groups = vec![Mods::default()];
        while let Some(c) = self.peek() {
            let g = groups.last_mut().expect("at least one group");
            match c {
                'm' | 'c' => {
                    let new = if c == 'm' { Mode::Move } else { Mode::Capture };
                    g.mode = Some(match g.mode {
                        Some(old) if old != new => Mode::Both,
                        _ => new,
                    });
                }
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => g.dirs.push(c),
                'n' => g.lame = true,
                'i' => g.initial = true,
                'j' => g.skip_first = true,
                'a' => groups.push(Mods::default()),
                'p' | 'g' | 'd' | 'e' | 't' | 'o' | 'y' | 'u' | 'x' | 'k' | 'h' | 'q' | 'z' => {
                    return Err(self.err(&format!("modifier '{c}' is not supported")));
                }
                _ => break,
            }
            self.at += 1;
        }
        Ok(groups)
    }

    /// Reads an atom letter or `(x,y)`, with its range; returns its vectors, min and max.
    /// `K` and `Q` give one set of eight directions, so that a later leg may turn freely.
    fn body(&mut self) -> Result<Body, BetzaError> {
        let c = self
            .peek()
            .ok_or_else(|| self.err("expected a piece letter"))?;
        let (leaps, rider): (Vec<(i32, i32)>, bool) = if c == '(' {
            (vec![self.tuple()?], false)
        } else {
            self.at += 1;
            match c {
                'K' => (vec![(1, 0), (1, 1)], false),
                'Q' => (vec![(1, 0), (1, 1)], true),
                'R' => (vec![(1, 0)], true),
                'B' => (vec![(1, 1)], true),
                _ => (
                    vec![leaper(c).ok_or_else(|| {
                        self.at -= 1;
                        self.err(&format!("'{c}' is not a piece letter"))
                    })?],
                    false,
                ),
            }
        };
        // A doubled letter makes a rider (NN, DD, AA, WW, FF).
        let mut rider = rider;
        if c != '(' && self.peek() == Some(c) {
            self.at += 1;
            rider = true;
        }
        let (mut min, mut max) = (1, if rider { None } else { Some(1) });
        if let Some(d) = self.number() {
            if d == 0 {
                return Err(self.err("a range must be at least 1"));
            }
            max = Some(d);
        } else if self.peek() == Some('{') {
            self.at += 1;
            min = self
                .number()
                .ok_or_else(|| self.err("expected {min,max}"))?;
            if self.peek() != Some(',') {
                return Err(self.err("expected ',' in {min,max}"));
            }
            self.at += 1;
            max = self.number();
            if self.peek() != Some('}') {
                return Err(self.err("expected '}'"));
            }
            self.at += 1;
            if min == 0 || max.is_some_and(|m| m < min) {
                return Err(self.err("range window must have 1 <= min <= max"));
            }
        }
        Ok((leaps.into_iter().flat_map(symmetric).collect(), min, max))
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        (self.at > start)
            .then(|| self.chars[start..self.at].iter().collect::<String>())
            .and_then(|s| s.parse().ok())
    }

    fn tuple(&mut self) -> Result<(i32, i32), BetzaError> {
        self.at += 1;
        let x = self.number().ok_or_else(|| self.err("expected (x,y)"))?;
        if self.peek() != Some(',') {
            return Err(self.err("expected ',' in (x,y)"));
        }
        self.at += 1;
        let y = self.number().ok_or_else(|| self.err("expected (x,y)"))?;
        if self.peek() != Some(')') {
            return Err(self.err("expected ')'"));
        }
        self.at += 1;
        if x > 4 || y > 4 || x + y == 0 {
            return Err(self.err("leaps run from (0,1) to (4,4)"));
        }
        Ok((x as i32, y as i32))
    }

    /// An XBetza-style atom: modifier groups (one per leg) and one body.
    fn atom(&mut self) -> Result<Atom, BetzaError> {
        let groups = self.modifier_groups()?;
        let (steps, min, max) = self.body()?;
        let mut legs = Vec::new();
        for (i, g) in groups.iter().enumerate() {
            let last = i + 1 == groups.len();
            legs.push(self.leg(g, &steps, min, max, i > 0, last)?);
        }
        Ok(Atom {
            legs,
            initial: groups.iter().any(|g| g.initial),
        })
    }

    /// A bracketed chain `[leg-leg-...]`, each leg with its own atom.
    fn chain(&mut self) -> Result<Atom, BetzaError> {
        self.at += 1;
        let mut legs = Vec::new();
        let mut initial = false;
        loop {
            let groups = self.modifier_groups()?;
            if groups.len() != 1 {
                return Err(self.err("use '-' between legs inside [...]"));
            }
            let (steps, min, max) = &self.body()?;
            initial |= groups[0].initial;
            let later = !legs.is_empty();
            match self.peek() {
                Some('-') => {
                    legs.push(self.leg(&groups[0], steps, *min, *max, later, false)?);
                    self.at += 1;
                }
                Some(']') => {
                    legs.push(self.leg(&groups[0], steps, *min, *max, later, true)?);
                    self.at += 1;
                    break;
                }
                _ => return Err(self.err("expected '-' or ']'")),
            }
        }
        Ok(Atom { legs, initial })
    }

    /// A repeating chain `[L1-L2-...-Lk]*` or `*n` (kirin extension): after `L1` the legs
    /// `L2..Lk` follow in turn again and again, up to `n` legs in all (`MAX_REPEAT_LEGS`
    /// without a number), and the move may end after any leg; every landing but the last
    /// must be empty. Written out as one atom per number of legs.
    fn repeat(&mut self, chain: Atom) -> Result<Vec<Atom>, BetzaError> {
        self.at += 1;
        let most = match self.number() {
            Some(0) => return Err(self.err("a repeating chain needs at least one leg")),
            Some(n) if n as usize > MAX_REPEAT_LEGS => {
                return Err(self.err(&format!(
                    "a repeating chain has at most {MAX_REPEAT_LEGS} legs"
                )));
            }
            Some(n) => n as usize,
            None => MAX_REPEAT_LEGS,
        };
        let legs = &chain.legs;
        if legs.len() < 2 || legs.iter().any(|l| l.is_rider() || l.lame) {
            return Err(self.err("a repeating chain needs two or more legs, all leaps"));
        }
        let (last, before) = legs.split_last().expect("two legs");
        if chain.initial || last.mode != Mode::Both || before.iter().any(|l| l.mode != Mode::Move) {
            return Err(self.err("the legs of a repeating chain take no 'm', 'c' or 'i'"));
        }
        let cycle = &legs[1..];
        Ok((1..=most)
            .map(|n| {
                let mut atom_legs: Vec<Leg> = std::iter::once(legs[0].clone())
                    .chain(cycle.iter().cycle().take(n - 1).cloned())
                    .collect();
                for (k, leg) in atom_legs.iter_mut().enumerate() {
                    leg.mode = if k + 1 == n { Mode::Both } else { Mode::Move };
                }
                Atom {
                    legs: atom_legs,
                    initial: false,
                }
            })
            .collect())
    }

    fn leg(
        &self,
        m: &Mods,
        steps: &[(i32, i32)],
        min: u32,
        max: Option<u32>,
        relative: bool,
        last: bool,
    ) -> Result<Leg, BetzaError> {
        let (mut min, max) = (min, max);
        if m.skip_first {
            if max == Some(1) {
                return Err(self.err("'j' needs a rider"));
            }
            min = min.max(2);
        }
        // Legs before the last stop on an empty square unless told otherwise.
        let mode = m.mode.unwrap_or(if last { Mode::Both } else { Mode::Move });
        if relative {
            let relative = relative_mask(&m.dirs).ok_or_else(|| self.err("bad direction"))?;
            Ok(Leg {
                mode,
                steps: steps.to_vec(),
                min,
                max,
                lame: m.lame,
                relative,
            })
        } else {
            let chosen = filter_directions(steps, &m.dirs);
            if chosen.is_empty() {
                return Err(self.err(&format!("directions '{}' select nothing", m.dirs)));
            }
            Ok(Leg {
                mode,
                steps: chosen,
                min,
                max,
                lame: m.lame,
                relative: 0xff,
            })
        }
    }
}

fn leaper(c: char) -> Option<(i32, i32)> {
    Some(match c {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// All eight (or four) symmetric images of a leap.
fn symmetric((x, y): (i32, i32)) -> Vec<(i32, i32)> {
    let mut v = Vec::new();
    for (a, b) in [(x, y), (y, x)] {
        for (sa, sb) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let s = (a * sa, b * sb);
            if !v.contains(&s) {
                v.push(s);
            }
        }
    }
    v
}

/// The absolute direction predicates of one modifier group.
fn direction_predicate(code: &str, (dx, dy): (i32, i32)) -> bool {
    let (ax, ay) = (dx.abs(), dy.abs());
    match code {
        "f" => dy > 0,
        "b" => dy < 0,
        "l" => dx < 0,
        "r" => dx > 0,
        "v" => ay > ax,
        "s" => ax > ay,
        "ff" => dy > 0 && ay > ax,
        "bb" => dy < 0 && ay > ax,
        "ll" => dx < 0 && ax > ay,
        "rr" => dx > 0 && ax > ay,
        "fs" => dy > 0 && ax > ay,
        "bs" => dy < 0 && ax > ay,
        "fl" => dy > 0 && dx < 0,
        "fr" => dy > 0 && dx > 0,
        "bl" => dy < 0 && dx < 0,
        "br" => dy < 0 && dx > 0,
        _ => false,
    }
}

/// Applies direction modifiers: a pair (such as `fl` on `F` or `ff` on `N`) names the
/// directions it selects when it selects any; otherwise its letters count one by one, so
/// `sfW` and `fsW` are the sideways and forward steps.
fn filter_directions(steps: &[(i32, i32)], dirs: &str) -> Vec<(i32, i32)> {
    if dirs.is_empty() {
        return steps.to_vec();
    }
    let chars: Vec<char> = dirs.chars().collect();
    let mut keep = vec![false; steps.len()];
    let mut i = 0;
    while i < chars.len() {
        if i + 1 < chars.len() {
            let pair: String = chars[i..i + 2].iter().collect();
            let hits: Vec<bool> = steps
                .iter()
                .map(|&s| direction_predicate(&pair, s))
                .collect();
            if hits.iter().any(|&h| h) {
                keep.iter_mut().zip(hits).for_each(|(k, h)| *k |= h);
                i += 2;
                continue;
            }
        }
        let single = chars[i].to_string();
        for (k, &s) in keep.iter_mut().zip(steps) {
            *k |= direction_predicate(&single, s);
        }
        i += 1;
    }
    steps
        .iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(&s, _)| s)
        .collect()
}

/// Turn classes for relative directions, in 45-degree steps counter-clockwise.
fn relative_mask(dirs: &str) -> Option<u8> {
    if dirs.is_empty() {
        return Some(0xff);
    }
    let chars: Vec<char> = dirs.chars().collect();
    let mut mask = 0u8;
    let mut i = 0;
    while i < chars.len() {
        let pair: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        let bits = match pair.as_str() {
            "fs" => Some(1 << 1 | 1 << 7),
            "bs" => Some(1 << 3 | 1 << 5),
            "fl" => Some(1 << 1),
            "fr" => Some(1 << 7),
            "bl" => Some(1 << 3),
            "br" => Some(1 << 5),
            _ => None,
        };
        if let Some(b) = bits {
            mask |= b;
            i += 2;
            continue;
        }
        mask |= match chars[i] {
            'f' => 1,
            'b' => 1 << 4,
            'l' => 1 << 2,
            'r' => 1 << 6,
            's' => 1 << 2 | 1 << 6,
            'v' => 1 | 1 << 4,
            _ => return None,
        };
        i += 1;
    }
    Some(mask)
}

/// The 45-degree class of a vector: the octant its angle falls in, counted
/// counter-clockwise from east (an octant includes its first edge). Orthogonal and
/// diagonal steps fall on the edges: east 0, north-east 1, north 2, ... The eight leaps
/// of an oblique leaper fall in the eight octants, one each, so that a turn of one class
/// takes a Knight leap to the next Knight leap round the circle.
pub fn angle_class((dx, dy): (i32, i32)) -> u32 {
    let (ax, ay) = (dx.abs(), dy.abs());
    match (dx.signum(), dy.signum()) {
        (1, 0) => 0,
        (0, 1) => 2,
        (-1, 0) => 4,
        (0, -1) => 6,
        (1, 1) => {
            if ay < ax {
                0
            } else {
                1
            }
        }
        (-1, 1) => {
            if ax < ay {
                2
            } else {
                3
            }
        }
        (-1, -1) => {
            if ay < ax {
                4
            } else {
                5
            }
        }
        _ => {
            if ax < ay {
                6
            } else {
                7
            }
        }
    }
}

/// The steps of a later leg allowed after a previous leg in direction `prev`.
pub fn continue_steps(leg: &Leg, prev: (i32, i32)) -> Vec<(i32, i32)> {
    leg.steps
        .iter()
        .copied()
        .filter(|&s| turn_allowed(leg, prev, s))
        .collect()
}

/// Whether a later leg may take the step `s` after a previous leg in direction `prev`
/// (`continue_steps` without collecting, for the table compiler's inner loops).
#[inline]
pub fn turn_allowed(leg: &Leg, prev: (i32, i32), s: (i32, i32)) -> bool {
    leg.relative >> ((angle_class(s) + 8 - angle_class(prev)) % 8) & 1 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Vec<(i32, i32)> {
        let mut v: Vec<_> = parse(text)
            .unwrap()
            .iter()
            .flat_map(|a| a.legs[0].steps.clone())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn shogi_generals() {
        // Gold: orthogonal steps plus forward diagonals.
        assert_eq!(steps("WfF").len(), 6);
        // Silver: diagonals plus straight forward.
        assert_eq!(
            steps("FfW"),
            vec![(-1, -1), (-1, 1), (0, 1), (1, -1), (1, 1)]
        );
        // Drunk Elephant: all but straight back.
        assert_eq!(steps("FsfW").len(), 7);
        assert!(!steps("FsfW").contains(&(0, -1)));
        // Shogi knight: the two forward jumps.
        assert_eq!(steps("ffN"), vec![(-1, 2), (1, 2)]);
        // Single diagonals.
        assert_eq!(steps("flF"), vec![(-1, 1)]);
        assert_eq!(steps("fsN"), vec![(-2, 1), (2, 1)]);
    }

    #[test]
    fn ranges_riders_and_modes() {
        let a = parse("R4").unwrap();
        assert_eq!(a[0].legs[0].max, Some(4));
        let a = parse("DD").unwrap();
        assert_eq!((a[0].legs[0].min, a[0].legs[0].max), (1, None));
        let a = parse("jB").unwrap();
        assert_eq!((a[0].legs[0].min, a[0].legs[0].max), (2, None));
        let a = parse("B{2,}").unwrap();
        assert_eq!(a[0].legs[0].min, 2);
        let a = parse("mfWcfF").unwrap();
        assert_eq!(a[0].legs[0].mode, Mode::Move);
        assert_eq!(a[1].legs[0].mode, Mode::Capture);
        let a = parse("ifmnD").unwrap();
        assert!(a[0].initial && a[0].legs[0].lame);
        assert_eq!(a[0].legs[0].steps, vec![(0, 2)]);
        assert_eq!(parse("(4,2)").unwrap()[0].legs[0].steps.len(), 8);
        assert_eq!(parse("(4,0)").unwrap()[0].legs[0].steps.len(), 4);
    }

    #[test]
    fn multi_leg_forms() {
        // The Chu Lion: leaps to distance 1 and 2, capture-and-continue, and the pass.
        let lion = parse("KNADcaKmabK").unwrap();
        assert_eq!(lion.len(), 6);
        let igui = &lion[4];
        assert_eq!(igui.legs.len(), 2);
        assert_eq!(igui.legs[0].mode, Mode::Capture);
        let pass = &lion[5];
        assert_eq!(continue_steps(&igui.legs[1], (1, 1)).len(), 8);
        assert_eq!(continue_steps(&pass.legs[1], (1, 0)), vec![(-1, 0)]);
        // The Giraffe: diagonal step, then 3+ orthogonal squares outward.
        let g = parse("[mF-fsR{3,}]").unwrap();
        let mut out = continue_steps(&g[0].legs[1], (1, 1));
        out.sort();
        assert_eq!(out, vec![(0, 1), (1, 0)]);
        assert_eq!(g[0].legs[1].min, 3);
    }

    #[test]
    fn angle_classes_put_each_knight_leap_in_its_own_octant() {
        let steps = [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ];
        for (class, &s) in steps.iter().enumerate() {
            assert_eq!(angle_class(s), class as u32, "{s:?}");
        }
        let knight = [
            (2, 1),
            (1, 2),
            (-1, 2),
            (-2, 1),
            (-2, -1),
            (-1, -2),
            (1, -2),
            (2, -1),
        ];
        for (class, &s) in knight.iter().enumerate() {
            assert_eq!(angle_class(s), class as u32, "{s:?}");
        }
        // A left turn of one class after a Knight leap is the next leap counter-clockwise.
        let atoms = parse("[N-flN]").unwrap();
        assert_eq!(continue_steps(&atoms[0].legs[1], (2, 1)), vec![(1, 2)]);
        assert_eq!(continue_steps(&atoms[0].legs[1], (2, -1)), vec![(2, 1)]);
    }

    #[test]
    fn a_repeating_chain_is_one_atom_per_number_of_legs() {
        let atoms = parse("[W-frF-flW]*4").unwrap();
        let shapes: Vec<Vec<(u32, Mode)>> = atoms
            .iter()
            .map(|a| a.legs.iter().map(|l| (l.relative as u32, l.mode)).collect())
            .collect();
        let (any, right, left) = (0xff, 1 << 7, 1 << 1);
        assert_eq!(
            shapes,
            vec![
                vec![(any, Mode::Both)],
                vec![(any, Mode::Move), (right, Mode::Both)],
                vec![(any, Mode::Move), (right, Mode::Move), (left, Mode::Both)],
                vec![
                    (any, Mode::Move),
                    (right, Mode::Move),
                    (left, Mode::Move),
                    (right, Mode::Both)
                ],
            ]
        );
        assert_eq!(parse("[N-flN]*").unwrap().len(), MAX_REPEAT_LEGS);
    }

    #[test]
    fn errors_name_the_place() {
        let e = parse("Rx").unwrap_err();
        assert_eq!(e.at, 1);
        assert!(parse("").is_err());
        assert!(parse("(5,1)").is_err());
        assert!(parse("pR").is_err());
        assert!(parse("[mF]").is_err());
        assert!(parse("R0").is_err());
        assert!(parse("B{3,2}").is_err());
        assert!(parse("bbW").is_ok());
        assert!(parse("jW").is_err());
    }
}
