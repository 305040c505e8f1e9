//! FEN for boards up to 17x17, in the conventions of Fairy-Stockfish: ranks from the top,
//! multi-digit empty runs, `+` before a promoted piece, `*` for holes, optional castling,
//! en-passant and counter fields (`w 0 1` as well as `w - - 0 1`), and the reserves in
//! brackets after the board (`[QRp]`: White's pieces in upper case, Black's in lower
//! case). kirin adds two things no other program writes: the neutral reserve after a `|`
//! inside the brackets (`[Pp|NB]`), and a carrier's passenger in parentheses after it
//! (`M(n)`, `rules::stacks`). Every problem is reported as a `FenError` naming it;
//! nothing here panics.

use crate::core::{Bitboard, WHITE};
use crate::rules::game::Game;
use crate::rules::position::{MAX_EP_SQUARES, Position, board_code};
use crate::rules::reserves::{NEUTRAL, PRISONERS};

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error(
        "side to move '{0}' is not w or b (with +N for the actions made in the turn and :STATE for what it still owes)"
    )]
    Side(String),
    #[error("unexpected field '{0}'")]
    UnexpectedField(String),
    #[error("{what} '{text}' is not a number")]
    Number { what: &'static str, text: String },
    #[error("expected {expected} ranks for {variant}, found {found}")]
    RankCount {
        variant: String,
        expected: usize,
        found: usize,
    },
    /// A rank of the board field is wrong: bad counts, letters, holes or passengers.
    #[error("rank {rank}: {why}")]
    Rank { rank: usize, why: String },
    /// The reserves in brackets are wrong.
    #[error("pieces in hand: {0}")]
    Reserve(String),
    /// The castling or rights field is wrong.
    #[error("{0}")]
    Rights(String),
    #[error("{0}")]
    EnPassant(String),
    /// A side has no royal piece, or the side not to move is in check.
    #[error("{0}")]
    Royals(String),
    /// The position could have more moves than a move list holds (`rules::capacity`).
    #[error(
        "{side} has too many pieces for kirin: they could have {bound} moves in one \
         position, and a position may have at most {max}"
    )]
    Capacity {
        side: &'static str,
        bound: usize,
        max: usize,
    },
}

/// The FEN dialects kirin reads and writes; they differ only in two fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FenStyle {
    /// kirin's own (Fairy-Stockfish's conventions): ranks counted from 1, the
    /// once-per-game rights of a game's rules as letters in the castling field.
    #[default]
    Kirin,
    /// XBoard's (CECP `setup` and `setboard`): XBoard counts the ranks of a board with
    /// exactly ten ranks from 0, so the en-passant squares are named so there; and it would
    /// read the letters of a game's rights (Tamerlane's royal swaps) as castling rights and
    /// cannot carry them, so they are left out when written, and a `-` read means all of
    /// them still unused (XBoard writes `-` even for the start position it was given).
    Xboard,
}

impl FenStyle {
    /// How many to add to a rank number written in this style to get kirin's.
    fn rank_shift(self, height: usize) -> usize {
        usize::from(self == FenStyle::Xboard && height == 10)
    }
}

fn rank_error<T>(rank: usize, why: impl Into<String>) -> Result<T, FenError> {
    Err(FenError::Rank {
        rank,
        why: why.into(),
    })
}

impl<const W: usize> Position<W> {
    /// Parses a FEN for `game`.
    pub fn from_fen(game: &Game<W>, text: &str) -> Result<Self, FenError> {
        Self::from_fen_styled(game, text, FenStyle::Kirin)
    }

