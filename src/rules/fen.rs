//! FEN for boards up to 17x17, in the conventions of Fairy-Stockfish: ranks from the top,
//! multi-digit empty runs, `+` before a promoted piece, `*` for holes, optional castling,
//! en-passant and counter fields (`w 0 1` as well as `w - - 0 1`), an empty pocket `[]`.
//! Every problem is reported as a `FenError` naming it; nothing here panics.

use crate::core::{Bitboard, WHITE};
use crate::rules::game::Game;
use crate::rules::position::{MAX_EP_SQUARES, Position};
use std::fmt;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn fail<T>(why: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(why.into()))
}

impl<const W: usize> Position<W> {
    /// Parses a FEN for `game`.
    pub fn from_fen(game: &Game<W>, text: &str) -> Result<Self, FenError> {
        let mut fields = text.split_whitespace();
        let Some(board) = fields.next() else {
            return fail("empty FEN");
        };
        let mut pos = Position::empty(game);
        parse_board(game, &mut pos, board)?;
        pos.side = match fields.next() {
            None | Some("w") => 0,
            Some("b") => 1,
            Some(other) => return fail(format!("side to move '{other}' is not w or b")),
        };
        let rest: Vec<&str> = fields.collect();
        let counters_at = rest
            .iter()
            .position(|f| f.chars().all(|c| c.is_ascii_digit()))
            .unwrap_or(rest.len());
        if counters_at > 2 {
            return fail(format!("unexpected field '{}'", rest[2]));
        }
        if let Some(c) = rest.first().filter(|_| counters_at >= 1) {
            if game.has_privileges() {
                parse_privileges(game, &mut pos, c)?;
            } else {
                parse_castling(game, &mut pos, c)?;
            }
        } else if game.has_privileges() {
            pos.rule_state = game.rules.all_rights;
        }
        if let Some(e) = rest.get(1).filter(|_| counters_at >= 2) {
            parse_ep(game, &mut pos, e)?;
        }
        let counters = &rest[counters_at..];
        if counters.len() > 2 {
            return fail(format!("unexpected field '{}'", counters[2]));
        }
        let number = |s: &str, what: &str| {
            s.parse::<u32>()
                .map_err(|_| FenError(format!("{what} '{s}' is not a number")))
        };
        if let Some(h) = counters.first() {
            pos.halfmove = number(h, "halfmove clock")?;
        }
        if let Some(f) = counters.get(1) {
            pos.fullmove = number(f, "move number")?.max(1);
        }
        check_royals(game, &pos)?;
        game.check_capacity(&pos)?;
        pos.key = pos.compute_key(game);
        Ok(pos)
    }

