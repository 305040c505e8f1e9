//! Game-end claims over CECP. XBoard with legality testing on forfeits a claimer whose
//! win or draw it does not see itself, and it knows only checkmate and stalemate (no
//! bare-king rule outside Shatranj). Under the CECP option "Claim only mate and
//! stalemate" (on by default) kirin plays each variant under those results, claims
//! checkmate, stalemate (with XBoard's verdict) and its own losses by the real rules, and
//! plays on to mate against a bare King; with the option off it claims by the real rules.
//! The last tests play out won endings under XBoard's rules: the search must deliver mate.

#[path = "support/engine.rs"]
mod engine;

use engine::Engine;
use kirin::eval::Eval;
use kirin::protocol::cecp;
use kirin::rules::{Game, MoveList, Position};
use kirin::search::limits::Limits;
use kirin::search::tt::Table;
use kirin::search::{self, Context};
use kirin::variants::{self, AnyGame};
use kirin::with_width;
use std::sync::atomic::AtomicBool;

/// kirin over CECP, features read; `verified` sets option "Claim only mate and
/// stalemate" (`None`: left at its default).
fn xboard_claims(verified: Option<bool>) -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.until(|l| l.contains("done=1"));
    assert!(
        features
            .iter()
            .any(|l| l.contains("option=\"Claim only mate and stalemate -check 1\"")),
        "{features:?}"
    );
    if let Some(on) = verified {
        e.send(&format!(
            "option Claim only mate and stalemate={}",
            on as u8
        ));
    }
    e
}

/// Claim-specific exchanges.
impl Engine {
    /// Everything the engine says until it answers `ping N`, without the `pong`.
    #[track_caller]
    fn settle(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        let mut out = self.until(|l| l == pong);
        out.pop();
        out
    }

    /// Sets up `fen` in `variant` (in force mode), the engine to play the side not to
    /// move, then plays the user's `moves`: returns what the engine says after them.
    #[track_caller]
    fn after_user(&mut self, variant: &str, fen: &str, moves: &[&str], n: u32) -> Vec<String> {
        self.send("new");
        self.send(&format!("variant {variant}"));
        self.send("force");
        self.send(&format!("setboard {fen}"));
        self.send("sd 3");
        self.send("playother");
        for m in moves {
            self.send(&format!("usermove {m}"));
        }
        self.settle(n)
    }

    /// Sets up `fen` in `variant`, the engine to move: returns what it says up to its
    /// move and the claim, if any, that follows.
    #[track_caller]
    fn go(&mut self, variant: &str, fen: &str, depth: u32, n: u32) -> Vec<String> {
        self.send("new");
        self.send(&format!("variant {variant}"));
        self.send("force");
        self.send(&format!("setboard {fen}"));
        self.send(&format!("sd {depth}"));
        self.send("go");
        let mut out = self.until(|l| l.starts_with("move ") || l.ends_with('}'));
        out.extend(self.settle(n));
        out
    }

    /// Sets up `fen` in `variant` and says `go`: returns what the engine says when the
    /// game is already over (its claim) and nothing else happens.
    #[track_caller]
    fn claim(&mut self, variant: &str, fen: &str, n: u32) -> Vec<String> {
        self.send("new");
        self.send(&format!("variant {variant}"));
        self.send("force");
        self.send(&format!("setboard {fen}"));
        self.send("go");
        self.settle(n)
    }
}

/// Courier, White to move: the Rook takes Black's last piece, the Courier on f3, baring
/// Black's King on a8, which cannot take the Rook back. (A Courier, not a Fers: where
/// only a mate ends the game, as XBoard sees Courier, boxing the King in with the Rook
/// first can score above taking a piece worth less than two pawns, and the engine
/// then keeps the Fers for later.)
const COURIER_BARING: &str = "k11/12/12/12/12/5b6/12/5RK5 w - - 0 1";

#[test]
fn after_baring_the_king_kirin_plays_on_instead_of_claiming() {
    for verified in [None, Some(true)] {
        let mut e = xboard_claims(verified);
        let out = e.go("courier", COURIER_BARING, 4, 1);
        assert!(out.contains(&"move f1f3".to_string()), "{out:?}");
        assert!(!out.iter().any(|l| l.contains('{')), "{out:?}");
        // Black moves its bare King; kirin answers with a move, no claim.
        e.send("usermove a8b8");
        let out = e.until(|l| l.starts_with("move ") || l.contains('{'));
        assert!(out.last().unwrap().starts_with("move "), "{out:?}");
        let out = e.settle(2);
        assert!(!out.iter().any(|l| l.contains('{')), "{out:?}");
        e.quit();
    }
}

