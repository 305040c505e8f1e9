//! SFEN positions and USI move text, as Shogi programs and lishogi (its `shogiops`
//! library) write them, for USI (`protocol::uci` in its USI dialect).
//!
//! Squares are named from sente's (White's, the first player's) view: the file by its
//! number counted from the right (`1` is sente's right-hand file, `12` the left-hand one in
//! Chu Shogi), then the rank by its letter counted from the top (`a` is gote's back rank).
//! So kirin's `a1` is `12l` in Chu Shogi and `9i` in Sho Shogi.
//!
//! A move is its start square, the square captured on the way by a move of two legs (a
//! Lion's double move, igui or pass), and its end square, then `+` when it promotes:
//! `7g7f`, `8h2b+`, `5f5e5d` (a Lion taking on 5e and going on to 5d), `5f5e5f` (taking
//! on 5e and returning: igui; or, with 5e empty, the pass). A drop is `P*5e`. Input is
//! matched against the legal moves through kirin's coordinate notation, so the same texts
//! are accepted that it accepts: a two-step move through an empty square is the jump it
//! amounts to, and a trailing `=` declines a promotion.
//!
//! An SFEN is the board as a FEN writes it (the same ranks and letters, `+` before a
//! promoted piece), the side to move (`b` sente, `w` gote), a third field and the number of
//! the move (1 for the first move, counting each side's move). In games with pieces in
//! hand the third field holds them; kirin offers USI for games without (it refuses the
//! others with `SfenError::Unsupported`), and there the field is `-`, except that a game
//! whose rules keep a square from the last move writes it (Chu Shogi: where a non-Lion
//! just took a Lion, as lishogi does).

use crate::core::{Move, MoveKind, WHITE, type_of_piece};
use crate::rules::fen::FenError;
use crate::rules::game::Game;
use crate::rules::notation::MoveTextError;
use crate::rules::position::Position;
use thiserror::Error;

/// Why an SFEN was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SfenError {
    #[error("empty SFEN")]
    Empty,
    #[error("{0}")]
    Unsupported(String),
    #[error("the board has '{0}', a character SFEN does not use")]
    BoardText(char),
    #[error("side to move '{0}' is not b or w")]
    Side(String),
    #[error("'{0}' is not '-' or a square of the board")]
    Third(String),
    #[error("'{field}' {why}")]
    Field { field: String, why: &'static str },
    #[error("move number '{0}' is not a number from 1")]
    MoveNumber(String),
    #[error("unexpected field '{0}'")]
    UnexpectedField(String),
    #[error("{0}")]
    Position(FenError),
}

impl<const W: usize> Game<W> {
    /// Whether every position of the game fits an SFEN: refused with the reason for games
    /// with castling, en passant, pieces in hand, once-per-game rights or turns of several
    /// actions, which SFEN cannot carry (they have UCI and CECP).
    pub fn sfen_support(&self) -> Result<(), SfenError> {
        let lacks = |what: &str| {
            Err(SfenError::Unsupported(format!(
                "{} has {what}, which SFEN cannot carry; play it over UCI or CECP",
                self.spec.name
            )))
        };
        if self.spec.castling {
            return lacks("castling");
        }
        if self.spec.en_passant {
            return lacks("en passant");
        }
        if self.reserves.exist() {
            return lacks("pieces in hand");
        }
        if self.has_privileges() {
            return lacks("once-per-game rights");
        }
        if self.multi_action {
            return lacks("turns of several actions");
        }
        Ok(())
    }

    /// The USI name of `sq`: file counted from sente's right, rank letter from the top.
    pub fn usi_square(&self, sq: usize) -> String {
        let g = &self.geo;
        let file = g.width - g.file(sq);
        let rank = (b'a' + (g.height - 1 - g.rank(sq)) as u8) as char;
        format!("{file}{rank}")
    }

    /// kirin's name of the square named `text` in USI, if it is one of the board.
    fn coordinate_square(&self, text: &str) -> Option<String> {
        let g = &self.geo;
        // The rank letter is the last character; the text is untrusted and may not be ASCII.
        let (digits, letter) = text.split_at(text.char_indices().last()?.0);
        let file: usize = digits.parse().ok()?;
        let &[letter] = letter.as_bytes() else {
            return None;
        };
        if !(1..=g.width).contains(&file) || !letter.is_ascii_lowercase() {
            return None;
        }
        let from_top = (letter - b'a') as usize;
        if from_top >= g.height {
            return None;
        }
        let sq = (g.height - 1 - from_top) * g.width + (g.width - file);
        Some(g.name(sq))
    }

