//! PGN, read and written for `kirin match` as cutechess-cli writes it.
//!
//! Written (`write_pgn`): the seven-tag roster first (Event, Site, Date, Round, White,
//! Black, Result; `?` for one not set), then the other tags in their order, those with an
//! empty value left out; tag values with `\` and `"` escaped. A blank line, then the
//! movetext: `1. e4 {+0.20/12 0.51s} e5 {...} 2. Nf3`, one turn per move (its SAN, or
//! kirin's coordinate text where SAN cannot say it), a game whose first move is
//! Black's starting `N... e5`, the numbers counted from the FEN tag's full-move number.
//! Lines are filled up to 80 characters, never breaking a move from its number or its
//! comment (as cutechess does, a long comment makes a long line), nor starting a line
//! with `%`. The final comment
//! (the way the game ended, `{White mates}`) stands on its own before the result
//! (cutechess merges it into the last move's comment, `{+M1/3 0.1s, White mates}`; both
//! read back). A blank line ends the game. `}` in a comment is written `)` and line
//! breaks in it as spaces, so that every comment reads back.
//!
//! Read (`parse_pgn`): any number of games; tag pairs with `\"` and `\\` escapes;
//! movetext with move numbers (`12.`, `12...`, glued as in `1.e4`), comments `{...}`
//! and `;` to the end of the line, NAGs (`$1`), annotation glyphs (`!?`, `e.p.`),
//! recursive variations `( ... )` (skipped with everything in them), the result token,
//! `%` escape lines, CRLF line ends and a byte-order mark. A move's token runs to white
//! space or one of `{ } ( ) [ ]`, so kirin's texts pass whole: `f5f6,f6f7`, `P@e4`,
//! `d8d8;e7e6` (`;` and `$` only start a comment or a NAG at the start of a token).
//! Comments: the first after a move is that move's; more before the next move are added
//! to it, and those after the last move's own comment, or in a game without moves, are
//! the final comment; a comment before the first move is dropped. A game missing its
//! result token takes the Result tag's (else `*`). Every problem is a `PgnError` naming
//! its line; nothing panics, and memory is bounded: a text over `MAX_PGN_BYTES`, a token,
//! comment or tag value over `MAX_TOKEN_BYTES` or more than `MAX_ITEMS` moves, tags and
//! games are refused.

use crate::core::{Move, WHITE};
use crate::rules::san::SanError;
use crate::rules::{Game, Position};
use thiserror::Error;

/// The largest PGN text `parse_pgn` reads (256 MiB).
pub const MAX_PGN_BYTES: usize = 256 << 20;
/// The longest token, comment or tag value (64 KiB).
pub const MAX_TOKEN_BYTES: usize = 64 << 10;
/// The most moves, tags and games (together) of one text.
pub const MAX_ITEMS: usize = 16_000_000;
/// The width movetext lines are filled to.
const LINE_WIDTH: usize = 80;

/// The seven-tag roster, in its order.
const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The results a game can end with.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// One game: its tags in order, its moves, its result and the comment on its end.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<PgnMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (empty: the Result tag's, else `*`, when written).
    pub result: String,
    /// The comment before the result: how the game ended (`White mates`).
    pub final_comment: Option<String>,
}

/// One turn of a game, with the comment after it.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnMove {
    /// Its SAN, or kirin's coordinate text.
    pub san: String,
    pub comment: Option<String>,
}

impl PgnGame {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, in its place if it is there, else last.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The result to write: the game's, else its Result tag's, else `*`.
    fn result_text(&self) -> &str {
        [self.result.as_str(), self.tag("Result").unwrap_or("")]
            .into_iter()
            .find(|r| RESULTS.contains(r))
            .unwrap_or("*")
    }
}