#[test]
fn without_the_option_the_bare_king_win_is_claimed() {
    let mut e = xboard_claims(Some(false));
    let out = e.go("courier", COURIER_BARING, 4, 1);
    let at = out
        .iter()
        .position(|l| l == "move f1f3")
        .expect("takes the Courier");
    assert_eq!(out[at + 1], "1-0 {bare king}", "{out:?}");
    // Courier's own stalemate verdict too: Black, stalemated, has lost.
    let out = e.claim("courier", "k1W9/p11/P1K9/12/12/12/12/12 b - - 0 1", 2);
    assert_eq!(out, ["1-0 {stalemate}"]);
    e.quit();
}

#[test]
fn kirin_claims_the_mate_it_delivers() {
    let mut e = xboard_claims(None);
    // Courier: Rh8 mates the King on a8 (b7 and a7 are the White King's).
    let out = e.go("courier", "k11/12/1K10/12/12/12/12/7R4 w - - 0 1", 3, 1);
    let n = out.len();
    assert_eq!(out[n - 2..], ["move h1h8", "1-0 {checkmate}"], "{out:?}");
    // Chu: the same mate (Black's Pawn on l7 is blocked). Under Chu's own rules (no
    // check: a King may step into an attack and be taken) Black still has moves, and
    // nothing is claimed; XBoard, testing legality, sees mate.
    let chu = "k11/12/1K10/12/12/11p/11P/12/12/12/12/7R4 w 0 1";
    let out = e.go("chu", chu, 3, 2);
    let n = out.len();
    // The Rook promotes entering the zone (or not: it mates either way).
    assert!(out[n - 2].starts_with("move h1h12"), "{out:?}");
    assert_eq!(out[n - 1], "1-0 {checkmate}", "{out:?}");
    e.quit();
    let mut e = xboard_claims(Some(false));
    let out = e.go("chu", chu, 3, 3);
    assert!(out.last().unwrap().starts_with("move "), "{out:?}");
    e.quit();
}

#[test]
fn kirin_resigns_when_mated_or_bared() {
    let mut e = xboard_claims(None);
    // Mated by the user's move.
    let out = e.after_user(
        "courier",
        "k11/12/1K10/12/12/12/12/7R4 w - - 0 1",
        &["h1h8"],
        1,
    );
    assert_eq!(out, ["1-0 {checkmate}"]);
    // Bared by the user's move: by Courier's rules kirin has lost, and says so (a claim
    // of one's own loss is a resignation, which XBoard accepts).
    let out = e.after_user("courier", COURIER_BARING, &["f1f3"], 2);
    assert_eq!(out, ["1-0 {bare king}"]);
    // Bared, but able to take the last White piece at once: play goes on.
    let rebare = "k11/f11/12/12/12/12/12/R10K w - - 0 1";
    e.send("force");
    e.send(&format!("setboard {rebare}"));
    e.send("playother");
    e.send("usermove a1a7");
    let out = e.until(|l| l.starts_with("move ") || l.contains('{'));
    assert!(!out.iter().any(|l| l.contains('{')), "{out:?}");
    assert_eq!(out.last().unwrap(), "move a8a7", "{out:?}");
    // Chu: bared too (the Rook takes the last Gold).
    let chu = "k11/12/12/12/12/12/12/12/12/5g6/12/5R5K w 0 1";
    let out = e.after_user("chu", chu, &["f1f3"], 4);
    assert_eq!(out, ["1-0 {bare king}"]);
    e.quit();
}

#[test]
fn stalemate_is_claimed_with_xboards_verdict() {
    let mut e = xboard_claims(None);
    // Courier: stalemate loses by kirin's rules, but XBoard draws it.
    let out = e.claim("courier", "k1W9/p11/P1K9/12/12/12/12/12 b - - 0 1", 1);
    assert_eq!(out, ["1/2-1/2 {stalemate}"]);
    // Sho is described to XBoard with parent shogi, where stalemate loses.
    let out = e.claim("sho", "8k/6S2/7G1/9/9/9/9/9/K8 b 0 1", 2);
    assert_eq!(out.last().unwrap(), "1-0 {stalemate}", "{out:?}");
    e.quit();
}