    /// Parses a FEN for `game` written in `style`.
    pub fn from_fen_styled(game: &Game<W>, text: &str, style: FenStyle) -> Result<Self, FenError> {
        let mut fields = text.split_whitespace();
        let Some(board) = fields.next() else {
            return Err(FenError::Empty);
        };
        let mut pos = Position::empty(game);
        let (board, reserves) = match board.split_once('[') {
            Some((board, rest)) => (board, Some(rest)),
            None => (board, None),
        };
        parse_board(game, &mut pos, board)?;
        if let Some(text) = reserves {
            parse_reserves(game, &mut pos, text)?;
        }
        let side_field = fields.next().unwrap_or("w");
        let (side_text, turn_state) = side_field.split_once(':').unwrap_or((side_field, ""));
        (pos.side, pos.actions) = parse_side(game, side_text)?;
        let rest: Vec<&str> = fields.collect();
        let counters_at = rest
            .iter()
            .position(|f| f.chars().all(|c| c.is_ascii_digit()))
            .unwrap_or(rest.len());
        if counters_at > 2 {
            return Err(FenError::UnexpectedField(rest[2].to_string()));
        }
        if let Some(c) = rest.first().filter(|_| counters_at >= 1) {
            if game.has_privileges() && style == FenStyle::Xboard && *c == "-" {
                pos.rule_state = game.rules.all_rights;
            } else if game.has_privileges() {
                // A game may have both: its rules' letters are rights, the rest castling.
                let is_right = |ch: &char| {
                    game.rules
                        .rights()
                        .any(|r| r.letter == ch.to_ascii_uppercase())
                };
                let rights: String = c.chars().filter(is_right).collect();
                let castling: String = c.chars().filter(|ch| !is_right(ch)).collect();
                if game.spec.castling && !castling.is_empty() {
                    parse_castling(game, &mut pos, &castling)?;
                    if !rights.is_empty() {
                        parse_privileges(game, &mut pos, &rights)?;
                    }
                } else {
                    parse_privileges(game, &mut pos, c)?;
                }
            } else {
                parse_castling(game, &mut pos, c)?;
            }
        } else if game.has_privileges() {
            pos.rule_state = game.rules.all_rights;
        }
        // The state of a turn in progress comes after the rights its rules keep (and
        // after the reserves, which a rule's state may refer to).
        if !turn_state.is_empty() && !game.read_turn_state(&mut pos, turn_state) {
            return Err(FenError::Side(side_field.to_string()));
        }
        if let Some(e) = rest.get(1).filter(|_| counters_at >= 2) {
            parse_ep(game, &mut pos, e, style)?;
        }
        let counters = &rest[counters_at..];
        if counters.len() > 2 {
            return Err(FenError::UnexpectedField(counters[2].to_string()));
        }
        let number = |s: &str, what: &'static str| {
            s.parse::<u32>().map_err(|_| FenError::Number {
                what,
                text: s.to_string(),
            })
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
        self.to_fen_styled(game, FenStyle::Kirin)
    }

    /// Writes the position as FEN in `style`.
    pub fn to_fen_styled(&self, game: &Game<W>, style: FenStyle) -> String {
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
                    if self.passenger(sq) != 0 {
                        out += &format!("({})", piece_symbol(game, self.passenger(sq)));
                    }
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if game.reserves.exist() {
            out += &self.reserves_field(game);
        }
        out += if self.side == WHITE { " w" } else { " b" };
        if self.actions > 0 {
            out += &format!("+{}", self.actions);
        }
        // A rule's state may outlast a turn's actions (an offer awaiting an answer).
        let state = game.turn_state_text(self);
        if !state.is_empty() {
            out.push(':');
            out += &state;
        }
        out.push(' ');
        let mut castling = String::new();
        for (i, c) in ['K', 'Q', 'k', 'q'].into_iter().enumerate() {
            if self.castling >> i & 1 != 0 {
                castling.push(self.castling_letter(game, i, c));
            }
        }
        let rights_written = style != FenStyle::Xboard;
        for color in crate::core::Color::ALL
            .into_iter()
            .filter(|_| rights_written)
        {
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
            let shift = style.rank_shift(g.height);
            self.ep.iter().for_each(|sq| {
                out.push((b'a' + g.file(sq) as u8) as char);
                out += &(g.rank(sq) + 1 - shift).to_string();
            });
        }
        out += &format!(" {} {}", self.halfmove, self.fullmove);
        out
    }
}