/// Why a PGN text, or a game in it, was refused.
#[derive(Debug, Error)]
pub enum PgnError {
    /// The text is not PGN at `line` (from 1).
    #[error("line {line}: {problem}")]
    Syntax { line: usize, problem: String },
    #[error("the PGN text is {size} bytes, more than the {MAX_PGN_BYTES} kirin reads")]
    TooLarge { size: usize },
    /// The game's start position.
    #[error("FEN '{fen}': {problem}")]
    Fen { fen: String, problem: String },
    /// A move that is not legal (or not readable) where the game reached.
    #[error("move {number} {text}: {source}")]
    Move {
        /// `12.` or `12...`.
        number: String,
        text: String,
        #[source]
        source: SanError,
    },
}

/// The full-move number and whether White moves first, from a FEN's side and last
/// field (1 and White when they are missing).
fn numbering(fen: Option<&str>) -> (u64, bool) {
    let Some(fen) = fen else {
        return (1, true);
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let white = !fields.get(1).is_some_and(|s| s.starts_with('b'));
    let number = match fields.as_slice() {
        [_, _, .., last] => last.parse::<u64>().unwrap_or(1).max(1),
        _ => 1,
    };
    (number, white)
}

/// A tag value, escaped.
fn escape_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out += "\\\\",
            '"' => out += "\\\"",
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A comment as it can stand between braces.
fn clean_comment(comment: &str) -> String {
    comment
        .chars()
        .map(|c| match c {
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// One game as cutechess-cli writes it, ending with a blank line.
pub fn write_pgn(game: &PgnGame) -> String {
    let mut out = String::new();
    let result = game.result_text();
    for name in ROSTER {
        let value = match name {
            "Result" => result,
            _ => game.tag(name).filter(|v| !v.is_empty()).unwrap_or("?"),
        };
        out += &format!("[{name} \"{}\"]\n", escape_value(value));
    }
    for (name, value) in &game.tags {
        if !ROSTER.contains(&name.as_str()) && !value.is_empty() {
            out += &format!("[{name} \"{}\"]\n", escape_value(value));
        }
    }
    let (mut number, mut white) = numbering(game.tag("FEN"));
    let mut units = Vec::with_capacity(game.moves.len() + 2);
    for (i, mv) in game.moves.iter().enumerate() {
        let mut unit = if white {
            format!("{number}. ")
        } else if i == 0 {
            format!("{number}... ")
        } else {
            String::new()
        };
        unit += &mv.san;
        if let Some(c) = mv.comment.as_deref().filter(|c| !c.is_empty()) {
            unit += &format!(" {{{}}}", clean_comment(c));
        }
        if !white {
            number = number.saturating_add(1);
        }
        white = !white;
        units.push(unit);
    }
    if let Some(c) = game.final_comment.as_deref().filter(|c| !c.is_empty()) {
        units.push(format!("{{{}}}", clean_comment(c)));
    }
    units.push(result.to_string());
    out.push('\n');
    let mut line = 0;
    for unit in &units {
        let len = unit.chars().count();
        if line == 0 {
            line = len;
        } else if line + len >= LINE_WIDTH && !unit.starts_with('%') {
            out.push('\n');
            line = len;
        } else {
            out.push(' ');
            line += len + 1;
        }
        out += unit;
    }
    out += "\n\n";
    out
}

/// The game being read.
#[derive(Default)]
struct Draft {
    game: PgnGame,
    /// Anything of the game seen (a tag, a token, a comment).
    started: bool,
    /// Movetext seen: a tag now starts the next game.
    in_moves: bool,
    /// Comments after the last move's own comment (or before any move).
    extra: Vec<String>,
}

impl Draft {
    fn comment(&mut self, text: String) {
        self.started = true;
        match self.game.moves.last_mut() {
            Some(mv) if mv.comment.is_none() && self.extra.is_empty() => mv.comment = Some(text),
            _ => self.extra.push(text),
        }
    }

    fn push_move(&mut self, san: String) {
        self.started = true;
        self.in_moves = true;
        let extra = std::mem::take(&mut self.extra);
        if let Some(mv) = self.game.moves.last_mut()
            && !extra.is_empty()
        {
            let mut all: Vec<String> = mv.comment.take().into_iter().collect();
            all.extend(extra);
            mv.comment = Some(all.join(" "));
        }
        self.game.moves.push(PgnMove { san, comment: None });
    }

    /// The finished game, if there was one.
    fn finish(&mut self) -> Option<PgnGame> {
        let mut d = std::mem::take(self);
        if !d.started {
            return None;
        }
        if !d.extra.is_empty() {
            d.game.final_comment = Some(d.extra.join(" "));
        }
        if !RESULTS.contains(&d.game.result.as_str()) {
            d.game.result = d.game.result_text().to_string();
        }
        Some(d.game)
    }
}

/// A cursor over the text, counting lines.
struct Reader<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
    line: usize,
}

impl<'t> Reader<'t> {
    fn error<T>(&self, problem: impl Into<String>) -> Result<T, PgnError> {
        self.error_at(self.line, problem)
    }

    fn error_at<T>(&self, line: usize, problem: impl Into<String>) -> Result<T, PgnError> {
        Err(PgnError::Syntax {
            line,
            problem: problem.into(),
        })
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Steps over one byte, counting a line end.
    fn bump(&mut self) {
        if self.peek() == Some(b'\n') {
            self.line += 1;
        }
        self.at += 1;
    }

    /// Whether the cursor is at the start of a line.
    fn at_line_start(&self) -> bool {
        self.at == 0 || self.bytes[self.at - 1] == b'\n'
    }

    /// Skips to the end of the line (not past the line end).
    fn skip_line(&mut self) -> &'t str {
        let start = self.at;
        while self.peek().is_some_and(|c| c != b'\n') {
            self.at += 1;
        }
        &self.text[start..self.at]
    }

    /// Skips white space and `%` escape lines.
    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c == b'%' && self.at_line_start() {
                self.skip_line();
            } else if c.is_ascii_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    /// Reads `{...}` (the cursor on the `{`).
    fn brace_comment(&mut self) -> Result<&'t str, PgnError> {
        let line = self.line;
        self.at += 1;
        let start = self.at;
        loop {
            match self.peek() {
                None => return self.error_at(line, "comment '{' not closed"),
                Some(b'}') => break,
                Some(_) => self.bump(),
            }
            if self.at - start > MAX_TOKEN_BYTES {
                return self.error_at(line, format!("comment longer than {MAX_TOKEN_BYTES} bytes"));
            }
        }
        let text = &self.text[start..self.at];
        self.at += 1;
        Ok(text)
    }

    /// Reads `;...` to the end of the line (the cursor on the `;`).
    fn line_comment(&mut self) -> Result<&'t str, PgnError> {
        self.at += 1;
        let text = self.skip_line();
        if text.len() > MAX_TOKEN_BYTES {
            return self.error(format!("comment longer than {MAX_TOKEN_BYTES} bytes"));
        }
        Ok(text.trim_end_matches('\r'))
    }

    /// Reads a tag pair `[Name "value"]` (the cursor on the `[`).
    fn tag(&mut self) -> Result<(String, String), PgnError> {
        self.at += 1;
        self.skip_space();
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
        {
            self.at += 1;
        }
        let name = &self.text[start..self.at];
        if name.is_empty() {
            return self.error("a tag must start with its name: [Name \"value\"]");
        }
        if name.len() > MAX_TOKEN_BYTES {
            return self.error("tag name too long");
        }
        self.skip_space();
        if self.peek() != Some(b'"') {
            return self.error(format!("tag {name}: its value must be in double quotes"));
        }
        self.at += 1;
        let mut value = String::new();
        let mut from = self.at;
        loop {
            match self.peek() {
                None | Some(b'\n') | Some(b'\r') => {
                    return self.error(format!("tag {name}: the value's closing quote is missing"));
                }
                Some(b'"') => break,
                Some(b'\\') if matches!(self.bytes.get(self.at + 1), Some(b'"' | b'\\')) => {
                    value += &self.text[from..self.at];
                    value.push(self.bytes[self.at + 1] as char);
                    self.at += 2;
                    from = self.at;
                }
                Some(_) => self.at += 1,
            }
            if value.len() + (self.at - from) > MAX_TOKEN_BYTES {
                return self.error(format!(
                    "tag {name}: value longer than {MAX_TOKEN_BYTES} bytes"
                ));
            }
        }
        value += &self.text[from..self.at];
        self.at += 1;
        self.skip_space();
        if self.peek() != Some(b']') {
            return self.error(format!("tag {name}: ']' expected after the value"));
        }
        self.at += 1;
        Ok((name.to_string(), value))
    }

    /// Reads a token of movetext: up to white space or a delimiter.
    fn token(&mut self) -> Result<&'t str, PgnError> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| !c.is_ascii_whitespace() && !b"{}()[]".contains(&c))
        {
            self.at += 1;
            if self.at - start > MAX_TOKEN_BYTES {
                return self.error(format!("token longer than {MAX_TOKEN_BYTES} bytes"));
            }
        }
        Ok(&self.text[start..self.at])
    }
}

