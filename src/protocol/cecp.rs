//! What CECP needs besides the moves themselves: XBoard's rank numbering on boards of ten
//! ranks, the names under which kirin's variants are offered to XBoard (names XBoard's
//! own variant matching leaves alone), and, for the variants XBoard does not know, the
//! `setup` and `piece` commands that describe the board and the pieces to it.
//!
//! The facts about XBoard used here were read in XBoard 4.9.1's source: its variant names
//! and their matching (`StringToVariant`), its 66 piece slots per side with the default
//! promotion pairing (slot i and slot i + 11 for the first eleven), the piece-to-char
//! table of `setup`, the XBetza parser (direction letters before the mode letters
//! `m c d e t p g o y n j a`, in that order), and its Shogi promotion rules (slots Pawn to
//! Alfil promote; Pawn, Queen and Knight slots promote by force on the last ranks).

use crate::rules::betza::{XBetza, to_xbetza};
use crate::rules::fen::FenStyle;
use crate::rules::spec::{BareKing, PromotionStyle, Royalty, VariantSpec, Verdict};
use crate::rules::{Game, Position};
use thiserror::Error;

/// Square names on the wire. XBoard numbers the ranks of a board with exactly ten ranks
/// from 0 (`a0`..`a9`), every other board from 1; kirin always numbers them from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranks {
    zero_based: bool,
}

impl Ranks {
    pub fn for_height(height: usize) -> Ranks {
        Ranks {
            zero_based: height == 10,
        }
    }

    /// kirin's text (a move, legs with commas, a promotion suffix, a square) as XBoard
    /// writes it.
    pub fn to_wire(self, text: &str) -> String {
        self.shift(text, -1)
    }

    /// XBoard's text as kirin reads it.
    pub fn from_wire(self, text: &str) -> String {
        self.shift(text, 1)
    }

    /// Adds `by` to the number of every square name (a lowercase letter followed by
    /// digits) in `text`; everything else is copied.
    fn shift(self, text: &str, by: i64) -> String {
        if !self.zero_based {
            return text.to_string();
        }
        let chars: Vec<char> = text.chars().collect();
        let mut out = String::with_capacity(text.len());
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            out.push(c);
            i += 1;
            if c.is_ascii_lowercase() && i < chars.len() && chars[i].is_ascii_digit() {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let digits: String = chars[start..i].iter().collect();
                // A number too large for a square is copied as it is, to be refused by
                // whatever reads the move.
                match digits.parse::<i64>().ok().and_then(|n| n.checked_add(by)) {
                    Some(n) if n >= 0 => out += &n.to_string(),
                    _ => out += &digits,
                }
            }
        }
        out
    }
}

/// XBoard's variants whose name it finds anywhere inside a name (the ones before `shogi`
/// in its list).
const XBOARD_ANYWHERE: &[&str] = &[
    "normal",
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "shatranj",
    "wild29",
    "wild30",
    "wild31",
    "wild32",
    "wild33",
    "wild34",
    "wild35",
    "wild36",
];

/// XBoard's variants that match at the start of a name not followed by a letter.
const XBOARD_AT_START: &[&str] = &[
    "shogi",
    "chu",
    "courier",
    "gothic",
    "capablanca",
    "knightmate",
    "fairy",
    "cylinder",
    "falcon",
    "caparandom",
    "berolina",
    "janus",
    "super",
    "great",
    "twilight",
    "makruk",
    "seirawan",
    "grand",
    "spartan",
    "xiangqi",
    "asean",
    "lion",
    "elven",
    "unknown",
];

/// Names XBoard leaves out of its menu of engine-defined variants.
const XBOARD_IGNORED: &[&str] = &[
    "tenjiku", "dai", "dada", "maka", "tai", "kyoku", "checkers", "go", "reversi", "dark", "alien",
    "multi", "amazons",
];

