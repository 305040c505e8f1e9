//! A position drawn as text for people at a terminal (`kirin analyse`, UCI's `d`).

use crate::rules::fen::piece_symbol;
use crate::rules::{Game, Position};

/// The board as text, rank numbers on the left, files below; holes blank.
pub fn board_text<const W: usize>(game: &Game<W>, pos: &Position<W>) -> String {
    let g = &game.geo;
    let mut out = String::new();
    for rank in (0..g.height).rev() {
        out += &format!("{:>3} ", rank + 1);
        for file in 0..g.width {
            let sq = rank * g.width + file;
            let cell = if g.holes[sq] {
                "   ".to_string()
            } else if pos.board[sq] == 0 {
                "  .".to_string()
            } else {
                format!("{:>3}", piece_symbol(game, pos.board[sq]))
            };
            out += &cell;
        }
        out.push('\n');
    }
    out += "    ";
    for file in 0..g.width {
        out += &format!("  {}", (b'a' + file as u8) as char);
    }
    out += &format!("\n{} to move   {}\n", pos.side.name(), pos.to_fen(game));
    out
}
