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
    let action = if pos.actions > 0 {
        format!(" (action {} of the turn)", pos.actions + 1)
    } else {
        String::new()
    };
    out += &format!(
        "\n{} to move{action}   {}\n",
        pos.side.name(),
        pos.to_fen(game)
    );
    out += &reserves_text(game, pos);
    out += &passengers_text(game, pos);
    out
}

/// One line per non-empty reserve: `In hand, White: Q R R`.
fn reserves_text<const W: usize>(game: &Game<W>, pos: &Position<W>) -> String {
    let names = ["White", "Black", "neutral"];
    let mut out = String::new();
    for (reserve, name) in names.iter().enumerate().take(game.reserves.count) {
        let pieces = pos.reserve_symbols(game, reserve);
        if !pieces.is_empty() {
            out += &format!("In hand, {name}: {}\n", pieces.join(" "));
        }
    }
    out
}

/// The passengers: `Carried: c3 N, f6 n`.
fn passengers_text<const W: usize>(game: &Game<W>, pos: &Position<W>) -> String {
    let riders: Vec<String> = (0..game.squares)
        .filter(|&sq| pos.passenger(sq) != 0)
        .map(|sq| {
            format!(
                "{} {}",
                game.geo.name(sq),
                piece_symbol(game, pos.passenger(sq))
            )
        })
        .collect();
    if riders.is_empty() {
        String::new()
    } else {
        format!("Carried: {}\n", riders.join(", "))
    }
}
