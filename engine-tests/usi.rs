//! Scripted USI sessions against the built binary, in Chu Shogi and Sho Shogi: positions
//! in SFEN and moves in lishogi's USI text (Lion double captures, igui, the pass,
//! promotion or not), Chu's lishogi preset, and bad input answered while the engine goes
//! on with its game as it was.

#[path = "support/engine.rs"]
mod engine;

use engine::{Engine, bestmove};

/// Started after `usi`, its identification read.
fn usi() -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send("usi");
    let id = e.until(|l| l == "usiok");
    (e, id)
}

/// The SFEN of the session's position, as `d` tells it.
#[track_caller]
fn sfen(e: &mut Engine) -> String {
    e.send("d");
    let out = e.until(|l| l.starts_with("info string sfen "));
    out.last().unwrap()["info string sfen ".len()..].to_string()
}

/// Sends `line`; returns what the engine said up to the next `readyok`.
#[track_caller]
fn answer(e: &mut Engine, line: &str) -> Vec<String> {
    e.send(line);
    e.ready()
}

#[track_caller]
fn accepted(e: &mut Engine, line: &str) {
    let out = answer(e, line);
    assert!(!out.iter().any(|l| l.contains("error")), "{line}: {out:?}");
}

#[track_caller]
fn refused(e: &mut Engine, line: &str) {
    let out = answer(e, line);
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string error: ") && l.ends_with("position unchanged")),
        "{line}: {out:?}"
    );
}

const CHU_START: &str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";

/// Sente's Lion on 6f before Gote's Pawn (6e) and Gold (6d), with a Pawn of its own on
/// 3e, one step from the promotion zone.
const LION: &str = "k11/12/12/6g5/6p2P2/6N5/12/12/12/12/12/11K b - 1";

#[test]
fn chu_session_plays_lion_moves_passes_and_promotions() {
    let (mut e, id) = usi();
    assert!(id.iter().any(|l| l.starts_with("id name kirin")));
    let variant = id.iter().find(|l| l.contains("USI_Variant")).unwrap();
    assert!(
        variant.contains("default chu") && variant.contains("var sho"),
        "{variant}"
    );
    for option in ["USI_Hash", "USI_Ponder", "USI_MultiPV", "Threads"] {
        assert!(
            id.iter().any(|l| l.contains(&format!("name {option} "))),
            "{option}"
        );
    }
    accepted(&mut e, "usinewgame");
    accepted(&mut e, "position startpos");
    assert_eq!(sfen(&mut e), CHU_START);

    // The Lion takes the Pawn on 6e and the Gold on 6d: a double capture.
    accepted(&mut e, &format!("position sfen {LION} moves 6f6e6d"));
    assert_eq!(
        sfen(&mut e),
        "k11/12/12/6N5/9P2/12/12/12/12/12/12/11K w - 2"
    );
    // Igui: it takes on 6e and stays on 6f.
    accepted(&mut e, &format!("position sfen {LION} moves 6f6e6f"));
    assert_eq!(
        sfen(&mut e),
        "k11/12/12/6g5/9P2/6N5/12/12/12/12/12/11K w - 2"
    );
    // The pass: a step to the empty 5f and back; only the side to move changes.
    accepted(&mut e, &format!("position sfen {LION} moves 6f5f6f"));
    assert_eq!(sfen(&mut e), LION.replace(" b - 1", " w - 2"));
    // A two-step move through an empty square is the jump it amounts to.
    accepted(&mut e, &format!("position sfen {LION} moves 6f7f8f"));
    assert_eq!(
        sfen(&mut e),
        "k11/12/12/6g5/6p2P2/4N7/12/12/12/12/12/11K w - 2"
    );

    // Entering the zone the Pawn may promote (`+`) or not (nothing, or `=`).
    accepted(&mut e, &format!("position sfen {LION} moves 3e3d+"));
    assert_eq!(
        sfen(&mut e),
        "k11/12/12/6g2+P2/6p5/6N5/12/12/12/12/12/11K w - 2"
    );
    for declined in ["3e3d", "3e3d="] {
        accepted(&mut e, &format!("position sfen {LION} moves {declined}"));
        assert_eq!(
            sfen(&mut e),
            "k11/12/12/6g2P2/6p5/6N5/12/12/12/12/12/11K w - 2"
        );
    }

    // An illegal move, an SFEN of the wrong size, a bad third field, a bad side: each is
    // answered, and the game stays where it was.
    let before = sfen(&mut e);
    for bad in [
        format!("position sfen {LION} moves 6f6c"),
        format!("position sfen {LION} moves 6f6e6d 6f6e"),
        "position sfen k11/12 b - 1".to_string(),
        format!("position sfen {}", LION.replace(" b - 1", " b 13a 1")),
        format!("position sfen {}", LION.replace(" b - 1", " x - 1")),
        "position fen lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL w 0 1".to_string(),
        "position startpos moves 7g7f".to_string(),
    ] {
        refused(&mut e, &bad);
        assert_eq!(sfen(&mut e), before, "{bad}");
    }

    // A timed search answers with a legal move in USI text.
    accepted(&mut e, "position startpos");
    e.send("go btime 2000 wtime 2000 byoyomi 100");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert!(out.iter().any(|l| l.starts_with("info depth")), "{out:?}");
    accepted(
        &mut e,
        &format!("position startpos moves {}", bestmove(&out)),
    );
    accepted(&mut e, "gameover draw");
    e.quit();
}

