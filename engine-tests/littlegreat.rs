//! Little Great Chess (`littlegreat`, docs/rules/littlegreat.md) against its rules page.
//!
//! - The perft suite (positions/littlegreat.epd): for the positions with few turns, the
//!   depth-1 turns are written out below, sorted, as `scripts/littlegreat-reference.py
//!   moves FEN` prints them (an independent implementation of the rules page), so that a
//!   reader can check each list by hand against its comment; every suite position's tree is
//!   walked to two turns checking make/unmake, the incremental key, FEN (mid-turn
//!   positions included) and that every turn's text reads back as the same actions.
//! - One test per rule of the page, on small hand-made positions with exact facts: turns
//!   that must or must not exist, FENs after a turn, outcomes. The facts were confirmed
//!   with the reference script.
//! - A self-played game through the binary over UCI, replayed over CECP.
//!
//! Every defect these tests found was mended; a test that failed because kirin departed
//! from the rules page would name the position, what the page asks for and what kirin does.

#[path = "support/engine.rs"]
mod engine;

use engine::{Engine, bestmove};
use kirin::core::Move;
use kirin::rules::spec::Verdict;
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::AnyGame;
use kirin::with_width;

const START: &str = "mnbkgbnm/ssssssss/8/8/8/8/SSSSSSSS/MNBGKBNM[] w - - 0 1";

/// The perft suite, read at compile time: `FEN ;D1 n ;D2 n ... # comment` lines.
const SUITE: &str = include_str!("../positions/littlegreat.epd");

fn lgc() -> AnyGame {
    AnyGame::builtin("littlegreat").expect("littlegreat is built in")
}

fn position<const W: usize>(g: &Game<W>, fen: &str) -> Position<W> {
    Position::from_fen(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Pushes the text of every complete turn that follows the `actions` already made in
/// `pos` (the mover's actions while the side stays the same; the end of a turn has an
/// empty text and adds nothing to the turn's text).
fn collect_turns<const W: usize>(
    g: &Game<W>,
    pos: &mut Position<W>,
    actions: &mut Vec<Move>,
    out: &mut Vec<String>,
) {
    let side = pos.side;
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    for &m in &list {
        let u = pos.make(g, m);
        actions.push(m);
        if pos.side == side {
            collect_turns(g, pos, actions, out);
        } else {
            out.push(g.turn_text(actions));
        }
        actions.pop();
        pos.unmake(g, m, u);
    }
}

/// Little Great Chess with prisoner exchange on (`--rule exchange=on`).
fn lgc_exchange() -> AnyGame {
    let spec = kirin::variants::with_rules("littlegreat", &["exchange=on".into()], "")
        .expect("the exchange option exists");
    AnyGame::new(&spec).expect("littlegreat compiles with exchange on")
}

/// Every complete turn of `fen`, sorted; asserts that no two turns share a text.
fn turns(fen: &str) -> Vec<String> {
    turns_in(&lgc(), fen)
}

/// `turns` in the game `any` (the variant under other rules).
fn turns_in(any: &AnyGame, fen: &str) -> Vec<String> {
    let mut out = with_width!(any, g => {
        let mut pos = position(g, fen);
        let mut out = Vec::new();
        collect_turns(g, &mut pos, &mut Vec::new(), &mut out);
        out
    });
    out.sort();
    let n = out.len();
    out.dedup();
    assert_eq!(out.len(), n, "two turns of {fen} have the same text");
    out
}

/// The turns of `fen` whose text starts with `prefix` (a square: that piece's turns).
fn turns_from(fen: &str, prefix: &str) -> Vec<String> {
    turns(fen)
        .into_iter()
        .filter(|t| t.starts_with(prefix))
        .collect()
}

fn has(turns: &[String], text: &str) -> bool {
    turns.iter().any(|t| t == text)
}

/// The FEN after the whole turns `played` from `fen` (each read with `parse_turn`).
fn play(fen: &str, played: &[&str]) -> String {
    play_in(&lgc(), fen, played)
}

/// `play` in the game `any`.
fn play_in(any: &AnyGame, fen: &str, played: &[&str]) -> String {
    with_width!(any, g => {
        let mut pos = position(g, fen);
        for text in played {
            let side = pos.side;
            let actions = g
                .parse_turn(&mut pos, text)
                .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.to_fen(g)));
            for m in actions {
                pos.make(g, m);
            }
            assert_ne!(pos.side, side, "{text} is not a whole turn");
        }
        pos.to_fen(g)
    })
}

/// Whether `text` reads as a turn (or the start of one) in `fen`.
fn parses(fen: &str, text: &str) -> bool {
    let any = lgc();
    with_width!(&any, g => g.parse_turn(&mut position(g, fen), text).is_ok())
}

/// Makes single actions named by their own texts (`""` is the end of a turn); returns
/// the FEN reached and the sorted texts of the actions that may follow.
fn actions(fen: &str, texts: &[&str]) -> (String, Vec<String>) {
    let any = lgc();
    with_width!(&any, g => {
        let mut pos = position(g, fen);
        for &text in texts {
            let mut list = MoveList::new();
            g.legal_moves(&mut pos, &mut list);
            let m = *list
                .iter()
                .find(|&&m| g.move_text(m) == text)
                .unwrap_or_else(|| panic!("no action '{text}' in {}", pos.to_fen(g)));
            pos.make(g, m);
        }
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        let mut next: Vec<String> = list.iter().map(|&m| g.move_text(m)).collect();
        next.sort();
        (pos.to_fen(g), next)
    })
}

fn outcome(fen: &str) -> Option<(Verdict, &'static str)> {
    let any = lgc();
    with_width!(&any, g => g.outcome(&mut position(g, fen)).map(|o| (o.verdict, o.reason)))
}

// ---------------------------------------------------------------------------------------
// The perft suite
// ---------------------------------------------------------------------------------------

/// A suite line: its FEN, the rules it is played under (`;rules key=value ...`, empty for
/// the variant's own) and its depth-2 count.
struct SuiteLine {
    fen: String,
    rules: Vec<String>,
    d1: u64,
    d2: u64,
}

/// The suite's lines.
fn suite() -> Vec<SuiteLine> {
    SUITE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let body = l.split('#').next().unwrap();
            let mut fields = body.split(';');
            let fen = fields.next().unwrap().trim().to_string();
            let (mut rules, mut d1, mut d2) = (Vec::new(), None, None);
            for f in fields.map(str::trim) {
                if let Some(list) = f.strip_prefix("rules ") {
                    rules = list.split_whitespace().map(String::from).collect();
                } else if let Some(n) = f.strip_prefix("D1 ") {
                    d1 = Some(n.trim().parse().unwrap());
                } else if let Some(n) = f.strip_prefix("D2 ") {
                    d2 = Some(n.trim().parse().unwrap());
                }
            }
            let (d1, d2) = (d1.expect("a D1 count"), d2.expect("a D2 count"));
            SuiteLine { fen, rules, d1, d2 }
        })
        .collect()
}

/// The game a suite line is played in.
fn suite_game(line: &SuiteLine) -> AnyGame {
    if line.rules.is_empty() {
        return lgc();
    }
    let spec = kirin::variants::with_rules("littlegreat", &line.rules, "")
        .unwrap_or_else(|e| panic!("{:?}: {e}", line.rules));
    AnyGame::new(&spec).expect("littlegreat compiles")
}

