//! Property tests over random legal positions of every built-in game (issue 12).
//!
//! The perft suites check move counts from a few hand-picked positions, and the robustness
//! tests play random games from the start. Neither reaches the odd corners a real game
//! can: a lone king against promoted pieces, a Lion next to a Lion, a pawn about to take en
//! passant on a crowded board, a Tamerlane prince in a citadel. So this file builds such
//! positions at random, for every game `variants::builtin()` lists (a new game is covered
//! without touching this file):
//!
//! - random placements: the game's start material, some of it in promoted form, each
//!   side's royals kept and a random share of the other pieces dropped, put on random
//!   squares where the piece may stand (a square from which it can move and where it
//!   need not promote; a citadel only for a piece that may enter its own), with random
//!   side to move, castling rights, rule rights, en-passant square and counters. The FEN
//!   parser judges each one; the test keeps those it accepts whose side not to move is
//!   not in check, and requires that a fair share is kept;
//! - random playouts of 20 to 60 legal moves from the start and from those placements,
//!   which bring promotions, captures, castling, en passant and the games' own moves
//!   (Lion double moves, Tamerlane's swaps and citadel exchanges) into play.
//!
//! On each position: the incremental key equals the key computed from scratch;
//! `Position::from_fen(to_fen)` gives back the board, side, rights, en passant, counters
//! and key; the legal moves are distinct and fit the bound the FEN parser relies on; in
//! games with check and no rule extensions they are exactly the pseudo-legal moves that
//! leave no single royal attacked; every legal move made gives the right key and unmade
//! restores the position exactly (the whole `Position` and its FEN), and a random sample
//! of them (64, or 24 on large boards) also round-trips the FEN of the position after
//! it; the null move keeps the key right and is undone exactly; asking for the outcome
//! changes nothing. Each kind of move a game has (captures, promotions, double steps, en
//! passant, castling, Lion double captures, rule moves) must occur among the moves
//! checked, so that the generator cannot silently stop reaching them.
//!
//! Hostile FENs: boards packed with one kind of piece (sixty Lions, sixty-two Queens,
//! forty Kings), oversized numbers, over-long ranks, random edits and non-ASCII text are
//! refused with an error or, when accepted, pass the same checks; none may panic.
//!
//! Every failure names the game, the seed and the FEN (proptest prints the smallest
//! failing edit of a FEN). `KIRIN_PROPS_SEED` runs other seeds than the fixed default
//! ones, `KIRIN_PROPS_SCALE=10` ten times as many cases.

use kirin::core::{
    BLACK, Color, Move, MoveKind, WHITE, color_of_piece, piece_index, type_of_piece,
};
use kirin::rules::position::color_of;
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::{self, AnyGame};
use kirin::with_width;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

type Check = Result<(), String>;

/// What the moves checked on this thread did, to show that the random positions reach
/// every kind of move their game has.
#[derive(Clone, Copy, Debug, Default)]
struct Coverage {
    moves: usize,
    captures: usize,
    promotions: usize,
    double_steps: usize,
    en_passant: usize,
    castling: usize,
    two_leg: usize,
    rule: usize,
}

thread_local! {
    static COVERAGE: std::cell::Cell<Coverage> = std::cell::Cell::default();
}

/// Counts `m`, made in a position where `captured` says whether it took something.
fn count(m: Move, captured: bool) {
    let mut c = COVERAGE.get();
    c.moves += 1;
    c.captures += usize::from(captured);
    c.promotions += usize::from(m.kind() == MoveKind::Normal && m.promotes_to().is_some());
    match m.kind() {
        MoveKind::DoubleStep => c.double_steps += 1,
        MoveKind::EnPassant => c.en_passant += 1,
        MoveKind::Castle => c.castling += 1,
        MoveKind::TwoLeg => c.two_leg += 1,
        MoveKind::Rule => c.rule += 1,
        _ => {}
    }
    COVERAGE.set(c);
}

/// Fails with `why` unless `ok`.
fn ensure(ok: bool, why: impl FnOnce() -> String) -> Check {
    if ok { Ok(()) } else { Err(why()) }
}