/// Gote's Lion two squares from Sente's King, which can neither step out of its reach
/// nor take it; Gote's Pawn move (the only root move allowed) mates in three plies.
const LION_MATE: &str = "k11/12/12/p11/12/12/12/P11/12/11n/12/11K w - 1";

#[test]
fn a_mating_line_ends_with_the_capture_of_the_king() {
    let (mut e, _) = usi();
    accepted(&mut e, &format!("position sfen {LION_MATE}"));
    e.send("go mate 5000 searchmoves 12d12e");
    let out = e.until(|l| l.starts_with("checkmate"));
    let line = out.last().unwrap();
    let moves: Vec<&str> = line.split_whitespace().skip(1).collect();
    // The search scores the King en prise as won; the line still plays the capture.
    assert_eq!(moves.len(), 3, "{out:?}");
    assert_eq!((moves[0], moves[2]), ("12d12e", "1j1l"), "{out:?}");
    accepted(
        &mut e,
        &format!("position sfen {LION_MATE} moves {}", moves.join(" ")),
    );
    e.send("go depth 1");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(out.last().unwrap(), "bestmove resign", "{out:?}");
    e.quit();
}

/// The two Lion rules where lishogi reads Chu otherwise than HaChu, and the counter-strike
/// square of lishogi's SFEN.
#[test]
fn chu_lishogi_preset_switches_the_lion_rules() {
    // A Kirin on 6f takes the Lion on 6d and promotes to a Lion; Gote's Gold on 6c would
    // take it back.
    let strike = "k11/12/6g5/6n5/12/6O5/12/12/12/12/12/11K b - 1";
    // A Lion on 6f takes the Go-Between on 6e, which alone protects the Lion on 6d, and
    // then that Lion.
    let bridge = "k11/12/12/6n5/6i5/6N5/12/12/12/12/12/11K b - 1";
    let (mut e, _) = usi();
    accepted(&mut e, &format!("position sfen {strike} moves 6f6d+"));
    assert_eq!(
        sfen(&mut e),
        "k11/12/6g5/6+O5/12/12/12/12/12/12/12/11K w 6d 2"
    );
    refused(&mut e, &format!("position sfen {strike} moves 6f6d+ 6c6d"));
    accepted(&mut e, &format!("position sfen {bridge} moves 6f6e6d"));

    let out = answer(&mut e, "setoption name VariantRules value preset=lishogi");
    assert!(
        out.iter()
            .any(|l| l.contains("variant chu rules preset=lishogi")),
        "{out:?}"
    );
    accepted(&mut e, &format!("position sfen {strike} moves 6f6d+ 6c6d"));
    assert_eq!(
        sfen(&mut e),
        "k11/12/12/6g5/12/12/12/12/12/12/12/11K b 6d 3"
    );
    refused(&mut e, &format!("position sfen {bridge} moves 6f6e6d"));
    // The third field is read back: after it, only the Lion on 6d may be taken back.
    accepted(
        &mut e,
        "position sfen k11/12/6g5/6+O5/12/12/12/12/12/12/12/11K w 6d 2 moves 6c6d",
    );
    e.quit();
}

#[test]
fn sho_session_and_a_game_over() {
    let (mut e, _) = usi();
    let out = answer(&mut e, "setoption name USI_Variant value sho");
    assert!(out.iter().any(|l| l.contains("variant sho")), "{out:?}");
    accepted(&mut e, "position startpos moves 7g7f 3c3d 8h2b+");
    assert_eq!(
        sfen(&mut e),
        "lnsgkgsnl/1r2e2+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/4E2R1/LNSGKGSNL w - 4"
    );
    refused(&mut e, "position startpos moves 7g7e");
    e.send("go depth 3");
    let out = e.until(|l| l.starts_with("bestmove"));
    accepted(
        &mut e,
        &format!("position startpos moves 7g7f 3c3d 8h2b+ {}", bestmove(&out)),
    );

    // Mated: Gote's King in the corner, no move left; USI's answer is `bestmove resign`.
    accepted(&mut e, "position sfen 8k/7G1/7G1/9/9/9/9/9/K8 w - 2");
    e.send("go depth 2");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(out.last().unwrap(), "bestmove resign", "{out:?}");

    // `go mate TIME`: a checkmate search, answered with the mating line or `timeout`.
    accepted(&mut e, "position sfen 8k/9/6GG1/9/9/9/9/9/K8 b - 1");
    e.send("go mate 5000");
    let out = e.until(|l| l.starts_with("checkmate"));
    assert_eq!(out.last().unwrap(), "checkmate 3c2b", "{out:?}");
    accepted(&mut e, "position sfen 7k1/9/9/9/9/9/9/4r4/K8 b - 1");
    e.send("go mate 200");
    let out = e.until(|l| l.starts_with("checkmate"));
    assert_eq!(out.last().unwrap(), "checkmate timeout", "{out:?}");
    accepted(&mut e, "position sfen 8k/7G1/7G1/9/9/9/9/9/K8 w - 2");
    e.send("go mate infinite");
    let out = e.until(|l| l.starts_with("checkmate"));
    assert_eq!(out.last().unwrap(), "checkmate nomate", "{out:?}");

    // A game SFEN cannot carry is refused; the session stays in Sho.
    let out = answer(&mut e, "setoption name USI_Variant value chess");
    assert!(out.iter().any(|l| l.contains("castling")), "{out:?}");
    accepted(&mut e, "position startpos moves 7g7f");
    e.quit();
}
