//! Untrusted input never panics, random play keeps positions consistent, and a panic
//! inside the engine (provoked with the test hook `KIRIN_FAULT`) is answered as an error
//! in the protocol's form while the engine keeps serving.

#[path = "support/engine.rs"]
mod engine;

use engine::{Engine, bestmove};
use kirin::protocol::session::Session;
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::{self, AnyGame};
use kirin::with_width;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn sample_fens() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for spec in variants::builtin() {
        out.push((spec.name.clone(), spec.start.clone()));
        for (_, f) in &spec.starts {
            out.push((spec.name.clone(), f.clone()));
        }
    }
    out
}

/// Parses `fen`; if it is accepted, generates moves and round-trips it.
fn exercise<const W: usize>(g: &Game<W>, fen: &str) {
    if let Ok(mut pos) = Position::from_fen(g, fen) {
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        let again = Position::from_fen(g, &pos.to_fen(g)).expect("written FENs parse");
        assert_eq!(again.key, pos.key, "{fen}");
    }
}

proptest! {
    // The same cases on every run: CI must not pass or fail by chance.
    #![proptest_config(ProptestConfig {
        cases: 400,
        rng_seed: proptest::test_runner::RngSeed::Fixed(400),
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_text_is_never_a_panic(text in "[0-9a-zA-Z/ *+~\\[\\]-]{0,80}") {
        for spec in variants::builtin() {
            let any = AnyGame::new(spec).unwrap();
            with_width!(&any, g => exercise(g, &text));
        }
    }

    #[test]
    fn mutated_fens_are_never_a_panic(which in 0usize..64, edits in prop::collection::vec((0usize..200, "[0-9a-zA-Z/ *+-]"), 1..4)) {
        let fens = sample_fens();
        let (variant, fen) = &fens[which % fens.len()];
        let mut chars: Vec<char> = fen.chars().collect();
        for (at, c) in edits {
            let at = at % (chars.len() + 1);
            match at % 3 {
                0 if at < chars.len() => { chars[at] = c.chars().next().unwrap(); }
                1 if at < chars.len() => { chars.remove(at); }
                _ => chars.insert(at, c.chars().next().unwrap()),
            }
        }
        let text: String = chars.into_iter().collect();
        let any = AnyGame::builtin(variant).unwrap();
        with_width!(&any, g => exercise(g, &text));
    }
}

/// Random games: every legal move's text parses back to the move, the incremental key
/// equals the recomputed one, and unmaking every move restores the start exactly.
fn random_games<const W: usize>(g: &Game<W>, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..20 {
        let start = Position::from_fen(g, &g.spec.start).unwrap();
        let mut pos = start.clone();
        let mut played = Vec::new();
        for _ in 0..200 {
            let mut list = MoveList::new();
            g.legal_moves(&mut pos, &mut list);
            if list.is_empty() {
                break;
            }
            for &m in &list {
                assert_eq!(g.parse_move(&mut pos, &g.move_text(m)), Ok(m));
            }
            let m = list[rng.gen_range(0..list.len())];
            played.push((m, pos.make(g, m)));
            assert_eq!(pos.key, pos.compute_key(g), "{}", g.spec.name);
            // A FEN holds everything but the rules' state about the last move (Chu's
            // counter-strike), which is keyed apart.
            let reparsed = Position::from_fen(g, &pos.to_fen(g)).expect("written FENs parse");
            let transient = pos.rule_state & g.rules.transient;
            assert_eq!(reparsed.rule_state, pos.rule_state & !transient);
            let strike = g.zobrist.rule_state(transient);
            assert_eq!(reparsed.key ^ strike, pos.key, "{}", pos.to_fen(g));
        }
        while let Some((m, u)) = played.pop() {
            pos.unmake(g, m, u);
        }
        assert!(pos == start, "{}", g.spec.name);
    }
}

#[test]
fn random_games_stay_consistent() {
    for (i, spec) in variants::builtin().iter().enumerate() {
        let any = AnyGame::new(spec).unwrap();
        with_width!(&any, g => random_games(g, i as u64));
    }
}

/// The binary started with `KIRIN_FAULT=fault`.
fn engine_with_fault(fault: &str) -> Engine {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kirin"));
    cmd.env("KIRIN_FAULT", fault);
    Engine::start_command(cmd)
}

/// A UCI session with `KIRIN_FAULT=fault`, its identification read.
fn uci_with_fault(fault: &str) -> Engine {
    let mut e = engine_with_fault(fault);
    e.send("uci");
    e.until(|l| l == "uciok");
    e
}

/// A CECP session with `KIRIN_FAULT=fault`, in game mode for chess at depth 3.
fn xboard_with_fault(fault: &str) -> Engine {
    let mut e = engine_with_fault(fault);
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e.send("new");
    e.send("sd 3");
    e
}

/// True if `moves` (kirin's text) can be played in chess from the start position.
fn legal_chess_line(moves: &[&str]) -> bool {
    let mut session = Session::new(variants::find("chess").unwrap()).unwrap();
    with_width!(&mut session, s => s.set_line(None, moves).is_ok())
}

/// The `info string error` lines of `out`.
fn errors(out: &[String]) -> Vec<&String> {
    out.iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}