/// True when XBoard would not read `name` as an engine-defined variant: it matches one of
/// XBoard's own variants, a wild number or Fischer random, or cannot stand in a
/// `feature variants` list at all.
pub fn xboard_claims(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let b = lower.as_bytes();
    if b.is_empty()
        || b[0].is_ascii_digit()
        || lower.contains([',', '"', '/', ' ', '\t'])
        || XBOARD_IGNORED.contains(&lower.as_str())
    {
        return true;
    }
    if XBOARD_ANYWHERE.iter().any(|v| lower.contains(v)) {
        return true;
    }
    if XBOARD_AT_START
        .iter()
        .any(|v| lower.starts_with(v) && !b.get(v.len()).is_some_and(|c| c.is_ascii_alphabetic()))
    {
        return true;
    }
    if (lower.contains("fischer") && lower.contains("random"))
        || lower.contains("frc")
        || lower.contains("960")
    {
        return true;
    }
    // "wild" or else the first "w", then a number: a wild type.
    let after = match lower.find("wild") {
        Some(i) => Some(i + 4),
        None => lower.find('w').map(|i| i + 1),
    };
    if let Some(i) = after {
        let rest = lower[i..].trim_start_matches([' ', '(', '/']);
        if rest.starts_with(|c: char| c.is_ascii_digit()) {
            return true;
        }
    }
    false
}

/// kirin variants XBoard knows itself, as (XBoard name, kirin name); kirin starts them
/// from XBoard's start position (the definition's `xboard` start, where it has one) and
/// sends no `setup` for them.
pub const XBOARD_OWN: &[(&str, &str)] =
    &[("normal", "chess"), ("courier", "courier"), ("chu", "chu")];

/// Whether XBoard can play a game on this board. XBoard 4.9 has at most 16 files and 17
/// ranks (a larger board is fatal), and on a board of 16 or more ranks it reads a move
/// from rank 16 as a drop and hangs: such games are not offered over CECP (UCI, the
/// command line and the web board serve them).
pub fn xboard_can_play(geometry: &crate::core::Geometry) -> bool {
    geometry.width <= 16 && geometry.height < 16
}

/// Whether XBoard can show a game's positions and moves: it has no stacked pieces (a
/// carrier picking a piece up looks like a capture to it, and a passenger's move off its
/// carrier cannot be written) and no prisoners. Such a game is left out of the variants
/// kirin offers XBoard; a CECP driver that asks for it by name still gets it, its turns
/// written as kirin's move words (docs/variants.md).
pub fn xboard_can_show(spec: &crate::rules::spec::VariantSpec) -> bool {
    !spec.prisoners && !spec.pieces.iter().any(|p| p.carrier)
}

/// The CECP name of every variant in `names` (kirin names) that can be offered to XBoard,
/// as (CECP name, kirin name), XBoard's own variants first. A variant whose name XBoard
/// would take for one of its own (any name starting `courier-`, say) is left out: the
/// built-in ones are named so that this never happens (`modern-courier`).
pub fn cecp_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<(String, String)> {
    let mut table: Vec<(String, String)> = Vec::new();
    for kirin in names {
        let cecp = if let Some((x, _)) = XBOARD_OWN.iter().find(|v| v.1 == kirin) {
            x.to_string()
        } else if !xboard_claims(kirin) {
            kirin.to_string()
        } else {
            continue;
        };
        if !table.iter().any(|(c, _)| *c == cecp) {
            table.push((cecp, kirin.to_string()));
        }
    }
    table.sort_by_key(|(c, _)| !XBOARD_OWN.iter().any(|v| v.0 == c));
    table
}

/// How a variant is described to XBoard: the `setup` line, one `piece` line per piece
/// type, and what XBoard cannot be told.
#[derive(Clone, Debug)]
pub struct Description {
    pub setup: String,
    pub pieces: Vec<String>,
    /// Moves (or rules) the `piece` commands leave out, for the user.
    pub gaps: Vec<String>,
}

/// Why a variant cannot be described to XBoard.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DescribeError {
    #[error("piece letter '{0}' has no XBoard form")]
    NoXboardLetter(String),
    #[error("promoted piece '{0}' has no promoted slot in XBoard")]
    NoPromotedSlot(String),
    #[error("more piece types than XBoard has slots")]
    TooManyPieces,
}

/// XBoard's piece slots per side; the last is the King.
const SLOTS: usize = 66;
const KING_SLOT: usize = 65;
/// Slot of XBoard's Pawn (promotes on the last rank, takes en passant).
const PAWN_SLOT: usize = 0;
/// Slot of XBoard's Lance, which XBoard treats as a Pawn outside Chu.
const LANCE_SLOT: usize = 18;

