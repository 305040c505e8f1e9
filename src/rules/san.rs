//! Standard Algebraic Notation (SAN) for every game, as PGN uses it.
//!
//! Written (`Game::san`), for a turn of one action of a single-leg kind:
//! - a piece's letter in upper case (`N`, `+S` for a promoted piece `+s`, `K'` for a
//!   dressed letter), none for the piece whose letter is `p`;
//! - the least disambiguation among the legal moves of the same piece type to the same
//!   square: the file, else the rank, else both (`Nbd7`, `R1e2`, `Qh4e1`); a capture by
//!   the letterless piece always names its file (`exd5`);
//! - `x` for a capture (en passant included), the destination (`e4`, `l10`);
//! - a promotion as `=Q` (the new piece's letter), or as a bare `+` when the new piece is
//!   a promoted one (`+x`, shogi style, as kirin's coordinate text and cutechess's Shogi
//!   write it); a move that could promote there but does not ends in `=` (`Sd7=`, as
//!   kirin's coordinate text accepts it);
//! - castling as `O-O` (towards the higher files) or `O-O-O`; drops as `P@e4`;
//! - then `#` when the move checkmates (the game's own outcome says so) or `+` when it
//!   gives check, in games with the check rule. A shogi promotion that checks is `d7++`.
//!
//! Every other turn (two-leg and multi-leg moves, passes, rule-defined moves, turns of
//! several actions), and any move whose SAN would not read back as that move, is written
//! in kirin's coordinate text (`rules::notation::wire_turn`), which `Game::parse_san`
//! reads as well.
//!
//! Read (`Game::parse_san`): trailing `!`, `?`, `e.p.`, `+` and `#` are annotations;
//! castling as `O-O`, `0-0` or `o-o`; promotions as `=Q`, `Q`, `(Q)`, `/Q` or, for a
//! promoted piece, `+`; `x`, `:` or `-` between the squares (`e2-e4`, `Ng1xf3`), which
//! need not say truly whether the move captures; a pawn may be written `Pe4`; drops as
//! `P@e4`, `p@e4` or `P*e4`; a promotion left unsaid where the move must promote
//! (`a8` for `a8=F`) when that names one move; coordinate text (`e2e4`, `f5f6,f6f7`,
//! `d8d8;e7e6`), tried first when the text looks like coordinates and last otherwise.
//! A trailing `+` after a move that can promote to a promoted piece is read as that
//! promotion first (`d7+` is the promotion; `d7=+` the check without it). Exactly one
//! legal move must match, else the error names the candidates.
//!
//! Compatibility with cutechess-cli (Courier chess): cutechess writes Courier's pieces
//! with the letters kirin uses (K, F fers, M man, W schleich, B courier, E alfil, N, R,
//! P), promotion to the Fers as `=F`, no castling, `+`/`#` after checks and mates, and
//! the same least disambiguation; its SAN is kirin's SAN.

use crate::core::{Move, MoveKind, type_of_piece};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::notation::wire_turn;
use crate::rules::position::Position;
use crate::rules::spec::{RepetitionRule, Verdict};
use thiserror::Error;

/// The longest move text `parse_san` reads (a bound on untrusted input).
pub const MAX_SAN_TEXT: usize = 256;

/// Why a text names no single legal move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SanError {
    #[error("empty move")]
    Empty,
    /// Longer than `MAX_SAN_TEXT`; the text is cut short.
    #[error("'{text}...' is too long for a move ({len} bytes, at most {MAX_SAN_TEXT})")]
    TooLong { text: String, len: usize },
    /// Neither SAN nor coordinate text.
    #[error("'{text}' is not a move: {why}")]
    Malformed { text: String, why: String },
    /// Well formed, but no legal move here matches it.
    #[error("'{text}' is not a legal move here")]
    NoSuchMove { text: String },
    /// Several legal moves match it (listed in coordinate text).
    #[error("'{text}' is ambiguous here: it could be {}", candidates.join(" or "))]
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
    /// A legal move that the game's repetition rule forbids here.
    #[error("'{text}' would repeat an earlier position, which the rules forbid")]
    Repeats { text: String },
}

/// What a SAN text says about a promotion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Promo {
    /// Nothing: a move that does not promote, else one that must.
    Unsaid,
    /// `=`: the move does not promote.
    Declined,
    /// `+`: the move promotes to a promoted piece (`+x`).
    Promoted,
    /// `=Q`: the move promotes to this piece type.
    To(usize),
}

/// A SAN text, read.
#[derive(Clone, Copy, Debug)]
enum Pattern {
    Castle {
        king_side: bool,
    },
    Drop {
        piece: usize,
        to: usize,
    },
    Step {
        piece: usize,
        from_file: Option<usize>,
        from_rank: Option<usize>,
        to: usize,
        promo: Promo,
    },
}

/// A part of the squares of a SAN text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    File(usize),
    /// A rank counted from 0.
    Rank(usize),
    Square(usize, usize),
    Separator,
}