impl<const W: usize> Position<W> {
    /// The letter of castling right `i`: `K`/`Q` (`k`/`q` for Black) when its rook is the
    /// outermost castling piece on that side of the royal, else the rook's file letter
    /// (X-FEN), which the parser reads back as that very rook.
    fn castling_letter(&self, game: &Game<W>, i: usize, plain: char) -> char {
        let g = &game.geo;
        let color = crate::core::Color::from_index(i / 2);
        let rook = self.castle_rooks[i] as usize;
        let rank = g.rank(rook);
        let outward: Vec<usize> = if i.is_multiple_of(2) {
            (g.file(rook) + 1..g.width).collect()
        } else {
            (0..g.file(rook)).collect()
        };
        let outermost = !outward.into_iter().any(|f| {
            let code = self.board[rank * g.width + f];
            code != 0 && game.castlers[color].contains(&(code as usize - 1))
        });
        if outermost {
            return plain;
        }
        let file = (b'a' + g.file(rook) as u8) as char;
        if color == WHITE {
            file.to_ascii_uppercase()
        } else {
            file
        }
    }

    /// The reserves in brackets: White's pieces, Black's, the neutral ones after `|` and
    /// the prisoners after `:` (Black's pieces held by White, then White's held by Black).
    fn reserves_field(&self, game: &Game<W>) -> String {
        let symbols = |r| self.reserve_symbols(game, r).concat();
        let mut out = String::from("[");
        out += &symbols(WHITE.index());
        out += &symbols(crate::core::BLACK.index());
        if game.reserves.count == NEUTRAL + 1 {
            let neutral = symbols(NEUTRAL);
            if !neutral.is_empty() {
                out.push('|');
                out += &neutral;
            }
        }
        if game.reserves.count > PRISONERS {
            let held = symbols(PRISONERS) + &symbols(PRISONERS + 1);
            if !held.is_empty() {
                out.push(':');
                out += &held;
            }
        }
        out.push(']');
        out
    }
}

/// The FEN symbol of a board code: upper case for White.
pub fn piece_symbol<const W: usize>(game: &Game<W>, code: u8) -> String {
    let pc = code as usize - 1;
    let letter = &game.spec.pieces[pc / 2].letter;
    if crate::core::color_of_piece(pc) == WHITE {
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
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != g.height {
        return Err(FenError::RankCount {
            variant: game.spec.name.clone(),
            expected: g.height,
            found: ranks.len(),
        });
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
                let n: usize = match run.parse() {
                    Ok(n) if n > 0 && n <= g.width => n,
                    _ => {
                        return rank_error(
                            rank_name,
                            format!("an empty count of {run} on a board {} wide", g.width),
                        );
                    }
                };
                for f in file..(file + n).min(g.width) {
                    if g.holes[rank * g.width + f] {
                        return rank_error(
                            rank_name,
                            format!(
                                "square {} is a hole, write it as '*'",
                                g.name(rank * g.width + f)
                            ),
                        );
                    }
                }
                file += n;
            } else if c == '*' {
                if file < g.width && !g.holes[rank * g.width + file] {
                    return rank_error(
                        rank_name,
                        format!(
                            "'*' on {}, which is not a hole of {}",
                            g.name(rank * g.width + file),
                            game.spec.name
                        ),
                    );
                }
                file += 1;
                k += 1;
            } else if c == '~' {
                k += 1; // Fairy-Stockfish's "promoted" marker carries no rule here.
                continue;
            } else {
                let in_rank = |why| FenError::Rank {
                    rank: rank_name,
                    why,
                };
                let code = read_piece(game, &chars, &mut k).map_err(in_rank)?;
                let passenger = if chars.get(k) == Some(&'(') {
                    k += 1;
                    let p = read_piece(game, &chars, &mut k).map_err(in_rank)?;
                    if chars.get(k) != Some(&')') {
                        return rank_error(rank_name, "a passenger must be closed by ')'");
                    }
                    k += 1;
                    Some(p)
                } else {
                    None
                };
                if file >= g.width {
                    file += 1;
                    continue;
                }
                let sq = rank * g.width + file;
                if g.holes[sq] {
                    return rank_error(rank_name, format!("a piece on the hole {}", g.name(sq)));
                }
                pos.put(sq, code);
                if let Some(p) = passenger {
                    check_passenger(game, code, p).map_err(in_rank)?;
                    pos.carried[sq] = p;
                }
                file += 1;
            }
            if file > g.width {
                break;
            }
        }
        if file != g.width {
            return rank_error(
                rank_name,
                format!(
                    "'{text}' has {} {} squares, expected {}",
                    if file > g.width { "more than" } else { "only" },
                    file.min(g.width),
                    g.width
                ),
            );
        }
    }
    Ok(())
}