/// The parent variant XBoard takes its rules from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parent {
    /// Shogi promotion (`+`, optional in the far third, forced for the Pawn, Queen and
    /// Knight slots on the last ranks): slots 0..=6 promote into slots 11..=17.
    Shogi,
    Fairy,
}

/// A piece letter split into its parts: promoted (`+`), base letter, dress (`'` or `!`).
fn letter_parts(letter: &str) -> Option<(bool, char, Option<char>)> {
    let (promoted, rest) = match letter.strip_prefix('+') {
        Some(r) => (true, r),
        None => (false, letter),
    };
    let mut chars = rest.chars();
    let base = chars.next().filter(|c| c.is_ascii_lowercase())?;
    let dress = chars.next();
    if dress.is_some_and(|d| d != '\'' && d != '!') || chars.next().is_some() {
        return None;
    }
    Some((promoted, base, dress))
}

/// A slot's preferred place for a piece, by its moves, so that XBoard draws a fitting
/// image.
fn preferred_slot(betza: &str, parent: Parent, promotes: bool) -> Option<usize> {
    match parent {
        Parent::Shogi => match betza {
            "fW" if promotes => Some(0),
            "ffN" => Some(1),
            "B" => Some(2),
            "R" => Some(3),
            "fR" => Some(4),
            "FfW" => Some(5),
            "FsfW" => Some(6),
            "WfF" => Some(9),
            _ => None,
        },
        Parent::Fairy => match betza {
            "N" => Some(1),
            "B" => Some(2),
            "R" => Some(3),
            "Q" => Some(4),
            "F" => Some(5),
            "A" => Some(6),
            "BN" | "NB" => Some(7),
            "RN" | "NR" => Some(8),
            "W" => Some(9),
            "K" => Some(10),
            "NN" => Some(12),
            _ => None,
        },
    }
    .filter(|&s| parent != Parent::Shogi || promotes == (s <= 6))
}

/// The parent variant `describe` names for `spec` (its pieces' letters split by
/// `letter_parts`): Shogi when promotion is shogi-style (no chess-style promotion, one to
/// seven pieces with a `+` form, not on entry), Fairy otherwise.
fn parent_of(spec: &VariantSpec, parts: &[(bool, char, Option<char>)]) -> Parent {
    let pieces = &spec.pieces;
    let base_of = |i: usize| -> Option<usize> {
        let (promoted, base, dress) = parts[i];
        promoted.then(|| parts.iter().position(|q| *q == (false, base, dress)))?
    };
    let promotable = (0..pieces.len())
        .filter(|&i| (0..pieces.len()).any(|j| base_of(j) == Some(i)))
        .count();
    let chess_like = pieces.iter().any(|p| {
        p.promotes_to
            .iter()
            .any(|&t| !pieces[t].letter.starts_with('+'))
    });
    if spec.promotion != PromotionStyle::Entry && !chess_like && promotable > 0 && promotable <= 7 {
        Parent::Shogi
    } else {
        Parent::Fairy
    }
}

/// What XBoard (4.9.1, `Adjudicate` and `MateTest`) makes of a stalemate in `spec` when
/// it tests legality: a loss for the stalemated side in its Shogi (and so in every
/// engine-defined variant with parent `shogi`), a draw in its other variants, Chu and
/// Courier among them, and with parent `fairy`.
pub fn xboard_stalemate(spec: &VariantSpec) -> Verdict {
    if XBOARD_OWN.iter().any(|v| v.1 == spec.name) {
        return Verdict::Draw;
    }
    let parts: Option<Vec<_>> = spec
        .pieces
        .iter()
        .map(|p| letter_parts(&p.letter))
        .collect();
    match parts.map(|parts| parent_of(spec, &parts)) {
        Some(Parent::Shogi) => Verdict::Loss,
        _ => Verdict::Draw,
    }
}