/// Kinds of move written in SAN as a piece going from one square to another.
fn is_step(kind: MoveKind) -> bool {
    matches!(
        kind,
        MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant
    )
}

/// The piece type `m` promotes to (`Move::promotes_to` holds a piece index).
fn promoted_type(m: Move) -> Option<usize> {
    m.promotes_to().map(type_of_piece)
}

/// Whether `text` looks like kirin's coordinate text rather than SAN: two squares in a
/// row at its start (`e2e4`), legs or actions (`,` `;`), or the pass `@@@@`.
fn looks_like_coordinates(text: &str) -> bool {
    if text.contains([',', ';']) || text.starts_with("@@@@") {
        return true;
    }
    let b = text.as_bytes();
    let square_at = |i: usize| -> Option<usize> {
        b.get(i).filter(|c| c.is_ascii_lowercase())?;
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        (digits > 0).then_some(i + 1 + digits)
    };
    square_at(0).and_then(square_at).is_some()
}

/// `text` without its trailing annotations (`!`, `?`, `e.p.`), then split into the
/// move and its trailing run of `+` and `#`.
fn split_marks(text: &str) -> (&str, &str) {
    let mut s = text.trim();
    loop {
        if let Some(rest) = s.strip_suffix("e.p.") {
            s = rest.trim_end();
        } else if let Some(rest) = s.strip_suffix(['!', '?']) {
            s = rest.trim_end();
        } else {
            break;
        }
    }
    let core = s.trim_end_matches(['+', '#']);
    (core, &s[core.len()..])
}

/// The readings of a text to try in turn: with a trailing run of marks that starts with
/// `+`, first that `+` as a promotion (the rest being check marks), then all of them
/// as check marks.
fn readings(text: &str) -> Vec<String> {
    let (core, marks) = split_marks(text);
    let mut out = Vec::with_capacity(2);
    if marks.starts_with('+') {
        out.push(format!("{core}+"));
    }
    out.push(core.to_string());
    out
}

impl<const W: usize> Game<W> {
    /// The turn in SAN where SAN can say it, else kirin's own text of the turn (the
    /// `wire_turn` form, e.g. `f5f6,f6f7`). `pos` is left as it was.
    pub fn san(&self, pos: &mut Position<W>, turn: &[Move]) -> String {
        if let [m] = turn {
            let mut list = MoveList::new();
            self.game_moves(pos, &mut list);
            if let Some(s) = self.san_in(pos, *m, &list) {
                return s;
            }
        }
        wire_turn(self, turn, None)
    }