/// A search that panics answers `info string error: internal error in the search: ...`
/// with the move of its last completed iteration; the next one searches as usual.
#[test]
fn uci_search_panic_is_answered_and_the_engine_serves_on() {
    let mut e = uci_with_fault("search-panic");
    e.send("position startpos moves e2e4");
    e.send("go depth 3");
    let out = e.until(|l| l.starts_with("bestmove"));
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{out:?}");
    assert!(
        errs[0].starts_with(
            "info string error: internal error in the search: KIRIN_FAULT=search-panic: \
             a panic provoked for a test (at src/search/"
        ) && errs[0].ends_with("; the move is the best of depth 1, the last completed"),
        "{out:?}"
    );
    let depth_one = out
        .iter()
        .find(|l| l.starts_with("info depth 1 "))
        .expect("depth 1 completed");
    let best = bestmove(&out);
    assert!(depth_one.contains(&format!(" pv {best}")), "{out:?}");
    assert!(legal_chess_line(&["e2e4", &best]), "{best}");
    // The engine is whole: it answers, and searches to depth 3 without an error.
    e.ready();
    e.send("go depth 3");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 3 ")),
        "{out:?}"
    );
    assert!(legal_chess_line(&["e2e4", &bestmove(&out)]));
    e.quit();
}

/// A helper thread's panic is said; the main thread's search is the answer.
#[test]
fn uci_helper_panic_is_answered_and_the_engine_serves_on() {
    let mut e = uci_with_fault("helper-panic");
    e.send("setoption name Threads value 2");
    e.send("position startpos");
    e.send("go depth 4");
    let out = e.until(|l| l.starts_with("bestmove"));
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{out:?}");
    assert!(
        errs[0].starts_with(
            "info string error: internal error in the search: KIRIN_FAULT=helper-panic"
        ) && errs[0].ends_with("; search thread 1 stopped, the others searched on"),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.starts_with("info depth 4 ")),
        "{out:?}"
    );
    assert!(legal_chess_line(&[&bestmove(&out)]));
    e.ready();
    e.send("go depth 4");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(legal_chess_line(&[&bestmove(&out)]));
    e.quit();
}

/// A command that panics is answered with an error and leaves the game as it was.
#[test]
fn uci_command_panic_leaves_the_game_as_it_was() {
    let mut e = uci_with_fault("command-panic");
    // The first `position` sets its game up, then panics: the start position stays.
    e.send("position startpos moves e2e4");
    e.send("d");
    let board = e.ready();
    assert_eq!(errors(&board).len(), 1, "{board:?}");
    assert!(
        board[0].starts_with(
            "info string error: internal error in 'position startpos moves e2e4': \
             KIRIN_FAULT=command-panic"
        ) && board[0].ends_with("; the game is as it was before it"),
        "{board:?}"
    );
    assert!(
        board.iter().any(|l| l.starts_with("  2   P  P  P  P  P")),
        "{board:?}"
    );
    // The fault fires once: the same command now sets the game up.
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(legal_chess_line(&["e2e4", &bestmove(&out)]));
    e.quit();
}

/// The move lines of `out`, as kirin's text (one leg each in chess).
fn cecp_move(out: &[String]) -> String {
    let last = out.last().unwrap();
    last.strip_prefix("move ")
        .unwrap_or_else(|| panic!("{out:?}"))
        .to_string()
}

/// A search that panics in game mode tells the user (`tellusererror`) and still moves;
/// the game goes on.
#[test]
fn cecp_search_panic_is_answered_and_the_engine_serves_on() {
    // The main thread's fault on one thread: beside a helper it could be missed, since a
    // helper that reaches the depth limit (`sd 3`) first ends the search before the main
    // thread begins its second iteration. The helper's fault wants a helper.
    for (fault, cores) in [("search-panic", 1), ("helper-panic", 2)] {
        let mut e = xboard_with_fault(fault);
        e.send(&format!("cores {cores}"));
        e.send("usermove e2e4");
        let out = e.until(|l| l.starts_with("move "));
        let told: Vec<_> = out
            .iter()
            .filter(|l| l.starts_with("tellusererror"))
            .collect();
        assert_eq!(told.len(), 1, "{out:?}");
        assert!(
            told[0].starts_with(&format!(
                "tellusererror kirin: internal error in the search: KIRIN_FAULT={fault}"
            )),
            "{out:?}"
        );
        let reply = cecp_move(&out);
        assert!(legal_chess_line(&["e2e4", &reply]), "{reply}");
        e.send("ping 7");
        e.until(|l| l == "pong 7");
        e.send("usermove d2d4");
        let out = e.until(|l| l.starts_with("move "));
        assert!(
            !out.iter().any(|l| l.starts_with("tellusererror")),
            "{out:?}"
        );
        assert!(legal_chess_line(&[
            "e2e4",
            &reply,
            "d2d4",
            &cecp_move(&out)
        ]));
        e.quit();
    }
}

/// A `setboard` that panics answers `Error (internal error: ...): setboard ...` and
/// leaves the game as it was.
#[test]
fn cecp_command_panic_leaves_the_game_as_it_was() {
    let mut e = xboard_with_fault("command-panic");
    e.send("force");
    e.send("usermove e2e4");
    // White to move there: a move of White would show the position was replaced.
    e.send("setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    e.send("ping 1");
    let out = e.until(|l| l == "pong 1");
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out[0].starts_with("Error (internal error: KIRIN_FAULT=command-panic")
            && out[0].ends_with(
                "; the game is as it was before it): setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1"
            ),
        "{out:?}"
    );
    e.send("go");
    let out = e.until(|l| l.starts_with("move "));
    assert!(legal_chess_line(&["e2e4", &cecp_move(&out)]), "{out:?}");
    e.quit();
}
