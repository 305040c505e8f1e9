//! The search, from random positions of every game (a random legal game, as the other
//! targets make): with a few thousand nodes, a small depth, one or two threads and
//! several principal variations, it answers a move whenever the side to move has one,
//! and its move (the whole turn, in games of several actions per turn) and the reply it
//! expects are legal; it changes nothing of the position it was given.

use crate::common::{game, random_game};
use bolero::{TypeGenerator, check};
use kirin::eval::Eval;
use kirin::rules::{Game, MoveList, Position};
use kirin::search::limits::Limits;
use kirin::search::tt::Table;
use kirin::search::{self, Context};
use kirin::with_width;
use std::sync::atomic::AtomicBool;

#[derive(Debug, TypeGenerator)]
struct SearchCase {
    game: u8,
    start: u8,
    plies: Vec<u8>,
    depth: u8,
    nodes: u16,
    multipv: u8,
    two_threads: bool,
}

#[test]
fn search() {
    check!()
        .with_type::<SearchCase>()
        .with_iterations(60)
        .for_each(|case| {
            with_width!(game(case.game), g => one_search(g, case));
        });
}

fn one_search<const W: usize>(g: &Game<W>, case: &SearchCase) {
    let (mut pos, _) = random_game(g, case.start, &case.plies);
    let before = pos.clone();
    let eval = Eval::new(g);
    let tt = Table::new(1);
    let stop = AtomicBool::new(false);
    let ctx = Context {
        game: g,
        eval: &eval,
        tt: &tt,
        stop: &stop,
        memory: None,
    };
    let limits = Limits {
        depth: Some(1 + case.depth as i32 % 4),
        nodes: Some(200 + case.nodes as u64 % 4000),
        multipv: 1 + case.multipv as usize % 3,
        ..Default::default()
    };
    let threads = if case.two_threads { 2 } else { 1 };
    let r = search::search(&ctx, &pos, &limits, threads, &mut |_| {});
    assert!(
        pos == before,
        "{}: the search changed the position",
        g.spec.name
    );

    let mut list = MoveList::new();
    g.game_moves(&mut pos, &mut list);
    let fen = pos.to_fen(g);
    if list.is_empty() || g.royals_lost(&mut pos) {
        return;
    }
    let best = r
        .best
        .unwrap_or_else(|| panic!("{}: no move from '{fen}'", g.spec.name));
    assert_eq!(
        r.turn.first(),
        Some(&best),
        "{}: the turn does not start with the best move",
        g.spec.name
    );
    let mut after = pos.clone();
    play_turn(g, &mut after, &r.turn, &fen);
    if let Some(reply) = &r.ponder_turn {
        play_turn(g, &mut after, reply, &fen);
    }
}

/// Makes each action of `turn`, each a legal move where it is made.
fn play_turn<const W: usize>(
    g: &Game<W>,
    pos: &mut Position<W>,
    turn: &[kirin::core::Move],
    fen: &str,
) {
    let side = pos.side;
    for &m in turn {
        let mut list = MoveList::new();
        g.legal_moves(pos, &mut list);
        assert!(
            list.contains(&m),
            "{}: {} is not legal (search from '{fen}')",
            g.spec.name,
            g.move_text(m)
        );
        pos.make(g, m);
    }
    assert!(
        pos.side != side && pos.actions == 0,
        "{}: a turn that does not end (search from '{fen}')",
        g.spec.name
    );
}