    /// Reads a move in SAN (or in kirin's coordinate notation, via `parse_turn`) in
    /// `pos`, which is left as it was; returns the turn's actions.
    pub fn parse_san(&self, pos: &mut Position<W>, text: &str) -> Result<Vec<Move>, SanError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SanError::Empty);
        }
        if text.len() > MAX_SAN_TEXT {
            let cut = (0..=40)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            return Err(SanError::TooLong {
                text: text[..cut].to_string(),
                len: text.len(),
            });
        }
        let mut list = MoveList::new();
        self.game_moves(pos, &mut list);
        let err = match self.parse_in(pos, text, &list) {
            Ok(turn) => return Ok(turn),
            Err(e) => e,
        };
        // A legal move that only the repetition rule forbids: say so.
        if matches!(
            err,
            SanError::NoSuchMove { .. } | SanError::Malformed { .. }
        ) && self.spec.repetition_rule != RepetitionRule::Draw
        {
            self.legal_moves(pos, &mut list);
            if self.parse_in(pos, text, &list).is_ok() {
                return Err(SanError::Repeats {
                    text: text.to_string(),
                });
            }
        }
        Err(err)
    }

    /// `parse_san` against `list`, the moves allowed in `pos`.
    fn parse_in(
        &self,
        pos: &mut Position<W>,
        text: &str,
        list: &MoveList,
    ) -> Result<Vec<Move>, SanError> {
        let coordinates_first = looks_like_coordinates(text);
        if coordinates_first && let Some(turn) = self.coordinate_turn(pos, text, list) {
            return Ok(turn);
        }
        match self.san_move(pos, text, list) {
            Ok(m) => Ok(self.completed_turn(pos, m)),
            Err(e) => {
                if !coordinates_first && let Some(turn) = self.coordinate_turn(pos, text, list) {
                    return Ok(turn);
                }
                Err(e)
            }
        }
    }

    /// The turn that starts with `m`: `m`, and where the turn could go on but the side
    /// is only settling it, the end with nothing more (the action written as nothing),
    /// as `parse_turn` reads a turn's text that stops there.
    fn completed_turn(&self, pos: &Position<W>, m: Move) -> Vec<Move> {
        let mut turn = vec![m];
        if !self.multi_action {
            return turn;
        }
        let mut p = pos.clone();
        p.make(self, m);
        if p.side == pos.side && self.settling(&p) {
            let mut list = MoveList::new();
            self.legal_moves(&mut p, &mut list);
            if let Some(&end) = list.iter().find(|&&e| self.move_text(e).is_empty()) {
                turn.push(end);
            }
        }
        turn
    }

    /// The turn `text` names in coordinate text (with or without trailing annotations),
    /// if every action of it is allowed (`list` holds the first action's choices).
    fn coordinate_turn(
        &self,
        pos: &mut Position<W>,
        text: &str,
        list: &MoveList,
    ) -> Option<Vec<Move>> {
        let mut tries = vec![text.to_string()];
        for r in readings(text) {
            if !tries.contains(&r) && !r.is_empty() {
                tries.push(r);
            }
        }
        for t in tries {
            let Ok(turn) = self.parse_turn(pos, &t) else {
                continue;
            };
            if self.turn_allowed(pos, &turn, list) {
                return Some(turn);
            }
        }
        None
    }

    /// Whether each action of `turn` is among the moves the game allows at its point.
    fn turn_allowed(&self, pos: &Position<W>, turn: &[Move], list: &MoveList) -> bool {
        let Some((&first, rest)) = turn.split_first() else {
            return false;
        };
        if !list.contains(&first) {
            return false;
        }
        if rest.is_empty() {
            return true;
        }
        let mut p = pos.clone();
        p.make(self, first);
        self.is_legal_turn(&p, rest)
    }

    /// The one move of `list` that the SAN `text` names.
    fn san_move(&self, pos: &Position<W>, text: &str, list: &MoveList) -> Result<Move, SanError> {
        let mut err = SanError::Empty;
        for body in readings(text) {
            match self.read_pattern(&body) {
                Err(why) => {
                    err = SanError::Malformed {
                        text: text.to_string(),
                        why,
                    }
                }
                Ok(pattern) => {
                    let found = self.matching(pos, &pattern, list);
                    match found.as_slice() {
                        [m] => return Ok(*m),
                        [] => {
                            err = SanError::NoSuchMove {
                                text: text.to_string(),
                            }
                        }
                        _ => {
                            let mut candidates: Vec<String> =
                                found.iter().map(|&m| self.move_text(m)).collect();
                            candidates.sort();
                            candidates.dedup();
                            return Err(SanError::Ambiguous {
                                text: text.to_string(),
                                candidates,
                            });
                        }
                    }
                }
            }
        }
        Err(err)
    }

    /// The piece type whose letter is `p`, which SAN writes without a letter.
    fn letterless_type(&self) -> Option<usize> {
        self.spec.pieces.iter().position(|p| p.letter == "p")
    }

    /// The piece symbol at the start of `text`, in upper case (`N`, `+S`, `K'`): its
    /// type and length. `Ok(None)` when `text` starts with no upper-case letter.
    fn leading_piece(&self, text: &str) -> Result<Option<(usize, usize)>, String> {
        let b = text.as_bytes();
        let upper_at = |i: usize| b.get(i).is_some_and(|c| c.is_ascii_uppercase());
        let lookup = |len: usize| self.spec.piece_index(&text[..len]).map(|t| (t, len));
        if b.first() == Some(&b'+') && upper_at(1) {
            return lookup(2)
                .map(Some)
                .ok_or_else(|| format!("this game has no piece '{}'", &text[..2]));
        }
        if !upper_at(0) {
            return Ok(None);
        }
        if matches!(b.get(1), Some(b'\'' | b'!'))
            && let Some(found) = lookup(2)
        {
            return Ok(Some(found));
        }
        lookup(1)
            .map(Some)
            .ok_or_else(|| format!("this game has no piece '{}'", &text[..1]))
    }

    /// The square `text` names exactly.
    fn read_square(&self, text: &str) -> Result<usize, String> {
        self.geo.parse_square(text).map_err(|e| e.0)
    }

    /// Reads one body of a SAN text (annotations and check marks taken off).
    fn read_pattern(&self, body: &str) -> Result<Pattern, String> {
        if body.is_empty() {
            return Err("nothing left once its marks are taken off".into());
        }
        if !body.is_ascii() {
            return Err("SAN is written in ASCII".into());
        }
        match body {
            "O-O" | "0-0" | "o-o" => return Ok(Pattern::Castle { king_side: true }),
            "O-O-O" | "0-0-0" | "o-o-o" => return Ok(Pattern::Castle { king_side: false }),
            _ => {}
        }
        if let Some(at) = body.find(['@', '*']) {
            let (symbol, square) = (&body[..at], &body[at + 1..]);
            let piece = if symbol.is_empty() {
                self.letterless_type()
                    .ok_or("a drop must name its piece before '@'")?
            } else {
                self.spec
                    .piece_index(symbol)
                    .ok_or_else(|| format!("this game has no piece '{symbol}' to drop"))?
            };
            let to = self.read_square(square)?;
            return Ok(Pattern::Drop { piece, to });
        }
        let (piece, rest) = match self.leading_piece(body)? {
            Some((t, len)) => (t, &body[len..]),
            None => (
                self.letterless_type()
                    .ok_or("a move must start with its piece's letter in this game")?,
                body,
            ),
        };
        let (parts, remainder) = self.read_parts(rest)?;
        let mut parts = parts.as_slice();
        let (to_file, to_rank) = match parts.split_last() {
            Some((Part::Square(f, r), before)) => {
                parts = before;
                (*f, *r)
            }
            _ => return Err("no destination square".into()),
        };
        if let Some((Part::Separator, before)) = parts.split_last() {
            parts = before;
        }
        let (from_file, from_rank) = match parts {
            [] => (None, None),
            [Part::File(f)] => (Some(*f), None),
            [Part::Rank(r)] => (None, Some(*r)),
            [Part::Square(f, r)] => (Some(*f), Some(*r)),
            _ => return Err("cannot tell where the move starts and ends".into()),
        };
        let to = self
            .geo
            .square(to_file as i32, to_rank as i32)
            .ok_or("the destination is not a square of the board")?;
        let promo = self.read_promotion(remainder)?;
        Ok(Pattern::Step {
            piece,
            from_file,
            from_rank,
            to,
            promo,
        })
    }

    /// The files, ranks, squares and separators at the start of `text`, and what
    /// follows them.
    fn read_parts<'t>(&self, text: &'t str) -> Result<(Vec<Part>, &'t str), String> {
        let b = text.as_bytes();
        let (width, height) = (self.geo.width, self.geo.height);
        let mut parts = Vec::new();
        let mut i = 0;
        let rank_at = |i: usize| -> Result<(usize, usize), String> {
            let len = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            let digits = &text[i..i + len];
            let rank: usize = if len > 3 || digits.starts_with('0') {
                0
            } else {
                digits.parse().unwrap_or(0)
            };
            if rank < 1 || rank > height {
                return Err(format!("rank {digits} is not on the board"));
            }
            Ok((rank - 1, i + len))
        };
        while i < b.len() && parts.len() < 8 {
            let c = b[i];
            if matches!(c, b'x' | b':' | b'-') {
                parts.push(Part::Separator);
                i += 1;
            } else if c.is_ascii_lowercase() {
                let file = (c - b'a') as usize;
                if file >= width {
                    return Err(format!("file '{}' is not on the board", c as char));
                }
                if b.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                    let (rank, next) = rank_at(i + 1)?;
                    parts.push(Part::Square(file, rank));
                    i = next;
                } else {
                    parts.push(Part::File(file));
                    i += 1;
                }
            } else if c.is_ascii_digit() {
                let (rank, next) = rank_at(i)?;
                parts.push(Part::Rank(rank));
                i = next;
            } else {
                break;
            }
        }
        Ok((parts, &text[i..]))
    }

    /// What follows the destination: the promotion.
    fn read_promotion(&self, text: &str) -> Result<Promo, String> {
        match text {
            "" => return Ok(Promo::Unsaid),
            "=" => return Ok(Promo::Declined),
            "+" => return Ok(Promo::Promoted),
            _ => {}
        }
        let marked = text.strip_prefix(['=', '/']);
        let symbol = marked.unwrap_or(text);
        let symbol = symbol
            .strip_prefix('(')
            .and_then(|s| s.strip_suffix(')'))
            .unwrap_or(symbol);
        let letter_at = if symbol.starts_with('+') { 1 } else { 0 };
        let upper = symbol
            .as_bytes()
            .get(letter_at)
            .is_some_and(|c| c.is_ascii_uppercase());
        // A bare suffix must be upper case: a lower-case letter there is no promotion.
        if marked.is_none() && !upper {
            return Err(format!("unexpected '{text}' after the destination"));
        }
        self.spec
            .piece_index(symbol)
            .map(Promo::To)
            .ok_or_else(|| format!("this game has no piece '{symbol}' to promote to"))
    }

    /// The moves of `list` that `pattern` describes.
    fn matching(&self, pos: &Position<W>, pattern: &Pattern, list: &MoveList) -> Vec<Move> {
        let g = &self.geo;
        let type_on = |sq: usize| {
            let code = pos.board[sq];
            (code != 0).then(|| type_of_piece(code as usize - 1))
        };
        match *pattern {
            Pattern::Castle { king_side } => list
                .iter()
                .copied()
                .filter(|m| {
                    m.kind() == MoveKind::Castle
                        && (g.file(m.aux()) > g.file(m.from())) == king_side
                })
                .collect(),
            Pattern::Drop { piece, to } => list
                .iter()
                .copied()
                .filter(|m| m.kind() == MoveKind::Drop && m.aux() == piece && m.to() == to)
                .collect(),
            Pattern::Step {
                piece,
                from_file,
                from_rank,
                to,
                promo,
            } => {
                let goes = |m: &Move| {
                    m.to() == to
                        && type_on(m.from()) == Some(piece)
                        && from_file.is_none_or(|f| g.file(m.from()) == f)
                        && from_rank.is_none_or(|r| g.rank(m.from()) == r)
                };
                let promotes = |m: &Move| match promo {
                    Promo::Unsaid | Promo::Declined => m.promotes_to().is_none(),
                    Promo::Promoted => promoted_type(*m)
                        .is_some_and(|t| self.spec.pieces[t].letter.starts_with('+')),
                    Promo::To(t) => promoted_type(*m) == Some(t),
                };
                let select = |keep: &dyn Fn(&Move) -> bool| -> Vec<Move> {
                    list.iter().copied().filter(|m| keep(m)).collect()
                };
                let mut found = select(&|m| is_step(m.kind()) && goes(m) && promotes(m));
                if found.is_empty() && promo == Promo::Unsaid {
                    // A promotion left unsaid, where the move must promote.
                    found = select(&|m| is_step(m.kind()) && goes(m) && m.promotes_to().is_some());
                }
                if found.is_empty() && promo == Promo::Unsaid {
                    // Castling written as the King's move.
                    found = select(&|m| m.kind() == MoveKind::Castle && goes(m));
                }
                found
            }
        }
    }

    /// The SAN of `m` in `pos` (where `list` holds the allowed moves), or `None` where
    /// SAN cannot say it (then kirin's coordinate text is written).
    fn san_in(&self, pos: &mut Position<W>, m: Move, list: &MoveList) -> Option<String> {
        if !list.contains(&m) {
            return None;
        }
        let g = &self.geo;
        let mut s = match m.kind() {
            MoveKind::Castle => {
                let king_side = g.file(m.aux()) > g.file(m.from());
                let pattern = Pattern::Castle { king_side };
                if self.matching(pos, &pattern, list).len() != 1 {
                    return None;
                }
                if king_side { "O-O" } else { "O-O-O" }.to_string()
            }
            MoveKind::Drop => format!(
                "{}@{}",
                self.spec.pieces[m.aux()].letter.to_ascii_uppercase(),
                g.name(m.to())
            ),
            MoveKind::Normal | MoveKind::DoubleStep | MoveKind::EnPassant => {
                self.step_san(pos, m, list)?
            }
            _ => return None,
        };
        s += self.check_mark(pos, m)?;
        // Whatever the game, the text must read back as this move and no other.
        let back = self.parse_in(pos, &s, list).ok()?;
        (back == [m]).then_some(s)
    }

    /// SAN of a move from one square to another (before any check mark).
    fn step_san(&self, pos: &Position<W>, m: Move, list: &MoveList) -> Option<String> {
        let g = &self.geo;
        let (from, to) = (m.from(), m.to());
        let code = pos.board[from];
        if code == 0 {
            return None;
        }
        let piece = type_of_piece(code as usize - 1);
        let letter = &self.spec.pieces[piece].letter;
        let letterless = letter == "p";
        let capture = m.kind() == MoveKind::EnPassant || pos.board[to] != 0;
        let rivals: Vec<usize> = list
            .iter()
            .filter(|o| {
                is_step(o.kind())
                    && o.to() == to
                    && o.from() != from
                    && pos.board[o.from()] != 0
                    && type_of_piece(pos.board[o.from()] as usize - 1) == piece
            })
            .map(|o| o.from())
            .collect();
        let same_file = rivals.iter().any(|&r| g.file(r) == g.file(from));
        let same_rank = rivals.iter().any(|&r| g.rank(r) == g.rank(from));
        let (file, rank) = if letterless && capture {
            (true, same_file)
        } else if rivals.is_empty() {
            (false, false)
        } else if !same_file {
            (true, false)
        } else if !same_rank {
            (false, true)
        } else {
            (true, true)
        };
        let mut s = if letterless {
            String::new()
        } else {
            letter.to_ascii_uppercase()
        };
        if file {
            s.push((b'a' + g.file(from) as u8) as char);
        }
        if rank {
            s += &(g.rank(from) + 1).to_string();
        }
        if capture {
            s.push('x');
        }
        s += &g.name(to);
        match promoted_type(m) {
            Some(t) => {
                let new = &self.spec.pieces[t].letter;
                if new.starts_with('+') {
                    s.push('+');
                } else {
                    s.push('=');
                    s += &new.to_ascii_uppercase();
                }
            }
            None => {
                let could = list.iter().any(|o| {
                    is_step(o.kind())
                        && o.from() == from
                        && o.to() == to
                        && o.promotes_to().is_some()
                });
                if could {
                    s.push('=');
                }
            }
        }
        Some(s)
    }

    /// `#` if `m` checkmates, `+` if it checks (in games with the check rule), else
    /// nothing; `None` when `m` does not end its side's turn.
    fn check_mark(&self, pos: &mut Position<W>, m: Move) -> Option<&'static str> {
        let side = pos.side;
        let u = pos.make(self, m);
        let mark = if pos.side == side {
            None
        } else if self.uses_check() && self.in_check(pos) {
            let mate = self
                .outcome(pos)
                .is_some_and(|o| o.verdict == Verdict::Loss && o.reason == "checkmate");
            Some(if mate { "#" } else { "+" })
        } else {
            Some("")
        };
        pos.unmake(self, m, u);
        mark
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;
    use crate::variants::AnyGame;
    use crate::with_width;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The SAN of each coordinate move of `moves` in `variant` from `fen`, played in turn.
    fn sans(variant: &str, fen: &str, moves: &[&str]) -> Vec<String> {
        let any = AnyGame::builtin(variant).unwrap();
        with_width!(&any, g => {
            let mut pos = Position::from_fen(g, fen).unwrap();
            moves
                .iter()
                .map(|text| {
                    let m = g.parse_move(&mut pos, text).unwrap();
                    let s = g.san(&mut pos, &[m]);
                    assert_eq!(g.parse_san(&mut pos, &s).unwrap(), vec![m], "{s}");
                    pos.make(g, m);
                    s
                })
                .collect()
        })
    }

    /// The SAN of the single move `text` in `fen`.
    fn san_of(variant: &str, fen: &str, text: &str) -> String {
        sans(variant, fen, &[text]).pop().unwrap()
    }

    /// `parse_san` of `san` in `fen`, as coordinate text.
    fn read(variant: &str, fen: &str, san: &str) -> Result<String, SanError> {
        let any = AnyGame::builtin(variant).unwrap();
        with_width!(&any, g => {
            let mut pos = Position::from_fen(g, fen).unwrap();
            let before = pos.clone();
            let turn = g.parse_san(&mut pos, san);
            assert!(pos == before);
            turn.map(|t| g.turn_text(&t))
        })
    }

    const CHESS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const COURIER: &str =
        "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1";

    #[test]
    fn chess_moves() {
        assert_eq!(
            sans(
                "chess",
                CHESS,
                &["e2e4", "d7d5", "e4d5", "g8f6", "g1f3", "f6d5"]
            ),
            ["e4", "d5", "exd5", "Nf6", "Nf3", "Nxd5"]
        );
        let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(san_of("chess", ep, "e5f6"), "exf6");
        assert_eq!(read("chess", ep, "exf6 e.p.").unwrap(), "e5f6");
        let castles = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(san_of("chess", castles, "e1g1"), "O-O");
        assert_eq!(san_of("chess", castles, "e1c1"), "O-O-O");
        assert_eq!(sans("chess", castles, &["a1a2", "e8c8"])[1], "O-O-O");
        for text in ["O-O", "0-0", "O-O+", "Kg1"] {
            assert_eq!(read("chess", castles, text).unwrap(), "e1g1", "{text}");
        }
        assert_eq!(read("chess", castles, "0-0-0").unwrap(), "e1c1");
        assert_eq!(san_of("chess", castles, "a1a8"), "Rxa8+");
    }

    #[test]
    fn chess_promotions() {
        let fen = "1r5k/P7/8/8/8/8/8/K7 w - - 0 1";
        assert_eq!(san_of("chess", fen, "a7a8q"), "a8=Q");
        assert_eq!(san_of("chess", fen, "a7a8n"), "a8=N");
        assert_eq!(san_of("chess", fen, "a7b8q"), "axb8=Q+");
        assert_eq!(san_of("chess", fen, "a7b8r"), "axb8=R+");
        for (text, want) in [
            ("a8=Q", "a7a8q"),
            ("a8Q", "a7a8q"),
            ("a8(Q)", "a7a8q"),
            ("a8=q", "a7a8q"),
            ("axb8=R+", "a7b8r"),
            ("ab8R", "a7b8r"),
            ("a7-a8=B", "a7a8b"),
            ("a7a8n", "a7a8n"),
        ] {
            assert_eq!(read("chess", fen, text).unwrap(), want, "{text}");
        }
        // The promotion left unsaid names four moves.
        let err = read("chess", fen, "a8").unwrap_err();
        assert!(
            matches!(&err, SanError::Ambiguous { candidates, .. } if candidates.len() == 4),
            "{err}"
        );
        assert!(err.to_string().contains("a7a8q"), "{err}");
    }

    #[test]
    fn chess_disambiguation() {
        let knights = "r3k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert_eq!(san_of("chess", knights, "b1d2"), "Nbd2");
        assert_eq!(san_of("chess", knights, "f1d2"), "Nfd2");
        assert_eq!(san_of("chess", knights, "b1c3"), "Nc3");
        let nbd7 = "rn2k3/8/5n2/8/8/8/8/4K3 b - - 0 1";
        assert_eq!(san_of("chess", nbd7, "b8d7"), "Nbd7");
        assert_eq!(san_of("chess", nbd7, "f6d7"), "Nfd7");
        let rooks = "3k4/8/8/8/8/4R3/8/K3R3 w - - 0 1";
        assert_eq!(san_of("chess", rooks, "e1e2"), "R1e2");
        assert_eq!(san_of("chess", rooks, "e3e2"), "R3e2");
        let queens = "8/8/k7/8/4Q2Q/8/8/K6Q w - - 0 1";
        assert_eq!(san_of("chess", queens, "h4e1"), "Qh4e1");
        assert_eq!(san_of("chess", queens, "h1e1"), "Q1e1");
        assert_eq!(san_of("chess", queens, "e4e1"), "Qee1");
        assert!(matches!(
            read("chess", queens, "Qe1"),
            Err(SanError::Ambiguous { candidates, .. }) if candidates == ["e4e1", "h1e1", "h4e1"]
        ));
        assert!(matches!(
            read("chess", queens, "Qhe1"),
            Err(SanError::Ambiguous { .. })
        ));
        assert_eq!(read("chess", queens, "Qh4xe1").unwrap(), "h4e1");
        assert_eq!(read("chess", rooks, "Re1-e2").unwrap(), "e1e2");
    }

    #[test]
    fn check_and_mate() {
        let scholar = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
        assert_eq!(san_of("chess", scholar, "h5f7"), "Qxf7#");
        assert_eq!(san_of("chess", scholar, "c4f7"), "Bxf7+");
        assert_eq!(
            sans("chess", CHESS, &["f2f3", "e7e5", "g2g4", "d8h4"]),
            ["f3", "e5", "g4", "Qh4#"]
        );
        assert_eq!(read("chess", scholar, "Qxf7#!!").unwrap(), "h5f7");
        assert_eq!(read("chess", scholar, "Qf7").unwrap(), "h5f7");
    }

    #[test]
    fn errors_name_the_text() {
        let bad = |text: &str| read("chess", CHESS, text).unwrap_err();
        assert_eq!(bad(""), SanError::Empty);
        assert!(matches!(bad("Nf4"), SanError::NoSuchMove { text } if text == "Nf4"));
        assert!(matches!(bad("Zf3"), SanError::Malformed { .. }));
        assert!(matches!(bad("e9"), SanError::Malformed { .. }));
        assert!(matches!(bad("e4e5e6"), SanError::Malformed { .. }));
        assert!(matches!(bad("Nf3=Q"), SanError::NoSuchMove { .. }));
        assert!(matches!(bad(&"e".repeat(300)), SanError::TooLong { .. }));
        assert!(bad("♘f3").to_string().contains("♘f3"));
        for junk in [
            "+", "#", "=", "x", "@", "O-O-O-O", "e", "1", "Nx", "P@", "@@@@", "e4==",
        ] {
            assert!(read("chess", CHESS, junk).is_err(), "{junk}");
        }
    }

    #[test]
    fn courier_as_cutechess_writes_it() {
        assert_eq!(
            sans(
                "courier",
                COURIER,
                &["b1c3", "k8j6", "c1e3", "g6f5", "g4f5", "h8g8"]
            ),
            ["Nc3", "Nj6", "Ee3", "Ff5", "gxf5", "Wg8"]
        );
        assert_eq!(san_of("courier", COURIER, "g3h4"), "Fh4");
        assert_eq!(san_of("courier", COURIER, "h1g1"), "Wg1");
        assert_eq!(san_of("courier", COURIER, "f1g2"), "Kg2");
        assert_eq!(san_of("courier", COURIER, "c1a3"), "Ea3");
        let man = "k11/p11/12/12/3pb7/4M7/12/11K w - - 0 1";
        assert_eq!(san_of("courier", man, "e3d4"), "Mxd4");
        assert_eq!(san_of("courier", man, "e3e4"), "Mxe4");
        assert_eq!(san_of("courier", man, "e3f4"), "Mf4");
        // Both Rooks reach e1: the file tells them apart.
        let rooks = "k11/p11/12/12/12/12/5K6/R10R w - - 0 1";
        assert_eq!(san_of("courier", rooks, "a1e1"), "Rae1");
        assert_eq!(san_of("courier", rooks, "l1e1"), "Rle1");
        assert_eq!(san_of("courier", rooks, "l1l7"), "Rl7");
        assert_eq!(san_of("courier", rooks, "a1a7"), "Rxa7+");
        // Promotion to the Fers, the only choice, as cutechess writes it: `=F`.
        let promo = "2r8k/1P10/12/12/12/12/12/K11 w - - 0 1";
        assert_eq!(san_of("courier", promo, "b7b8f"), "b8=F");
        assert_eq!(san_of("courier", promo, "b7c8f"), "bxc8=F");
        for text in ["b8=F", "b8F", "b8(F)", "b8", "Pb8=F", "b7-b8=F", "b7b8f"] {
            assert_eq!(read("courier", promo, text).unwrap(), "b7b8f", "{text}");
        }
        // Check and mate.
        let mate = "k11/12/1K10/12/12/12/12/7R4 w - - 0 1";
        assert_eq!(san_of("courier", mate, "h1h8"), "Rh8#");
        assert_eq!(san_of("courier", mate, "h1a1"), "Ra1+");
        // Courier has no castling.
        assert!(matches!(
            read("courier", COURIER, "O-O"),
            Err(SanError::NoSuchMove { .. })
        ));
    }

    #[test]
    fn drops_read_and_write() {
        let spec = crate::variants::with_rules("chess", &["drops=true".to_string()], "").unwrap();
        let any = AnyGame::new(&spec).unwrap();
        with_width!(&any, g => {
            let fen = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pn] w KQkq - 0 1";
            let mut pos = Position::from_fen(g, fen).unwrap();
            let m = g.parse_move(&mut pos, "P@e5").unwrap();
            assert_eq!(g.san(&mut pos, &[m]), "P@e5");
            for text in ["P@e5", "p@e5", "P*e5", "@e5"] {
                assert_eq!(g.parse_san(&mut pos, text).unwrap(), vec![m], "{text}");
            }
            pos.make(g, m);
            let n = g.parse_move(&mut pos, "N@d3").unwrap();
            assert_eq!(g.san(&mut pos, &[n]), "N@d3+");
            assert_eq!(g.parse_san(&mut pos, "N@d3+").unwrap(), vec![n]);
            assert!(g.parse_san(&mut pos, "B@d6").is_err());
        });
    }

    #[test]
    fn shogi_style_promotions() {
        // Sho: a Silver General entering the zone may promote (`+`) or not (`=`).
        let any = AnyGame::builtin("sho").unwrap();
        with_width!(&any, g => {
            let fen = "4k4/9/9/3S5/9/9/9/9/4K4 w - - 0 1";
            let mut pos = Position::from_fen(g, fen).unwrap();
            let mut list = MoveList::new();
            g.game_moves(&mut pos, &mut list);
            let ups: Vec<Move> = list
                .iter()
                .copied()
                .filter(|m| g.move_text(*m).starts_with("d6d7"))
                .collect();
            assert_eq!(ups.len(), 2, "{:?}", ups);
            let texts: Vec<String> = ups.iter().map(|&m| g.san(&mut pos, &[m])).collect();
            let mut sorted = texts.clone();
            sorted.sort();
            assert_eq!(sorted, ["Sd7+", "Sd7="]);
            for (&m, s) in ups.iter().zip(&texts) {
                assert_eq!(g.parse_san(&mut pos, s).unwrap(), vec![m]);
            }
        });
    }

    #[test]
    fn dressed_letters_and_repetitions() {
        let any = AnyGame::builtin("tamerlane").unwrap();
        with_width!(&any, g => {
            let mut pos = Position::from_fen(g, &g.spec.start).unwrap();
            for (coordinates, san) in [("g3g4", "K'g4"), ("b3b4", "b4"), ("f3f4", "F'f4")] {
                let m = g.parse_move(&mut pos, coordinates).unwrap();
                assert_eq!(g.san(&mut pos, &[m]), san);
                assert_eq!(g.parse_san(&mut pos, san).unwrap(), vec![m]);
            }
        });
        // Chu forbids recreating a position: the move is legal but not allowed.
        let any = AnyGame::builtin("chu").unwrap();
        with_width!(&any, g => {
            let mut pos = Position::from_fen(g, &g.spec.start).unwrap();
            for text in ["d5d6", "i8i7", "d6d5"] {
                let turn = g.parse_san(&mut pos, text).unwrap();
                pos.make(g, turn[0]);
            }
            assert!(matches!(
                g.parse_san(&mut pos, "i7i8"),
                Err(SanError::Repeats { .. })
            ));
        });
    }

    /// Random games in every built-in variant: at each position every legal turn's SAN
    /// reads back as that turn, and `pos` is left as it was.
    #[test]
    fn every_turn_round_trips_in_every_variant() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5a4e);
        for spec in crate::variants::builtin() {
            let any = AnyGame::new(spec).unwrap();
            with_width!(&any, g => {
                let mut checked = 0;
                for _ in 0..6 {
                    let mut pos = Position::from_fen(g, &g.spec.start).unwrap();
                    for ply in 0..80 {
                        if g.outcome(&mut pos).is_some() {
                            break;
                        }
                        let mut list = MoveList::new();
                        g.game_moves(&mut pos, &mut list);
                        if list.is_empty() {
                            break;
                        }
                        // Turns are whole: a position inside a turn has no PGN move.
                        if ply % 3 == 2 && pos.actions == 0 {
                            let before = pos.clone();
                            for &m in list.iter() {
                                let Some(turn) = g.turns_of(&pos, &[m]).into_iter().next() else {
                                    continue;
                                };
                                let s = g.san(&mut pos, &turn);
                                assert!(pos == before);
                                let back = g.parse_san(&mut pos, &s);
                                assert!(pos == before);
                                assert_eq!(
                                    back.as_deref(),
                                    Ok(turn.as_slice()),
                                    "{}: '{s}' in {}",
                                    spec.name,
                                    pos.to_fen(g)
                                );
                                checked += 1;
                            }
                        }
                        let m = list[rng.gen_range(0..list.len())];
                        pos.make(g, m);
                    }
                }
                assert!(checked > 0, "{}", spec.name);
            });
        }
    }
}