/// The side to move, `w` or `b`, and in games whose turns have several actions the
/// actions already made in the turn after a `+` (`w+1`: White makes its second action).
fn parse_side<const W: usize>(
    game: &Game<W>,
    text: &str,
) -> Result<(crate::core::Color, u8), FenError> {
    let bad = || FenError::Side(text.to_string());
    let (side, actions) = match text.split_once('+') {
        Some((side, n)) => (side, n.parse::<u32>().map_err(|_| bad())?),
        None => (text, 0),
    };
    // A rule may keep the turn (an ascension before the move): up to 7 actions then.
    let most = if game.rules.turns {
        8
    } else {
        game.spec.actions_per_turn
    };
    if actions >= most {
        return Err(bad());
    }
    match side {
        "w" => Ok((WHITE, actions as u8)),
        "b" => Ok((crate::core::BLACK, actions as u8)),
        _ => Err(bad()),
    }
}

/// Reads one piece symbol (`+` and a letter, a letter, a letter with `'` or `!`) at
/// `chars[*k]`, moving `k` past it; returns its board code (upper case: White).
fn read_piece<const W: usize>(game: &Game<W>, chars: &[char], k: &mut usize) -> Result<u8, String> {
    let mut symbol = String::new();
    if chars.get(*k) == Some(&'+') {
        symbol.push('+');
        *k += 1;
    }
    let Some(&l) = chars.get(*k).filter(|l| l.is_ascii_alphabetic()) else {
        return Err(format!(
            "'{}' is not a piece letter",
            chars
                .get(*k)
                .map_or(String::from("end of rank"), |c| c.to_string())
        ));
    };
    symbol.push(l.to_ascii_lowercase());
    *k += 1;
    if let Some(&d) = chars.get(*k).filter(|&&d| d == '\'' || d == '!') {
        symbol.push(d);
        *k += 1;
    }
    let Some(t) = game.spec.piece_index(&symbol) else {
        let written = if l.is_ascii_uppercase() {
            symbol.to_ascii_uppercase()
        } else {
            symbol
        };
        return Err(format!("'{written}' is not a piece of {}", game.spec.name));
    };
    let color = if l.is_ascii_uppercase() {
        crate::core::Color::White
    } else {
        crate::core::Color::Black
    };
    Ok(board_code(t, color))
}

/// A passenger must ride a carrier of its own colour and not be a carrier itself.
fn check_passenger<const W: usize>(
    game: &Game<W>,
    carrier: u8,
    passenger: u8,
) -> Result<(), String> {
    let is_carrier = |code: u8| game.spec.pieces[(code as usize - 1) / 2].carrier;
    let symbol = |code| piece_symbol(game, code);
    if !is_carrier(carrier) {
        return Err(format!(
            "'{}' carries nothing: it is not a carrier",
            symbol(carrier)
        ));
    }
    if is_carrier(passenger) || (carrier ^ passenger) & 1 != 0 {
        return Err(format!(
            "'{}' cannot ride on '{}' (a passenger is a friendly non-carrier)",
            symbol(passenger),
            symbol(carrier)
        ));
    }
    Ok(())
}

/// The parts of the reserves' text.
enum Part {
    Sides,
    Neutral,
    Prisoners,
}

