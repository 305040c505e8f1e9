//! Static exchange evaluation: the material a capture wins once both sides have made
//! every profitable recapture on its square, least valuable attacker first. Attackers are
//! found for any piece from the compiled tables (leaps, and slides with x-rays through
//! pieces already used); lame and multi-leg captures are not seen, so SEE errs towards
//! allowing such exchanges.

use crate::core::{Bitboard, Color, Move, MoveKind, type_of_piece};
use crate::eval::Eval;
use crate::rules::game::Game;
use crate::rules::position::Position;

/// The least valuable piece of `side` within `occ` that captures on `sq`.
fn least_valuable_attacker<const W: usize>(
    game: &Game<W>,
    eval: &Eval,
    pos: &Position<W>,
    sq: usize,
    side: Color,
    occ: Bitboard<W>,
) -> Option<(usize, i32)> {
    let n = game.squares;
    let mut best: Option<(usize, i32)> = None;
    let mut consider = |from: usize| {
        let v = eval.value_of(pos.board[from]);
        if best.is_none_or(|(_, b)| v < b) {
            best = Some((from, v));
        }
    };
    for &pc in &game.leap_attackers[side] {
        if let Some(from) = (game.reverse_leaps[pc * n + sq] & pos.by_piece[pc] & occ).first() {
            consider(from);
        }
    }
    for &d in &game.attack_dirs[side] {
        if let Some(b) = game.slider_on(pos, sq, d as usize, side, occ) {
            consider(b);
        }
    }
    best
}

/// The exchange value of `m` for the side making it (0 for non-captures).
pub fn see<const W: usize>(game: &Game<W>, eval: &Eval, pos: &Position<W>, m: Move) -> i32 {
    let (from, to) = (m.from(), m.to());
    if m.kind() != MoveKind::Normal || pos.board[to] == 0 {
        return match m.kind() {
            MoveKind::TwoLeg | MoveKind::EnPassant | MoveKind::MultiLeg => game
                .captures_on_the_way(m)
                .iter()
                .map(|&sq| eval.value_of(pos.board[sq as usize]))
                .sum(),
            _ => 0,
        };
    }
    let mut gain = [0i32; 64];
    gain[0] = eval.value_of(pos.board[to]);
    let mut on_square = match m.promotes_to() {
        Some(p) => {
            gain[0] += eval.values[type_of_piece(p)] - eval.value_of(pos.board[from]);
            eval.values[type_of_piece(p)]
        }
        None => eval.value_of(pos.board[from]),
    };
    let mut occ = pos.occupied();
    occ.clear(from);
    let mut side = pos.side.opposite();
    let mut d = 0;
    while d < 63 {
        let Some((sq, value)) = least_valuable_attacker(game, eval, pos, to, side, occ) else {
            break;
        };
        d += 1;
        gain[d] = on_square - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 {
            break;
        }
        occ.clear(sq);
        on_square = value;
        side = side.opposite();
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::AnyGame;

    #[test]
    fn exchanges_on_a_defended_square() {
        let any = AnyGame::builtin("chess").unwrap();
        crate::with_width!(&any, g => {
            let e = Eval::new(g);
            // Rook takes a pawn defended by a pawn: loses the exchange.
            let mut pos = Position::from_fen(g, "4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1").unwrap();
            let m = g.parse_move(&mut pos, "e1e5").unwrap();
            assert!(see(g, &e, &pos, m) < 0);
            // An undefended pawn is simply won.
            let mut pos = Position::from_fen(g, "4k3/8/8/4p3/8/8/8/4RK2 w - - 0 1").unwrap();
            let m = g.parse_move(&mut pos, "e1e5").unwrap();
            assert!(see(g, &e, &pos, m) > 0);
            // Rooks doubled behind each other: x-ray support counts.
            let mut pos = Position::from_fen(g, "4k3/4r3/8/4n3/8/8/4R3/4RK2 w - - 0 1").unwrap();
            let m = g.parse_move(&mut pos, "e2e5").unwrap();
            assert!(see(g, &e, &pos, m) > 0);
        });
    }
}
