//! Writing parsed moves back as text: kirin's own dialect (`Display` for `Atom`, so that an
//! error or a report can name a move) and XBoard's XBetza (`to_xbetza`, for the `piece`
//! commands of CECP). Both work from the parsed form, so that the parser in `betza.rs` is
//! the only reader of Betza text.

use super::{Atom, Leg, Mode, filter_directions, leaper, relative_mask, symmetric};
use std::fmt;

/// Direction tokens of a first leg, in the order the writer prefers them: the single
/// letters (sideways ones first, so that `sfW` comes out as the dialect's examples write
/// it), then the pairs.
const ABSOLUTE_TOKENS: &[&str] = &[
    "s", "l", "r", "v", "f", "b", "ff", "bb", "ll", "rr", "fs", "bs", "fl", "fr", "bl", "br",
];

/// Direction tokens of a later leg (turns relative to the leg before).
const RELATIVE_TOKENS: &[&str] = &[
    "s", "l", "r", "v", "f", "b", "fs", "bs", "fl", "fr", "bl", "br",
];

/// Most direction tokens the writer combines for one leg (enough for any set of steps that
/// the tokens can select at all).
const MAX_TOKENS: usize = 4;

/// A piece's moves in XBetza, and the moves XBetza cannot say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct XBetza {
    /// The XBetza text of every atom that has one.
    pub text: String,
    /// The atoms left out of `text`, in kirin's dialect, for telling the user.
    pub unwritten: Vec<String>,
}

/// Writes `atoms` in XBoard's XBetza: per leg the direction letters before the mode
/// letters (XBoard's order: `m c ... n`), legs joined by `a`, riders as `R B Q` or a
/// letter with `0`, a range limit as a number, and kirin's skip-the-first-square rider
/// (`jB`, `B{2,}`) as a step that continues as a slide (`yafF`).
///
/// What XBetza cannot say goes to `unwritten` whole: leaps without an XBetza letter
/// (`(4,1)`), range windows other than the above (`B{3,5}`, `R{3,}` as the Giraffe's
/// second leg), and multi-leg moves whose legs have different atoms or ranges (kirin's
/// chain form `[mF-fsR{3,}]`); one that XBetza's one-atom form can carry
/// (`[cfW-fW]`) is written in that form (`fcafW`).
pub fn to_xbetza(atoms: &[Atom]) -> XBetza {
    let mut out = XBetza::default();
    for atom in atoms {
        match atom_xbetza(atom) {
            Some(text) => out.text += &text,
            None => out.unwritten.push(atom.to_string()),
        }
    }
    out
}

/// One atom in XBetza, if it has a form there.
fn atom_xbetza(atom: &Atom) -> Option<String> {
    let last = atom.legs.last()?;
    // One body for every leg: later legs carry the atom's full set of vectors.
    let shapes = shapes_of(&last.steps);
    let first = &atom.legs[0];
    // kirin turns an oblique later leg by octants (`angle_class`); XBetza has no such
    // reading, so those moves stay unwritten rather than be misread.
    let oblique = |l: &Leg| {
        l.steps
            .iter()
            .any(|&(x, y)| x != 0 && y != 0 && x.abs() != y.abs())
    };
    if atom.legs.len() > 1 && atom.legs[1..].iter().any(oblique) {
        return None;
    }
    if atom.legs.len() > 1
        && (atom.legs[1..].iter().any(|l| shapes_of(&l.steps) != shapes)
            || atom
                .legs
                .iter()
                .any(|l| (l.min, l.max) != (first.min, first.max))
            || !shapes_of(&first.steps).iter().all(|s| shapes.contains(s)))
    {
        return None;
    }
    let letter = body_letter(&shapes)?;
    let full = full_steps(&shapes);
    let initial = if atom.initial { "i" } else { "" };
    let first_dirs = absolute_dirs(&full, &first.steps)?;
    match (first.min, first.max) {
        (1, _) => {
            let mut out = initial.to_string();
            for (k, leg) in atom.legs.iter().enumerate() {
                if k > 0 {
                    out.push('a');
                    out += &relative_dirs(leg.relative)?;
                } else {
                    out += &first_dirs;
                }
                out += &mode_letters(leg, k + 1 == atom.legs.len());
            }
            Some(out + &xbetza_body(letter, first.max))
        }
        // A slide that skips its first square: a step to an empty square, then on as a
        // slider in the same direction (XBetza's `y` turns the leaper into a slider).
        (2, None) if atom.legs.len() == 1 => {
            let step = match letter {
                'W' | 'F' | 'K' => letter,
                _ => return None,
            };
            let modes = mode_letters(first, true);
            Some(format!("{initial}{first_dirs}yaf{modes}{step}"))
        }
        _ => None,
    }
}