    /// Writes the position as FEN.
    pub fn to_fen(&self, game: &Game<W>) -> String {
        let g = &game.geo;
        let mut out = String::new();
        for rank in (0..g.height).rev() {
            let mut empty = 0;
            for file in 0..g.width {
                let sq = rank * g.width + file;
                let code = self.board[sq];
                if code == 0 && !g.holes[sq] {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                if g.holes[sq] {
                    out.push('*');
                } else {
                    out += &piece_symbol(game, code);
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out += if self.side == WHITE { " w " } else { " b " };
        let mut castling = String::new();
        for (i, c) in ['K', 'Q', 'k', 'q'].iter().enumerate() {
            if self.castling >> i & 1 != 0 {
                castling.push(*c);
            }
        }
        for color in 0..2 {
            for r in game.rules.rights() {
                if self.rule_state & r.bits[color] != 0 {
                    castling.push(if color == WHITE {
                        r.letter.to_ascii_uppercase()
                    } else {
                        r.letter.to_ascii_lowercase()
                    });
                }
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        out += &castling;
        out.push(' ');
        if self.ep.is_empty() {
            out.push('-');
        } else {
            // Several squares are written one after another, lowest first, as
            // Fairy-Stockfish writes them (`e3e4`).
            self.ep.iter().for_each(|sq| out += &g.name(sq));
        }
        out += &format!(" {} {}", self.halfmove, self.fullmove);
        out
    }
}

/// The FEN symbol of a board code: upper case for White.
pub fn piece_symbol<const W: usize>(game: &Game<W>, code: u8) -> String {
    let pc = code as usize - 1;
    let letter = &game.spec.pieces[pc / 2].letter;
    if pc & 1 == WHITE {
        letter.to_ascii_uppercase()
    } else {
        letter.clone()
    }
}

fn parse_board<const W: usize>(
    game: &Game<W>,
    pos: &mut Position<W>,
    board: &str,
) -> Result<(), FenError> {
    let g = &game.geo;
    let board = match board.find('[') {
        Some(i) => {
            let pocket = board[i..].trim_start_matches('[').trim_end_matches(']');
            if !pocket.is_empty() && pocket != "-" {
                return fail(format!(
                    "pieces in hand '{pocket}' are not part of {}",
                    game.spec.name
                ));
            }
            &board[..i]
        }
        None => board,
    };
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != g.height {
        return fail(format!(
            "expected {} ranks for {}, found {}",
            g.height,
            game.spec.name,
            ranks.len()
        ));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = g.height - 1 - i;
        let rank_name = rank + 1;
        let mut file = 0usize;
        let chars: Vec<char> = text.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            if c.is_ascii_digit() {
                let start = k;
                while k < chars.len() && chars[k].is_ascii_digit() {
                    k += 1;
                }
                let run: String = chars[start..k].iter().collect();
                let n: usize = run
                    .parse()
                    .map_err(|_| FenError(format!("bad empty count '{run}'")))?;
                if n == 0 || n > g.width {
                    return fail(format!(
                        "rank {rank_name}: an empty count of {n} on a board {} wide",
                        g.width
                    ));
                }
                for f in file..(file + n).min(g.width) {
                    if g.holes[rank * g.width + f] {
                        return fail(format!(
                            "rank {rank_name}: square {} is a hole, write it as '*'",
                            g.name(rank * g.width + f)
                        ));
                    }
                }
                file += n;
            } else if c == '*' {
                if file < g.width && !g.holes[rank * g.width + file] {
                    return fail(format!(
                        "rank {rank_name}: '*' on {}, which is not a hole of {}",
                        g.name(rank * g.width + file),
                        game.spec.name
                    ));
                }
                file += 1;
                k += 1;
            } else if c == '~' {
                k += 1; // Fairy-Stockfish's "promoted" marker carries no rule here.
                continue;
            } else {
                let mut symbol = String::new();
                if c == '+' {
                    symbol.push('+');
                    k += 1;
                }
                let Some(&l) = chars.get(k).filter(|l| l.is_ascii_alphabetic()) else {
                    return fail(format!("rank {rank_name}: '+' must precede a piece letter"));
                };
                symbol.push(l.to_ascii_lowercase());
                k += 1;
                if let Some(&d) = chars.get(k).filter(|&&d| d == '\'' || d == '!') {
                    symbol.push(d);
                    k += 1;
                }
                let Some(t) = game.spec.piece_index(&symbol) else {
                    let written = if l.is_ascii_uppercase() {
                        symbol.to_ascii_uppercase()
                    } else {
                        symbol
                    };
                    return fail(format!(
                        "rank {rank_name}: '{written}' is not a piece of {}",
                        game.spec.name
                    ));
                };
                if file >= g.width {
                    file += 1;
                    continue;
                }
                let sq = rank * g.width + file;
                if g.holes[sq] {
                    return fail(format!(
                        "rank {rank_name}: a piece on the hole {}",
                        g.name(sq)
                    ));
                }
                let color = if l.is_ascii_uppercase() { 0 } else { 1 };
                pos.put(sq, (2 * t + color + 1) as u8);
                file += 1;
            }
            if file > g.width {
                break;
            }
        }
        if file != g.width {
            return fail(format!(
                "rank {rank_name} ('{text}') has {} {} squares, expected {}",
                if file > g.width { "more than" } else { "only" },
                file.min(g.width),
                g.width
            ));
        }
    }
    Ok(())
}

/// The once-per-game rights of the game's rules (`rules::extension::Right`), written
/// where other games write castling rights: each right's letter, upper case for White
/// (Tamerlane: `S` the royal swap, `C` the citadel exchange, `SCsc` at the start, `-` for
/// none).
fn parse_privileges<const W: usize>(
    game: &Game<W>,
    pos: &mut Position<W>,
    text: &str,
) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    for c in text.chars() {
        let right = game
            .rules
            .rights()
            .find(|r| r.letter == c.to_ascii_uppercase());
        let Some(right) = right else {
            let known: Vec<String> = game
                .rules
                .rights()
                .map(|r| format!("{}: {}", r.letter, r.name))
                .collect();
            return fail(format!(
                "rights field has the bad letter '{c}' ({}, upper case for White)",
                known.join(", ")
            ));
        };
        pos.rule_state |= right.bits[usize::from(c.is_ascii_lowercase())];
    }
    Ok(())
}

fn parse_castling<const W: usize>(
    game: &Game<W>,
    pos: &mut Position<W>,
    text: &str,
) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    if !game.spec.castling {
        return fail(format!(
            "castling rights '{text}' in {}, which has no castling",
            game.spec.name
        ));
    }
    let g = &game.geo;
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() { 0 } else { 1 };
        let royals = pos.royals(game, color);
        let Some(king) = royals.first().filter(|_| !royals.more_than_one()) else {
            return fail(format!(
                "castling right '{c}' needs exactly one royal piece"
            ));
        };
        let rank = g.rank(king);
        let rooks: Vec<usize> = (0..g.width)
            .map(|f| rank * g.width + f)
            .filter(|&sq| {
                let code = pos.board[sq];
                code != 0 && game.castlers[color].contains(&(code as usize - 1))
            })
            .collect();
        let kf = g.file(king);
        let rook = match c.to_ascii_lowercase() {
            'k' => rooks.iter().rev().find(|&&r| g.file(r) > kf),
            'q' => rooks.iter().find(|&&r| g.file(r) < kf),
            f @ 'a'..='q' => rooks
                .iter()
                .find(|&&r| g.file(r) == (f as u8 - b'a') as usize),
            _ => return fail(format!("castling field has the bad letter '{c}'")),
        };
        let Some(&rook) = rook else {
            return fail(format!("castling right '{c}' has no rook to castle with"));
        };
        let index = 2 * color + usize::from(g.file(rook) < kf);
        pos.castle_rooks[index] = rook as u16;
        pos.castling |= 1 << index;
    }
    Ok(())
}

fn parse_ep<const W: usize>(
    game: &Game<W>,
    pos: &mut Position<W>,
    text: &str,
) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    if !game.spec.en_passant {
        return fail(format!(
            "en-passant square '{text}' in {}, which has no en passant",
            game.spec.name
        ));
    }
    let g = &game.geo;
    let squares = split_squares(text)
        .iter()
        .map(|name| g.parse_square(name).map_err(|e| FenError(e.0)))
        .collect::<Result<Vec<usize>, FenError>>()?;
    let victim = ep_victim(game, pos, &squares);
    let Some(victim) = victim.filter(|_| squares.len() <= MAX_EP_SQUARES) else {
        return fail(format!(
            "en-passant square {text} is not behind a pawn that just stepped two squares"
        ));
    };
    for sq in squares {
        if pos.pawn_can_take_on(game, pos.side, sq) {
            pos.ep.set(sq);
            pos.ep_victim = victim as u16;
        }
    }
    Ok(())
}

/// Splits an en-passant field into square names: `e3`, or several run together (`e3e4`).
fn split_squares(text: &str) -> Vec<&str> {
    let starts: Vec<usize> = text
        .char_indices()
        .filter(|&(i, c)| {
            c.is_ascii_lowercase() && (i == 0 || text[..i].ends_with(|p: char| p.is_ascii_digit()))
        })
        .map(|(i, _)| i)
        .collect();
    starts
        .iter()
        .enumerate()
        .map(|(k, &i)| &text[i..starts.get(k + 1).copied().unwrap_or(text.len())])
        .collect()
}

/// The pawn that skipped the en-passant `squares`: the first piece on their file beyond
/// them, seen from the side to move, which must be an enemy pawn; the squares must be
/// empty and on one file.
fn ep_victim<const W: usize>(
    game: &Game<W>,
    pos: &Position<W>,
    squares: &[usize],
) -> Option<usize> {
    let g = &game.geo;
    let file = g.file(*squares.first()?);
    if squares
        .iter()
        .any(|&s| g.file(s) != file || pos.board[s] != 0)
    {
        return None;
    }
    // The victim stands beyond the skipped squares, seen from the side to move.
    let (dy, start) = if pos.side == WHITE {
        (-1, *squares.iter().min_by_key(|&&s| g.rank(s))?)
    } else {
        (1, *squares.iter().max_by_key(|&&s| g.rank(s))?)
    };
    // A pawn skips at most `MAX_EP_SQUARES` squares, some of them perhaps not e.p. squares.
    let sq = (1..=MAX_EP_SQUARES as i32)
        .filter_map(|k| g.offset(start, 0, k * dy))
        .find(|&sq| pos.board[sq] != 0)?;
    let code = pos.board[sq];
    (crate::rules::position::color_of(code) != pos.side && game.is_pawn[code as usize - 1])
        .then_some(sq)
}

/// Positions that no game can reach under check rules are refused: a side without a
/// royal, or the side not to move with its only royal attacked.
fn check_royals<const W: usize>(game: &Game<W>, pos: &Position<W>) -> Result<(), FenError> {
    if !game.uses_check() {
        return Ok(());
    }
    for color in 0..2 {
        if pos.royals(game, color).is_empty() {
            let name = &game.spec.pieces[game.royals[color][0] / 2].name;
            return fail(format!(
                "{} has no {name}",
                if color == WHITE { "White" } else { "Black" }
            ));
        }
    }
    let them = pos.side ^ 1;
    let royals: Bitboard<W> = pos.royals(game, them);
    if let Some(k) = royals.first().filter(|_| !royals.more_than_one())
        && game.attacked(pos, k, pos.side)
    {
        return fail("the side not to move is in check");
    }
    Ok(())
}