/// The reserves in brackets (the text after `[`): pieces of White's reserve in upper case,
/// Black's in lower case, the neutral reserve's after `|`. `-` or nothing for none.
fn parse_reserves<const W: usize>(
    game: &Game<W>,
    pos: &mut Position<W>,
    text: &str,
) -> Result<(), FenError> {
    let Some(inner) = text.strip_suffix(']') else {
        return Err(FenError::Reserve(format!("'[{text}' has no closing ']'")));
    };
    if inner.is_empty() || inner == "-" {
        return Ok(());
    }
    if !game.reserves.exist() {
        return Err(FenError::Reserve(format!(
            "'{inner}': {} has no reserves",
            game.spec.name
        )));
    }
    let (inner, prisoners) = match inner.split_once(':') {
        Some((inner, held)) => (inner, Some(held)),
        None => (inner, None),
    };
    if prisoners.is_some() && game.reserves.count <= PRISONERS {
        return Err(FenError::Reserve(format!(
            "'{text}': {} has no prisoners",
            game.spec.name
        )));
    }
    let (sides, neutral) = match inner.split_once('|') {
        Some((sides, neutral)) => (sides, Some(neutral)),
        None => (inner, None),
    };
    if neutral.is_some() && game.reserves.count <= NEUTRAL {
        return Err(FenError::Reserve(format!(
            "'{inner}': {} has no neutral reserve",
            game.spec.name
        )));
    }
    let parts = [
        (sides, Part::Sides),
        (neutral.unwrap_or(""), Part::Neutral),
        (prisoners.unwrap_or(""), Part::Prisoners),
    ];
    for (part, kind) in parts {
        let chars: Vec<char> = part.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let code = read_piece(game, &chars, &mut k).map_err(FenError::Reserve)?;
            let (t, color) = ((code as usize - 1) / 2, (code as usize - 1) & 1);
            let reserve = match kind {
                Part::Sides => color,
                Part::Neutral => NEUTRAL,
                // A piece is held by the other side.
                Part::Prisoners => PRISONERS + (color ^ 1),
            };
            if pos.in_reserve(game, reserve, t) as usize >= game.reserves.max_count {
                return Err(FenError::Reserve(format!(
                    "more than {} of '{}' in one reserve",
                    game.reserves.max_count,
                    piece_symbol(game, code)
                )));
            }
            let mut unused = 0;
            pos.add_to_reserve(game, reserve, t, &mut unused);
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
            return Err(FenError::Rights(format!(
                "rights field has the bad letter '{c}' ({}, upper case for White)",
                known.join(", ")
            )));
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
        return Err(FenError::Rights(format!(
            "castling rights '{text}' in {}, which has no castling",
            game.spec.name
        )));
    }
    let g = &game.geo;
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() {
            WHITE
        } else {
            crate::core::BLACK
        };
        let royals = pos.royals(game, color);
        let Some(king) = royals.first().filter(|_| !royals.more_than_one()) else {
            return Err(FenError::Rights(format!(
                "castling right '{c}' needs exactly one royal piece"
            )));
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
            _ => {
                return Err(FenError::Rights(format!(
                    "castling field has the bad letter '{c}'"
                )));
            }
        };
        let Some(&rook) = rook else {
            return Err(FenError::Rights(format!(
                "castling right '{c}' has no rook to castle with"
            )));
        };
        let index = 2 * color.index() + usize::from(g.file(rook) < kf);
        pos.castle_rooks[index] = rook as u16;
        pos.castling |= 1 << index;
    }
    Ok(())
}

fn parse_ep<const W: usize>(
    game: &Game<W>,
    pos: &mut Position<W>,
    text: &str,
    style: FenStyle,
) -> Result<(), FenError> {
    if text == "-" {
        return Ok(());
    }
    if !game.spec.en_passant {
        return Err(FenError::EnPassant(format!(
            "en-passant square '{text}' in {}, which has no en passant",
            game.spec.name
        )));
    }
    let g = &game.geo;
    let squares = split_squares(text)
        .iter()
        .map(|name| {
            let name = kirin_square_name(name, style.rank_shift(g.height));
            g.parse_square(&name).map_err(|e| FenError::EnPassant(e.0))
        })
        .collect::<Result<Vec<usize>, FenError>>()?;
    let victim = ep_victim(game, pos, &squares);
    let Some(victim) = victim.filter(|_| squares.len() <= MAX_EP_SQUARES) else {
        return Err(FenError::EnPassant(format!(
            "en-passant square {text} is not behind a pawn that just stepped two squares"
        )));
    };
    for sq in squares {
        if pos.pawn_can_take_on(game, pos.side, sq) {
            pos.ep.set(sq);
            pos.ep_victim = victim as u16;
        }
    }
    Ok(())
}