/// The depth-1 turns of the suite's positions with at most ~60 turns, as the reference
/// implementation lists them (`littlegreat-reference.py moves FEN`), in the suite's order.
/// Left out: the two ascension positions (128 and 720 turns) and the game position with
/// White to move (108); their counts are checked by the walk below and by perft_suites.
const DEPTH_ONE: &[(&str, &[&str])] = &[
    // The start: 22 Spear steps (a2 and h2 two each, the others three), 4 Knight moves, and
    // each Cannon: a step and a leap to a3/h3, picking up the Spear (a2/h2), the Knight
    // (b1/g1) and, leaping over the Knight, the Bishop (c1/f1).
    (
        "mnbkgbnm/ssssssss/8/8/8/8/SSSSSSSS/MNBGKBNM[] w - - 0 1",
        &[
            "a1a2", "a1a3", "a1b1", "a1c1", "a2a3", "a2b3", "b1a3", "b1c3", "b2a3", "b2b3", "b2c3",
            "c2b3", "c2c3", "c2d3", "d2c3", "d2d3", "d2e3", "e2d3", "e2e3", "e2f3", "f2e3", "f2f3",
            "f2g3", "g1f3", "g1h3", "g2f3", "g2g3", "g2h3", "h1f1", "h1g1", "h1h2", "h1h3", "h2g3",
            "h2h3",
        ],
    ),
    // A Cannon d4 carrying a Bishop: it moves with it (d4d5), leaves it behind (d4~d5),
    // or the Bishop leaves (d4^e5), taking the Bishop g7 with or without +A; King e1.
    (
        "3k4/6b1/4n3/8/3M(B)4/8/8/4K3[] w - - 0 30",
        &[
            "d4^a1", "d4^a7", "d4^b2", "d4^b6", "d4^c3", "d4^c5", "d4^e3", "d4^e5", "d4^f2",
            "d4^f6", "d4^g1", "d4^g7", "d4^g7+A", "d4b4", "d4c4", "d4d2", "d4d3", "d4d5", "d4d6",
            "d4e4", "d4f4", "d4~b4", "d4~c4", "d4~d2", "d4~d3", "d4~d5", "d4~d6", "d4~e4", "d4~f4",
            "e1d1", "e1d2", "e1e2", "e1f1", "e1f2",
        ],
    ),
    // Black: the Sheriff riding c5 leaves (c5^..), boards the empty Cannon e5 (c5^e5) or
    // takes c3 (no honour for a Sheriff); the loaded Cannon moves or leaves it behind but
    // cannot land on e5; the empty Cannon e5 picks up the Spear e4 (e5e4) or leaps it (e5e3).
    (
        "3k4/8/8/2m(d)1m3/4s3/2S5/8/K7[] b - - 0 30",
        &[
            "c5^a4", "c5^a5", "c5^a6", "c5^b3", "c5^b4", "c5^b5", "c5^b6", "c5^b7", "c5^c3",
            "c5^c4", "c5^c6", "c5^c7", "c5^c8", "c5^d3", "c5^d4", "c5^d5", "c5^d6", "c5^d7",
            "c5^e5", "c5^e6", "c5a5", "c5b5", "c5c3", "c5c4", "c5c6", "c5c7", "c5d5", "c5~a5",
            "c5~b5", "c5~c3", "c5~c4", "c5~c6", "c5~c7", "c5~d5", "d8c7", "d8c8", "d8d7", "d8e7",
            "d8e8", "e4d3", "e4e3", "e4f3", "e5d5", "e5e3", "e5e4", "e5e6", "e5e7", "e5f5", "e5g5",
        ],
    ),
    // Spear honours: c7 to rank 8 (+G), the rider of f7 leaving onto rank 8 (+G) but not
    // f7f8 (carried), g4g5 capture (+G), d3e4 check straight ahead (+G, d3d4 nothing); a8
    // has no move.
    (
        "S7/2S2M(S)2/8/4k1s1/6S1/3S4/8/K7[] w - - 0 30",
        &[
            "a1a2", "a1b1", "a1b2", "c7b8", "c7b8+G", "c7c8", "c7c8+G", "c7d8", "c7d8+G", "d3c4",
            "d3d4", "d3e4", "d3e4+G", "f7^e8", "f7^e8+G", "f7^f8", "f7^f8+G", "f7^g8", "f7^g8+G",
            "f7d7", "f7e7", "f7f5", "f7f6", "f7f8", "f7g7", "f7h7", "f7~d7", "f7~e7", "f7~f5",
            "f7~f6", "f7~f8", "f7~g7", "f7~h7", "g4f5", "g4g5", "g4g5+G", "g4h5",
        ],
    ),
    // Guard honours: d4c3 (a Spear, no check) nothing, d4c5 (a Knight) +N/+B, d4e4 (a
    // Spear, with check) +N/+B, d4e5, g3f4 and g3g4 quiet checks +N/+B.
    (
        "8/8/8/2n2k2/3Gs3/2s3G1/8/K7[] w - - 0 30",
        &[
            "a1a2", "a1b1", "a1b2", "d4c3", "d4c4", "d4c5", "d4c5+B", "d4c5+N", "d4d3", "d4d5",
            "d4e3", "d4e4", "d4e4+B", "d4e4+N", "d4e5", "d4e5+B", "d4e5+N", "g3f2", "g3f3", "g3f4",
            "g3f4+B", "g3f4+N", "g3g2", "g3g4", "g3g4+B", "g3g4+N", "g3h2", "g3h3", "g3h4",
        ],
    ),
    // Knight c3: a4 (Knight) and d5 (Bishop) +E, b5 (Spear), e2 (Guard), e4 (a Cannon
    // carrying a Spear) nothing; Bishop g4: c8 (the King) +A, e2 (Guard) nothing.
    (
        "2k5/8/8/1s1b4/n3m(s)1B1/2N5/4g3/7K[] w - - 0 30",
        &[
            "c3a2", "c3a4", "c3a4+E", "c3b1", "c3b5", "c3d1", "c3d5", "c3d5+E", "c3e2", "c3e4",
            "g4c8", "g4c8+A", "g4d7", "g4e2", "g4e6", "g4f3", "g4f5", "g4h3", "g4h5", "h1g1",
            "h1g2", "h1h2",
        ],
    ),
    // Earl d4 takes the Cannon f5 carrying a Knight (+D) but earns nothing on c6 (Guard) or
    // b3 (Spear); Archbishop b2 takes a3 (a Bishop, +C) but not b3.
    (
        "7k/8/2g5/5m(n)2/3E4/bs6/1A6/7K[] w - - 0 30",
        &[
            "b2a1", "b2a2", "b2a3", "b2a3+C", "b2b1", "b2b3", "b2c1", "b2c2", "b2c3", "d4b3",
            "d4b5", "d4c2", "d4c3", "d4c4", "d4c5", "d4c6", "d4d3", "d4d5", "d4e2", "d4e3", "d4e4",
            "d4e5", "d4e6", "d4f3", "d4f5", "d4f5+D", "h1g1", "h1g2", "h1h2",
        ],
    ),
    // Ransom: White holds s n n b, Black holds S N: each of the seven actions has six
    // endings: none, $S/n, $S/b, $N/nn, $N/nb, $SN/nnb ($S/s too little, $S/nb not minimal).
    (
        "3k4/8/8/8/8/8/4S3/4K3[:snnbSN] w - - 0 20",
        &[
            "e1d1",
            "e1d1$N/nb",
            "e1d1$N/nn",
            "e1d1$S/b",
            "e1d1$S/n",
            "e1d1$SN/nnb",
            "e1d2",
            "e1d2$N/nb",
            "e1d2$N/nn",
            "e1d2$S/b",
            "e1d2$S/n",
            "e1d2$SN/nnb",
            "e1f1",
            "e1f1$N/nb",
            "e1f1$N/nn",
            "e1f1$S/b",
            "e1f1$S/n",
            "e1f1$SN/nnb",
            "e1f2",
            "e1f2$N/nb",
            "e1f2$N/nn",
            "e1f2$S/b",
            "e1f2$S/n",
            "e1f2$SN/nnb",
            "e2d3",
            "e2d3$N/nb",
            "e2d3$N/nn",
            "e2d3$S/b",
            "e2d3$S/n",
            "e2d3$SN/nnb",
            "e2e3",
            "e2e3$N/nb",
            "e2e3$N/nn",
            "e2e3$S/b",
            "e2e3$S/n",
            "e2e3$SN/nnb",
            "e2f3",
            "e2f3$N/nb",
            "e2f3$N/nn",
            "e2f3$S/b",
            "e2f3$S/n",
            "e2f3$SN/nnb",
        ],
    ),
    // White enters a reclaimed Spear or Knight on any of rank 1; S@f1 checks the King riding
    // in f2 (+G), N@f1 earns nothing; the King a3 steps.
    (
        "8/1s6/8/8/8/K7/5m(k)2/8[SN:] w - - 0 30",
        &[
            "N@a1", "N@b1", "N@c1", "N@d1", "N@e1", "N@f1", "N@g1", "N@h1", "S@a1", "S@b1", "S@c1",
            "S@d1", "S@e1", "S@f1", "S@f1+G", "S@g1", "S@h1", "a3a2", "a3a4", "a3b2", "a3b3",
            "a3b4",
        ],
    ),
    // Black enters a Spear on the empty squares of rank 8 (S@d8 checks d7: +G); Knight b8 and
    // Bishops c8/e8 take the King d7 (+E, +A).
    (
        "1nb1b3/3K4/8/8/8/8/8/k7[s:] b - - 0 30",
        &[
            "S@a8", "S@d8", "S@d8+G", "S@f8", "S@g8", "S@h8", "a1a2", "a1b1", "a1b2", "b8a6",
            "b8c6", "b8d7", "b8d7+E", "c8a6", "c8b7", "c8d7", "c8d7+A", "e8d7", "e8d7+A", "e8f7",
            "e8g6", "e8h5",
        ],
    ),
    // The Spear d7 takes the King d8 on the last rank: one +G however many reasons; c8/e8
    // by a diagonal step to the last rank +G too.
    (
        "3k3m(c)/3S4/8/d7/8/8/8/4K3[] w - - 0 30",
        &[
            "d7c8", "d7c8+G", "d7d8", "d7d8+G", "d7e8", "d7e8+G", "e1d1", "e1d2", "e1e2", "e1f1",
            "e1f2",
        ],
    ),
    // After a deposition: only Black's Spear e7 and King e8 move.
    (
        "4k3/4s3/8/8/8/3G4/8/M(C)6K[:N] b - - 0 20",
        &["e7d6", "e7e6", "e7f6", "e8d7", "e8d8", "e8f7", "e8f8"],
    ),
    // Black: its reclaimed Cannon enters on a8 (the only empty square of rank 8), and every
    // action may end with the ransom $s/B (a Spear bought with the white Bishop).
    (
        "1nbkgbnm/2sss2s/s7/4g3/8/M(S)5SS/2SSSK1S/1N1G1BNM[Sm:ssB] b - - 0 8",
        &[
            "M@a8", "M@a8$s/B", "a6a5", "a6a5$s/B", "a6b5", "a6b5$s/B", "b8c6", "b8c6$s/B", "c7b6",
            "c7b6$s/B", "c7c6", "c7c6$s/B", "c7d6", "c7d6$s/B", "c8b7", "c8b7$s/B", "d7c6",
            "d7c6$s/B", "d7d6", "d7d6$s/B", "d7e6", "d7e6$s/B", "e5d4", "e5d4$s/B", "e5d5",
            "e5d5$s/B", "e5d6", "e5d6$s/B", "e5e4", "e5e4$s/B", "e5e6", "e5e6$s/B", "e5f4",
            "e5f4$s/B", "e5f5", "e5f5$s/B", "e5f6", "e5f6$s/B", "e7d6", "e7d6$s/B", "e7e6",
            "e7e6$s/B", "e7f6", "e7f6$s/B", "e8f7", "e8f7$s/B", "f8g7", "f8g7$s/B", "f8h6",
            "f8h6$s/B", "g8f6", "g8f6$s/B", "g8h6", "g8h6$s/B", "h7g6", "h7g6$s/B", "h7h6",
            "h7h6$s/B", "h8f8", "h8f8$s/B", "h8g8", "h8g8$s/B", "h8h6", "h8h6$s/B", "h8h7",
            "h8h7$s/B",
        ],
    ),
];

#[test]
fn suite_positions_have_exactly_the_listed_turns() {
    let fens: Vec<String> = suite()
        .into_iter()
        .filter(|l| l.rules.is_empty())
        .map(|l| l.fen)
        .collect();
    assert_eq!(fens.len(), 16);
    for &(fen, expected) in DEPTH_ONE {
        assert!(fens.iter().any(|f| f == fen), "{fen} is not in the suite");
        let got = turns(fen);
        let missing: Vec<&&str> = expected.iter().filter(|t| !has(&got, t)).collect();
        let extra: Vec<&String> = got
            .iter()
            .filter(|t| !expected.contains(&t.as_str()))
            .collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{fen}: missing {missing:?}, extra {extra:?}"
        );
        assert_eq!(got.len(), expected.len(), "{fen}");
    }
}

