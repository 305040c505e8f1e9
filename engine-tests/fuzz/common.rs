//! What the targets share: the compiled built-in games, random legal games chosen by
//! the fuzzer's bytes, and text edits.

use bolero::TypeGenerator;
use kirin::core::Move;
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::{self, AnyGame};
use std::sync::OnceLock;

/// Every built-in game, compiled once per process.
pub fn games() -> &'static [AnyGame] {
    static GAMES: OnceLock<Vec<AnyGame>> = OnceLock::new();
    GAMES.get_or_init(|| {
        variants::builtin()
            .iter()
            .map(|spec| AnyGame::new(spec).expect("built-in games compile"))
            .collect()
    })
}

/// The game `choice` picks.
pub fn game(choice: u8) -> &'static AnyGame {
    let all = games();
    &all[choice as usize % all.len()]
}

/// The most plies of a random game: enough to reach promotions, drops and the games'
/// own moves, few enough that a case of the largest board stays fast.
pub const MAX_PLIES: usize = 40;

/// A position of `g`: one of its start positions (`start` picks), then a legal move for
/// each byte of `plies` (the byte picks among the legal moves), stopping where the game
/// has none. Returns the position and the moves played.
pub fn random_game<const W: usize>(
    g: &Game<W>,
    start: u8,
    plies: &[u8],
) -> (Position<W>, Vec<Move>) {
    let starts: Vec<&str> = std::iter::once(g.spec.start.as_str())
        .chain(g.spec.starts.iter().map(|(_, fen)| fen.as_str()))
        .collect();
    let fen = starts[start as usize % starts.len()];
    let mut pos = Position::from_fen(g, fen).expect("start positions parse");
    let mut played = Vec::new();
    for &choice in plies.iter().take(MAX_PLIES) {
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        if list.is_empty() {
            break;
        }
        let m = list[choice as usize % list.len()];
        pos.make(g, m);
        played.push(m);
    }
    (pos, played)
}

/// One edit of a text. Positions count characters and wrap around the text's length;
/// `with` picks the character put in (`character`).
#[derive(Clone, Debug, TypeGenerator)]
pub enum Edit {
    Replace {
        at: u16,
        with: u8,
    },
    Insert {
        at: u16,
        with: u8,
    },
    Remove {
        at: u16,
    },
    /// Copies `len` characters from `from` to `at` (a rank or a field twice).
    Repeat {
        from: u16,
        len: u8,
        at: u16,
    },
    /// Cuts the text at `at`.
    Truncate {
        at: u16,
    },
}

/// The character a byte stands for: mostly those of FENs, moves and commands (so that
/// an edit tends to make another plausible text), sometimes any character at all.
pub fn character(byte: u8) -> char {
    const COMMON: &[u8] =
        b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/ -+*~[]()=,;:@!?#'\"\t";
    match byte {
        0..=199 => COMMON[byte as usize % COMMON.len()] as char,
        200..=239 => char::from_u32(0x80 + (byte as u32 - 200) * 97).unwrap_or('\u{fffd}'),
        240..=249 => [
            '\0',
            '\r',
            '\n',
            '\u{7f}',
            '\u{2028}',
            '\u{fe0f}',
            '\u{1F600}',
            '\u{10FFFF}',
            'ß',
            '金',
        ][byte as usize - 240],
        _ => char::from_u32(byte as u32 * 4099).unwrap_or('x'),
    }
}

/// `text` with `edits` applied in order; at most `limit` characters come out.
pub fn edited(text: &str, edits: &[Edit], limit: usize) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let wrap = |at: u16, len: usize| if len == 0 { 0 } else { at as usize % len };
        match *edit {
            Edit::Replace { at, with } if !chars.is_empty() => {
                let i = wrap(at, chars.len());
                chars[i] = character(with);
            }
            Edit::Insert { at, with } => {
                let i = wrap(at, chars.len() + 1);
                chars.insert(i, character(with));
            }
            Edit::Remove { at } if !chars.is_empty() => {
                let i = wrap(at, chars.len());
                chars.remove(i);
            }
            Edit::Repeat { from, len, at } if !chars.is_empty() => {
                let start = wrap(from, chars.len());
                let end = (start + len as usize).min(chars.len());
                let piece: Vec<char> = chars[start..end].to_vec();
                let i = wrap(at, chars.len() + 1);
                chars.splice(i..i, piece);
            }
            Edit::Truncate { at } => {
                let i = wrap(at, chars.len() + 1);
                chars.truncate(i);
            }
            _ => {}
        }
        chars.truncate(limit);
    }
    chars.into_iter().collect()
}

/// The first `n` of `items` (all of them if there are fewer).
pub fn first<T>(items: &[T], n: u8) -> &[T] {
    &items[..items.len().min(n as usize)]
}
