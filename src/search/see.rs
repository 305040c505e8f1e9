//! Static exchange evaluation: the material a capture wins once both sides have made
//! every profitable recapture on its square, least valuable attacker first. Attackers are
//! found for any piece from the compiled tables (leaps, and slides with x-rays through
//! pieces already used); lame and multi-leg captures are not seen, so SEE errs towards
//! allowing such exchanges.

use crate::core::{Bitboard, Color, Move, MoveKind, type_of_piece};
use crate::eval::Eval;
use crate::rules::game::Game;
use crate::rules::position::Position;

/// The least valuable piece of `side` within `occ` that captures on `sq`: the first of
/// the cheapest in the order of the game's tables (leaping types in index order, each on
/// its lowest square, then slide directions), so that ties break as they always have.
///
/// The leapers come from `Game::leapers_onto`, which asks only the pieces standing where
/// a leap comes from: a large game has dozens of leaping types, and this runs at every
/// capture of every exchange.
fn least_valuable_attacker<const W: usize>(
    game: &Game<W>,
    eval: &Eval,
    pos: &Position<W>,
    sq: usize,
    side: Color,
    occ: Bitboard<W>,
) -> Option<(usize, i32)> {
    // The cheapest leaper as (value, piece index, square).
    let mut leaper: Option<(i32, usize, usize)> = None;
    for (from, pc) in game.leapers_onto(pos, sq, side, occ) {
        let v = eval.values[type_of_piece(pc)];
        if leaper.is_none_or(|(bv, bpc, _)| v < bv || (v == bv && pc < bpc)) {
            leaper = Some((v, pc, from));
        }
    }
    let mut best = leaper.map(|(v, _, from)| (from, v));
    for &d in &game.attack_dirs[side] {
        if let Some(from) = game.slider_on(pos, sq, d as usize, side, occ) {
            let v = eval.value_of(pos.board[from]);
            if best.is_none_or(|(_, b)| v < b) {
                best = Some((from, v));
            }
        }
    }
    best
}

/// The exchange value of `m` for the side making it: for a move that captures nothing,
/// minus what the moved piece loses on its new square (0 if it is safe there).
pub fn see<const W: usize>(game: &Game<W>, eval: &Eval, pos: &Position<W>, m: Move) -> i32 {
    let to = m.to();
    if m.kind() != MoveKind::Normal {
        return match m.kind() {
            MoveKind::TwoLeg | MoveKind::EnPassant | MoveKind::MultiLeg => game
                .captures_on_the_way(m)
                .iter()
                .map(|&sq| eval.value_of(pos.board[sq as usize]))
                .sum(),
            _ => 0,
        };
    }
    if game.restraint_now(pos) {
        return restrained_see(game, eval, pos, m);
    }
    exchange(eval, pos, m, |side, occ| {
        least_valuable_attacker(game, eval, pos, to, side, occ)
    })
}