/// A move token without its move number (`12.e4` is `e4`); empty for a token that is
/// only a number, dots or an annotation glyph.
fn move_part(token: &str) -> &str {
    let digits = token.bytes().take_while(|c| c.is_ascii_digit()).count();
    let after_dots = token[digits..].trim_start_matches('.');
    let rest = if after_dots.len() < token.len() - digits {
        after_dots
    } else {
        token
    };
    let glyph = rest.bytes().all(|c| c == b'!' || c == b'?');
    let number = rest.bytes().all(|c| c.is_ascii_digit() || c == b'.');
    if rest == "e.p." || glyph || number {
        return "";
    }
    rest
}

/// Reads every game of a PGN text.
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    if text.len() > MAX_PGN_BYTES {
        return Err(PgnError::TooLarge { size: text.len() });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut r = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
        line: 1,
    };
    let mut games = Vec::new();
    let mut draft = Draft::default();
    let mut depth = 0usize;
    let mut items = 0usize;
    loop {
        r.skip_space();
        let Some(c) = r.peek() else {
            break;
        };
        items += 1;
        if items > MAX_ITEMS {
            return r.error(format!("more than {MAX_ITEMS} moves, tags and games"));
        }
        match c {
            b'[' => {
                if depth > 0 {
                    return r.error("a tag inside a variation: ')' missing");
                }
                if draft.in_moves {
                    games.extend(draft.finish());
                }
                let (name, value) = r.tag()?;
                draft.started = true;
                draft.game.set_tag(&name, value);
            }
            b'{' => {
                let comment = r.brace_comment()?;
                if depth == 0 {
                    draft.comment(comment.trim().to_string());
                }
            }
            b';' => {
                let comment = r.line_comment()?;
                if depth == 0 {
                    draft.comment(comment.trim().to_string());
                }
            }
            b'(' => {
                r.at += 1;
                depth += 1;
                draft.started = true;
                draft.in_moves = true;
            }
            b')' => {
                if depth == 0 {
                    return r.error("')' without '('");
                }
                r.at += 1;
                depth -= 1;
            }
            b'}' => return r.error("'}' outside a comment"),
            b']' => return r.error("']' outside a tag"),
            b'$' if r.bytes.get(r.at + 1).is_some_and(u8::is_ascii_digit) => {
                r.at += 1;
                let nag = r.token()?;
                if !nag.bytes().all(|c| c.is_ascii_digit()) {
                    return r.error(format!("'${nag}' is not a NAG"));
                }
            }
            _ => {
                let token = r.token()?;
                if depth > 0 {
                    continue;
                }
                let san = move_part(token);
                if RESULTS.contains(&san) {
                    draft.started = true;
                    draft.game.result = san.to_string();
                    games.extend(draft.finish());
                    continue;
                }
                if san.is_empty() {
                    continue;
                }
                let b = san.as_bytes();
                if b[0] == b';'
                    || b[0] == b'%'
                    || (b[0] == b'$' && b.get(1).is_some_and(u8::is_ascii_digit))
                {
                    return r.error(format!("'{token}' is not a move"));
                }
                if let Some(bad) = san.chars().find(|c| !c.is_ascii_graphic()) {
                    return r.error(format!("'{san}': unexpected character '{bad}' in a move"));
                }
                draft.push_move(san.to_string());
            }
        }
    }
    if depth > 0 {
        return r.error("a variation '(' is not closed at the end of the text");
    }
    games.extend(draft.finish());
    Ok(games)
}

