//! Search correctness: mates are found and scored, variant results reach the tree, the
//! node count is deterministic on one thread, and every limit returns a legal move.

use kirin::eval::Eval;
use kirin::rules::{Game, MoveList, Position};
use kirin::search::limits::Limits;
use kirin::search::tt::Table;
use kirin::search::{self, Context, MATE_BOUND, RULE_WIN, SearchResult};
use kirin::variants::AnyGame;
use kirin::with_width;
use std::sync::atomic::AtomicBool;

fn run<const W: usize>(
    g: &Game<W>,
    fen: &str,
    limits: Limits,
    threads: usize,
) -> (SearchResult, String) {
    let pos = Position::from_fen(g, fen).unwrap();
    let eval = Eval::new(g);
    let tt = Table::new(8);
    let stop = AtomicBool::new(false);
    let ctx = Context {
        game: g,
        eval: &eval,
        tt: &tt,
        stop: &stop,
        memory: None,
    };
    let r = search::search(&ctx, &pos, &limits, threads, &mut |_| {});
    let mut p = pos.clone();
    let mut list = MoveList::new();
    g.game_moves(&mut p, &mut list);
    if let Some(m) = r.best {
        assert!(list.contains(&m), "the best move is legal");
    }
    let text = r.best.map(|m| g.move_text(m)).unwrap_or_default();
    (r, text)
}

fn depth(d: i32) -> Limits {
    Limits {
        depth: Some(d),
        ..Default::default()
    }
}

fn search_in(variant: &str, fen: &str, limits: Limits) -> (i32, String) {
    let any = AnyGame::builtin(variant).unwrap();
    with_width!(&any, g => {
        let (r, m) = run(g, fen, limits, 1);
        (r.score, m)
    })
}

/// A Chu middlegame of kirin's against HaChu (move 30, Black to move) in which both
/// Kings stood in reach of the enemy: each side in danger searched every reply, and
/// quiescence ran 139M nodes deep into the tree before depth 1 was done. A side that can
/// take the last enemy royal has won, so the tree stops there.
#[test]
fn a_capturable_royal_ends_the_line_at_once() {
    let fen = "lfcsgeg1scfl/a3tko3va/mvrbdqtd1r2/pppp1pp1ppmp/7pi1p1/3N1hnb4/2Q1H2x4/\
               3IP3HP2/MPPP2P1P1PP/1VR1DT1DBRVM/AFBS1OETSF1A/L1C1GK1G1C1L b - - 6 30";
    let any = AnyGame::builtin("chu").unwrap();
    let nodes = with_width!(&any, g => {
        let limits = Limits { nodes: Some(20_000_000), ..depth(6) };
        let (r, _) = run(g, fen, limits, 1);
        assert_eq!(r.depth, 6, "depth 6 within 20M nodes");
        r.nodes
    });
    // About 0.5M nodes; the bound leaves room for changes of the search, not for the
    // old explosion.
    assert!(nodes < 5_000_000, "{nodes} nodes to depth 6");
}

#[test]
fn finds_mate_in_one_and_two() {
    // Back-rank mate in one.
    let (score, m) = search_in("chess", "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", depth(4));
    assert_eq!(m, "a1a8");
    assert!(score >= MATE_BOUND);
    // Mate in two with the queen and king: the score says mate.
    let (score, _) = search_in("chess", "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", depth(6));
    assert!(score >= MATE_BOUND, "{score}");
}

#[test]
fn variant_results_reach_the_tree() {
    // Courier: stalemating the opponent wins (White moves the Schleich to c7).
    let (score, _) = search_in(
        "courier",
        "k11/p11/P1K9/3W8/12/12/12/12 w - - 0 1",
        depth(3),
    );
    assert!(
        score >= MATE_BOUND,
        "stalemate is a win in courier: {score}"
    );
    // Chu: taking the King wins at once.
    let (score, m) = search_in(
        "chu",
        "R5k5/12/12/12/12/12/12/12/12/12/12/6K5 w 0 1",
        depth(3),
    );
    assert!(m.starts_with("a12g12"), "{m}");
    assert!(score >= MATE_BOUND, "{score}");
    // Chu: a bare King against several pieces has lost (a win by rule, scored below a
    // capture of the King so that the winner still takes it where it can).
    let (score, _) = search_in(
        "chu",
        "6k5/R11/12/12/12/12/12/12/12/12/5R1R4/K11 b 0 1",
        depth(3),
    );
    assert!(score <= -RULE_WIN + 10, "{score}");
}