/// The exchange on the square of the ordinary move `m`, the attackers found by
/// `least_valuable(side, occ)`: each side recaptures with its least valuable attacker
/// while that pays, and the gains are folded back from the last capture.
#[inline(always)]
fn exchange<const W: usize>(
    eval: &Eval,
    pos: &Position<W>,
    m: Move,
    mut least_valuable: impl FnMut(Color, Bitboard<W>) -> Option<(usize, i32)>,
) -> i32 {
    let (from, to) = (m.from(), m.to());
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
        let Some((sq, value)) = least_valuable(side, occ) else {
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

/// SEE in a game with a restraint rule (a bodyguard's stops and freeze), whose attacks
/// the x-ray scan above cannot see: the capture, made, answered by the first recapture if
/// the opponent has one under the restraint that holds it then (attack detection sees
/// it), nothing deeper.
fn restrained_see<const W: usize>(game: &Game<W>, eval: &Eval, pos: &Position<W>, m: Move) -> i32 {
    let to = m.to();
    let victim = eval.value_of(pos.board[to]);
    let mover = match m.promotes_to() {
        Some(p) => eval.values[type_of_piece(p)],
        None => eval.value_of(pos.board[m.from()]),
    };
    let promotion = mover - eval.value_of(pos.board[m.from()]);
    let mut after = pos.clone();
    after.make(game, m);
    if game.attacked(&after, to, after.side) {
        victim + promotion - mover
    } else {
        victim + promotion
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::color_of_piece;
    use crate::variants::AnyGame;
    use crate::with_width;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The exchange worked out the slow way, as kirin did before `Game::leap_sources`: at
    /// every capture, every piece type of the side looked at for a leap.
    fn reference_see<const W: usize>(
        game: &Game<W>,
        eval: &Eval,
        pos: &Position<W>,
        m: Move,
    ) -> i32 {
        let (to, n) = (m.to(), game.squares);
        exchange(eval, pos, m, |side, occ| {
            let mut best: Option<(usize, i32)> = None;
            let mut consider = |sq: usize| {
                let v = eval.value_of(pos.board[sq]);
                if best.is_none_or(|(_, b)| v < b) {
                    best = Some((sq, v));
                }
            };
            for pc in (0..2 * game.types).filter(|&pc| color_of_piece(pc) == side) {
                if let Some(sq) = (game.reverse_leaps[pc * n + to] & pos.by_piece[pc] & occ).first()
                {
                    consider(sq);
                }
            }
            for &d in &game.attack_dirs[side] {
                if let Some(sq) = game.slider_on(pos, to, d as usize, side, occ) {
                    consider(sq);
                }
            }
            best
        })
    }

    /// Looking for leapers among the pieces on `leap_sources` gives the exchange that
    /// looking at every piece type gives, for every ordinary move of random games of
    /// every built-in game (captures preferred, so that the boards fill with exchanges
    /// and x-rays).
    #[test]
    fn leapers_found_by_reach_give_the_scanned_exchange() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut compared = 0;
        for spec in crate::variants::builtin() {
            let any = AnyGame::new(spec).unwrap();
            with_width!(&any, game => {
                let eval = Eval::new(game);
                let mut pos = Position::from_fen(game, &game.spec.start).unwrap();
                for _ in 0..150 {
                    if game.outcome(&mut pos).is_some() {
                        break;
                    }
                    let mut list = crate::rules::MoveList::new();
                    game.legal_moves(&mut pos, &mut list);
                    if !game.restraint_now(&pos) {
                        for &m in list.iter().filter(|m| m.kind() == MoveKind::Normal) {
                            let fast = see(game, &eval, &pos, m);
                            let slow = reference_see(game, &eval, &pos, m);
                            assert_eq!(fast, slow, "{} {m:?}", spec.name);
                            compared += 1;
                        }
                    }
                    let captures: Vec<Move> =
                        list.iter().copied().filter(|&m| pos.board[m.to()] != 0).collect();
                    let prefer_capture = !captures.is_empty() && rng.gen_bool(0.6);
                    let pool = if prefer_capture { &captures[..] } else { &list[..] };
                    let Some(&m) = pool.get(rng.gen_range(0..pool.len().max(1))) else {
                        break;
                    };
                    pos.make(game, m);
                }
            });
        }
        assert!(compared > 10_000, "only {compared} moves compared");
    }

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

    #[test]
    fn a_recapture_cut_short_by_a_bodyguard_is_not_counted() {
        let any = AnyGame::builtin("hiashatar").unwrap();
        crate::with_width!(&any, g => {
            let e = Eval::new(g);
            // The Rook takes the Knight on e5, which Black's Rook on e10 defends...
            let fen = "4r4k/10/10/10/10/4n5/10/10/10/K3R5 w - - 0 1";
            let mut pos = Position::from_fen(g, fen).unwrap();
            let m = g.parse_move(&mut pos, "e1e5").unwrap();
            assert!(see(g, &e, &pos, m) < 0);
            // ...unless White's Hia on f7 stops that Rook on e8, next to it.
            let fen = "4r4k/10/10/5H4/10/4n5/10/10/10/K3R5 w - - 0 1";
            let mut pos = Position::from_fen(g, fen).unwrap();
            let m = g.parse_move(&mut pos, "e1e5").unwrap();
            assert!(see(g, &e, &pos, m) > 0);
        });
    }
}