/// `spec` with the results XBoard can verify when it tests legality, for a CECP session
/// that must claim only those (CECP option "Claim only mate and stalemate"):
/// - no bare-king rule: XBoard knows it only in Shatranj and judges a `1-0 {bare king}`
///   claim false (the claimer loses), so the game goes on to mate;
/// - stalemate as XBoard judges it (`xboard_stalemate`);
/// - check: XBoard forbids leaving the only King attacked (in Chu and Shogi it stops
///   looking for check while a Crown Prince lives, as kirin's check rule does), and sees
///   checkmate and stalemate where capture rules would see a forced loss of the King.
///
/// kirin's real rules stay in the variant's definition for UCI and the command line.
pub fn xboard_rules(spec: &VariantSpec) -> VariantSpec {
    let mut rules = spec.clone();
    if !xboard_can_show(spec) {
        // Not a game for XBoard (never offered to it): its own rules stand.
        return rules;
    }
    rules.bare_king = BareKing::Play;
    rules.stalemate = xboard_stalemate(spec);
    if spec.pieces.iter().any(|p| p.royal) {
        rules.royalty = Royalty::Check;
    }
    rules
}

/// Describes `game`, set up as `pos`, to XBoard: the piece-to-char table, the board size
/// and parent variant, the FEN (in XBoard's style, `FenStyle::Xboard`; holes as `*`), and
/// the pieces' moves in XBetza. The position was read by `rules::fen`, so its board fits
/// the board size (an over-long rank would crash XBoard) and holds only the game's pieces.
pub fn describe<const W: usize>(
    game: &Game<W>,
    pos: &Position<W>,
) -> Result<Description, DescribeError> {
    let spec = &game.spec;
    let pieces = &spec.pieces;
    let parts: Vec<(bool, char, Option<char>)> = pieces
        .iter()
        .map(|p| {
            letter_parts(&p.letter).ok_or_else(|| DescribeError::NoXboardLetter(p.letter.clone()))
        })
        .collect::<Result<_, _>>()?;
    let base_of = |i: usize| -> Option<usize> {
        let (promoted, base, dress) = parts[i];
        promoted.then(|| parts.iter().position(|q| *q == (false, base, dress)))?
    };
    // A piece that promotes shogi-style has a `+` form among the pieces.
    let plus_partner: Vec<bool> = (0..pieces.len())
        .map(|i| (0..pieces.len()).any(|j| base_of(j) == Some(i)))
        .collect();
    let parent = parent_of(spec, &parts);
    let mut gaps = Vec::new();

    let mut slot: Vec<Option<usize>> = vec![None; pieces.len()];
    // Set for a promoted piece in the `+` slot of its base piece.
    let mut plus_slot = vec![false; pieces.len()];
    let mut used = [false; SLOTS];
    // The King.
    if let Some(k) = (0..pieces.len()).find(|&i| pieces[i].royal && parts[i] == (false, 'k', None))
    {
        slot[k] = Some(KING_SLOT);
        used[KING_SLOT] = true;
    }
    // A pawn that promotes chess-style stands in XBoard's Pawn slot.
    if let Some(p) = (0..pieces.len()).find(|&i| {
        slot[i].is_none()
            && pieces[i].pawn
            && pieces[i]
                .promotes_to
                .iter()
                .any(|&t| !pieces[t].letter.starts_with('+'))
    }) {
        slot[p] = Some(PAWN_SLOT);
        used[PAWN_SLOT] = true;
    }
    // Pieces with a `+` form: slots 0..=6 (Shogi) or 0..=10, their partner 11 later.
    let promo_range = if parent == Parent::Shogi {
        0..=6
    } else {
        0..=10
    };
    for i in 0..pieces.len() {
        if !plus_partner[i] || slot[i].is_some() {
            continue;
        }
        let free = |s: usize| promo_range.contains(&s) && !used[s] && !used[s + 11];
        let s = preferred_slot(&pieces[i].betza, parent, true)
            .filter(|&s| free(s))
            .or_else(|| promo_range.clone().find(|&s| free(s)));
        match s {
            Some(s) => {
                slot[i] = Some(s);
                used[s] = true;
                used[s + 11] = true;
            }
            None => gaps.push(format!(
                "'{}' cannot promote in XBoard (too many promoting pieces)",
                pieces[i].letter
            )),
        }
    }
    // Promoted pieces: the partner slot of their base piece.
    for i in 0..pieces.len() {
        if let Some(b) = base_of(i)
            && let Some(s) = slot[b].filter(|&s| s <= 10 && used[s + 11])
            && !plus_slot
                .iter()
                .zip(&slot)
                .any(|(&p, &t)| p && t == Some(s + 11))
        {
            slot[i] = Some(s + 11);
            plus_slot[i] = true;
        }
    }
    // The rest: a fitting slot, else the first free one that carries no special rules.
    let pool: Vec<usize> = match parent {
        Parent::Shogi => [9, 10, 7, 8].into_iter().chain(22..KING_SLOT).collect(),
        Parent::Fairy => (1..=10)
            .chain((11..22).filter(|&s| s != LANCE_SLOT))
            .chain(22..KING_SLOT)
            .collect(),
    };
    for i in 0..pieces.len() {
        if slot[i].is_none() && parts[i].0 {
            return Err(DescribeError::NoPromotedSlot(pieces[i].letter.clone()));
        }
    }
    // First the pieces whose fitting slot is free, then the others.
    for fitting in [true, false] {
        for i in 0..pieces.len() {
            if slot[i].is_some() {
                continue;
            }
            let preferred = preferred_slot(&pieces[i].betza, parent, false)
                .filter(|&s| !used[s] && pool.contains(&s));
            let s = if fitting {
                match preferred {
                    Some(s) => s,
                    None => continue,
                }
            } else {
                pool.iter()
                    .copied()
                    .find(|&s| !used[s])
                    .ok_or(DescribeError::TooManyPieces)?
            };
            slot[i] = Some(s);
            used[s] = true;
        }
    }

    // The piece-to-char table: white slots, white King, black slots, black King.
    let highest = slot
        .iter()
        .flatten()
        .copied()
        .filter(|&s| s != KING_SLOT)
        .max()
        .unwrap_or(0)
        .max(4);
    let mut white = vec![".".to_string(); highest + 1];
    let mut white_king = ".".to_string();
    for (i, s) in slot.iter().enumerate() {
        let Some(s) = *s else { continue };
        let (_, base, dress) = parts[i];
        let text = if plus_slot[i] {
            "+".to_string()
        } else {
            let mut t = base.to_ascii_uppercase().to_string();
            t.extend(dress);
            t
        };
        if s == KING_SLOT {
            white_king = text;
        } else {
            white[s] = text;
        }
    }
    let black: Vec<String> = white.iter().map(|t| t.to_ascii_lowercase()).collect();
    let table = format!(
        "{}{}{}{}",
        white.concat(),
        white_king,
        black.concat(),
        white_king.to_ascii_lowercase()
    );

    let fen = pos.to_fen_styled(game, FenStyle::Xboard);
    let (w, h) = (spec.geometry.width, spec.geometry.height);
    let parent_name = match parent {
        Parent::Shogi => "shogi",
        Parent::Fairy => "fairy",
    };
    let hand = holdings_size(game, &slot, &white);
    let setup = format!("setup ({table}) {w}x{h}+{hand}_{parent_name} {fen}");

    let mut commands = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        if slot[i].is_none() {
            continue;
        }
        let (promoted, base, dress) = parts[i];
        let mut id = String::new();
        if promoted {
            id.push('+');
        }
        id.push(base.to_ascii_uppercase());
        id.extend(dress);
        let XBetza {
            text: mut betza,
            unwritten: missing,
        } = to_xbetza(&p.atoms);
        if p.royal && spec.castling {
            // XBetza's castling: the King's step count towards the rook.
            betza += &format!("O{}", spec.castling_king_steps);
        }
        if !missing.is_empty() {
            gaps.push(format!(
                "{} ({}): {} not expressible in XBetza",
                p.name,
                p.letter,
                missing.join(", ")
            ));
        }
        if p.initial_files.is_some() {
            gaps.push(format!(
                "{} ({}): its initial moves only from one file",
                p.name, p.letter
            ));
        }
        // Nothing expressible: XBoard keeps its own idea of the slot (legality testing
        // must be off for such a game; kirin's highlights still show the real moves).
        if !betza.is_empty() {
            commands.push(format!("piece {id}& {betza}"));
        }
    }
    Ok(Description {
        setup,
        pieces: commands,
        gaps,
    })
}