/// With helper threads the deepest completed iteration is played, a helper's when it
/// finished the depth limit first: the last line reported is then the helper's, so that
/// the move played never differs from the variation a GUI last showed.
#[test]
fn the_last_line_reported_begins_with_the_move_played() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let any = AnyGame::builtin("chess").unwrap();
    with_width!(&any, g => {
        let pos = Position::from_fen(g, fen).unwrap();
        let eval = Eval::new(g);
        for _ in 0..8 {
            let tt = Table::new(8);
            let stop = AtomicBool::new(false);
            let ctx = Context { game: g, eval: &eval, tt: &tt, stop: &stop, memory: None };
            let mut last = None;
            let r = search::search(&ctx, &pos, &depth(7), 3, &mut |i| {
                last = Some((i.depth, i.pv.first().copied(), i.score))
            });
            let (d, first, score) = last.expect("a line reported");
            assert_eq!((d, first, score), (r.depth, r.best, r.score));
        }
    });
}

#[test]
fn one_thread_is_deterministic() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let any = AnyGame::builtin("chess").unwrap();
    with_width!(&any, g => {
        let (a, _) = run(g, fen, depth(6), 1);
        let (b, _) = run(g, fen, depth(6), 1);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.best, b.best);
    });
}

#[test]
fn every_limit_returns_a_legal_move_in_every_variant() {
    for spec in kirin::variants::builtin() {
        let any = AnyGame::new(spec).unwrap();
        with_width!(&any, g => {
            let fen = g.spec.start.clone();
            for (limits, threads) in [
                (Limits { nodes: Some(2000), ..Default::default() }, 1),
                (Limits { movetime: Some(std::time::Duration::from_millis(30)), ..Default::default() }, 2),
                (Limits { time: Some(std::time::Duration::from_millis(50)), inc: std::time::Duration::from_millis(5), ..Default::default() }, 1),
                (depth(2), 2),
            ] {
                let (r, m) = run(g, &fen, limits, threads);
                assert!(r.best.is_some() && !m.is_empty(), "{}", g.spec.name);
            }
        });
    }
}

/// `stop` and `?` are answered as soon as the search sees its stop flag, so every node
/// looks at it (not only every thousand nodes with the clock: on the large boards that
/// took up to 10 ms). A search told to stop before it starts ends at its first node on
/// each thread, with a legal move, in every game.
#[test]
fn the_stop_flag_is_seen_at_the_next_node() {
    for spec in kirin::variants::builtin() {
        let any = AnyGame::new(spec).unwrap();
        with_width!(&any, g => {
            let pos = Position::from_fen(g, &g.spec.start).unwrap();
            let eval = Eval::new(g);
            let tt = Table::new(1);
            for threads in [1, 2] {
                let stop = AtomicBool::new(true);
                let ctx = Context { game: g, eval: &eval, tt: &tt, stop: &stop, memory: None };
                let limits = Limits { infinite: true, ..Default::default() };
                let r = search::search(&ctx, &pos, &limits, threads, &mut |_| {});
                let mut p = pos.clone();
                let mut list = MoveList::new();
                g.game_moves(&mut p, &mut list);
                assert!(r.best.is_some_and(|m| list.contains(&m)), "{}", g.spec.name);
                assert!(
                    r.nodes <= threads as u64,
                    "{}: {} nodes on {threads} threads after the stop",
                    g.spec.name,
                    r.nodes
                );
            }
        });
    }
}

/// Contempt scores a draw as that much worse than even for the side the search is for,
/// and as that much better for its opponent: with the move rule one ply away every
/// move of this rook ending draws, so the root's score is minus the contempt (plus
/// it for a contempt below 0), whichever side the search is for.
#[test]
fn contempt_counts_a_draw_against_the_side_searched_for() {
    let drawn_next = "4k3/8/8/8/8/8/r7/4K2R w - - 99 80";
    for contempt in [0, 37, -37, 500] {
        let limits = Limits {
            contempt,
            ..depth(4)
        };
        let (score, _) = search_in("chess", drawn_next, limits);
        assert_eq!(score, -contempt, "contempt {contempt}");
    }
    // The same from Black's side: the draw is still the searching side's to dislike.
    let black = "4k3/8/8/8/8/8/r7/4K2R b - - 99 80";
    let limits = Limits {
        contempt: 37,
        ..depth(4)
    };
    let (score, _) = search_in("chess", black, limits);
    assert_eq!(score, -37);
}