    /// The USI text of `m`.
    pub fn usi_move_text(&self, m: Move) -> String {
        let sq = |s: usize| self.usi_square(s);
        let mut text = match m.kind() {
            MoveKind::Pass => format!("{}{}{}", sq(m.from()), sq(m.aux()), sq(m.from())),
            MoveKind::TwoLeg => format!("{}{}{}", sq(m.from()), sq(m.aux()), sq(m.to())),
            MoveKind::Drop => {
                let letter = self.spec.pieces[m.aux()].letter.to_ascii_uppercase();
                format!("{letter}*{}", sq(m.to()))
            }
            MoveKind::MultiLeg => std::iter::once(m.from())
                .chain(self.captures_on_the_way(m).iter().map(|&s| s as usize))
                .chain(std::iter::once(m.to()))
                .map(sq)
                .collect(),
            MoveKind::Castle if self.castling_onto_rook => {
                format!("{}{}", sq(m.from()), sq(m.aux()))
            }
            // No game offered over USI has moves of its own rules; kirin's text stands.
            MoveKind::Rule => return self.rule_move_text(m),
            _ => format!("{}{}", sq(m.from()), sq(m.to())),
        };
        if let Some(p) = m.promotes_to() {
            let letter = &self.spec.pieces[type_of_piece(p)].letter;
            if letter.starts_with('+') {
                text.push('+');
            } else {
                text += letter;
            }
        }
        text
    }