/// The body of an XBetza atom: letter, rider form, range limit.
fn xbetza_body(letter: char, max: Option<u32>) -> String {
    match max {
        Some(1) => letter.to_string(),
        None => slider_letter(letter).map_or(format!("{letter}0"), String::from),
        Some(m) => format!("{}{m}", slider_letter(letter).unwrap_or(letter)),
    }
}

/// The letter of the slider along a leaper's steps, where Betza has one.
fn slider_letter(letter: char) -> Option<char> {
    match letter {
        'W' => Some('R'),
        'F' => Some('B'),
        'K' => Some('Q'),
        _ => None,
    }
}

/// The mode letters of one leg: `m`, `c` or both, and `n` for a lame leap. A leg before
/// the last always says its mode (XBoard's default there is `m`, kirin's too, but the
/// explicit letter is what HaChu and the Lion's `mabK` write); the last leg's default is
/// either.
fn mode_letters(leg: &Leg, last: bool) -> String {
    let mut out = match (leg.mode, last) {
        (Mode::Move, _) => "m",
        (Mode::Capture, _) => "c",
        (Mode::Both, false) => "mc",
        (Mode::Both, true) => "",
    }
    .to_string();
    if leg.lame {
        out.push('n');
    }
    out
}

/// The distinct leap shapes (short side, long side) among `steps`, sorted.
fn shapes_of(steps: &[(i32, i32)]) -> Vec<(i32, i32)> {
    let mut shapes: Vec<(i32, i32)> = steps
        .iter()
        .map(|&(x, y)| (x.abs().min(y.abs()), x.abs().max(y.abs())))
        .collect();
    shapes.sort();
    shapes.dedup();
    shapes
}

/// Every vector of the given shapes, as the parser makes them for an atom.
fn full_steps(shapes: &[(i32, i32)]) -> Vec<(i32, i32)> {
    shapes.iter().flat_map(|&s| symmetric(s)).collect()
}

/// The Betza letter of an atom with these shapes: a leaper letter, or `K` for the Wazir
/// and Ferz steps together.
fn body_letter(shapes: &[(i32, i32)]) -> Option<char> {
    match shapes {
        [(0, 1), (1, 1)] => Some('K'),
        [shape] => "WFDNAHCZG"
            .chars()
            .find(|&c| leaper(c).is_some_and(|(x, y)| (y, x) == *shape)),
        _ => None,
    }
}

/// The shortest direction text that selects exactly `chosen` among `full` (the parser's
/// `filter_directions`), each token selecting some of `chosen` and nothing else; `""`
/// for all of them. `None` when no combination of tokens does (one oblique leap alone).
fn absolute_dirs(full: &[(i32, i32)], chosen: &[(i32, i32)]) -> Option<String> {
    let target = sorted(chosen.to_vec());
    if sorted(full.to_vec()) == target {
        return Some(String::new());
    }
    let fits = |token: &str| {
        let hits: Vec<_> = full
            .iter()
            .copied()
            .filter(|&s| super::direction_predicate(token, s))
            .collect();
        !hits.is_empty() && hits.iter().all(|h| target.contains(h))
    };
    let tokens: Vec<&str> = ABSOLUTE_TOKENS
        .iter()
        .copied()
        .filter(|t| fits(t))
        .collect();
    shortest_text(&tokens, |text| {
        sorted(filter_directions(full, text)) == target
    })
}

/// The shortest turn text whose classes make `mask` (the parser's `relative_mask`).
fn relative_dirs(mask: u8) -> Option<String> {
    if mask == 0xff {
        return Some(String::new());
    }
    let tokens: Vec<&str> = RELATIVE_TOKENS
        .iter()
        .copied()
        .filter(|t| relative_mask(t).is_some_and(|m| m & !mask == 0))
        .collect();
    shortest_text(&tokens, |text| relative_mask(text) == Some(mask))
}

/// The first concatenation of at most `MAX_TOKENS` distinct tokens, fewest first and in
/// the tokens' order, that `reads_back` accepts (a concatenation may read as other
/// tokens than it was made of, so every candidate is read back).
fn shortest_text(tokens: &[&str], reads_back: impl Fn(&str) -> bool) -> Option<String> {
    fn search(
        tokens: &[&str],
        from: usize,
        left: usize,
        text: &mut String,
        reads_back: &dyn Fn(&str) -> bool,
    ) -> bool {
        if left == 0 {
            return reads_back(text);
        }
        for i in from..tokens.len() {
            let len = text.len();
            text.push_str(tokens[i]);
            if search(tokens, i + 1, left - 1, text, reads_back) {
                return true;
            }
            text.truncate(len);
        }
        false
    }
    (1..=MAX_TOKENS.min(tokens.len())).find_map(|n| {
        let mut text = String::new();
        search(tokens, 0, n, &mut text, &reads_back).then_some(text)
    })
}

fn sorted(mut v: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    v.sort();
    v
}