/// A square's name with `shift` added to its rank number (a name that is none is kept,
/// for `parse_square` to refuse).
fn kirin_square_name(name: &str, shift: usize) -> String {
    let digits = name.trim_start_matches(|c: char| c.is_ascii_lowercase());
    match digits.parse::<usize>() {
        Ok(n) if shift > 0 => format!("{}{}", &name[..name.len() - digits.len()], n + shift),
        _ => name.to_string(),
    }
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

/// The pawn that skipped the en-passant `squares`: the first enemy pawn on their file
/// beyond them, seen from the side to move (a lame step may have jumped other pieces, as
/// ShoFIDEgi's Vanguard jumps the squares beside its halfway square); the squares must be
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
    (1..=MAX_EP_SQUARES as i32)
        .filter_map(|k| g.offset(start, 0, k * dy))
        .find(|&sq| {
            let code = pos.board[sq];
            code != 0
                && crate::rules::position::color_of(code) != pos.side
                && game.is_pawn[code as usize - 1]
        })
}

/// Positions that no game can reach under check rules are refused: a side without a
/// royal, or the side not to move with its only royal attacked.
fn check_royals<const W: usize>(game: &Game<W>, pos: &Position<W>) -> Result<(), FenError> {
    if !game.uses_check() {
        return Ok(());
    }
    for color in crate::core::Color::ALL {
        if pos.royals(game, color).is_empty() {
            let name = &game.spec.pieces[game.royals[color][0] / 2].name;
            return Err(FenError::Royals(format!("{} has no {name}", color.name())));
        }
    }
    let them = pos.side.opposite();
    let royals: Bitboard<W> = pos.royals(game, them);
    if let Some(k) = royals.first().filter(|_| !royals.more_than_one())
        && game.attacked(pos, k, pos.side)
    {
        return Err(FenError::Royals("the side not to move is in check".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    #[test]
    fn xboard_style_counts_ten_ranks_from_zero_in_the_en_passant_field() {
        let rules = [
            "board=10x10",
            "castling=false",
            "start=k9/10/10/10/10/10/10/10/10/4K5 w - - 0 1",
        ]
        .map(String::from);
        let spec = variants::with_rules("chess", &rules, "").unwrap();
        let game = Game::<2>::new(&spec).unwrap();
        // Black's pawn has just stepped e9-e7; kirin's e8 is XBoard's e7.
        let kirin = "k9/10/10/3Pp5/10/10/10/10/10/4K5 w - e8 0 2";
        let xboard = "k9/10/10/3Pp5/10/10/10/10/10/4K5 w - e7 0 2";
        let pos = Position::from_fen(&game, kirin).unwrap();
        assert_eq!(pos.to_fen_styled(&game, FenStyle::Xboard), xboard);
        let read = Position::from_fen_styled(&game, xboard, FenStyle::Xboard).unwrap();
        assert_eq!(read.to_fen(&game), kirin);
        assert!(
            Position::from_fen_styled(
                &game,
                "k9/10/10/3Pp5/10/10/10/10/10/4K5 w - e10 0 2",
                FenStyle::Xboard
            )
            .is_err()
        );
    }

    #[test]
    fn xboard_style_hides_the_rights_of_a_games_rules() {
        let spec = variants::find("tamerlane").unwrap();
        let game = Game::<3>::new(spec).unwrap();
        let start = Position::from_fen(&game, &spec.start).unwrap();
        let wire = start.to_fen_styled(&game, FenStyle::Xboard);
        assert!(wire.ends_with(" w - - 0 1"), "{wire}");
        // XBoard's `-` leaves every right unused; kirin's `-` has none left.
        let back = Position::from_fen_styled(&game, &wire, FenStyle::Xboard).unwrap();
        assert_eq!(back.to_fen(&game), start.to_fen(&game));
        let none = Position::from_fen(&game, &wire).unwrap();
        assert!(none.to_fen(&game).ends_with(" w - - 0 1"));
    }
}