    /// kirin's coordinate text of the move written `text` in USI (not yet checked for
    /// legality): `7g7f` is `f3f4` in Sho Shogi, `5f5e5d` the legs `h7h8,h8h9`.
    pub fn usi_to_coordinates(&self, text: &str) -> Result<String, MoveTextError> {
        let bad = || MoveTextError::Illegal(text.to_string());
        if text.is_empty() {
            return Err(MoveTextError::Empty);
        }
        if !text.is_ascii() {
            return Err(bad());
        }
        if let Some((piece, square)) = text.split_once('*') {
            let square = self.coordinate_square(square).ok_or_else(bad)?;
            return Ok(format!("{piece}@{square}"));
        }
        let bytes = text.as_bytes();
        let mut squares = Vec::new();
        let mut i = 0;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i == bytes.len() || i - start > 2 {
                return Err(bad());
            }
            squares.push(self.coordinate_square(&text[start..=i]).ok_or_else(bad)?);
            i += 1;
        }
        if squares.len() < 2 {
            return Err(bad());
        }
        let legs: Vec<String> = squares
            .windows(2)
            .map(|w| format!("{}{}", w[0], w[1]))
            .collect();
        Ok(legs.join(",") + &text[i..])
    }

    /// The legal move written `text` in USI.
    pub fn parse_usi_move(&self, pos: &mut Position<W>, text: &str) -> Result<Move, MoveTextError> {
        let coordinates = self.usi_to_coordinates(text.trim())?;
        self.parse_move(pos, &coordinates).map_err(|e| match e {
            MoveTextError::Illegal(_) => MoveTextError::Illegal(text.trim().to_string()),
            other => other,
        })
    }

    /// The position as SFEN.
    pub fn sfen(&self, pos: &Position<W>) -> String {
        let fen = pos.to_fen(self);
        let board = fen.split_whitespace().next().unwrap_or_default();
        let board = board.split_once('[').map_or(board, |(b, _)| b);
        let side = if pos.side == WHITE { "b" } else { "w" };
        let third = self
            .marked_square(pos)
            .map_or_else(|| "-".to_string(), |sq| self.usi_square(sq));
        let number = 2 * pos.fullmove.max(1) - u32::from(pos.side == WHITE);
        format!("{board} {side} {third} {number}")
    }

    /// Parses an SFEN (`startpos` is not one: the caller knows the start).
    pub fn parse_sfen(&self, text: &str) -> Result<Position<W>, SfenError> {
        self.sfen_support()?;
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(SfenError::Empty)?;
        if let Some(bad) = board
            .chars()
            .find(|&c| !(c.is_ascii_alphanumeric() || c == '+' || c == '/'))
        {
            return Err(SfenError::BoardText(bad));
        }
        let side = match fields.next() {
            None | Some("b") => "w",
            Some("w") => "b",
            Some(other) => return Err(SfenError::Side(other.to_string())),
        };
        let third = fields.next().unwrap_or("-");
        let number = match fields.next() {
            None => 1,
            Some(n) => n
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| SfenError::MoveNumber(n.to_string()))?,
        };
        if let Some(extra) = fields.next() {
            return Err(SfenError::UnexpectedField(extra.to_string()));
        }
        let fullmove = number.div_ceil(2);
        let fen = format!("{board} {side} 0 {fullmove}");
        let mut pos = Position::from_fen(self, &fen).map_err(SfenError::Position)?;
        if third != "-" {
            let square = self
                .coordinate_square(third)
                .and_then(|name| self.geo.parse_square(&name).ok())
                .ok_or_else(|| SfenError::Third(third.to_string()))?;
            if !self.set_marked_square(&mut pos, square) {
                return Err(SfenError::Field {
                    field: third.to_string(),
                    why: "names a square, but this game keeps none from the last move",
                });
            }
            pos.key = pos.compute_key(self);
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::MoveList;
    use crate::variants::{self, AnyGame};

    const CHU_START_SFEN: &str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";
    const SHO_START_SFEN: &str =
        "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1";

    #[test]
    fn start_positions_are_lishogis_and_fairy_stockfishs() {
        for (name, sfen) in [("chu", CHU_START_SFEN), ("sho", SHO_START_SFEN)] {
            let game = AnyGame::new(variants::find(name).unwrap()).unwrap();
            crate::with_width!(&game, g => {
                let pos = crate::rules::Position::from_fen(g, &g.spec.start).unwrap();
                assert_eq!(g.sfen(&pos), sfen);
                let back = g.parse_sfen(sfen).unwrap();
                assert!(back == pos, "{name}");
            });
        }
    }

    #[test]
    fn squares_count_files_from_the_right_and_ranks_from_the_top() {
        let game = AnyGame::new(variants::find("chu").unwrap()).unwrap();
        crate::with_width!(&game, g => {
            let a1 = g.geo.parse_square("a1").unwrap();
            assert_eq!(g.usi_square(a1), "12l");
            let l12 = g.geo.parse_square("l12").unwrap();
            assert_eq!(g.usi_square(l12), "1a");
            assert_eq!(g.usi_to_coordinates("12l1a").unwrap(), "a1l12");
            assert_eq!(g.usi_to_coordinates("5f5e5d+").unwrap(), "h7h8,h8h9+");
            assert_eq!(g.usi_to_coordinates("P*5e").unwrap(), "P@h8");
            for bad in ["", "13a1a", "1m1a", "5f", "5f5e5", "123a1a", "ｱ"] {
                assert!(g.usi_to_coordinates(bad).is_err(), "{bad}");
            }
        });
    }

    /// Every legal move along random games of Chu and Sho is read back from its USI text.
    #[test]
    fn every_move_reads_back_from_its_text() {
        use rand::{Rng, SeedableRng};
        for name in ["chu", "sho"] {
            let game = AnyGame::new(variants::find(name).unwrap()).unwrap();
            crate::with_width!(&game, g => {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
                for _ in 0..4 {
                    let mut pos = crate::rules::Position::from_fen(g, &g.spec.start).unwrap();
                    for _ in 0..150 {
                        let mut list = MoveList::new();
                        g.game_moves(&mut pos, &mut list);
                        if list.is_empty() || g.outcome(&mut pos).is_some() {
                            break;
                        }
                        for &m in list.iter() {
                            let text = g.usi_move_text(m);
                            assert_eq!(g.parse_usi_move(&mut pos, &text), Ok(m), "{name} {text}");
                        }
                        let sfen = g.sfen(&pos);
                        let back = g.parse_sfen(&sfen).unwrap();
                        assert_eq!(g.sfen(&back), sfen);
                        let m = list[rng.gen_range(0..list.len())];
                        pos.make(g, m);
                    }
                }
            });
        }
    }

    #[test]
    fn bad_sfens_are_refused() {
        let game = AnyGame::new(variants::find("chu").unwrap()).unwrap();
        crate::with_width!(&game, g => {
            for bad in [
                "",
                "lfcsgekgscfl b - 1",
                "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL x - 1",
                "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b 13a 1",
                "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 0",
                "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL[P] b - 1",
                "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1 x",
                // Found by the fuzzer: a third field ending in a character of several bytes.
                "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b 6\u{e9} 1",
                "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b \u{e9} 1",
            ] {
                assert!(g.parse_sfen(bad).is_err(), "{bad}");
            }
            // The third field: the square of a Lion just taken by a non-Lion.
            let marked = CHU_START_SFEN.replace(" b - 1", " w 6e 2");
            let pos = g.parse_sfen(&marked).unwrap();
            assert_eq!(g.sfen(&pos), marked);
        });
    }

    #[test]
    fn games_sfen_cannot_carry_are_refused() {
        for (name, fits) in [
            ("chess", false),
            ("littlegreat", false),
            ("chu", true),
            ("sho", true),
        ] {
            let game = AnyGame::new(variants::find(name).unwrap()).unwrap();
            crate::with_width!(&game, g => assert_eq!(g.sfen_support().is_ok(), fits, "{name}"));
        }
    }
}