#[test]
fn xboards_stalemate_verdicts() {
    use kirin::rules::spec::Verdict;
    let verdict = |name: &str| cecp::xboard_stalemate(variants::find(name).unwrap());
    assert_eq!(verdict("chess"), Verdict::Draw);
    assert_eq!(verdict("courier"), Verdict::Draw);
    assert_eq!(verdict("chu"), Verdict::Draw);
    assert_eq!(verdict("duodecimal"), Verdict::Draw);
    assert_eq!(verdict("sho"), Verdict::Loss);
}

/// Plays `fen` out under XBoard's rules for `variant`, both sides searching to `depth`
/// plies; returns the moves and the outcome, seen from the side to move at the end.
fn play_out(variant: &str, fen: &str, depth: i32, max_plies: usize) -> (Vec<String>, String) {
    let rules = cecp::xboard_rules(variants::find(variant).unwrap());
    let any = AnyGame::new(&rules).unwrap();
    with_width!(&any, g => play_out_in(g, fen, depth, max_plies))
}

fn play_out_in<const W: usize>(
    g: &Game<W>,
    fen: &str,
    depth: i32,
    max_plies: usize,
) -> (Vec<String>, String) {
    let eval = Eval::new(g);
    let tt = Table::new(16);
    let stop = AtomicBool::new(false);
    let ctx = Context {
        game: g,
        eval: &eval,
        tt: &tt,
        stop: &stop,
        memory: None,
    };
    let mut pos = Position::from_fen(g, fen).unwrap();
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        if let Some(o) = g.outcome(&mut pos) {
            return (moves, format!("{:?} {}", o.verdict, o.reason));
        }
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        // A search with a depth limit sets the stop flag when it is done.
        stop.store(false, std::sync::atomic::Ordering::Relaxed);
        let r = search::search(&ctx, &pos, &limits, 1, &mut |_| {});
        let m = r.best.expect("a move");
        let mut list = MoveList::new();
        g.game_moves(&mut pos, &mut list);
        assert!(list.contains(&m));
        moves.push(g.move_text(m));
        pos.make(g, m);
    }
    (moves, "unfinished".to_string())
}

/// A bare King is mated, within XBoard's 50-move rule, by both sides searching at a
/// fixed depth: the mop-up evaluation drives the King to the edge. So is a King with a
/// piece or two left against a large material lead.
#[track_caller]
fn mates(variant: &str, fen: &str, depth: i32) {
    let (moves, end) = play_out(variant, fen, depth, 100);
    assert_eq!(end, "Loss checkmate", "{variant} {fen}: {moves:?}");
    eprintln!(
        "{variant} {fen}: mate after {} plies: {}",
        moves.len(),
        moves.join(" ")
    );
}

#[test]
fn courier_bare_kings_are_mated() {
    mates("courier", "12/12/12/5k6/12/12/12/R5K5 w - - 0 1", 6);
    mates("courier", "12/12/5k6/12/12/12/12/M5K5 w - - 0 1", 8);
    mates("courier", "12/12/12/6k5/12/12/12/RN4K5 w - - 0 1", 6);
    // From a game against Fairy-Max that kirin, without the mop-up beyond a bare King,
    // drew by the 50-move rule, and a second like it. Whether a fixed-depth search mates
    // here within a given number of plies is partly a matter of the depth (a move order
    // that differs by a little sends the playout elsewhere: docs/search.md), so each is
    // played out at six depths and must be mated, within 200 plies, at five of them.
    let endings = [
        "12/3P8/p4K6/P1E2EM5/3W2k5/12/5Fb5/12 b - - 4 140",
        "12/12/2k9/4b7/12/3EM2W4/4KF6/3E8 w - - 0 1",
    ];
    for fen in endings {
        let ends: Vec<(i32, String, usize)> = (8..=13)
            .map(|depth| {
                let (moves, end) = play_out("courier", fen, depth, 200);
                (depth, end, moves.len())
            })
            .collect();
        let mated = ends
            .iter()
            .filter(|(_, end, _)| end == "Loss checkmate")
            .count();
        assert!(mated >= 5, "courier {fen}: (depth, end, plies) {ends:?}");
        eprintln!("courier {fen}: mated at {mated} of 6 depths: {ends:?}");
    }
}

#[test]
fn chu_bare_kings_are_mated() {
    let chu = |pieces: &str| format!("12/12/12/12/12/6k5/12/12/12/12/12/{pieces} w 0 1");
    mates("chu", &chu("R5K5"), 6);
    mates("chu", &chu("G4GK5"), 6);
    mates("chu", &chu("N5K5"), 6);
    mates("chu", "12/12/12/12/5k6/12/12/12/12/12/3p8/R3S1K5 w 0 1", 6);
}