/// XBoard's holdings size for `game` (0 without drops): XBoard keeps a piece kind in
/// hand at the place it numbers it (`PieceToNumber`, counting the slots before the kind's
/// slot that hold a piece, `+` and empty slots not counted) and refuses a FEN whose
/// holdings reach past the size, so the size is one more than the highest place of a kind
/// a reserve can hold (every piece but a royal one, as the kind it becomes in hand).
fn holdings_size<const W: usize>(
    game: &Game<W>,
    slot: &[Option<usize>],
    white: &[String],
) -> usize {
    if !game.spec.drops {
        return 0;
    }
    let place = |s: usize| {
        white[..s.min(white.len())]
            .iter()
            .filter(|t| *t != "." && *t != "+")
            .count()
    };
    (0..game.spec.pieces.len())
        .filter(|&i| !game.spec.pieces[i].royal)
        .filter_map(|i| slot[game.reserves.hand_type[2 * i]])
        .filter(|&s| s != KING_SLOT)
        .map(|s| place(s) + 1)
        .max()
        .unwrap_or(0)
}

/// The `highlight` board for the moves of one piece: a FEN-like text, top rank first,
/// one colour letter per marked square (`Y` move, `R` capture, `M` promotion, `C` the
/// piece's own square when it may return to it), digits for unmarked squares.
pub fn highlight_board(width: usize, height: usize, marks: &[(usize, char)]) -> String {
    let mut rows = Vec::with_capacity(height);
    for rank in (0..height).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..width {
            let sq = rank * width + file;
            match marks.iter().find(|m| m.0 == sq) {
                Some(&(_, c)) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    rows.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::session::Session;
    use crate::variants;
    use crate::with_width;

    #[test]
    fn ten_rank_boards_count_from_zero_on_the_wire() {
        let ten = Ranks::for_height(10);
        assert_eq!(ten.to_wire("a1a10"), "a0a9");
        assert_eq!(ten.to_wire("f5f6,f6f7"), "f4f5,f5f6");
        assert_eq!(ten.to_wire("e9e10q"), "e8e9q");
        assert_eq!(ten.to_wire("d9d10+"), "d8d9+");
        assert_eq!(ten.to_wire("@@@@"), "@@@@");
        assert_eq!(ten.from_wire("a0a9"), "a1a10");
        assert_eq!(ten.from_wire("f4f5,f5f6"), "f5f6,f6f7");
        assert_eq!(ten.from_wire("e8e9r'"), "e9e10r'");
        assert_eq!(ten.from_wire("P@e3"), "P@e4");
        for h in [8, 9, 11, 12] {
            let r = Ranks::for_height(h);
            assert_eq!(r.to_wire("a1a10"), "a1a10");
            assert_eq!(r.from_wire("a1a10"), "a1a10");
        }
    }

    /// A rank number at the edge of 64 bits in an engine's move is copied, not
    /// overflowed (the engine-output fuzz target sends such moves).
    #[test]
    fn huge_rank_numbers_are_copied() {
        let ten = Ranks::for_height(10);
        assert_eq!(
            ten.from_wire("a9223372036854775807b0"),
            "a9223372036854775807b1"
        );
        assert_eq!(
            ten.to_wire("a99999999999999999999b1"),
            "a99999999999999999999b0"
        );
    }

    #[test]
    fn names_xboard_would_claim() {
        for claimed in [
            "normal",
            "courier",
            "courier-modern",
            "chu",
            "shogi",
            "my-normal-game",
            "super-chess",
            "ab960",
            "w5",
            "wild 7",
            "big,game",
            "losersx",
            "fairy",
        ] {
            assert!(xboard_claims(claimed), "{claimed}");
        }
        for free in [
            "sho",
            "duodecimal",
            "modern-courier",
            "tamerlane",
            "hiashatar",
            "chushogi",
            "superchess",
            "flee",
            "shofidegi",
            "wa",
        ] {
            assert!(!xboard_claims(free), "{free}");
        }
        let names: Vec<&str> = variants::builtin()
            .iter()
            .map(|v| v.name.as_str())
            .collect();
        let table = cecp_names(names.iter().copied());
        let cecp: Vec<&str> = table.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(&cecp[..3], &["normal", "courier", "chu"]);
        for c in &cecp[3..] {
            assert!(!xboard_claims(c), "{c}");
        }
        assert!(
            table
                .iter()
                .any(|(c, k)| c == "modern-courier" && k == "modern-courier")
        );
        assert_eq!(table.len(), names.len());
    }

    /// `describe` of `spec` set up as `fen`, which is read as the session reads it.
    fn describe_fen(spec: &VariantSpec, fen: &str) -> Result<Description, String> {
        let mut session = Session::new(spec).map_err(|e| e.to_string())?;
        with_width!(&mut session, s => s.set_position(Some(fen))).map_err(|e| e.to_string())?;
        with_width!(&session, s => describe(&s.game, &s.pos)).map_err(|e| e.to_string())
    }

    #[test]
    fn sho_is_described_as_hachu_does() {
        let spec = variants::find("sho").unwrap();
        let d = describe_fen(spec, &spec.start).unwrap();
        assert_eq!(
            d.setup,
            "setup (PNBRLSE..G.+++++++Kpnbrlse..g.+++++++k) 9x9+0_shogi lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w - - 0 1"
        );
        assert!(
            d.pieces.contains(&"piece +E& K".to_string()),
            "{:?}",
            d.pieces
        );
        assert!(d.pieces.contains(&"piece N& ffN".to_string()));
        assert_eq!(d.pieces.len(), spec.pieces.len());
        assert!(d.gaps.is_empty(), "{:?}", d.gaps);
    }

    #[test]
    fn fens_are_checked_before_xboard_sees_them() {
        let spec = variants::find("duodecimal").unwrap();
        let d = describe_fen(spec, &spec.start).unwrap();
        assert!(d.setup.contains(" 12x12+0_fairy "), "{}", d.setup);
        assert!(d.pieces.contains(&"piece P& fmWfcFifmnD".to_string()));
        // Over-long ranks (which crash XBoard), missing ranks, unknown letters: refused
        // by the FEN reader before anything is described.
        let long = spec.start.replacen("12/", "13/", 1);
        assert!(describe_fen(spec, &long).unwrap_err().contains("12 wide"));
        let short = spec.start.replacen("12/", "", 1);
        assert!(describe_fen(spec, &short).unwrap_err().contains("ranks"));
        let alien = spec.start.replacen("12/", "11z/", 1);
        assert!(describe_fen(spec, &alien).unwrap_err().contains("'z'"));
    }

    #[test]
    fn dressed_letters_holes_and_rights_reach_xboard() {
        // Tamerlane: 13x10 with a frame of holes, dressed letters, royal-swap rights.
        let spec = variants::find("tamerlane-full").unwrap();
        assert!(spec.start.contains(" w SCsc - "));
        let d = describe_fen(spec, &spec.start).unwrap();
        assert!(
            d.setup
                .contains(" 13x10+0_fairy *elcbwxwbcle*/1rntgskfgtnr*/"),
            "{}",
            d.setup
        );
        let table = &d.setup[7..d.setup.find(')').unwrap()];
        assert!(table.contains("K'") && table.contains("k'"), "{table}");
        assert!(table.contains("P!") && table.contains("p!"), "{table}");
        assert!(
            d.pieces.contains(&"piece T& yafF".to_string()),
            "{:?}",
            d.pieces
        );
        assert!(d.pieces.contains(&"piece P!& fmWfcF".to_string()));
        // Rights letters of a game without castling are not castling rights to XBoard.
        assert!(d.setup.ends_with(" w - - 0 1"), "{}", d.setup);
        // Letters XBoard cannot take.
        let mut odd = variants::find("duodecimal").unwrap().clone();
        let bishop = odd.pieces.iter().position(|p| p.letter == "b").unwrap();
        odd.pieces[bishop].letter = "b''".to_string();
        let fen = odd.start.replace('b', "b''").replace('B', "B''");
        odd.start = fen.clone();
        let e = describe_fen(&odd, &fen).unwrap_err();
        assert!(e.contains("b''"), "{e}");
    }

    #[test]
    fn a_castling_king_says_so() {
        let mut spec = variants::find("chess").unwrap().clone();
        spec.name = "castles".to_string();
        let d = describe_fen(&spec, &spec.start).unwrap();
        assert!(
            d.pieces.contains(&"piece K& KO2".to_string()),
            "{:?}",
            d.pieces
        );
        assert!(
            d.setup.starts_with("setup (PNBRQKpnbrqk) 8x8+0_fairy "),
            "{}",
            d.setup
        );
    }

    #[test]
    fn highlight_boards_run_top_rank_first() {
        assert_eq!(
            highlight_board(4, 3, &[(0, 'Y'), (5, 'R'), (11, 'M')]),
            "3M/1R2/Y3"
        );
    }
}
