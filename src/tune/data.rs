//! The training-position file that `kirin datagen` writes and `kirin label` and `kirin
//! tune` read: one position a line, `FEN <tab> result <tab> score`, the result (1, 0.5
//! or 0) and the score (whole centipawns) both from White's view. Blank lines are
//! skipped; any other line that is not of this form stops the reading with its number.

use crate::rules::{Game, Position};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a data file could not be read.
#[derive(Debug, Error)]
pub enum DataError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {why}")]
    Line {
        path: PathBuf,
        line: usize,
        why: String,
    },
    #[error("{path}: no positions")]
    Empty { path: PathBuf },
}

/// One line, checked: the position read from its FEN (in `game`), the FEN and the
/// result as written, and the numbers.
pub struct Line<'a, const W: usize> {
    pub pos: Position<W>,
    pub fen: &'a str,
    pub result_text: &'a str,
    pub result: f64,
    pub score: i32,
}

/// Reads `path` and turns each line into a `T` with `parse`, in order.
pub fn read<T, const W: usize>(
    game: &Game<W>,
    path: &Path,
    mut parse: impl FnMut(Line<W>) -> Result<T, String>,
) -> Result<Vec<T>, DataError> {
    let text = std::fs::read_to_string(path).map_err(|source| DataError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut items = Vec::new();
    for (n, text) in text.lines().enumerate() {
        if text.trim().is_empty() {
            continue;
        }
        let item = line(game, text).and_then(&mut parse);
        items.push(item.map_err(|why| DataError::Line {
            path: path.to_path_buf(),
            line: n + 1,
            why,
        })?);
    }
    if items.is_empty() {
        return Err(DataError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(items)
}

/// One line, `FEN <tab> result <tab> score`, split and checked.
fn line<'a, const W: usize>(game: &Game<W>, text: &'a str) -> Result<Line<'a, W>, String> {
    let mut fields = text.split('\t');
    let (Some(fen), Some(result_text), Some(score), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("not FEN, result and score separated by tabs".into());
    };
    let pos = Position::from_fen(game, fen).map_err(|e| e.to_string())?;
    let result: f64 = result_text
        .parse()
        .ok()
        .filter(|r| [0.0, 0.5, 1.0].contains(r))
        .ok_or_else(|| format!("result '{result_text}' is not 1, 0.5 or 0"))?;
    let score = score
        .parse::<i32>()
        .map_err(|_| format!("score '{score}' is not a whole number"))?;
    Ok(Line {
        pos,
        fen,
        result_text,
        result,
        score,
    })
}