/// Walks the tree of `pos` to `depth` whole turns; `start` is the position where the
/// turn in progress began and `done` its actions so far. At every action: unmake restores
/// the position exactly, the incremental key is the recomputed one, the FEN (mid-turn
/// ones too) reads back to the same FEN and key; at every complete turn its text reads
/// back as the same actions. Returns the number of leaves (sequences of whole turns).
fn checked_walk<const W: usize>(
    g: &Game<W>,
    pos: &mut Position<W>,
    depth: u32,
    start: &Position<W>,
    done: &mut Vec<Move>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    let mut leaves = 0;
    for &m in &list {
        let before = pos.clone();
        let side = pos.side;
        let u = pos.make(g, m);
        done.push(m);
        let fen = pos.to_fen(g);
        assert_eq!(
            pos.key,
            pos.compute_key(g),
            "key after {:?} in {fen}",
            g.turn_text(done)
        );
        let again = Position::from_fen(g, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(again.to_fen(g), fen);
        assert_eq!(again.key, pos.key, "key of {fen}");
        if pos.side == side {
            leaves += checked_walk(g, pos, depth, start, done);
        } else {
            let text = g.turn_text(done);
            let mut from = start.clone();
            let read = g
                .parse_turn(&mut from, &text)
                .unwrap_or_else(|e| panic!("'{text}' in {}: {e}", start.to_fen(g)));
            assert_eq!(read, *done, "'{text}' in {}", start.to_fen(g));
            assert!(from == *start, "parse_turn changed the position");
            let next = pos.clone();
            leaves += checked_walk(g, pos, depth - 1, &next, &mut Vec::new());
        }
        done.pop();
        pos.unmake(g, m, u);
        assert!(
            *pos == before,
            "unmake of {:?} in {}",
            g.move_text(m),
            before.to_fen(g)
        );
    }
    leaves
}

#[test]
fn suite_trees_to_two_turns_make_unmake_keys_fen_and_turn_texts() {
    for line in suite() {
        // Two turns where that is at most 100 thousand leaves (the full-holdings exchange
        // line has 5.2 million, walked to one turn; perft_suites counts its second).
        let (depth, count) = if line.d2 <= 100_000 {
            (2, line.d2)
        } else {
            (1, line.d1)
        };
        let fen = &line.fen;
        let any = suite_game(&line);
        with_width!(&any, g => {
            let mut pos = position(g, fen);
            let start = pos.clone();
            let leaves = checked_walk(g, &mut pos, depth, &start, &mut Vec::new());
            assert_eq!(leaves, count, "{fen} {:?}", line.rules);
            assert_eq!(g.perft(&mut pos, depth, true), count, "bulk perft of {fen}");
        });
    }
}

// ---------------------------------------------------------------------------------------
// Board and start; the pieces
// ---------------------------------------------------------------------------------------

#[test]
fn the_start_is_the_rules_page_array() {
    let any = lgc();
    with_width!(&any, g => {
        assert_eq!(g.spec.start, START);
        assert_eq!(position(g, START).to_fen(g), START);
    });
    // White's King e1 with its Guard d1; Black's King d8 with its Guard e8: the Kings do
    // not face each other. The King e1 cannot move at the start (all its neighbours are
    // its own pieces).
    assert!(turns_from(START, "e1").is_empty());
    assert!(turns_from(START, "d1").is_empty());
    let black = START.replace(" w ", " b ");
    assert!(has(&turns(&black), "d7d6") && turns_from(&black, "d8").is_empty());
}

#[test]
fn a_spear_steps_forward_three_ways_and_captures_only_straight() {
    // Enemies on c5, d5 and e5: only d5 can be taken (and a capture earns +G).
    assert_eq!(
        turns_from("8/8/8/2sss3/3S4/8/k7/7K w - - 0 30", "d4"),
        ["d4d5", "d4d5+G"]
    );
    // With the diagonals empty it steps there too.
    assert_eq!(
        turns_from("8/8/8/3s4/3S4/8/k7/7K w - - 0 30", "d4"),
        ["d4c5", "d4d5", "d4d5+G", "d4e5"]
    );
    // No double step, and Black's Spear goes down.
    assert_eq!(
        turns_from("8/4s3/8/8/8/8/K7/7k b - - 0 30", "e7"),
        ["e7d6", "e7e6", "e7f6"]
    );
}

#[test]
fn a_cannon_steps_or_leaps_two_straight_and_captures_both_ways() {
    // Cannon d4, its own Spear d5, black Spears d6 and e4: it picks up d5 (d4d5), leaps
    // over it to take d6, takes e4 by a step and leaps over e4 to f4; c4 b4 d3 d2 empty.
    assert_eq!(
        turns_from("8/8/3s4/3S4/3Ms3/8/k7/7K w - - 0 30", "d4"),
        [
            "d4b4", "d4c4", "d4d2", "d4d3", "d4d5", "d4d6", "d4e4", "d4f4"
        ]
    );
}

#[test]
fn every_piece_moves_as_the_table_says() {
    // Alone on d4 (the Kings on h1 and a2 are off all its lines): the number of moves.
    for (piece, n) in [
        ('G', 8),  // K
        ('N', 8),  // N
        ('E', 16), // NK
        ('D', 26), // RNK: 14 rook squares, 8 knight, 4 diagonal steps
        ('B', 13), // B
        ('A', 17), // BW
        ('C', 27), // Q
    ] {
        let fen = format!("8/8/8/8/3{piece}4/8/k7/7K w - - 0 30");
        assert_eq!(turns_from(&fen, "d4").len(), n, "{piece}");
    }
    assert_eq!(turns_from("8/8/8/8/3K4/8/k7/8 w - - 0 30", "d4").len(), 8);
    // The Earl steps and jumps but does not slide; the Archbishop slides diagonally and
    // steps orthogonally only.
    let earl = turns_from("8/8/8/8/3E4/8/k7/7K w - - 0 30", "d4");
    assert!(has(&earl, "d4b3") && has(&earl, "d4c3") && !has(&earl, "d4b2"));
    let archbishop = turns_from("8/8/8/8/3A4/8/k7/7K w - - 0 30", "d4");
    assert!(has(&archbishop, "d4d3") && has(&archbishop, "d4g7") && !has(&archbishop, "d4d2"));
}

#[test]
fn there_is_no_check_rule_a_king_may_stand_attacked_and_is_captured() {
    // The black Guard e3 attacks d2 e2 f2: the King may step there, or White may ignore
    // the attack altogether.
    let fen = "8/8/8/8/8/4g3/S7/4K2k w - - 0 30";
    assert_eq!(
        turns(fen),
        ["a2a3", "a2b3", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]
    );
    // After e1e2 the Guard takes the King (a royal piece: the Guard may take +N or +B).
    let after = play(fen, &["e1e2"]);
    assert_eq!(turns_from(&after, "e3e2"), ["e3e2", "e3e2+B", "e3e2+N"]);
    // Black holds the King; White, with no Regent, has lost.
    let taken = play(fen, &["e1e2", "e3e2"]);
    assert_eq!(taken, "8/8/8/8/8/8/S3g3/7k[:K] w - - 0 31");
    assert_eq!(outcome(&taken).map(|o| o.0), Some(Verdict::Loss));
    assert!(turns(&taken).is_empty());
}

// ---------------------------------------------------------------------------------------
// Honour promotion
// ---------------------------------------------------------------------------------------

/// Suite position: Spear honours (see the table above).
const SPEARS: &str = "S7/2S2M(S)2/8/4k1s1/6S1/3S4/8/K7[] w - - 0 30";

#[test]
fn a_spear_earns_by_capture_by_reaching_the_last_rank_by_itself_or_by_check() {
    // Reaching rank 8 by a step, straight or diagonal.
    assert_eq!(
        turns_from(SPEARS, "c7"),
        ["c7b8", "c7b8+G", "c7c8", "c7c8+G", "c7d8", "c7d8+G"]
    );
    // A capture (g5); the diagonal steps take nothing and earn nothing.
    assert_eq!(turns_from(SPEARS, "g4"), ["g4f5", "g4g5", "g4g5+G", "g4h5"]);
    // Check: on e4 it attacks the King e5 straight ahead; on d4 or c4 it does not (a
    // Spear attacks only straight ahead, d4 is beside the King).
    assert_eq!(turns_from(SPEARS, "d3"), ["d3c4", "d3d4", "d3e4", "d3e4+G"]);
    // Carried by its Cannon to f8 it earns nothing; leaving the Cannon onto f8 is its own
    // move and earns.
    let rider = turns_from(SPEARS, "f7");
    assert!(has(&rider, "f7f8") && !has(&rider, "f7f8+G"), "{rider:?}");
    assert!(has(&rider, "f7^f8") && has(&rider, "f7^f8+G"), "{rider:?}");
    assert_eq!(
        play(SPEARS, &["f7f8"]),
        "S4M(S)2/2S5/8/4k1s1/6S1/3S4/8/K7[] b - - 1 30"
    );
}

#[test]
fn a_spear_on_the_last_rank_that_declines_stays_there_without_a_move() {
    assert!(turns_from(SPEARS, "a8").is_empty());
    let declined = play(SPEARS, &["c7c8", "e5d5"]);
    assert_eq!(declined, "S1S5/5M(S)2/8/3k2s1/6S1/3S4/8/K7[] w - - 1 31");
    assert!(turns_from(&declined, "c8").is_empty());
}

#[test]
fn a_guard_earns_by_taking_a_piece_other_than_a_spear_or_by_check_and_chooses() {
    // Guard d3; black Knight d4, Spear e4, King f1. Taking the Knight earns, taking the
    // Spear (no check from e4) does not, e2 gives check to f1 and earns; the Guard
    // chooses Knight or Bishop.
    let fen = "8/8/8/8/3ns3/3G4/8/K4k2 w - - 0 30";
    assert_eq!(
        turns_from(fen, "d3"),
        [
            "d3c2", "d3c3", "d3c4", "d3d2", "d3d4", "d3d4+B", "d3d4+N", "d3e2", "d3e2+B", "d3e2+N",
            "d3e3", "d3e4"
        ]
    );
    let fen = "3k4/8/8/4n3/3G4/8/8/K7 w - - 0 30";
    assert_eq!(
        play(fen, &["d4e5+N"]),
        "3k4/8/8/4N3/8/8/8/K7[:n] b - - 0 30"
    );
    assert_eq!(
        play(fen, &["d4e5+B"]),
        "3k4/8/8/4B3/8/8/8/K7[:n] b - - 0 30"
    );
    assert_eq!(play(fen, &["d4e5"]), "3k4/8/8/4G3/8/8/8/K7[:n] b - - 0 30");
}

#[test]
fn knights_earls_bishops_and_archbishops_earn_by_taking_a_noble_or_royal_piece() {
    // From d4 a Knight or Earl reaches: b5 (Spear), f5 (Guard), e6 (a Cannon carrying a
    // Spear): common, nothing; b3 (Knight), f3 (a Cannon carrying a Bishop: the
    // passenger's class counts), c6 (the King, royal): +E or +D.
    let knightly = |p: char| format!("8/8/2k1m(s)3/1s3g2/3{p}4/1n3m(b)2/8/K7 w - - 0 30");
    assert_eq!(
        turns_from(&knightly('N'), "d4"),
        [
            "d4b3", "d4b3+E", "d4b5", "d4c2", "d4c6", "d4c6+E", "d4e2", "d4e6", "d4f3", "d4f3+E",
            "d4f5"
        ]
    );
    let earl = turns_from(&knightly('E'), "d4");
    assert_eq!(earl.len(), 19);
    assert_eq!(
        earl.iter().filter(|t| t.contains('+')).collect::<Vec<_>>(),
        ["d4b3+D", "d4c6+D", "d4f3+D"]
    );
    // A Bishop or Archbishop on d4: c5 (Spear) and e5 (Guard) nothing; c3 (a Cannon
    // carrying a Knight) and e3 (Bishop): +A or +C.
    let clerical = |p: char| format!("8/7k/8/2s1g3/3{p}4/2m(n)1b3/8/K7 w - - 0 30");
    assert_eq!(
        turns_from(&clerical('B'), "d4"),
        ["d4c3", "d4c3+A", "d4c5", "d4e3", "d4e3+A", "d4e5"]
    );
    assert_eq!(
        turns_from(&clerical('A'), "d4"),
        [
            "d4c3", "d4c3+C", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e3+C", "d4e4", "d4e5"
        ]
    );
}

#[test]
fn sheriff_cardinal_cannon_and_king_never_earn() {
    // Black Knights c5 d6, Bishop e3, King h8 (on the Cardinal's diagonal).
    for (piece, takes) in [
        ('D', &["d4c5", "d4d6", "d4e3"][..]),
        ('C', &["d4c5", "d4d6", "d4e3", "d4h8"][..]),
        ('K', &["d4c5", "d4e3"][..]),
        ('M', &["d4d6"][..]),
    ] {
        let fen = format!("7k/8/3n4/2n5/3{piece}4/4b3/8/K7 w - - 0 30");
        let from_d4 = turns_from(&fen, "d4");
        for t in takes {
            assert!(has(&from_d4, t), "{piece}: {t} in {from_d4:?}");
        }
        assert!(
            !from_d4.iter().any(|t| t.contains('+')),
            "{piece}: {from_d4:?}"
        );
    }
}

#[test]
fn a_discovered_check_earns_nothing() {
    // The Guard c3 moves off the Bishop a1's diagonal to h8: the Bishop gives check, the
    // Guard earned nothing.
    assert_eq!(
        turns_from("7k/8/8/8/8/2G5/8/B3K3 w - - 0 30", "c3"),
        [
            "c3b2", "c3b3", "c3b4", "c3c2", "c3c4", "c3d2", "c3d3", "c3d4"
        ]
    );
}

#[test]
fn one_honour_step_however_many_reasons() {
    // Suite position: the Spear d7 takes the King d8 on the last rank (a capture, the
    // last rank; a royal piece): one +G.
    let fen = "3k3m(c)/3S4/8/d7/8/8/8/4K3[] w - - 0 30";
    assert_eq!(
        turns_from(fen, "d7"),
        ["d7c8", "d7c8+G", "d7d8", "d7d8+G", "d7e8", "d7e8+G"]
    );
    // A Guard taking a Knight with check: one choice of N or B, no second step.
    let fen = "8/8/8/4k3/3n4/3G4/8/K7 w - - 0 30";
    assert_eq!(turns_from(fen, "d3d4"), ["d3d4", "d3d4+B", "d3d4+N"]);
}

#[test]
fn honour_is_optional_and_lapses_at_the_end_of_the_turn() {
    // Suite position (Guard honours): d4e5 gives check to f5.
    let fen = "8/8/8/2n2k2/3Gs3/2s3G1/8/K7[] w - - 0 30";
    // After the action the turn goes on: +N, +B or the end (an empty text).
    let (mid, next) = actions(fen, &["d4e5"]);
    assert_eq!(mid, "8/8/8/2n1Gk2/4s3/2s3G1/8/K7[] w+1:she5 - - 1 30");
    assert_eq!(next, ["", "+B", "+N"]);
    // Declined: the turn ends and nothing is pending.
    let (declined, _) = actions(fen, &["d4e5", ""]);
    assert_eq!(declined, "8/8/8/2n1Gk2/4s3/2s3G1/8/K7[] b - - 1 30");
    // In White's next turn the Guard earns only by that turn's action: e5d5/d4/d6 give no
    // check, e4 f4 e6 f6 f5 do (f5 takes the King).
    let later = play(fen, &["d4e5", "c3c2"]);
    assert_eq!(later, "8/8/8/2n1Gk2/4s3/6G1/2s5/K7[] w - - 0 31");
    assert_eq!(
        turns_from(&later, "e5"),
        [
            "e5d4", "e5d5", "e5d6", "e5e4", "e5e4+B", "e5e4+N", "e5e6", "e5e6+B", "e5e6+N", "e5f4",
            "e5f4+B", "e5f4+N", "e5f5", "e5f5+B", "e5f5+N", "e5f6", "e5f6+B", "e5f6+N"
        ]
    );
}

#[test]
fn a_loaded_cannon_taken_goes_with_its_passenger_and_honours_by_the_passenger() {
    // The Knight e6 takes the Cannon d4 carrying an Archbishop: +E by the passenger's
    // class; Black holds both, demoted: the Archbishop as a Bishop, the Cannon as a Cannon.
    let fen = "3k4/8/4n3/8/3M(A)4/8/8/4K3[] b - - 0 30";
    assert_eq!(turns_from(fen, "e6d4"), ["e6d4", "e6d4+E"]);
    assert_eq!(
        play(fen, &["e6d4+E"]),
        "3k4/8/8/8/3e4/8/8/4K3[:BM] w - - 0 31"
    );
    // Carrying a Spear, the Cannon is common on both counts: nothing earned.
    let fen = "3k4/8/4n3/8/3M(S)4/8/8/4K3[] b - - 0 30";
    assert_eq!(turns_from(fen, "e6d4"), ["e6d4"]);
    assert_eq!(
        play(fen, &["e6d4"]),
        "3k4/8/8/8/3n4/8/8/4K3[:SM] w - - 0 31"
    );
}

// ---------------------------------------------------------------------------------------
// Ascending the throne; field promotion
// ---------------------------------------------------------------------------------------

/// Suite position: White's King is held by Black; Regents: the Cardinal riding a1 and the
/// Sheriff h1.
const ASCENSION: &str = "4k3/4s3/8/8/8/8/3S4/M(C)6D[:K] w - - 0 20";

#[test]
fn every_turn_after_the_kings_fall_starts_with_the_ascension_of_a_regent_of_choice() {
    let all = turns(ASCENSION);
    assert_eq!(all.len(), 128);
    let by_a1 = all.iter().filter(|t| t.starts_with("a1a1;")).count();
    let by_h1 = all.iter().filter(|t| t.starts_with("h1h1;")).count();
    assert_eq!((by_a1, by_h1), (60, 68));
    // Any action may follow: after a1a1 the Sheriff h1 still slides as a Sheriff.
    assert!(has(&all, "a1a1;h1h8"));
    // After the ascension, half a turn: the FEN says a field promotion is owed.
    let (mid, _) = actions(ASCENSION, &["a1a1"]);
    assert_eq!(mid, "4k3/4s3/8/8/8/8/3S4/M(K)6D[:B] w+1:f - - 0 20");
}

#[test]
fn the_king_replaces_the_regent_on_its_square_and_in_the_prisoners() {
    // The riding Cardinal becomes a riding King; Black's prisoner K becomes the deposed
    // Cardinal, demoted to a Bishop.
    assert_eq!(
        play(ASCENSION, &["a1a1;d2d3"]),
        "4k3/4s3/8/8/8/3S4/8/M(K)6D[:B] b - - 0 20"
    );
    // The Cannon may leave its new King behind.
    assert_eq!(
        play(ASCENSION, &["a1a1;a1~a3"]),
        "4k3/4s3/8/8/8/M7/3S4/K6D[:B] b - - 1 20"
    );
    // The Sheriff ascends: the prisoner is a Knight; the Cardinal still rides in a1.
    assert_eq!(
        play(ASCENSION, &["h1h1;h1g2"]),
        "4k3/4s3/8/8/8/8/3S2K1/M(C)7[:N] b - - 1 20"
    );
}

#[test]
fn the_new_king_moves_as_a_king() {
    // From inside the Cannon a1 the new King leaves by one step only (the Cardinal would
    // have slid); the field promotion of d2 may follow.
    assert_eq!(
        turns_from(ASCENSION, "a1a1;a1^"),
        [
            "a1a1;a1^a2",
            "a1a1;a1^a2=d2G",
            "a1a1;a1^b1",
            "a1a1;a1^b1=d2G",
            "a1a1;a1^b2",
            "a1a1;a1^b2=d2G"
        ]
    );
    assert_eq!(
        turns_from(ASCENSION, "h1h1;h1"),
        [
            "h1h1;h1g1",
            "h1h1;h1g1=d2G",
            "h1h1;h1g2",
            "h1h1;h1g2=d2G",
            "h1h1;h1h2",
            "h1h1;h1h2=d2G"
        ]
    );
}

#[test]
fn a_deposed_regent_may_be_ransomed_back_in_the_same_turn() {
    // Suite position: Black's King is held by White; Regents d6 (Cardinal), a8 (Sheriff).
    let fen = "d6m(n)/8/3c4/8/8/8/4S3/4K3[:skSSNN] b - - 0 30";
    assert_eq!(
        turns_from(fen, "d6d6;d6d5"),
        [
            "d6d6;d6d5",
            "d6d6;d6d5$b/NN",
            "d6d6;d6d5$s/N",
            "d6d6;d6d5$s/SS",
            "d6d6;d6d5$sb/SSNN",
            "d6d6;d6d5=h8E",
            "d6d6;d6d5=h8E$b/NN",
            "d6d6;d6d5=h8E$s/N",
            "d6d6;d6d5=h8E$s/SS",
            "d6d6;d6d5=h8E$sb/SSNN"
        ]
    );
    assert_eq!(
        play(fen, &["d6d6;d6d5$sb/SSNN"]),
        "d6m(n)/8/8/3k4/8/8/4S3/4K3[SSNNsb] w - - 1 31"
    );
}

#[test]
fn a_side_whose_king_fell_plays_on_with_a_regent_and_has_lost_without_one() {
    // The Spear takes the King d8; Black has the Cardinal riding h8 and the Sheriff a5.
    let fen = "3k3m(c)/3S4/8/d7/8/8/8/4K3[] w - - 0 30";
    let fallen = play(fen, &["d7d8"]);
    assert_eq!(fallen, "3S3m(c)/8/8/d7/8/8/8/4K3[:k] b - - 0 30");
    assert_eq!(outcome(&fallen), None);
    let all = turns(&fallen);
    assert_eq!(all.len(), 62);
    assert!(
        all.iter()
            .all(|t| t.starts_with("h8h8;") || t.starts_with("a5a5;"))
    );
    assert_eq!(
        play(&fallen, &["h8h8;h8h7"]),
        "3S4/7m(k)/8/d7/8/8/8/4K3[:b] w - - 1 31"
    );
    assert_eq!(
        play(&fallen, &["a5a5;a5a6"]),
        "3S3m(c)/8/k7/8/8/8/8/4K3[:n] w - - 1 31"
    );
    // Suite position: the Bishop g4 takes the King c8; Black has no Sheriff or Cardinal.
    let fen = "2k5/8/8/1s1b4/n3m(s)1B1/2N5/4g3/7K[] w - - 0 30";
    let lost = play(fen, &["g4c8+A"]);
    assert_eq!(lost, "2A5/8/8/1s1b4/n3m(s)3/2N5/4g3/7K[:k] b - - 0 30");
    assert_eq!(outcome(&lost).map(|o| o.0), Some(Verdict::Loss));
    assert!(turns(&lost).is_empty());
}

#[test]
fn a_king_taken_inside_its_cannon_is_held_with_it_until_a_regent_ascends() {
    // White's King rides the Cannon e3; the Knight d5 takes both (+E: the King is royal).
    let fen = "4k3/8/8/3n4/8/4M(K)3/8/7D[] b - - 0 30";
    assert_eq!(turns_from(fen, "d5e3"), ["d5e3", "d5e3+E"]);
    let taken = play(fen, &["d5e3+E"]);
    assert_eq!(taken, "4k3/8/8/8/8/4e3/8/7D[:MK] w - - 0 31");
    // The Sheriff h1 ascends and steps as a King; Black's prisoners: the Cannon and the
    // deposed Sheriff as a Knight.
    assert_eq!(turns(&taken), ["h1h1;h1g1", "h1h1;h1g2", "h1h1;h1h2"]);
    assert_eq!(
        play(&taken, &["h1h1;h1g1"]),
        "4k3/8/8/8/8/4e3/8/6K1[:NM] b - - 1 31"
    );
}

/// White's King is held; Regents a1 (Cardinal) and h1 (Sheriff); a Guard c2, a Knight
/// riding the Cannon e2, a Spear d4 facing a black Spear d5.
const FIELD: &str = "4k3/8/8/3s4/3S4/8/2G1M(N)3/C6D[:K] w - - 0 20";

#[test]
fn field_promotion_after_an_ascension_any_piece_but_regents_cannons_kings_or_the_honoured() {
    // d4d5 takes (the Spear earns +G): the field promotion may go to the Guard (N or B) or
    // the riding Knight (E), not to the Spear, the Sheriff, the Cannon or the King; it is
    // written before the honour.
    assert_eq!(
        turns_from(FIELD, "a1a1;d4d5"),
        [
            "a1a1;d4d5",
            "a1a1;d4d5+G",
            "a1a1;d4d5=c2B",
            "a1a1;d4d5=c2B+G",
            "a1a1;d4d5=c2N",
            "a1a1;d4d5=c2N+G",
            "a1a1;d4d5=e2E",
            "a1a1;d4d5=e2E+G"
        ]
    );
    // A quiet Guard move: the Guard (where it now stands) and the Spear may be chosen.
    assert_eq!(
        turns_from(FIELD, "a1a1;c2c3"),
        [
            "a1a1;c2c3",
            "a1a1;c2c3=c3B",
            "a1a1;c2c3=c3N",
            "a1a1;c2c3=d4G",
            "a1a1;c2c3=e2E"
        ]
    );
    let after = play(FIELD, &["a1a1;d4d5=e2E+G"]);
    assert_eq!(after, "4k3/8/8/3G4/8/8/2G1M(E)3/K6D[:sB] b - - 0 20");
    // Mid-turn: after the action both are pending, after the field promotion only the
    // honour is.
    let (mid, _) = actions(FIELD, &["a1a1", "d4d5"]);
    assert_eq!(mid, "4k3/8/8/3S4/8/8/2G1M(N)3/K6D[:sB] w+2:sfhd5 - - 0 20");
    let (mid, next) = actions(FIELD, &["a1a1", "d4d5", "=e2E"]);
    assert_eq!(mid, "4k3/8/8/3S4/8/8/2G1M(E)3/K6D[:sB] w+3:shd5 - - 0 20");
    assert_eq!(next, ["", "+G"]);
    // The right lapses: no field promotion in White's next turn.
    let next_turn = play(FIELD, &["a1a1;d4d5=e2E+G", "e8d8"]);
    assert!(!turns(&next_turn).iter().any(|t| t.contains('=')));
    // And none in a turn without an ascension.
    assert!(
        !turns("8/8/8/2n2k2/3Gs3/2s3G1/8/K7[] w - - 0 30")
            .iter()
            .any(|t| t.contains('='))
    );
}

// ---------------------------------------------------------------------------------------
// Ensconcing
// ---------------------------------------------------------------------------------------

/// White: Cannon a1 empty-handed, Spear a2, Knight b3, Cannon c3 carrying a Bishop, King
/// e1. Black: King e8, Bishop e5, Spear c4.
const CANNONS: &str = "4k3/8/8/4b3/2s5/1NM(B)5/S7/M3K3 w - - 0 30";

#[test]
fn boarding_picking_up_leaving_and_leaving_behind() {
    assert_eq!(
        turns(CANNONS),
        [
            // a1: picks up a2, leaps a2 to a3, b1, leaps b1 to c1
            "a1a2", "a1a3", "a1b1", "a1c1", //
            "a2a3", // the Spear (b3 is its own Knight)
            "b3a1", // the Knight boards the empty Cannon a1
            "b3a5", "b3c1", "b3c5", "b3d2", "b3d4",
            // the Bishop leaves c3: boards a1 (through b2), takes e5 (+A)
            "c3^a1", "c3^a5", "c3^b2", "c3^b4", "c3^d2", "c3^d4", "c3^e5", "c3^e5+A",
            // the loaded Cannon carries the Bishop (takes c4; not onto the Knight b3)
            "c3a3", "c3c1", "c3c2", "c3c4", "c3c5", "c3d3", "c3e3",
            // or leaves it behind on c3
            "c3~a3", "c3~c1", "c3~c2", "c3~c4", "c3~c5", "c3~d3", "c3~e3", //
            "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", // the King
        ]
    );
    for (turn, fen) in [
        ("b3a1", "4k3/8/8/4b3/2s5/2M(B)5/S7/M(N)3K3[] b - - 1 30"),
        ("a1a2", "4k3/8/8/4b3/2s5/1NM(B)5/M(S)7/4K3[] b - - 1 30"),
        ("c3^e5+A", "4k3/8/8/4A3/2s5/1NM5/S7/M3K3[:b] b - - 0 30"),
        ("c3^a1", "4k3/8/8/4b3/2s5/1NM5/S7/M(B)3K3[] b - - 1 30"),
        ("c3c4", "4k3/8/8/4b3/2M(B)5/1N6/S7/M3K3[:s] b - - 0 30"),
        ("c3~c4", "4k3/8/8/4b3/2M5/1NB5/S7/M3K3[:s] b - - 0 30"),
        ("c3~d3", "4k3/8/8/4b3/2s5/1NBM4/S7/M3K3[] b - - 1 30"),
    ] {
        assert_eq!(play(CANNONS, &[turn]), fen, "{turn}");
    }
}

#[test]
fn no_cannon_rides_and_a_loaded_cannon_picks_nothing_up() {
    // Suite position: Black's Cannon c5 carries a Sheriff, e5 is empty-handed. Neither
    // Cannon may land on the other; the Sheriff may leave c5 to board e5; the empty e5
    // picks up the Spear e4.
    let all = turns("3k4/8/8/2m(d)1m3/4s3/2S5/8/K7[] b - - 0 30");
    for absent in ["c5e5", "c5~e5", "e5c5"] {
        assert!(!has(&all, absent), "{absent}");
    }
    assert!(has(&all, "c5^e5") && has(&all, "e5e4"));
}

#[test]
fn a_piece_boarding_a_cannon_earns_nothing() {
    // The Guard boards e3, next to the black King f4: riding, it attacks nothing.
    let fen = "8/8/8/8/5k2/4M3/3G4/K7 w - - 0 30";
    assert_eq!(
        turns_from(fen, "d2"),
        [
            "d2c1", "d2c2", "d2c3", "d2d1", "d2d3", "d2e1", "d2e2", "d2e3"
        ]
    );
    assert_eq!(play(fen, &["d2e3"]), "8/8/8/8/5k2/4M(G)3/8/K7[] b - - 1 30");
}

// ---------------------------------------------------------------------------------------
// Prisoners, ransom and reinforcements
// ---------------------------------------------------------------------------------------

#[test]
fn captured_pieces_are_demoted_within_their_class() {
    // A Cardinal (which never earns honour) takes, one at a time: Archbishop b6, Guard d6,
    // Earl f6, Cannon b2, Sheriff d2, Cardinal f2.
    let fen = "8/8/1a1g1e2/7k/3C4/8/1m1d1c2/K7 w - - 0 30";
    for (turn, fen_after) in [
        ("d4b6", "8/8/1C1g1e2/7k/8/8/1m1d1c2/K7[:b] b - - 0 30"),
        ("d4d6", "8/8/1a1C1e2/7k/8/8/1m1d1c2/K7[:s] b - - 0 30"),
        ("d4f6", "8/8/1a1g1C2/7k/8/8/1m1d1c2/K7[:n] b - - 0 30"),
        ("d4b2", "8/8/1a1g1e2/7k/8/8/1C1d1c2/K7[:m] b - - 0 30"),
        ("d4d2", "8/8/1a1g1e2/7k/8/8/1m1C1c2/K7[:n] b - - 0 30"),
        ("d4f2", "8/8/1a1g1e2/7k/8/8/1m1d1C2/K7[:b] b - - 0 30"),
    ] {
        assert_eq!(play(fen, &[turn]), fen_after, "{turn}");
    }
}

/// Suite position: White holds s n n b, Black holds a white Spear and Knight.
const RANSOM: &str = "3k4/8/8/8/8/8/4S3/4K3[:snnbSN] w - - 0 20";

#[test]
fn a_ransom_pays_at_least_double_with_a_minimal_payment_change_lost() {
    // The Spear (1) for one 3-piece (change lost); the Knight (3) for two; both for all
    // three. Not $S/s (too little), $S/nb or $S/nn (not minimal), $SN/nnbs (a gift).
    assert_eq!(
        turns_from(RANSOM, "e1d1"),
        [
            "e1d1",
            "e1d1$N/nb",
            "e1d1$N/nn",
            "e1d1$S/b",
            "e1d1$S/n",
            "e1d1$SN/nnb"
        ]
    );
    for text in ["e1d1$S/s", "e1d1$S/nb", "e1d1$S/nn", "e1d1$SN/snnb"] {
        assert!(!parses(RANSOM, text), "{text}");
    }
    // One demand per turn.
    assert!(!turns(RANSOM).iter().any(|t| t.matches('$').count() > 1));
}

#[test]
fn ransomed_pieces_are_reclaimed_and_the_payment_goes_to_the_opponents_reclaimed() {
    assert_eq!(
        play(RANSOM, &["e1d1$S/n"]),
        "3k4/8/8/8/8/8/4S3/3K4[Sn:snbN] b - - 1 20"
    );
    assert_eq!(
        play(RANSOM, &["e1d1$SN/nnb"]),
        "3k4/8/8/8/8/8/4S3/3K4[SNnnb:s] b - - 1 20"
    );
    // The rules page's examples: White buys a Knight with two Bishops; Black buys one.
    assert_eq!(
        play("3k4/8/8/8/8/8/8/4K3[:bbN] w - - 0 30", &["e1d1$N/bb"]),
        "3k4/8/8/8/8/8/8/3K4[Nbb] b - - 1 30"
    );
    assert_eq!(
        play("3k4/8/8/8/8/8/8/4K3[:nBB] b - - 0 30", &["d8c8$n/BB"]),
        "2k5/8/8/8/8/8/8/4K3[BBn] w - - 1 31"
    );
}

#[test]
fn a_ransomed_piece_enters_from_the_next_turn_on() {
    // No entry before the ransom; the ransom ends the turn, so the Spear cannot enter in
    // it; it can in White's next turn.
    assert!(!turns(RANSOM).iter().any(|t| t.contains('@')));
    assert!(!parses(RANSOM, "e1d1$S/n;S@a1"));
    let any = lgc();
    with_width!(&any, g => {
        let mut pos = position(g, RANSOM);
        let side = pos.side;
        for m in g.parse_turn(&mut pos.clone(), "e1d1$S/n").unwrap() {
            pos.make(g, m);
        }
        assert_ne!(pos.side, side, "the ransom ends the turn");
    });
    let next = play(RANSOM, &["e1d1$S/n", "d8d7"]);
    assert!(has(&turns(&next), "S@a1"));
}

#[test]
fn a_king_is_never_part_of_a_ransom() {
    // White takes the King d8 and holds it with a black Bishop; Black holds a white Spear:
    // the Spear may be bought with the Bishop, never with the King.
    let fen = "3k3m(c)/3S4/8/d7/8/8/8/4K3[:bS] w - - 0 30";
    assert_eq!(
        turns_from(fen, "d7d8"),
        ["d7d8", "d7d8$S/b", "d7d8+G", "d7d8+G$S/b"]
    );
    assert_eq!(
        play(fen, &["d7d8+G"]),
        "3G3m(c)/8/8/d7/8/8/8/4K3[:bkS] b - - 0 30"
    );
}

#[test]
fn a_ransom_holds_at_most_two_of_a_type_but_the_spear() {
    // White holds three black Knights, Black a white Spear and Knight. Buying both would
    // take three Knights (9 >= 8, minimal), but one demand pays with at most two of a type
    // (docs/rules/littlegreat.md: kirin's bound, which keeps every list of ransoms within
    // a move list), so only the single ransoms remain.
    let fen = "3k4/8/8/8/8/8/4S3/4K3[:nnnSN] w - - 0 20";
    assert_eq!(turns_from(fen, "e1d1"), ["e1d1", "e1d1$N/nn", "e1d1$S/n"]);
}

#[test]
fn reinforcements_enter_on_empty_squares_of_the_first_rank_only() {
    // White may enter a Knight or a Spear, not on its Cannon c1 or its King e1, nor off
    // rank 1. The Spear on d1 checks the King d2 (+G); the Knight on b1 also attacks d2
    // but earns nothing.
    let fen = "8/8/8/8/8/8/3k4/2M1K3[NS:] w - - 0 30";
    let entries: Vec<String> = turns(fen).into_iter().filter(|t| t.contains('@')).collect();
    assert_eq!(
        entries,
        [
            "N@a1", "N@b1", "N@d1", "N@f1", "N@g1", "N@h1", "S@a1", "S@b1", "S@d1", "S@d1+G",
            "S@f1", "S@g1", "S@h1"
        ]
    );
    assert!(!parses(fen, "N@a2") && !parses(fen, "N@c1"));
    assert_eq!(
        play(fen, &["S@d1+G"]),
        "8/8/8/8/8/8/3k4/2MGK3[N] b - - 0 30"
    );
    // The rules page's example (a Spear entering with check) and Black's first rank.
    assert_eq!(
        play("8/8/8/8/8/8/3k4/K7[S:] w - - 0 30", &["S@d1+G"]),
        "8/8/8/8/8/8/3k4/K2G4[] b - - 0 30"
    );
    let black = turns("1nb1b3/3K4/8/8/8/8/8/k7[s:] b - - 0 30");
    let black_entries: Vec<&String> = black.iter().filter(|t| t.contains('@')).collect();
    assert_eq!(
        black_entries,
        ["S@a8", "S@d8", "S@d8+G", "S@f8", "S@g8", "S@h8"]
    );
}

// ---------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------

#[test]
fn a_side_without_a_legal_action_is_stalemated_a_draw() {
    // White's King a8 is walled in by its own Spears, which cannot move.
    let fen = "KSS5/SS6/8/8/8/8/8/7k w - - 0 30";
    assert!(turns(fen).is_empty());
    assert_eq!(outcome(fen), Some((Verdict::Draw, "stalemate")));
}

#[test]
fn a_side_without_a_legal_action_is_stalemated_even_when_its_king_is_attacked() {
    // As above, with a black Knight c7 attacking the King a8.
    let fen = "KSS5/SSn5/8/8/8/8/8/7k w - - 0 30";
    assert!(turns(fen).is_empty());
    assert_eq!(outcome(fen).map(|o| o.0), Some(Verdict::Draw));
}

#[test]
fn a_bare_king_plays_on() {
    assert_eq!(outcome("8/8/8/8/8/8/8/K6k w - - 0 30"), None);
    assert_eq!(outcome("K7/8/8/8/8/8/ssss4/7k w - - 0 30"), None);
    assert_eq!(outcome("K7/8/8/8/8/8/ssss4/7k b - - 0 30"), None);
}

#[test]
fn a_third_occurrence_of_a_turns_start_is_a_draw() {
    // White may ransom its Spear with the Knight, so its turns have a choice after the
    // action; the positions in the middle of a turn do not count.
    let fen = "7k/8/8/8/8/8/8/K7[:nS] w - - 0 30";
    let there_and_back = ["a1b1", "h8g8", "b1a1", "g8h8"];
    let any = lgc();
    with_width!(&any, g => {
        let mut pos = position(g, fen);
        for round in 0..2 {
            assert_eq!(g.outcome(&mut pos), None, "round {round}");
            for text in there_and_back {
                for m in g.parse_turn(&mut pos, text).unwrap() {
                    pos.make(g, m);
                }
            }
        }
        assert_eq!(pos.to_fen(g).split(' ').next(), fen.split(' ').next());
        let o = g.outcome(&mut pos).map(|o| (o.verdict, o.reason));
        assert_eq!(o, Some((Verdict::Draw, "repetition")));
    });
}

#[test]
fn the_move_rule_counts_turn_actions_and_draws_at_one_hundred() {
    // The clock counts the turn's action only: a King move with its silent end, or with a
    // ransom after it, is one.
    let fen = RANSOM.replace(" 0 20", " 7 20");
    assert!(play(&fen, &["e1d1"]).ends_with(" b - - 8 20"));
    assert!(play(&fen, &["e1d1$S/n"]).ends_with(" b - - 8 20"));
    // A Spear's move, a Spear's entry and a capture restart it.
    assert!(play(&fen, &["e2e3"]).ends_with(" b - - 0 20"));
    assert!(play("7k/8/8/8/8/8/8/K7[S:] w - - 7 20", &["S@b1"]).ends_with(" b - - 0 20"));
    assert!(play("7k/8/8/8/8/8/n7/K7 w - - 7 20", &["a1a2"]).ends_with(" b - - 0 20"));
    // A Knight's entry does not.
    assert!(play("7k/8/8/8/8/8/8/K7[N:] w - - 7 20", &["N@b1"]).ends_with(" b - - 8 20"));
    // One hundred actions: a draw.
    let fen = "7k/8/8/8/8/8/8/K7 w - - 99 80";
    assert_eq!(outcome(fen), None);
    let after = play(fen, &["a1a2"]);
    assert_eq!(outcome(&after), Some((Verdict::Draw, "move rule")));
}

#[test]
fn a_field_promotion_of_a_spear_does_not_restart_the_move_rule_clock() {
    let fen = ASCENSION.replace(" 0 20", " 5 20");
    assert_eq!(
        play(&fen, &["h1h1;h1g2=d2G"]),
        "4k3/4s3/8/8/8/8/3G2K1/M(C)7[:N] b - - 6 20"
    );
}

#[test]
fn the_end_of_a_turn_does_not_restart_the_move_rule_clock() {
    // A white Spear entered on a1 earlier; e1d1 could have been followed by a ransom, so
    // the turn has a silent end.
    let fen = "3k4/8/8/8/8/8/4S3/S3K3[:snnbSN] w - - 7 20";
    assert_eq!(
        play(fen, &["e1d1"]),
        "3k4/8/8/8/8/8/4S3/S2K4[:snnbSN] b - - 8 20"
    );
}

#[test]
fn a_ransom_does_not_restart_the_move_rule_clock() {
    let fen = "3k4/8/8/8/8/8/1S6/4K3[:snnbSN] w - - 7 20";
    assert_eq!(
        play(fen, &["e1d1$S/n"]),
        "3k4/8/8/8/8/8/1S6/3K4[Sn:snbN] b - - 8 20"
    );
}

// ---------------------------------------------------------------------------------------
// Writing a turn; FEN
// ---------------------------------------------------------------------------------------

#[test]
fn the_rules_page_examples_of_turns() {
    for (fen, turn, after) in [
        (
            "3k4/8/8/4n3/3G4/8/8/K7 w - - 0 30",
            "d4e5+N",
            "3k4/8/8/4N3/8/8/8/K7[:n] b - - 0 30",
        ),
        (
            "8/8/8/4K3/8/8/8/k7[:nS] w - - 0 30",
            "e5d6$S/n",
            "8/8/3K4/8/8/8/8/k7[Sn] b - - 1 30",
        ),
        (
            "3c4/4s3/2n5/8/8/8/8/4K3[:k] b - - 0 30",
            "d8d8;e7e6=c6E",
            "3k4/8/2e1s3/8/8/8/8/4K3[:b] w - - 0 31",
        ),
        (
            "3k4/8/8/8/8/2M(N)5/8/4K3 w - - 0 30",
            "c3^d5",
            "3k4/8/8/3N4/8/2M5/8/4K3[] b - - 1 30",
        ),
        (
            "3k4/8/8/8/8/M(S)7/8/4K3 w - - 0 30",
            "a3~a5",
            "3k4/8/8/M7/8/S7/8/4K3[] b - - 1 30",
        ),
    ] {
        assert!(has(&turns(fen), turn), "{turn} in {fen}");
        assert_eq!(play(fen, &[turn]), after, "{turn}");
        // The text kirin writes for the parsed actions is the same word.
        let any = lgc();
        with_width!(&any, g => {
            let actions = g.parse_turn(&mut position(g, fen), turn).unwrap();
            assert_eq!(g.turn_text(&actions), turn);
        });
    }
}

#[test]
fn fen_reserves_are_read_in_any_order_and_written_in_order() {
    let any = lgc();
    with_width!(&any, g => {
        // Reclaimed: White's then Black's; prisoners: held by White (lower case), then by
        // Black, each in the order of the piece table, a held King last.
        let fen = position(g, "3k4/8/8/8/8/8/4S3/4K3[nS:NsSnbn] w - - 0 20").to_fen(g);
        assert_eq!(fen, "3k4/8/8/8/8/8/4S3/4K3[Sn:snnbSN] w - - 0 20");
        let fen = position(g, "4k3/8/8/8/8/8/8/3D4[:KmBs] w - - 0 20").to_fen(g);
        assert_eq!(fen, "4k3/8/8/8/8/8/8/3D4[:smBK] w - - 0 20");
        // With reclaimed pieces and no prisoners, kirin reads `[SN:]` (the suite's form)
        // and `[SN]` alike and writes `[SN]`, leaving out the `:` as it does in `[]`.
        for written in ["[SN:]", "[SN]"] {
            let fen = format!("8/1s6/8/8/8/K7/5m(k)2/8{written} w - - 0 30");
            assert_eq!(position(g, &fen).to_fen(g), "8/1s6/8/8/8/K7/5m(k)2/8[SN] w - - 0 30");
        }
        // A passenger of the other colour, or a Cannon in a Cannon, is refused.
        assert!(Position::from_fen(g, "4k3/8/8/8/8/8/8/M(n)3K3[] w - - 0 20").is_err());
        assert!(Position::from_fen(g, "4k3/8/8/8/8/8/8/M(M)3K3[] w - - 0 20").is_err());
    });
}

#[test]
fn a_mid_turn_fen_reads_back_with_what_is_pending() {
    let any = lgc();
    with_width!(&any, g => {
        // The Guard e5 earned its honour: +N, +B or the end.
        let fen = "8/8/8/2n1Gk2/4s3/2s3G1/8/K7[] w+1:she5 - - 1 30";
        let mut pos = position(g, fen);
        assert_eq!(pos.to_fen(g), fen);
        assert_eq!(pos.actions, 1);
        let mut list = MoveList::new();
        g.legal_moves(&mut pos, &mut list);
        let mut next: Vec<String> = list.iter().map(|&m| g.move_text(m)).collect();
        next.sort();
        assert_eq!(next, ["", "+B", "+N"]);
        // An honour on an empty square is refused.
        assert!(Position::from_fen(g, "8/8/8/2n1Gk2/4s3/2s3G1/8/K7[] w+1:shd6 - - 1 30").is_err());
    });
}

// ---------------------------------------------------------------------------------------
// The binary: a self-played game over UCI, replayed over CECP
// ---------------------------------------------------------------------------------------

/// The FEN in the answer to UCI's `d` (the line `White to move   FEN`).
fn fen_of_d(lines: &[String]) -> String {
    let line = lines
        .iter()
        .find(|l| l.contains(" to move"))
        .unwrap_or_else(|| panic!("no side line in {lines:?}"));
    line.split_once("   ")
        .expect("the FEN after the side")
        .1
        .trim()
        .to_string()
}

/// A CECP session of littlegreat under its real rules. By default kirin's CECP sessions
/// play by rules XBoard can verify (option "Claim only mate and stalemate"), which for
/// littlegreat adds a check rule; the option off keeps the rules page's game.
fn real_rules_cecp() -> Engine {
    let mut cecp = Engine::xboard();
    cecp.send("option Claim only mate and stalemate=0");
    cecp.send("variant littlegreat");
    cecp
}

/// Sends `commands` and a `ping`; returns the lines up to the `pong`.
fn cecp_exchange(cecp: &mut Engine, commands: &[String], ping: usize) -> Vec<String> {
    for c in commands {
        cecp.send(c);
    }
    cecp.send(&format!("ping {ping}"));
    cecp.until(|l| l == format!("pong {ping}"))
}

fn cecp_refused(out: &[String]) -> bool {
    out.iter().any(|l| {
        l.starts_with("Illegal move") || l.starts_with("Error") || l.contains("Illegal position")
    })
}

/// Lines of compound turns (ascension, field and honour promotions, ransom, entry,
/// leaving a Cannon) from the positions above.
const COMPOUND_LINES: &[(&str, &[&str])] = &[
    (FIELD, &["a1a1;d4d5=e2E+G", "e8d8"]),
    (RANSOM, &["e1d1$S/n", "d8d7", "S@a1"]),
    (
        "3k3m(c)/3S4/8/d7/8/8/8/4K3[] w - - 0 30",
        &["d7d8+G", "h8h8;h8h7", "e1d1", "h7^g6"],
    ),
    (
        "d6m(n)/8/3c4/8/8/8/4S3/4K3[:skSSNN] b - - 0 30",
        &["d6d6;d6d5$sb/SSNN", "e1d1", "h8^g6"],
    ),
    (CANNONS, &["c3^e5+A", "e8d8", "a1a2"]),
    (
        "1nbkgbnm/2sss2s/s7/4g3/8/M(S)5SS/2SSSK1S/1N1G1BNM[Sm:ssB] b - - 0 8",
        &["M@a8$s/B", "S@a1", "a8a7"],
    ),
];

#[test]
fn compound_turns_cross_both_protocols() {
    let mut uci = Engine::uci();
    uci.send("setoption name UCI_Variant value littlegreat");
    let mut cecp = real_rules_cecp();
    for (i, &(fen, line)) in COMPOUND_LINES.iter().enumerate() {
        let expected = play(fen, line);
        uci.send(&format!("position fen {fen} moves {}", line.join(" ")));
        uci.send("d");
        let out = uci.ready();
        assert!(
            !out.iter().any(|l| l.contains("error")),
            "{fen} {line:?}: {out:?}"
        );
        assert_eq!(fen_of_d(&out), expected, "{fen} {line:?}");
        let mut commands = vec![format!("setboard {fen}"), "force".to_string()];
        commands.extend(line.iter().map(|t| format!("usermove {t}")));
        let out = cecp_exchange(&mut cecp, &commands, i);
        assert!(!cecp_refused(&out), "{fen} {line:?}: {out:?}");
    }
    uci.quit();
    cecp.quit();
}

#[test]
fn uci_answers_a_lost_position_with_bestmove_none() {
    // Suite position after g4c8+A: Black's King is taken and Black has no Regent.
    let mut uci = Engine::uci();
    uci.send("setoption name UCI_Variant value littlegreat");
    uci.send("position fen 2k5/8/8/1s1b4/n3m(s)1B1/2N5/4g3/7K[] w - - 0 30 moves g4c8+A");
    uci.send("go depth 2");
    let out = uci.until(|l| l.starts_with("bestmove"));
    assert_eq!(out.last().unwrap(), "bestmove (none)", "{out:?}");
    assert!(
        out.iter().any(|l| l.starts_with("info string game over")),
        "{out:?}"
    );
    // A Regent to ascend: the engine's turn starts with an ascension.
    uci.send(&format!("position fen {ASCENSION}"));
    uci.send("go depth 2");
    let out = uci.until(|l| l.starts_with("bestmove"));
    let word = bestmove(&out);
    assert!(
        word.starts_with("a1a1;") || word.starts_with("h1h1;"),
        "{out:?}"
    );
    assert!(parses(ASCENSION, &word), "{word}");
    uci.quit();
}

#[test]
fn cecp_plays_littlegreat_without_a_check_rule_by_default() {
    let mut cecp = Engine::xboard();
    cecp.send("variant littlegreat");
    // The King steps next to the black Guard (legal: there is no check rule).
    let commands = [
        "setboard 8/8/8/8/8/4g3/S7/4K2k w - - 0 30".to_string(),
        "force".to_string(),
        "usermove e1e2".to_string(),
        "usermove e3e2".to_string(),
    ];
    let out = cecp_exchange(&mut cecp, &commands, 1);
    assert!(!cecp_refused(&out), "{out:?}");
    // A position where the King of the side not to move stands attacked, and one where
    // White's King is held and a Regent must ascend.
    for (i, (fen, turn)) in [
        ("3k3m(c)/3S4/8/d7/8/8/8/4K3[] w - - 0 30", "d7d8+G"),
        (FIELD, "a1a1;d4d5=e2E+G"),
    ]
    .into_iter()
    .enumerate()
    {
        let commands = [format!("setboard {fen}"), format!("usermove {turn}")];
        let out = cecp_exchange(&mut cecp, &commands, 2 + i);
        assert!(!cecp_refused(&out), "{fen}: {out:?}");
    }
    cecp.quit();
}

#[test]
fn a_self_played_game_replays_over_uci_and_cecp() {
    const TURNS: usize = 36;
    let mut uci = Engine::uci();
    uci.send("setoption name UCI_Variant value littlegreat");
    uci.send("ucinewgame");
    let out = uci.ready();
    assert!(!out.iter().any(|l| l.contains("error")), "{out:?}");
    let mut played: Vec<String> = Vec::new();
    let mut over = false;
    while played.len() < TURNS {
        let line = if played.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", played.join(" "))
        };
        uci.send(&line);
        uci.send("d");
        let out = uci.ready();
        assert!(!out.iter().any(|l| l.contains("error")), "{line}: {out:?}");
        let expected: Vec<&str> = played.iter().map(String::as_str).collect();
        assert_eq!(fen_of_d(&out), play(START, &expected), "after {line}");
        uci.send("go depth 2");
        let out = uci.until(|l| l.starts_with("bestmove"));
        assert!(!out.iter().any(|l| l.contains("error")), "{out:?}");
        let word = bestmove(&out);
        if word == "(none)" {
            over = true;
            break;
        }
        // The engine's word is a whole turn in kirin's own reading, written as kirin
        // writes it.
        let fen = play(START, &expected);
        let any = lgc();
        with_width!(&any, g => {
            let mut pos = position(g, &fen);
            let actions = g
                .parse_turn(&mut pos, &word)
                .unwrap_or_else(|e| panic!("bestmove {word} in {fen}: {e}"));
            assert_eq!(g.turn_text(&actions), word);
        });
        played.push(word);
    }
    assert!(over || played.len() == TURNS, "{played:?}");
    assert!(played.len() >= 30 || over, "{played:?}");
    uci.quit();

    // The same turns, one `usermove` each, in force mode, under the real rules (see
    // `cecp_plays_littlegreat_without_a_check_rule_by_default` for why the option).
    let mut cecp = real_rules_cecp();
    cecp.send("force");
    for (i, turn) in played.iter().enumerate() {
        cecp.send(&format!("usermove {turn}"));
        cecp.send(&format!("ping {i}"));
        let out = cecp.until(|l| l == format!("pong {i}"));
        assert!(
            !out.iter()
                .any(|l| l.starts_with("Illegal move") || l.starts_with("Error")),
            "usermove {turn}: {out:?}"
        );
    }
    // CECP has no command that shows the position; its engine's own next turn must be a
    // legal turn of the final position as the library reached it.
    let fen = play(
        START,
        &played.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    if !over && outcome(&fen).is_none() {
        cecp.send("sd 2");
        cecp.send("go");
        let out = cecp.until(|l| l.starts_with("move "));
        let reply = out.last().unwrap()["move ".len()..].to_string();
        assert!(parses(&fen, &reply), "move {reply} in {fen}");
    }
    cecp.quit();
}

#[test]
fn the_forced_spear_promotion_option_removes_the_declines_on_the_last_rank() {
    // `--rule spear_promotion=forced`: a Spear that reaches rank 8 by its own step or by
    // leaving its Cannon must become a Guard; the Cannon carrying one there still may not
    // promote it, and a Spear capture elsewhere stays optional.
    let spec = kirin::variants::with_rules("littlegreat", &["spear_promotion=forced".into()], "")
        .expect("the option exists");
    let any = AnyGame::new(&spec).expect("littlegreat compiles");
    let fen = "S7/2S2M(S)2/8/4k1s1/6S1/3S4/8/K7[] w - - 0 30";
    let mut forced = with_width!(&any, g => {
        let mut pos = position(g, fen);
        let mut out = Vec::new();
        collect_turns(g, &mut pos, &mut Vec::new(), &mut out);
        out
    });
    forced.sort();
    let declines = ["c7b8", "c7c8", "c7d8", "f7^e8", "f7^f8", "f7^g8"];
    let optional = turns(fen);
    assert_eq!(optional.len(), 37);
    let expected: Vec<String> = optional
        .into_iter()
        .filter(|t| !declines.contains(&t.as_str()))
        .collect();
    assert_eq!(forced, expected);
    assert!(has(&forced, "c7c8+G") && has(&forced, "f7f8") && has(&forced, "g4g5"));
}

#[test]
fn variant_options_reach_the_engine_over_uci_and_cecp() {
    // `VariantRules` (UCI) and "Variant rules" (CECP) take the `--rule` choices: under
    // `spear_promotion=forced` the Spear c7 reaching c8 has only the promoting turn.
    let fen = "S7/2S2M(S)2/8/4k1s1/6S1/3S4/8/K7[] w - - 0 30";
    let mut uci = Engine::uci();
    uci.send("setoption name UCI_Variant value littlegreat");
    uci.send("setoption name VariantRules value spear_promotion=forced");
    uci.send(&format!("position fen {fen}"));
    uci.send("go perft 1");
    let out = uci.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(out.last().unwrap(), "Nodes searched: 31", "{out:?}");
    // A rule the variant does not have is refused and changes nothing.
    uci.send("setoption name VariantRules value hia=capture-one");
    uci.send(&format!("position fen {fen}"));
    uci.send("go perft 1");
    let out = uci.until(|l| l.starts_with("Nodes searched"));
    assert!(
        out.iter().any(|l| l.starts_with("info string error")),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "Nodes searched: 31", "{out:?}");
    uci.send("setoption name VariantRules value");
    uci.send(&format!("position fen {fen}"));
    uci.send("go perft 1");
    let out = uci.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(out.last().unwrap(), "Nodes searched: 37", "{out:?}");
    uci.quit();

    let mut cecp = Engine::xboard();
    cecp.send("option Variant rules=spear_promotion=forced");
    cecp.send("variant littlegreat");
    cecp.send(&format!("setboard {fen}"));
    cecp.send("force");
    // The declining turn does not end here: the word leaves the turn open, and the
    // engine's own reply completes it with the promotion.
    cecp.send("usermove c7c8");
    cecp.send("st 1");
    cecp.send("go");
    let out = cecp.until(|l| l.starts_with("move ") || l.starts_with("Illegal"));
    assert_eq!(out.last().unwrap(), "move +G", "{out:?}");
    cecp.quit();
}

// ---------------------------------------------------------------------------------------
// Prisoner exchange (`--rule exchange=on`)
// ---------------------------------------------------------------------------------------

/// White holds two black Spears and a Cannon, Black holds a white Spear and Bishop.
const PRISONERS: &str = "1nbkgbnm/2sss2s/s7/4g3/8/M5SS/S1SSSK1S/1N1G1BNM[:ssmSB] w - - 1 8";

fn offers(turns: &[String]) -> Vec<&str> {
    turns
        .iter()
        .map(String::as_str)
        .filter(|t| t.contains('&'))
        .collect()
}

#[test]
fn exchange_offers_exist_only_under_the_option_and_balance_their_values() {
    // Off (the default): the 108 turns of the suite. On: three offers more, each asking
    // back White's pieces for Black's of the same value (S for s; B for m, not for s+s;
    // S+B for s+m).
    assert!(offers(&turns(PRISONERS)).is_empty());
    assert_eq!(turns(PRISONERS).len(), 108);
    let on = turns_in(&lgc_exchange(), PRISONERS);
    assert_eq!(offers(&on), ["&B/m", "&S/s", "&SB/sm"]);
    assert_eq!(on.len(), 111);
    // Full holdings on both sides: every balanced pair up to 6, the bound of the move list.
    let full = "k7/8/8/8/8/8/8/K7[:ssssssnnbbmmSSSSSSNNBBMM] w - - 0 30";
    let all = turns_in(&lgc_exchange(), full);
    assert_eq!(offers(&all).len(), 150);
    assert_eq!(all.len(), 2739);
    assert!(has(&all, "&SSSSSS/nb") && has(&all, "&NB/mm") && !has(&all, "&SSSSSSS/nn"));
}

#[test]
fn the_opponent_accepts_or_declines_then_the_offering_side_plays_on() {
    let any = lgc_exchange();
    // The offer is White's ply; Black's only turns are the answers.
    let offered = play_in(&any, PRISONERS, &["&B/m"]);
    assert_eq!(offered, PRISONERS.replace(" w - - 1 8", " b:&B/m - - 1 8"));
    assert_eq!(turns_in(&any, &offered), ["accept", "decline"]);
    // Accepted: the Bishop comes back as a reclaimed piece, the Cannon goes to Black's,
    // and the Bishop may enter at once. No second offer in the same turn.
    let accepted = play_in(&any, &offered, &["accept"]);
    assert_eq!(
        accepted,
        "1nbkgbnm/2sss2s/s7/4g3/8/M5SS/S1SSSK1S/1N1G1BNM[Bm:ssS] w:x - - 1 9"
    );
    let after = turns_in(&any, &accepted);
    assert_eq!(after.len(), 78);
    assert!(has(&after, "B@c1") && has(&after, "B@e1$S/ss"));
    assert!(offers(&after).is_empty());
    // Declined: nothing changes hands; White plays its turn without offers.
    let declined = play_in(&any, &offered, &["decline"]);
    assert_eq!(declined, PRISONERS.replace(" w - - 1 8", " w:x - - 1 9"));
    assert_eq!(turns_in(&any, &declined), turns(PRISONERS));
    // After White's turn, the next turn may offer again.
    let next = play_in(&any, &declined, &["e2e3"]);
    assert!(next.contains(" b - - "), "{next}");
}

#[test]
fn an_offer_after_an_ascension_keeps_the_field_promotion_owed() {
    // Black's Regent d6 ascends and Black offers its Bishop back for a white Knight; after
    // White accepts, Black's turn goes on with the field promotion still owed (`f`).
    let any = lgc_exchange();
    let fen = "d6m(n)/8/3c4/8/8/8/4S3/4K3[:skSSNN] b - - 0 30";
    let all = turns_in(&any, fen);
    assert_eq!(all.len(), 726);
    assert_eq!(
        offers(&all),
        [
            "a8a8&n/N",
            "a8a8&s/S",
            "a8a8&sn/SN",
            "d6d6&b/N",
            "d6d6&s/S",
            "d6d6&sb/SN"
        ]
    );
    let offered = play_in(&any, fen, &["d6d6&b/N"]);
    assert_eq!(
        offered,
        "d6m(n)/8/3k4/8/8/8/4S3/4K3[:sbSSNN] w:f&b/N - - 0 31"
    );
    let accepted = play_in(&any, &offered, &["accept"]);
    assert_eq!(
        accepted,
        "d6m(n)/8/3k4/8/8/8/4S3/4K3[Nb:sSSN] b:fx - - 0 31"
    );
    let rest = turns_in(&any, &accepted);
    assert_eq!(rest.len(), 258);
    assert!(has(&rest, "B@b8=b8A") && has(&rest, "B@b8=b8A$s/N"));
}

#[test]
fn offer_states_in_fen_are_checked() {
    let any = lgc_exchange();
    let board = "1nbkgbnm/2sss2s/s7/4g3/8/M5SS/S1SSSK1S/1N1G1BNM[:ssmSB]";
    let reads = |any: &AnyGame, side: &str| {
        let fen = format!("{board} {side} - - 1 8");
        with_width!(any, g => Position::from_fen(g, &fen).map(|p| p.to_fen(g)).ok())
    };
    for good in ["b:&B/m", "b:&SB/sm", "w:x", "b:x"] {
        assert_eq!(
            reads(&any, good),
            Some(format!("{board} {good} - - 1 8")),
            "{good}"
        );
    }
    // Unbalanced, not held, not the mover's opponent's offer, mid-turn, answered and
    // pending at once, or under the default rules (no exchange): errors.
    for bad in [
        "b:&B/ss", "b:&N/m", "w:&B/m", "b+1:&B/m", "b:x&B/m", "b:&B/m/s", "w:sx",
    ] {
        assert_eq!(reads(&any, bad), None, "{bad}");
    }
    for off in ["b:&B/m", "w:x"] {
        assert_eq!(reads(&lgc(), off), None, "{off} without the option");
    }
}

#[test]
fn exchanges_cross_both_protocols() {
    let mut uci = Engine::uci();
    uci.send("setoption name UCI_Variant value littlegreat");
    uci.send("setoption name VariantRules value exchange=on");
    uci.send(&format!("position fen {PRISONERS} moves &B/m"));
    uci.send("go depth 3");
    let out = uci.until(|l| l.starts_with("bestmove"));
    let answer = bestmove(&out);
    assert!(answer == "accept" || answer == "decline", "{out:?}");
    uci.send(&format!("position fen {PRISONERS} moves &B/m accept"));
    uci.send("d");
    let out = uci.ready();
    assert_eq!(
        fen_of_d(&out),
        "1nbkgbnm/2sss2s/s7/4g3/8/M5SS/S1SSSK1S/1N1G1BNM[Bm:ssS] w:x - - 1 9"
    );
    // An offer the rules do not allow is refused and the position stays.
    uci.send(&format!("position fen {PRISONERS} moves &B/ss"));
    uci.send("d");
    let out = uci.ready();
    assert!(
        out.iter().any(|l| l.starts_with("info string error")),
        "{out:?}"
    );
    uci.quit();

    let mut cecp = Engine::xboard();
    cecp.send("option Claim only mate and stalemate=0");
    cecp.send("option Variant rules=exchange=on");
    cecp.send("variant littlegreat");
    cecp.send(&format!("setboard {PRISONERS}"));
    cecp.send("force");
    let out = cecp_exchange(&mut cecp, &["usermove &B/ss".into()], 1);
    assert!(out.iter().any(|l| l.starts_with("Illegal move")), "{out:?}");
    cecp.send("usermove &B/m");
    cecp.send("st 1");
    cecp.send("go");
    let out = cecp.until(|l| l.starts_with("move ") || l.starts_with("Illegal"));
    let last = out.last().unwrap();
    assert!(last == "move accept" || last == "move decline", "{out:?}");
    cecp.quit();
}

#[test]
fn an_offer_holds_the_turn_open_for_the_search() {
    // The search makes no null move while a turn is in progress: an offer pending, or
    // answered with the rest of the offering side's turn to come, holds it open.
    let any = lgc_exchange();
    let board = "1nbkgbnm/2sss2s/s7/4g3/8/M5SS/S1SSSK1S/1N1G1BNM[:ssmSB]";
    for (side, open) in [
        ("w", false),
        ("b:&B/m", true),
        ("w:x", true),
        ("w+1:s", true),
    ] {
        let fen = format!("{board} {side} - - 1 8");
        let held = with_width!(&any, g => g.turn_in_progress(&position(g, &fen)));
        assert_eq!(held, open, "{fen}");
    }
}