/// kirin's dialect: one atom in XBetza's form when it has one leg, as a chain `[...-...]`
/// otherwise (the chain form says every multi-leg move, whatever its legs' atoms). Atoms
/// made by the parser read back as themselves; a set of directions no direction text
/// selects (one oblique leap alone, never made by the parser) is written as all of them.
impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `i` belongs to the first leg's modifiers, inside the brackets of a chain.
        if let [leg] = self.legs.as_slice() {
            if self.initial {
                f.write_str("i")?;
            }
            return write_leg(f, leg, true, true);
        }
        f.write_str(if self.initial { "[i" } else { "[" })?;
        for (k, leg) in self.legs.iter().enumerate() {
            if k > 0 {
                f.write_str("-")?;
            }
            write_leg(f, leg, k == 0, k + 1 == self.legs.len())?;
        }
        f.write_str("]")
    }
}

/// One leg in kirin's dialect: directions, modes, body and range.
fn write_leg(f: &mut fmt::Formatter<'_>, leg: &Leg, first: bool, last: bool) -> fmt::Result {
    let shapes = shapes_of(&leg.steps);
    let dirs = if first {
        absolute_dirs(&full_steps(&shapes), &leg.steps)
    } else {
        relative_dirs(leg.relative)
    };
    f.write_str(&dirs.unwrap_or_default())?;
    f.write_str(&mode_letters(leg, last))?;
    let slides = leg.max != Some(1);
    let mut bodies = shapes.iter().peekable();
    // `K` and `Q` are one atom of two shapes; anything else is one shape.
    if body_letter(&shapes) == Some('K') {
        bodies.next();
        bodies.next();
        f.write_str(if slides { "Q" } else { "K" })?;
    }
    for &(x, y) in bodies {
        match body_letter(&[(x, y)]) {
            Some(c) if slides => write!(
                f,
                "{}",
                slider_letter(c).map_or(format!("{c}{c}"), String::from)
            )?,
            Some(c) => write!(f, "{c}")?,
            None => write!(f, "({y},{x})")?,
        }
    }
    match (leg.min, leg.max) {
        (1, Some(1)) | (1, None) if body_letter(&shapes).is_some() => Ok(()),
        (1, Some(1)) => Ok(()),
        (1, Some(m)) => write!(f, "{m}"),
        (min, Some(max)) => write!(f, "{{{min},{max}}}"),
        (min, None) => write!(f, "{{{min},}}"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn xb(text: &str) -> XBetza {
        to_xbetza(&parse(text).unwrap())
    }

    #[test]
    fn leapers_riders_and_ranges() {
        assert_eq!(xb("N").text, "N");
        assert_eq!(xb("ffN").text, "ffN");
        assert_eq!(xb("(3,1)").text, "C");
        assert_eq!(xb("WW").text, "R");
        assert_eq!(xb("NN").text, "N0");
        assert_eq!(xb("R4").text, "R4");
        assert_eq!(xb("B{1,3}").text, "B3");
        assert_eq!(xb("FsfW").text, "FsfW");
        assert_eq!(xb("BsbRfWfD").text, "BsbRfWfD");
        assert_eq!(xb("vRsW").text, "vRsW");
    }

    #[test]
    fn pawns_say_direction_before_mode() {
        assert_eq!(xb("mfWcfF").text, "fmWfcF");
        assert_eq!(xb("mfWcfFifmnD").text, "fmWfcFifmnD");
    }

    #[test]
    fn legs_and_skipping_sliders() {
        assert_eq!(xb("KNADcaKmabK").text, "KNADcaKmabK");
        assert_eq!(xb("mcamcsafW").text, "mcasmcafW");
        assert_eq!(xb("[cfW-fW]").text, "fcafW");
        assert_eq!(xb("jB").text, "yafF");
        assert_eq!(xb("B{2,}").text, "yafF");
        assert_eq!(xb("jBR").text, "yafFR");
    }

    #[test]
    fn what_xbetza_cannot_say_is_kept_apart() {
        let x = xb("K(4,1)B{3,5}");
        assert_eq!(x.text, "K");
        assert_eq!(x.unwritten, vec!["(4,1)", "B{3,5}"]);
        let x = xb("R[mF-fsR{3,}]");
        assert_eq!(x.text, "R");
        assert_eq!(x.unwritten, vec!["[mF-fsR{3,}]"]);
    }

    #[test]
    fn the_dialect_reads_back_as_itself() {
        for text in [
            "K",
            "ffN",
            "mfWcfFifmnD",
            "KNADcaKmabK",
            "[mF-fsR{3,}]",
            "BsbRfWfD[cfW-fW][cfW-bW][mfW-bW]",
            "RbBfFfA[cfF-fF][cfF-bF][mfF-bF]",
            "mcamcsafW",
            "(4,2)NN(4,1)3B{2,5}jR",
            "flbrF",
            "[imW-fR]",
        ] {
            let atoms = parse(text).unwrap();
            let written: String = atoms.iter().map(Atom::to_string).collect();
            assert_eq!(parse(&written).unwrap(), atoms, "{text} -> {written}");
        }
    }
}