/// Replays a game's moves in kirin's rules: the start is the FEN tag if present (the
/// `SetUp "1"` that goes with it is not required), else `start_fen`. Returns the start
/// position and the turns (each turn's actions) from it.
pub fn replay<const W: usize>(
    game: &Game<W>,
    pgn: &PgnGame,
    start_fen: &str,
) -> Result<(Position<W>, Vec<Vec<Move>>), PgnError> {
    let fen = pgn
        .tag("FEN")
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .unwrap_or(start_fen);
    let start = Position::from_fen(game, fen).map_err(|e| PgnError::Fen {
        fen: fen.to_string(),
        problem: e.to_string(),
    })?;
    let mut pos = start.clone();
    let mut number = u64::from(pos.fullmove.max(1));
    let mut white = pos.side == WHITE;
    let mut turns = Vec::with_capacity(pgn.moves.len());
    for mv in &pgn.moves {
        let turn = game
            .parse_san(&mut pos, &mv.san)
            .map_err(|source| PgnError::Move {
                number: format!("{number}{}", if white { "." } else { "..." }),
                text: mv.san.clone(),
                source,
            })?;
        for &m in &turn {
            pos.make(game, m);
        }
        turns.push(turn);
        if !white {
            number += 1;
        }
        white = !white;
    }
    Ok((start, turns))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::AnyGame;
    use crate::with_width;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn mv(san: &str, comment: Option<&str>) -> PgnMove {
        PgnMove {
            san: san.to_string(),
            comment: comment.map(str::to_string),
        }
    }

    fn syntax_line(text: &str) -> usize {
        match parse_pgn(text) {
            Err(PgnError::Syntax { line, .. }) => line,
            other => panic!("{text:?} gave {other:?}"),
        }
    }

    /// A Courier game as cutechess-cli writes one (tags in its order: the roster, then
    /// the others alphabetically; the result's description in the last comment).
    const CUTECHESS: &str = r#"[Event "Courier test"]
[Site "?"]
[Date "2024.05.01"]
[Round "1"]
[White "kirin"]
[Black "Fairy-Stockfish"]
[Result "1-0"]
[FEN "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1"]
[GameDuration "00:00:12"]
[GameEndTime "2024-05-01T12:00:12.345 CEST"]
[GameStartTime "2024-05-01T12:00:00.123 CEST"]
[PlyCount "8"]
[SetUp "1"]
[Termination "adjudication"]
[TimeControl "40/60+0.5"]
[Variant "courier"]

1. Nc3 {+0.31/10 0.52s} Nj6 {-0.12/9 0.48s} 2. Ee3 {+0.40/11 0.61s}
Ff5 {-0.20/10 0.33s} 3. gxf5 {+1.52/12 0.44s} Wg8 {-1.40/11 0.40s}
4. Fh4 {+1.61/12 0.50s} Ee6 {-1.55/10 0.39s, White wins by adjudication} 1-0

"#;

    #[test]
    fn a_cutechess_game_reads_replays_and_writes_back() {
        let games = parse_pgn(CUTECHESS).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("Variant"), Some("courier"));
        assert_eq!(g.tag("TimeControl"), Some("40/60+0.5"));
        assert_eq!(g.result, "1-0");
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.moves[0], mv("Nc3", Some("+0.31/10 0.52s")));
        assert_eq!(
            g.moves[7].comment.as_deref(),
            Some("-1.55/10 0.39s, White wins by adjudication")
        );
        assert_eq!(g.final_comment, None);
        assert_eq!(write_pgn(g), CUTECHESS);
        let any = AnyGame::builtin("courier").unwrap();
        with_width!(&any, game => {
            let (start, turns) = replay(game, g, "8/8/8/8/8/8/8/8 w - - 0 1").unwrap();
            assert_eq!(turns.len(), 8);
            // kirin writes the game's SAN exactly as cutechess did.
            let mut pos = start.clone();
            for (turn, m) in turns.iter().zip(&g.moves) {
                assert_eq!(game.san(&mut pos, turn), m.san);
                for &a in turn {
                    pos.make(game, a);
                }
            }
        });
    }

    /// A random game in every built-in variant, written in SAN and read back, replays
    /// the same turns.
    #[test]
    fn random_games_of_every_variant_replay() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for spec in crate::variants::builtin() {
            let any = AnyGame::new(spec).unwrap();
            with_width!(&any, game => {
                let start = Position::from_fen(game, &game.spec.start).unwrap();
                let mut pos = start.clone();
                let mut pgn = PgnGame::default();
                pgn.set_tag("FEN", game.spec.start.clone());
                pgn.set_tag("SetUp", "1");
                pgn.set_tag("Variant", spec.name.clone());
                let mut played = Vec::new();
                for i in 0..120 {
                    if game.outcome(&mut pos).is_some() {
                        break;
                    }
                    let mut list = crate::rules::MoveList::new();
                    game.game_moves(&mut pos, &mut list);
                    let Some(&first) = list.get(rng.gen_range(0..list.len().max(1))) else {
                        break;
                    };
                    let turn = game.turns_of(&pos, &[first]).remove(0);
                    let san = game.san(&mut pos, &turn);
                    pgn.moves.push(mv(&san, (i % 3 == 0).then_some("+0.10/3 0.01s")));
                    for &m in &turn {
                        pos.make(game, m);
                    }
                    played.push(turn);
                }
                pgn.result = "*".into();
                let text = write_pgn(&pgn);
                let back = parse_pgn(&text).unwrap();
                assert_eq!(back.len(), 1, "{text}");
                assert_eq!(back[0].moves, pgn.moves, "{}", spec.name);
                let (again, turns) = replay(game, &back[0], "").unwrap();
                assert!(again == start);
                assert_eq!(turns, played, "{}", spec.name);
            });
        }
    }

    #[test]
    fn written_games_read_back() {
        let mut g = PgnGame::default();
        for (name, value) in [
            ("Event", "A \"quoted\" event \\ with a backslash"),
            ("Site", "kirin"),
            ("Date", "2024.05.01"),
            ("Round", "3"),
            ("White", "kirin 1"),
            ("Black", "kirin 2"),
            ("Result", "0-1"),
            ("FEN", "8/8/8/8/8/8/8/8 b - - 0 17"),
            ("SetUp", "1"),
            ("Variant", "chu"),
        ] {
            g.set_tag(name, value);
        }
        g.result = "0-1".into();
        let texts = [
            "e5",
            "Nf3",
            "f5f6,f6f7",
            "P@e4",
            "d8d8;e7e6",
            "Sd7+",
            "O-O-O",
            "+G",
            "$N/bb",
        ];
        for (i, san) in texts.iter().cycle().take(60).enumerate() {
            let comment = format!(
                "{}{}/{} {}.{:02}s",
                if i % 2 == 0 { "+" } else { "-" },
                i,
                i + 3,
                i % 5,
                i
            );
            g.moves
                .push(mv(san, (i % 7 != 3).then_some(comment.as_str())));
        }
        g.moves.last_mut().unwrap().comment = Some("+M1/1 0.01s".into());
        g.final_comment = Some("Black mates".into());
        let text = write_pgn(&g);
        assert!(
            text.contains("\n\n17... e5 {+0/3 0.00s} 18. Nf3 {-1/4 1.01s} f5f6,f6f7"),
            "{text}"
        );
        assert!(
            text.ends_with("{+M1/1 0.01s} {Black mates} 0-1\n\n"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        let back = parse_pgn(&text).unwrap();
        assert_eq!(back, vec![g.clone()]);
        // Two games in a row, and the same again with CRLF line ends and a BOM.
        let two = format!("{text}{text}");
        assert_eq!(parse_pgn(&two).unwrap(), vec![g.clone(), g.clone()]);
        let crlf = format!("\u{feff}{}", two.replace('\n', "\r\n"));
        assert_eq!(parse_pgn(&crlf).unwrap(), vec![g.clone(), g.clone()]);
        // Roster tags that are missing are written as `?`; the result comes from the game.
        let mut bare = PgnGame::default();
        bare.moves.push(mv("e4", None));
        let text = write_pgn(&bare);
        assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n"), "{text}");
        assert!(text.contains("[Result \"*\"]\n\n1. e4 *\n\n"), "{text}");
        // A final comment without moves; a comment with a closing brace.
        let mut ended = PgnGame {
            result: "1/2-1/2".into(),
            final_comment: Some("Draw by {agreement}".into()),
            ..PgnGame::default()
        };
        let text = write_pgn(&ended);
        assert!(
            text.ends_with("\n\n{Draw by {agreement)} 1/2-1/2\n\n"),
            "{text}"
        );
        ended.final_comment = Some("Draw by {agreement)".into());
        ended.set_tag("Result", "1/2-1/2");
        let back = parse_pgn(&text).unwrap();
        let mut want = ended.clone();
        want.tags = ROSTER
            .iter()
            .map(|&n| {
                (
                    n.to_string(),
                    if n == "Result" { "1/2-1/2" } else { "?" }.to_string(),
                )
            })
            .collect();
        assert_eq!(back, vec![want]);
    }

    #[test]
    fn black_starts_with_the_fen_move_number() {
        let mut g = PgnGame::default();
        g.set_tag(
            "FEN",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12",
        );
        g.set_tag("SetUp", "1");
        g.moves = vec![mv("e5", None), mv("Nf3", None), mv("Nc6", None)];
        let text = write_pgn(&g);
        assert!(text.ends_with("\n\n12... e5 13. Nf3 Nc6 *\n\n"), "{text}");
        let any = AnyGame::builtin("chess").unwrap();
        with_width!(&any, game => {
            let (start, turns) = replay(game, &parse_pgn(&text).unwrap()[0], "").unwrap();
            assert_eq!(start.fullmove, 12);
            assert_eq!(turns.len(), 3);
            // An illegal move is named with its number.
            g.moves.push(mv("Ke3", None));
            let err = replay(game, &g, "").unwrap_err().to_string();
            assert!(err.starts_with("move 14. Ke3:"), "{err}");
            g.set_tag("FEN", "not a fen");
            assert!(matches!(replay(game, &g, ""), Err(PgnError::Fen { .. })));
        });
    }

    #[test]
    fn movetext_of_every_kind() {
        let text = "% a line for other programs\n\
            [Event \"x\"] [White \"a \\\"b\\\" c\\\\\"]\n\
            [Black \"\"]\n\
            {before} 1.e4 $1 {first} {second} (1. d4 d5 (1... Nf6 {in} 2. c4) 2. c4) e5!? ; to the end\n\
            2. Nf3 !! 2... Nc6 3 . Bb5 a6 e.p. 4.O-O 0-0 5. f5f6,f6f7 P@e4 d8d8;e7e6 $N/bb\n\
            {last} {the end} 1/2-1/2 [Event \"second\"] 1. d4 *\n\
            [Event \"third\"]\n1. c4 c5";
        let games = parse_pgn(text).unwrap();
        assert_eq!(games.len(), 3);
        let g = &games[0];
        assert_eq!(g.tag("White"), Some("a \"b\" c\\"));
        assert_eq!(g.tag("Black"), Some(""));
        let sans: Vec<&str> = g.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(
            sans,
            [
                "e4",
                "e5!?",
                "Nf3",
                "Nc6",
                "Bb5",
                "a6",
                "O-O",
                "0-0",
                "f5f6,f6f7",
                "P@e4",
                "d8d8;e7e6",
                "$N/bb"
            ]
        );
        assert_eq!(g.moves[0].comment.as_deref(), Some("first second"));
        assert_eq!(g.moves[1].comment.as_deref(), Some("to the end"));
        assert_eq!(g.moves[11].comment.as_deref(), Some("last"));
        assert_eq!(g.final_comment.as_deref(), Some("the end"));
        assert_eq!(g.result, "1/2-1/2");
        assert_eq!(games[1].tag("Event"), Some("second"));
        assert_eq!(games[1].result, "*");
        // No result token at the end: the Result tag's, else `*`.
        assert_eq!(games[2].result, "*");
        assert_eq!(games[2].moves.len(), 2);
        let games = parse_pgn("[Result \"0-1\"]\n1. f3 e5 2. g4 Qh4#").unwrap();
        assert_eq!(games[0].result, "0-1");
        // A game of nothing but a comment and a result.
        let games = parse_pgn("{White forfeits} 0-1").unwrap();
        assert_eq!(games[0].final_comment.as_deref(), Some("White forfeits"));
        assert!(games[0].moves.is_empty());
    }

    #[test]
    fn nothing_and_garbage() {
        assert_eq!(parse_pgn("").unwrap(), vec![]);
        assert_eq!(parse_pgn(" \r\n\t\n% only an escape\n").unwrap(), vec![]);
        assert_eq!(parse_pgn("\u{feff}").unwrap(), vec![]);
        assert_eq!(syntax_line("[Event \"x\"]\n1. e4 {unclosed\n\n"), 2);
        assert_eq!(syntax_line("[Event \"x]\n1. e4 *"), 1);
        assert_eq!(syntax_line("[Event x]"), 1);
        assert_eq!(syntax_line("[\"x\"]"), 1);
        assert_eq!(syntax_line("[Event \"x\" 1. e4"), 1);
        assert_eq!(syntax_line("1. e4\n{a {b} c} *"), 2);
        assert_eq!(syntax_line("1. e4 ) *"), 1);
        assert_eq!(syntax_line("1. e4 (1. d4\n\n*"), 3);
        assert_eq!(syntax_line("1. e4 ] *"), 1);
        assert_eq!(syntax_line("1. e4 (1. d4 [Event \"x\"]) *"), 1);
        assert_eq!(syntax_line("\n\n1. ♘f3 *"), 3);
        assert_eq!(syntax_line("1. e4 $12a *"), 1);
        assert_eq!(syntax_line("1.;e4 *"), 1);
        assert_eq!(syntax_line("1.$1 *"), 1);
        let long = format!("1. e4 {{{}}} *", "x".repeat(MAX_TOKEN_BYTES + 1));
        assert_eq!(syntax_line(&long), 1);
        let long = format!("1. {} *", "e".repeat(MAX_TOKEN_BYTES + 1));
        assert_eq!(syntax_line(&long), 1);
        let long = format!("[Event \"{}\"]", "x".repeat(MAX_TOKEN_BYTES + 1));
        assert_eq!(syntax_line(&long), 1);
        let binary: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
        assert!(parse_pgn(&String::from_utf8_lossy(&binary)).is_err());
        // Random text built from PGN's own characters: an answer, never a panic.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let pieces = [
            "[", "]", "{", "}", "(", ")", "\"", "\\", ";", "%", "$", "1", ".", "...", " ", "\n",
            "\r\n", "e4", "Nf3", "1-0", "*", "Event", "é", "\u{feff}", "\t", "0-0",
        ];
        for _ in 0..3000 {
            let n = rng.gen_range(0..40);
            let text: String = (0..n)
                .map(|_| pieces[rng.gen_range(0..pieces.len())])
                .collect();
            if let Ok(games) = parse_pgn(&text) {
                for g in &games {
                    // What was read writes and reads back the same.
                    let again = parse_pgn(&write_pgn(g)).unwrap();
                    assert_eq!(again.len(), 1, "{text:?}");
                    assert_eq!(again[0].moves.len(), g.moves.len(), "{text:?}");
                }
            }
        }
    }
}