/// The base seed: fixed, unless `KIRIN_PROPS_SEED` names another.
fn base_seed() -> u64 {
    std::env::var("KIRIN_PROPS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12)
}

/// How many times the default number of cases to run: `KIRIN_PROPS_SCALE`, 1 unless set.
fn scale() -> usize {
    std::env::var("KIRIN_PROPS_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// Runs `f`, turning a panic or a failed check into a panic that names `context`.
fn run_case(context: &str, f: impl FnOnce() -> Check) {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => {}
        Ok(Err(why)) => panic!("{context}: {why}"),
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{context}: panicked: {msg}");
        }
    }
}

/// How many moves of one position get the full (FEN) check.
fn full_checks<const W: usize>(g: &Game<W>) -> usize {
    if g.squares <= 100 { 64 } else { 24 }
}

// ---------------------------------------------------------------------------------------
// The checks of one position.
// ---------------------------------------------------------------------------------------

/// `Position::from_fen(pos.to_fen())` gives back `pos`, history aside. The rules' state
/// about the last move (Chu's counter-strike) is not part of a FEN and is keyed apart.
fn fen_round_trip<const W: usize>(g: &Game<W>, pos: &Position<W>) -> Check {
    let fen = pos.to_fen(g);
    let back = Position::from_fen(g, &fen).map_err(|e| format!("'{fen}' is refused: {e}"))?;
    let why = |what: &str| format!("'{fen}' reads back with another {what}");
    ensure(back.board == pos.board, || why("board"))?;
    ensure(back.by_color == pos.by_color, || why("colour sets"))?;
    ensure(back.by_piece == pos.by_piece, || why("piece sets"))?;
    ensure(back.side == pos.side, || why("side to move"))?;
    ensure(back.castling == pos.castling, || why("castling rights"))?;
    for i in 0..4 {
        if pos.castling >> i & 1 != 0 {
            ensure(back.castle_rooks[i] == pos.castle_rooks[i], || {
                why(&format!("castling rook for right {i}"))
            })?;
        }
    }
    ensure(back.ep == pos.ep, || why("en-passant square"))?;
    ensure(back.ep_victim == pos.ep_victim, || why("en-passant victim"))?;
    ensure(back.hands == pos.hands, || why("reserves"))?;
    ensure(back.carried == pos.carried, || why("passengers"))?;
    ensure(back.actions == pos.actions, || why("actions in the turn"))?;
    ensure(back.halfmove == pos.halfmove, || why("halfmove clock"))?;
    ensure(back.fullmove == pos.fullmove, || why("move number"))?;
    // A FEN may leave out state that lasts one move only (Chu's counter-strike), or
    // carry it (ShoFIDEgi's castling just made, its turn state `w:f16`): it loses
    // nothing else and adds nothing.
    let lost = pos.rule_state & !back.rule_state;
    ensure(
        lost & !g.rules.transient == 0 && back.rule_state & !pos.rule_state == 0,
        || why("rule state"),
    )?;
    ensure(back.key ^ g.zobrist.rule_state(lost) == pos.key, || {
        why("key")
    })?;
    ensure(back.to_fen(g) == fen, || why("FEN"))
}

/// Makes `m` in `pos`, checks the key (and, if `full`, the FEN round trip and that the
/// mover's single royal is safe), unmakes it and checks that `pos` is restored exactly.
fn check_move<const W: usize>(g: &Game<W>, pos: &mut Position<W>, m: Move, full: bool) -> Check {
    let before = pos.clone();
    let fen = pos.to_fen(g);
    let text = g.move_text(m);
    let mover = pos.side;
    let royals_before = pos.royals(g, mover).count();
    let u = pos.make(g, m);
    count(m, pos.occupied().count() < before.occupied().count());
    ensure(pos.key == pos.compute_key(g), || {
        format!("after {text}: incremental key differs from the recomputed one")
    })?;
    // The side changes when the turn ends; mid-turn (`actions` counts on) it stays.
    let turn_advanced = if pos.actions == 0 {
        pos.side != mover
    } else {
        pos.side == mover && pos.actions == before.actions + 1
    };
    ensure(
        turn_advanced && pos.history.len() == before.history.len() + 1,
        || format!("after {text}: side or history not advanced"),
    )?;
    if full {
        fen_round_trip(g, pos).map_err(|e| format!("after {text}: {e}"))?;
        let royals = pos.royals(g, mover);
        if g.uses_check() && royals_before == 1 && royals.count() == 1 {
            let k = royals.first().unwrap();
            ensure(!g.attacked(pos, k, pos.side), || {
                format!("the legal move {text} leaves the mover's royal attacked")
            })?;
        }
    }
    pos.unmake(g, m, u);
    ensure(*pos == before, || {
        format!("unmaking {text} does not restore the position")
    })?;
    ensure(pos.to_fen(g) == fen, || {
        format!("unmaking {text} changes the FEN")
    })
}

/// Every check of one position; `rng` picks the moves checked in full.
fn check_position<const W: usize>(
    g: &Game<W>,
    pos: &mut Position<W>,
    rng: &mut ChaCha8Rng,
) -> Check {
    ensure(pos.key == pos.compute_key(g), || "stale key".into())?;
    fen_round_trip(g, pos)?;
    let before = pos.clone();

    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    ensure(*pos == before, || {
        "move generation changed the position".into()
    })?;
    let mut seen = HashSet::new();
    for &m in &list {
        ensure(seen.insert(m.bits()), || {
            format!("the move {} is listed twice", g.move_text(m))
        })?;
    }
    let bound = g.move_bound(pos, pos.side);
    ensure(list.len() <= bound && bound <= list.capacity(), || {
        format!(
            "{} legal moves, bound {bound}, capacity {}",
            list.len(),
            list.capacity()
        )
    })?;

    legal_is_safe_pseudo(g, pos, &list)?;
    captures_are_the_tactical_legal_moves(g, pos, &list)?;
    table_moves_are_tested_alone(g, pos, &list, rng)?;

    let mut order: Vec<usize> = (0..list.len()).collect();
    order.shuffle(rng);
    let full = full_checks(g);
    for (n, &i) in order.iter().enumerate() {
        check_move(g, pos, list[i], n < full)?;
    }

    let u = pos.make_null(g);
    ensure(pos.key == pos.compute_key(g), || {
        "null move: stale key".into()
    })?;
    pos.unmake_null(u);
    ensure(*pos == before, || {
        "unmaking the null move does not restore the position".into()
    })?;

    let _ = g.outcome(pos);
    ensure(*pos == before, || {
        "asking for the outcome changed the position".into()
    })
}

/// Quiescence's generator (`legal_captures`) lists only legal moves, and among them every
/// legal move that captures or promotes.
fn captures_are_the_tactical_legal_moves<const W: usize>(
    g: &Game<W>,
    pos: &mut Position<W>,
    legal: &MoveList,
) -> Check {
    let mut captures = MoveList::new();
    g.legal_captures(pos, &mut captures);
    let all: HashSet<u32> = legal.iter().map(|m| m.bits()).collect();
    let listed: HashSet<u32> = captures.iter().map(|m| m.bits()).collect();
    for &m in &captures {
        ensure(all.contains(&m.bits()), || {
            format!("legal_captures lists {}, not a legal move", g.move_text(m))
        })?;
    }
    let us = pos.side;
    let takes = |m: Move| match m.kind() {
        MoveKind::EnPassant | MoveKind::TwoLeg | MoveKind::MultiLeg => true,
        MoveKind::Normal | MoveKind::DoubleStep => {
            pos.board[m.to()] != 0 && color_of(pos.board[m.to()]) != us
        }
        _ => false,
    };
    for &m in legal {
        if (takes(m) || m.promotes_to().is_some()) && m.kind() != MoveKind::Rule {
            ensure(listed.contains(&m.bits()), || {
                format!("legal_captures misses {}", g.move_text(m))
            })?;
        }
    }
    Ok(())
}

/// The search's test of its table move alone (`surely_legal`) says yes only to legal
/// moves, whatever it is asked: the pseudo-legal moves (some leave the royal attacked),
/// the opponent's moves, and ordinary moves between random squares (a table entry of
/// another position or another game); it leaves the position as it was. And it knows
/// the ordinary moves: in a game whose pieces make no bent or multi-leg moves and which
/// has no rule of its own, it says yes to every legal ordinary move.
fn table_moves_are_tested_alone<const W: usize>(
    g: &Game<W>,
    pos: &mut Position<W>,
    legal: &MoveList,
    rng: &mut ChaCha8Rng,
) -> Check {
    let before = pos.clone();
    let all: HashSet<u32> = legal.iter().map(|m| m.bits()).collect();
    let mut asked = MoveList::new();
    g.pseudo_moves(pos, &mut asked);
    let u = pos.make_null(g);
    let mut theirs = MoveList::new();
    g.legal_moves(pos, &mut theirs);
    pos.unmake_null(u);
    asked.extend(theirs.iter().copied().take(200));
    for _ in 0..64 {
        let (from, to) = (rng.gen_range(0..512), rng.gen_range(0..512));
        asked.push(if rng.gen_bool(0.2) {
            Move::promotion(from, to, rng.gen_range(0..g.types.max(1)))
        } else {
            Move::new(from, to, MoveKind::Normal)
        });
    }
    for &m in &asked {
        if g.surely_legal(pos, m) {
            ensure(all.contains(&m.bits()), || {
                format!("surely_legal says yes to {m:?}, not a legal move")
            })?;
        }
        ensure(*pos == before, || {
            format!("surely_legal({m:?}) changed the position")
        })?;
    }
    let plain = g.rules.is_empty() && !g.has_routes && g.tables.iter().all(|t| !t.has_two_legs);
    if plain {
        for &m in legal.iter().filter(|m| m.kind() == MoveKind::Normal) {
            ensure(g.surely_legal(pos, m), || {
                format!("surely_legal says no to the legal move {}", g.move_text(m))
            })?;
        }
    }
    Ok(())
}

/// In a game without rule extensions, the legal moves are exactly the pseudo-legal moves
/// after which the mover's single royal is not attacked (all of them with several
/// royals): the shortcuts of the legality filter (pins, leaps) lose and keep nothing else.
fn legal_is_safe_pseudo<const W: usize>(
    g: &Game<W>,
    pos: &mut Position<W>,
    legal: &MoveList,
) -> Check {
    if !g.rules.is_empty() || !g.uses_check() {
        return Ok(());
    }
    let us = pos.side;
    let royals = pos.royals(g, us);
    let mut pseudo = MoveList::new();
    g.pseudo_moves(pos, &mut pseudo);
    // The single royal, followed to where the move takes it: a Sho Drunk Elephant that
    // becomes a second royal (even one of the same type, beside a Crown Prince) leaves
    // the first one to be kept safe.
    let king = royals.first();
    let mut expected = HashSet::new();
    for &m in &pseudo {
        let u = pos.make(g, m);
        let at = king.map(|k| {
            if m.from() == k && m.kind() != MoveKind::Drop {
                m.to()
            } else {
                k
            }
        });
        let safe = royals.more_than_one()
            || at.is_some_and(|k| pos.board[k] != 0 && !g.attacked(pos, k, pos.side));
        pos.unmake(g, m, u);
        if safe {
            expected.insert(m.bits());
        }
    }
    let got: HashSet<u32> = legal.iter().map(|m| m.bits()).collect();
    let text = |bits: &u32| g.move_text(Move::from_bits(*bits).unwrap());
    let missing: Vec<String> = expected.difference(&got).map(text).collect();
    let extra: Vec<String> = got.difference(&expected).map(text).collect();
    ensure(missing.is_empty() && extra.is_empty(), || {
        format!("legal moves missing {missing:?}, wrongly legal {extra:?}")
    })
}

/// For a FEN the engine accepted: the checks of `check_position`.
fn check_accepted<const W: usize>(g: &Game<W>, fen: &str, rng: &mut ChaCha8Rng) -> Check {
    match Position::from_fen(g, fen) {
        Ok(mut pos) => check_position(g, &mut pos, rng),
        Err(_) => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------
// Random positions.
// ---------------------------------------------------------------------------------------

/// True when a piece of index `pc` may be placed on `sq` in a random position: the square
/// exists, the piece can move from it on an empty board, need not promote there, is not a
/// pawn on its own first rank, and a citadel holds only its owner's pieces that may enter.
fn may_stand<const W: usize>(g: &Game<W>, pc: usize, sq: usize) -> bool {
    if !g.valid.has(sq) {
        return false;
    }
    let color = color_of_piece(pc);
    if let Some(citadels) = g.spec.citadels
        && citadels.contains(&sq)
    {
        return citadels[color] == sq && g.spec.pieces[type_of_piece(pc)].enters_own_citadel;
    }
    if g.promotions[pc].as_ref().is_some_and(|p| p.forced.has(sq)) {
        return false;
    }
    let rank = g.geo.rank(sq);
    let own_rank = if color == WHITE {
        rank
    } else {
        g.geo.height - 1 - rank
    };
    if g.is_pawn[pc] && own_rank == 0 {
        return false;
    }
    let tab = &g.tables[pc];
    (tab.leap_move[sq] | tab.leap_capture[sq]).any()
        || tab
            .slides
            .iter()
            .any(|s| g.rays[s.dir as usize * g.squares + sq].any())
        || !tab.specials[sq].is_empty()
        || !tab.two_legs[sq].is_empty()
}

/// A random placement of (part of) the start material, written as FEN; the parser judges
/// it. `None` when the material could not be placed.
fn random_placement<const W: usize>(
    g: &Game<W>,
    start: &Position<W>,
    rng: &mut ChaCha8Rng,
) -> Option<String> {
    let keep: f64 = rng.gen_range(0.05..1.0);
    let promote = if rng.gen_bool(0.5) {
        rng.gen_range(0.0..0.5)
    } else {
        0.0
    };
    // A third of the positions keep part of the material on its start squares, the
    // royals and castling pieces all of it: castling, double steps and en passant need
    // pieces where they started.
    let home = if rng.gen_bool(0.35) {
        rng.gen_range(0.2..1.0)
    } else {
        0.0
    };
    let mut pos = Position::empty(g);
    let mut royals = Vec::new();
    let mut others = Vec::new();
    for (sq, &code) in start.board.iter().enumerate().filter(|&(_, &c)| c != 0) {
        let pc = code as usize - 1;
        let castles = g.castlers[color_of_piece(pc)].contains(&pc);
        if home > 0.0 && (g.is_royal[pc] || castles || rng.gen_bool(home)) {
            if g.is_royal[pc] || rng.gen_bool(keep.max(0.5)) {
                pos.put(sq, code);
            }
        } else if g.is_royal[pc] {
            royals.push(pc);
        } else if rng.gen_bool(keep) {
            let pc = match &g.promotions[pc] {
                Some(p) if rng.gen_bool(promote) => *p.choices.choose(rng).unwrap(),
                _ => pc,
            };
            others.push(pc);
        }
    }
    for pc in royals.into_iter().chain(others) {
        let royal = g.is_royal[pc];
        let squares: Vec<usize> = (0..g.squares)
            .filter(|&sq| pos.board[sq] == 0 && may_stand(g, pc, sq))
            .collect();
        match squares.choose(rng) {
            Some(&sq) => pos.put(sq, pc as u8 + 1),
            None if royal => return None,
            None => {}
        }
    }
    pos.side = Color::from_index(rng.gen_range(0..2));
    let board = pos.to_fen(g);
    let board = board.split(' ').next().unwrap();
    let side = pos.side.letter();

    let mut rights = String::new();
    if g.spec.castling {
        rights = "KQkq".chars().filter(|_| rng.gen_bool(0.7)).collect();
    }
    for r in g.rules.rights() {
        for c in [r.letter.to_ascii_uppercase(), r.letter.to_ascii_lowercase()] {
            if rng.gen_bool(0.6) {
                rights.push(c);
            }
        }
    }
    if rights.is_empty() {
        rights.push('-');
    }

    // An en-passant square behind an enemy pawn that could just have stepped two squares.
    let mut ep = "-".to_string();
    if g.spec.en_passant && rng.gen_bool(0.7) {
        let dy: i32 = if pos.side == WHITE { 1 } else { -1 };
        let candidates: Vec<usize> = (0..g.squares)
            .filter(|&sq| {
                let code = pos.board[sq];
                code != 0
                    && color_of(code) != pos.side
                    && g.is_pawn[code as usize - 1]
                    && [g.geo.offset(sq, 0, dy), g.geo.offset(sq, 0, 2 * dy)]
                        .iter()
                        .all(|s| s.is_some_and(|s| pos.board[s] == 0 && g.valid.has(s)))
            })
            .collect();
        // Those where a pawn of the side to move can take are the interesting ones.
        let ep_of = |victim: usize| g.geo.offset(victim, 0, dy).unwrap();
        let takers = |victim: &&usize| {
            (0..g.types).map(|t| piece_index(t, pos.side)).any(|pc| {
                g.is_pawn[pc]
                    && g.reverse_leaps[pc * g.squares + ep_of(**victim)]
                        .intersects(&pos.by_piece[pc])
            })
        };
        let takeable: Vec<usize> = candidates.iter().filter(takers).copied().collect();
        let pick = if takeable.is_empty() {
            candidates.choose(rng)
        } else {
            takeable.choose(rng)
        };
        if let Some(&victim) = pick {
            ep = g.geo.name(ep_of(victim));
        }
    }
    let halfmove = if rng.gen_bool(0.5) {
        0
    } else {
        rng.gen_range(0..120)
    };
    let fullmove = rng.gen_range(1..300);
    Some(format!(
        "{board} {side} {rights} {ep} {halfmove} {fullmove}"
    ))
}

/// A position is kept when the parser accepts it and the side not to move, if it has a
/// single royal, does not stand in check (the parser refuses that itself under check
/// rules; under capture rules it would only let the king be taken at once).
fn legal<const W: usize>(g: &Game<W>, fen: &str) -> Option<Position<W>> {
    let pos = Position::from_fen(g, fen).ok()?;
    let royals = pos.royals(g, pos.side.opposite());
    match royals.first() {
        Some(k) if !royals.more_than_one() && g.attacked(&pos, k, pos.side) => None,
        _ => Some(pos),
    }
}

/// A random placement, retried without rights or en passant when only those made the
/// parser refuse it. Returns the FEN tried last and the position, if kept.
fn random_legal<const W: usize>(
    g: &Game<W>,
    start: &Position<W>,
    rng: &mut ChaCha8Rng,
) -> (String, Option<Position<W>>) {
    let Some(fen) = random_placement(g, start, rng) else {
        return (String::new(), None);
    };
    if let Some(pos) = legal(g, &fen).filter(|pos| castling_rooks_on_the_edge(g, pos)) {
        return (fen, Some(pos));
    }
    let fields: Vec<&str> = fen.split(' ').collect();
    let plain = format!(
        "{} {} - - {} {}",
        fields[0], fields[1], fields[4], fields[5]
    );
    let pos = legal(g, &plain);
    (plain, pos)
}

/// True when every castling right of `pos` castles with a rook on the edge of the board.
/// A right with a rook inside the rank is not written back faithfully once another rook
/// comes to stand beyond it (see `castling_with_an_inner_rook_round_trips`), so the
/// random positions avoid it.
fn castling_rooks_on_the_edge<const W: usize>(g: &Game<W>, pos: &Position<W>) -> bool {
    (0..4).all(|i| {
        let rook = pos.castle_rooks[i] as usize;
        let outward = if i % 2 == 0 { 1 } else { -1 };
        pos.castling >> i & 1 == 0
            || g.geo
                .offset(rook, outward, 0)
                .is_none_or(|sq| !g.valid.has(sq))
    })
}

/// Plays up to `plies` random legal moves from `pos`, checking every position reached,
/// then takes them all back and requires the first position again.
fn playout<const W: usize>(
    g: &Game<W>,
    pos: &mut Position<W>,
    plies: usize,
    rng: &mut ChaCha8Rng,
) -> Check {
    let first = pos.clone();
    let mut played = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..plies {
        check_position(g, pos, rng).map_err(|e| format!("at '{}': {e}", pos.to_fen(g)))?;
        g.legal_moves(pos, &mut list);
        let Some(&m) = list.choose(rng) else { break };
        played.push((m, pos.make(g, m)));
    }
    check_position(g, pos, rng).map_err(|e| format!("at '{}': {e}", pos.to_fen(g)))?;
    while let Some((m, u)) = played.pop() {
        pos.unmake(g, m, u);
    }
    ensure(*pos == first, || {
        "taking back the playout does not restore its start".into()
    })
}

/// Cases per game: more on small boards, where each costs less.
fn cases<const W: usize>(g: &Game<W>, small: usize, large: usize) -> usize {
    scale() * if g.squares <= 100 { small } else { large }
}

fn random_positions_of<const W: usize>(g: &Game<W>, seed: u64) {
    let name = &g.spec.name;
    let start = Position::from_fen(g, &g.spec.start).unwrap();
    let (mut tried, mut kept) = (0, 0);
    let wanted = cases(g, 500, 120);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    COVERAGE.set(Coverage::default());
    while kept < wanted && tried < 20 * wanted {
        let case_seed = rng.r#gen::<u64>();
        let mut case_rng = ChaCha8Rng::seed_from_u64(case_seed);
        tried += 1;
        let (fen, pos) = random_legal(g, &start, &mut case_rng);
        let Some(mut pos) = pos else { continue };
        kept += 1;
        let context = format!("{name}, case seed {case_seed}, placement '{fen}'");
        run_case(&context, || {
            check_position(g, &mut pos, &mut case_rng)?;
            // Every fourth placement is also played on.
            if kept % 4 == 0 {
                let plies = case_rng.gen_range(20..=60);
                playout(g, &mut pos, plies, &mut case_rng)?;
            }
            Ok(())
        });
    }
    let rate = 100.0 * kept as f64 / tried as f64;
    let seen = COVERAGE.get();
    let tables = |has: fn(&kirin::rules::game::PieceTables<W>) -> bool| g.tables.iter().any(has);
    let double_steps = tables(|t| t.specials.iter().flatten().any(|s| s.double_step));
    // Only a two-leg move that captures on its way is a `TwoLeg` move.
    let igui = tables(|t| {
        t.two_legs
            .iter()
            .flatten()
            .any(|l| l.via_mode.can_capture())
    });
    let huge = g.squares > 256;
    let expected = [
        ("captures", true, seen.captures),
        (
            "promotions",
            g.promotions.iter().any(Option::is_some),
            seen.promotions,
        ),
        ("double steps", double_steps, seen.double_steps),
        // On the 17x17 board (ShoFIDEgi) a random placement almost never leaves a
        // castling's seven squares empty or an enemy Vanguard beside a four-step's
        // halfway square; its perft suite takes both through every check instead.
        (
            "en-passant captures",
            double_steps && !huge,
            seen.en_passant,
        ),
        ("castling moves", g.spec.castling && !huge, seen.castling),
        ("two-leg captures", igui, seen.two_leg),
        ("rule moves", g.rules.rights().next().is_some(), seen.rule),
    ];
    for (what, applies, made) in expected {
        assert!(
            !applies || made > 0,
            "{name}: the random positions made no {what} (seed {seed}): {seen:?}"
        );
    }
    println!("{name}: {kept} of {tried} random placements kept ({rate:.0}%)");
    println!("{name}: moves checked: {:?}", COVERAGE.get());
    assert!(
        kept == wanted && rate >= 20.0,
        "{name}: only {kept} of {tried} random placements were legal positions (seed {seed})"
    );
}

fn playouts_from_start_of<const W: usize>(g: &Game<W>, seed: u64) {
    let name = &g.spec.name;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..cases(g, 12, 4) {
        let case_seed = rng.r#gen::<u64>();
        let mut case_rng = ChaCha8Rng::seed_from_u64(case_seed);
        let mut pos = Position::from_fen(g, &g.spec.start).unwrap();
        let plies = case_rng.gen_range(20..=60);
        run_case(
            &format!("{name}, playout from the start, case seed {case_seed}"),
            || playout(g, &mut pos, plies, &mut case_rng),
        );
    }
}

/// Runs `f` on every built-in game, with a seed of its own.
fn every_game(f: impl Fn(&AnyGame, u64)) {
    for (i, spec) in variants::builtin().iter().enumerate() {
        let any = AnyGame::new(spec).unwrap_or_else(|e| panic!("{}: {e}", spec.name));
        f(&any, base_seed().wrapping_mul(1000).wrapping_add(i as u64));
    }
}

#[test]
fn random_placements_of_every_game_are_consistent() {
    every_game(|any, seed| with_width!(any, g => random_positions_of(g, seed)));
}

#[test]
fn random_playouts_from_every_start_are_consistent() {
    every_game(|any, seed| with_width!(any, g => playouts_from_start_of(g, seed)));
}

/// The made-up games of `test-games/` use what no built-in game uses yet (reserves,
/// carriers, turns of two actions, regents, moves of three legs, long pawn steps): random
/// playouts from their starts take every check above through those parts of the model.
#[test]
fn random_playouts_of_the_test_games_are_consistent() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("engine-tests/test-games");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("engine-tests/test-games exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut games = 0;
    for (i, path) in files.iter().enumerate() {
        let (_, specs) = variants::load_file(path).unwrap_or_else(|e| panic!("{e}"));
        for (j, spec) in specs.iter().enumerate() {
            let any = AnyGame::new(spec).unwrap_or_else(|e| panic!("{}: {e}", spec.name));
            let seed = base_seed() ^ (1000 * i + j) as u64;
            with_width!(&any, g => playouts_from_start_of(g, seed));
            games += 1;
        }
    }
    assert!(games >= 6, "only {games} test games found");
}

// ---------------------------------------------------------------------------------------
// Hostile FENs.
// ---------------------------------------------------------------------------------------

/// Parses `fen`; an accepted position must pass every check. Never a panic.
fn hostile<const W: usize>(g: &Game<W>, fen: &str) -> Option<Position<W>> {
    let context = format!("{}, FEN '{fen}'", g.spec.name);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let mut result = None;
    run_case(&context, || {
        result = Position::from_fen(g, fen).ok();
        check_accepted(g, fen, &mut rng)
    });
    result
}

/// A board of `g` with every square holding `fill` (a FEN symbol) except two squares for
/// the kings `white_king` and `black_king`.
fn packed<const W: usize>(g: &Game<W>, fill: &str, white_king: &str, black_king: &str) -> String {
    let (w, h) = (g.geo.width, g.geo.height);
    let valid: Vec<usize> = (0..g.squares).filter(|&s| g.valid.has(s)).collect();
    let (first, last) = (valid[0], *valid.last().unwrap());
    let mut ranks = Vec::new();
    for rank in (0..h).rev() {
        let mut text = String::new();
        for file in 0..w {
            let sq = rank * w + file;
            text += if !g.valid.has(sq) {
                "*"
            } else if sq == first {
                white_king
            } else if sq == last {
                black_king
            } else {
                fill
            };
        }
        ranks.push(text);
    }
    format!("{} w - - 0 1", ranks.join("/"))
}

/// The FEN symbol of the first royal of `color`.
fn royal_symbol<const W: usize>(g: &Game<W>, color: Color) -> String {
    kirin::rules::fen::piece_symbol(g, g.royals[color][0] as u8 + 1)
}

fn packed_boards_of<const W: usize>(g: &Game<W>) {
    let (wk, bk) = (royal_symbol(g, WHITE), royal_symbol(g, BLACK));
    for t in 0..g.types {
        let letter = &g.spec.pieces[t].letter;
        for fill in [letter.to_ascii_uppercase(), letter.clone()] {
            let fen = packed(g, &fill, &wk, &bk);
            let pc = piece_index(t, if fill == *letter { BLACK } else { WHITE });
            let pieces = g.valid.count() as usize - 2;
            let accepted = hostile(g, &fen).is_some();
            // A side whose pieces could have more moves than a move list holds is refused.
            if pieces * g.move_bounds[pc] > MoveList::new().capacity() {
                assert!(!accepted, "{}: '{fen}' is accepted", g.spec.name);
            }
        }
    }
}

#[test]
fn boards_packed_with_one_piece_are_refused_or_consistent() {
    every_game(|any, _| with_width!(any, g => packed_boards_of(g)));
}

#[test]
fn a_drunk_elephant_crowned_beside_a_crown_prince_leaves_the_first_to_keep_safe() {
    // Found by the mutated-FEN test: Black's only royal is the Crown Prince e8; the Drunk
    // Elephant g4 promotes on g3/h3, under the Rook i3, into a second Crown Prince. The
    // move is legal (the first prince is safe); the check must follow the first prince,
    // not the first piece of its type.
    let sho = AnyGame::builtin("sho").unwrap();
    let fen = "1K5s1/2S1p+e1ng/4P4/2b6/pP1l1+N1p1/5Ne2/pG1L1p2R/9/P2E5 b - - 0 278";
    with_width!(&sho, g => assert!(hostile(g, fen).is_some(), "{fen}"));
}

#[test]
fn crowded_boards_named_in_the_issue() {
    let chess = AnyGame::builtin("chess").unwrap();
    with_width!(&chess, g => {
        let queens = packed(g, "Q", "K", "k");
        assert!(hostile(g, &queens).is_none(), "{queens}");
        // Forty Kings: several royals are a legal state (a Crown Prince rule), so the
        // position may stand as long as its moves fit; it must not crash either way.
        let kings = format!("{}/KKKKKKKK/KKKKKKKK/k7 w - - 0 1", "KKKKKKKK/".repeat(4));
        hostile(g, &kings);
    });
    let chu = AnyGame::builtin("chu").unwrap();
    with_width!(&chu, g => {
        // A board of Lions is more than a move list holds and is refused; the others
        // now fit (a list holds 8192 moves) and must be consistent.
        for fill in ["N", "Q", "n", "+H"] {
            let fen = packed(g, fill, "K", "k");
            let accepted = hostile(g, &fen).is_some();
            assert!(!(fill == "N" && accepted), "{fen}");
        }
    });
}

#[test]
fn oversized_numbers_and_ranks_are_errors() {
    every_game(|any, _| {
        with_width!(any, g => {
            let start = g.spec.start.clone();
            let fields: Vec<&str> = start.split(' ').collect();
            let board = fields[0];
            let first_rank = board.split('/').next().unwrap();
            let cases = [
                format!("{board} w - - 99999999999999999999 1"),
                format!("{board} w - - 0 99999999999999999999"),
                format!("{board} w - - 4294967296 1"),
                format!("{} w - - 0 1", board.replacen(first_rank, "99999999999999999999999", 1)),
                format!("{} w - - 0 1", board.replacen(first_rank, &first_rank.repeat(50), 1)),
                format!("{} w - - 0 1", board.replacen(first_rank, &"1".repeat(1000), 1)),
                format!("{}/{board} w - - 0 1", board),
                format!("{board}/ w"),
                format!("{board} w - - 0 1 extra fields"),
                format!("{board} x"),
                board.replace('/', "//"),
                board.replace(|c: char| c.is_ascii_alphabetic(), "é"),
                format!("１{board} w - - 0 1"),
                format!("{board}[QQqq] w - - 0 1"),
                String::new(),
                " ".into(),
            ];
            for fen in &cases {
                assert!(hostile(g, fen).is_none(), "{}: '{fen}' accepted", g.spec.name);
            }
            // Lenient forms that may be read either way, but never with a panic.
            for fen in [format!("{board}[ w"), format!("{board}[] w 0 1"), format!("{board}~ w")] {
                hostile(g, &fen);
            }
            // The largest halfmove clock a FEN may give is accepted and must survive play.
            for side in ["w", "b"] {
                hostile(g, &format!("{board} {side} 4294967295 1"));
            }
        })
    });
}

/// X-FEN: `K` and `Q` name the outermost rook on the royal's side; a right to castle with
/// a rook further in is written with that rook's file. Once another rook stands beyond
/// the castling rook (here after h2h1), `K` would read back as the other rook: `to_fen`
/// must write `G`.
#[test]
fn castling_with_an_inner_rook_round_trips() {
    let any = AnyGame::builtin("chess").unwrap();
    with_width!(&any, g => {
        let mut pos = Position::from_fen(g, "4k3/8/8/8/8/8/7R/4K1R1 w K - 0 1").unwrap();
        let g1 = g.geo.parse_square("g1").unwrap() as u16;
        assert_eq!(pos.castle_rooks[0], g1);
        let m = g.parse_move(&mut pos, "h2h1").unwrap();
        pos.make(g, m);
        let fen = pos.to_fen(g);
        let back = Position::from_fen(g, &fen).unwrap();
        assert_eq!(back.castle_rooks[0], g1, "'{fen}' castles with another rook");
    });
}

/// The largest move number and halfmove clock a FEN may give are accepted, and a move
/// must not turn them into numbers the FEN cannot hold (the counters saturate).
#[test]
fn the_largest_move_number_survives_a_move() {
    every_game(|any, _| {
        with_width!(any, g => {
            let board = g.spec.start.split(' ').next().unwrap().to_string();
            for counters in ["0 4294967295", "4294967295 4294967295"] {
                hostile(g, &format!("{board} b {counters}"));
            }
        })
    });
}

/// FENs of the games' starts and of random legal positions, to mutate.
fn seed_fens() -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(base_seed());
    for (i, spec) in variants::builtin().iter().enumerate() {
        out.push((i, spec.start.clone()));
        out.extend(spec.starts.iter().map(|(_, f)| (i, f.clone())));
        let any = AnyGame::new(spec).unwrap();
        with_width!(&any, g => {
            let start = Position::from_fen(g, &g.spec.start).unwrap();
            let mut found = 0;
            while found < 4 {
                if let (_, Some(pos)) = random_legal(g, &start, &mut rng) {
                    out.push((i, pos.to_fen(g)));
                    found += 1;
                }
            }
        });
    }
    out
}

/// One edit of a FEN. The first two keep most FENs valid (another piece, or two pieces
/// changing places), so that a fair share of the edited FENs is accepted and checked; the
/// others mostly make garbage of them.
#[derive(Clone, Debug)]
enum Edit {
    /// The piece letter `at` (counted among the board's letters) becomes piece type
    /// `piece` of the game, White's if `white`.
    Piece {
        at: usize,
        piece: usize,
        white: bool,
    },
    /// The board's letters `a` and `b` change places.
    SwapPieces(usize, usize),
    Drop(usize),
    Duplicate(usize),
    Swap(usize, usize),
    Insert(usize, String),
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let text = prop_oneof![
        "[0-9a-zA-Z/ *+~'!\\[\\]-]{1,3}",
        Just("99999999999999999999".to_string()),
        Just("4294967295".to_string()),
        Just("KQRBNP".repeat(40)),
        Just("1".repeat(300)),
        Just("é".to_string()),
        Just("Ｋ".to_string()),
        Just("\u{0}".to_string()),
        "\\PC{1,4}",
    ];
    prop_oneof![
        4 => (any::<usize>(), any::<usize>(), any::<bool>())
            .prop_map(|(at, piece, white)| Edit::Piece { at, piece, white }),
        3 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::SwapPieces(a, b)),
        1 => any::<usize>().prop_map(Edit::Drop),
        1 => any::<usize>().prop_map(Edit::Duplicate),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        2 => (any::<usize>(), text).prop_map(|(a, t)| Edit::Insert(a, t)),
    ]
}

/// Applies `edits` to `fen`; `symbols` are the game's piece letters (Black's).
fn apply(fen: &str, edits: &[Edit], symbols: &[String]) -> String {
    let mut chars: Vec<char> = fen.chars().collect();
    for e in edits {
        let n = chars.len().max(1);
        let board_end = chars.iter().position(|&c| c == ' ').unwrap_or(chars.len());
        let letters: Vec<usize> = (0..board_end)
            .filter(|&i| chars[i].is_ascii_alphabetic())
            .collect();
        match e {
            Edit::Piece { at, piece, white } if !letters.is_empty() => {
                let i = letters[at % letters.len()];
                let symbol = &symbols[piece % symbols.len()];
                let symbol = if *white {
                    symbol.to_ascii_uppercase()
                } else {
                    symbol.clone()
                };
                // A promoted piece's '+' and a Tamerlane letter's mark go with the letter.
                let start = if i > 0 && chars[i - 1] == '+' {
                    i - 1
                } else {
                    i
                };
                let end = if chars.get(i + 1).is_some_and(|&c| c == '\'' || c == '!') {
                    i + 2
                } else {
                    i + 1
                };
                chars.splice(start..end, symbol.chars());
            }
            Edit::SwapPieces(a, b) if !letters.is_empty() => {
                chars.swap(letters[a % letters.len()], letters[b % letters.len()]);
            }
            Edit::Drop(at) if !chars.is_empty() => {
                chars.remove(at % n);
            }
            Edit::Duplicate(at) if !chars.is_empty() => {
                let c = chars[at % n];
                chars.insert(at % n, c);
            }
            Edit::Swap(a, b) if !chars.is_empty() => chars.swap(a % n, b % n),
            Edit::Insert(at, text) => {
                let at = at % (chars.len() + 1);
                chars.splice(at..at, text.chars());
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 600 * scale() as u32,
        failure_persistence: None,
        // The same cases on every run (CI must not pass or fail by chance); another
        // `KIRIN_PROPS_SEED` explores others.
        rng_seed: proptest::test_runner::RngSeed::Fixed(base_seed()),
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_fens_are_errors_or_consistent_positions(
        which in any::<usize>(),
        edits in prop::collection::vec(edit_strategy(), 1..5),
    ) {
        thread_local! {
            static FENS: Vec<(usize, String)> = seed_fens();
            static GAMES: Vec<AnyGame> =
                variants::builtin().iter().map(|s| AnyGame::new(s).unwrap()).collect();
        }
        let (game, fen) = FENS.with(|f| f[which % f.len()].clone());
        GAMES.with(|games| {
            with_width!(&games[game], g => {
                let symbols: Vec<String> = g.spec.pieces.iter().map(|p| p.letter.clone()).collect();
                let text = apply(&fen, &edits, &symbols);

                hostile(g, &text);
            })
        });
    }
}
