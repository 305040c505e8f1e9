//! Scripted UCI and CECP sessions against the built binary, including the exact traffic
//! of recorded CECP traffic (a HaChu Lion double move as two `move` lines,
//! XBoard sending it back as one `usermove` with a comma).

#[path = "support/engine.rs"]
mod engine;

use engine::{Engine, bestmove};
use kirin::protocol::cecp::Ranks;
use kirin::protocol::session::Session;
use std::process::Command;
use std::time::Duration;

#[test]
fn uci_session_in_every_variant() {
    let mut e = Engine::start();
    e.send("uci");
    let id = e.until(|l| l == "uciok");
    let combo = id.iter().find(|l| l.contains("UCI_Variant")).unwrap();
    for spec in kirin::variants::builtin() {
        assert!(combo.contains(&format!("var {}", spec.name)), "{combo}");
    }
    for spec in kirin::variants::builtin() {
        e.send(&format!("setoption name UCI_Variant value {}", spec.name));
        let info = e.until(|l| l.starts_with("info string"));
        assert!(
            info.last()
                .unwrap()
                .contains(&format!("variant {}", spec.name))
        );
        e.send("ucinewgame");
        e.send("position startpos");
        e.send("go depth 3");
        let out = e.until(|l| l.starts_with("bestmove"));
        assert!(
            out.iter().any(|l| l.starts_with("info depth 3 ")),
            "{out:?}"
        );
        let best = bestmove(&out);
        // The move is legal: playing it is accepted.
        e.send(&format!("position startpos moves {best}"));
        e.send("isready");
        let ok = e.until(|l| l == "readyok");
        assert!(
            !ok.iter().any(|l| l.contains("error")),
            "{}: {ok:?}",
            spec.name
        );
    }
    e.quit();
}

#[test]
fn uci_bad_input_is_answered_and_the_engine_goes_on() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    for bad in [
        "position fen rnbqkbnr/pppppppp/8 w - - 0 1",
        "position startpos moves e2e5",
        "position sideways",
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name UCI_Variant value nonesuch",
        "setoption name Nonesuch value 3",
        "setoption name Contempt value 501",
        "setoption name Contempt value much",
        "go depth",
        "go sideways",
        "flibbertigibbet",
        "setoption",
    ] {
        e.send(bad);
        e.send("isready");
        let out = e.until(|l| l == "readyok");
        assert!(
            out.iter().any(|l| l.starts_with("info string")),
            "{bad}: {out:?}"
        );
        // A bad `go` still searches (briefly): its bestmove must not be taken for a
        // later search's.
        if bad.starts_with("go") && !out.iter().any(|l| l.starts_with("bestmove")) {
            e.until(|l| l.starts_with("bestmove"));
        }
    }
    e.send("position startpos moves e2e4 e7e5");
    e.send("go infinite");
    e.until(|l| l.starts_with("info depth 4"));
    e.send("stop");
    e.until(|l| l.starts_with("bestmove"));
    e.send("setoption name MultiPV value 3");
    e.send("go depth 4");
    let out = e.until(|l| l.starts_with("bestmove"));
    for k in 1..=3 {
        assert!(
            out.iter()
                .any(|l| l.starts_with("info depth 4 ") && l.contains(&format!(" multipv {k} "))),
            "{out:?}"
        );
    }
    e.send("setoption name MultiPV value 1");
    e.send("go perft 3");
    let out = e.until(|l| l.starts_with("Nodes searched"));
    // The same count as `kirin perft --variant chess --moves "e2e4 e7e5" --depth 3`.
    assert_eq!(out.last().unwrap(), "Nodes searched: 24825");
    e.quit();
}

#[test]
fn uci_chu_lion_moves_in_comma_form() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name UCI_Variant value chu");
    e.send("position fen 6k5/12/12/12/12/12/4nq6/4N7/12/12/12/6K5 w 0 1 moves e5e6,e6f6");
    e.send("d");
    let out = e.until(|l| l.contains("to move"));
    assert!(out.iter().any(|l| l.contains("Black to move")), "{out:?}");
    e.quit();
}

#[test]
fn cecp_string_option_leads_the_feature_line() {
    // XBoard 4.9.1 stores a `-string` option in a copy of the rest of the feature line
    // and writes a `-firstOptions` value there unchecked: the option must come first, with
    // the rest of the line (longer than any rule list) behind it (docs/protocols.md).
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let f = e.until(|l| l.contains("done=1"));
    let line = f.last().unwrap();
    let option = "feature option=\"Variant rules -string \" ";
    assert!(line.starts_with(option), "{line}");
    assert!(line.len() - option.len() > 200, "{line}");
    assert_eq!(line.matches("-string").count(), 1, "{line}");
    e.quit();
}

#[test]
fn cecp_game_with_lion_double_moves() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let f = e.until(|l| l.contains("done=1"));
    assert!(f.last().unwrap().contains("variants=\"normal,courier,chu,"));
    // Chu's own rules, bare King included (by default kirin plays on to mate).
    e.send("option Claim only mate and stalemate=0");
    e.send("variant chu");
    e.send("memory 16");
    e.send("ping 1");
    e.until(|l| l == "pong 1");
    // The sample traffic: XBoard sends a Lion double move as one usermove.
    e.send("setboard 6k5/12/12/12/12/12/4pp6/4N7/12/12/12/6K5 w 0 1");
    e.send("force");
    e.send("usermove e5e6,e6e7");
    e.send("ping 2");
    let out = e.until(|l| l == "pong 2");
    assert!(!out.iter().any(|l| l.starts_with("Illegal")), "{out:?}");
    // The engine plays a Lion double capture as two move lines, the first with a comma.
    e.send("setboard 6k5/12/12/12/12/12/4qn6/4N7/12/12/12/6K5 w 0 1");
    e.send("sd 3");
    e.send("go");
    let out = e.until(|l| l.starts_with("move ") && !l.ends_with(','));
    let moves: Vec<&String> = out.iter().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves.len(), 2, "{out:?}");
    assert!(moves[0].ends_with(','), "{moves:?}");
    // Black is left with a bare King and cannot bare White at once: the engine says so.
    e.until(|l| l == "1-0 {bare king}");
    e.quit();
}

#[test]
fn cecp_errors_undo_and_analysis() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e.send("new");
    e.send("force");
    e.send("usermove e2e5");
    let out = e.until(|l| l.starts_with("Illegal move"));
    assert!(out.last().unwrap().ends_with("e2e5"));
    e.send("setboard nonsense");
    e.until(|l| l.starts_with("Error"));
    e.send("variant nonesuch");
    e.until(|l| l.starts_with("Error"));
    e.send("frobnicate");
    e.until(|l| l.starts_with("Error (unknown command)"));
    e.send("level 40 5:00 0");
    e.send("usermove e2e4");
    e.send("usermove e7e5");
    e.send("remove");
    e.send("undo");
    e.send("undo");
    e.until(|l| l.starts_with("Error (no move"));
    e.send("analyze");
    e.until(|l| l.starts_with("5 "));
    e.send("usermove e2e4");
    e.send("exit");
    e.send("ping 9");
    e.until(|l| l == "pong 9");
    // Game mode: the engine answers a move.
    e.send("new");
    e.send("st 0.2");
    e.send("usermove e2e4");
    e.until(|l| l.starts_with("move "));
    e.send("?");
    e.quit();
}

#[test]
fn bare_start_waits_for_a_protocol() {
    let mut e = Engine::start();
    e.send("hello");
    e.until(|l| l.contains("'uci', 'usi' or 'xboard'"));
    e.quit();
}

/// The legal moves (kirin's text, ranks from 1) after `played` from `fen` in `variant`;
/// panics if a move of `played` is illegal there.
fn legal_after(variant: &str, fen: &str, played: &[String]) -> Vec<String> {
    legal_after_in(kirin::variants::find(variant).unwrap(), fen, played)
}

fn legal_after_in(
    spec: &kirin::rules::spec::VariantSpec,
    fen: &str,
    played: &[String],
) -> Vec<String> {
    let mut session = Session::new(spec).unwrap();
    kirin::with_width!(&mut session, s => {
        s.set_position(Some(fen)).unwrap();
        for m in played {
            let mv = s.parse(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            s.play(&mv);
        }
        let mut list = kirin::rules::MoveList::new();
        s.game.game_moves(&mut s.pos, &mut list);
        list.iter().map(|&m| s.wire(&[m], Some("@@@@"))).collect()
    })
}

/// The `variants` list of the engine's features.
fn advertised(features: &[String]) -> Vec<String> {
    let line = features.iter().find(|l| l.contains("variants=")).unwrap();
    let list = line.split("variants=\"").nth(1).unwrap();
    let list = &list[..list.find('"').unwrap()];
    list.split(',').map(str::to_string).collect()
}

#[test]
fn cecp_session_in_every_variant() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let f = e.until(|l| l.contains("done=1"));
    assert!(f.last().unwrap().contains("highlight=1"));
    let names = advertised(&f);
    // Every built-in variant XBoard can show is offered, under a name XBoard does not
    // claim for itself; boards beyond XBoard (16 ranks or more) and games with stacked
    // pieces or prisoners are not.
    let playable = kirin::variants::builtin()
        .iter()
        .filter(|v| kirin::protocol::cecp::xboard_can_play(&v.geometry))
        .filter(|v| kirin::protocol::cecp::xboard_can_show(v))
        .count();
    assert_eq!(names.len(), playable, "{names:?}");
    assert!(!names.contains(&"flee".to_string()), "{names:?}");
    assert!(!names.contains(&"littlegreat".to_string()), "{names:?}");
    assert!(names.contains(&"modern-courier".to_string()), "{names:?}");
    assert!(names.contains(&"sho".to_string()), "{names:?}");
    for (n, name) in names.iter().enumerate() {
        let own = ["normal", "courier", "chu"].contains(&name.as_str());
        if !own {
            assert!(!kirin::protocol::cecp::xboard_claims(name), "{name}");
        }
        let kirin_name = match name.as_str() {
            "normal" => "chess",
            "modern-courier" => "courier-modern",
            other => other,
        };
        let spec = kirin::variants::find(kirin_name).unwrap();
        let (w, h) = (spec.geometry.width, spec.geometry.height);
        let start = spec
            .start_position("xboard")
            .unwrap_or(&spec.start)
            .to_string();
        let ranks = Ranks::for_height(h);
        e.send("new");
        e.send(&format!("variant {name}"));
        e.send(&format!("ping {n}"));
        let out = e.until(|l| l == format!("pong {n}"));
        assert!(
            !out.iter().any(|l| l.starts_with("Error")),
            "{name}: {out:?}"
        );
        if own {
            assert!(
                !out.iter().any(|l| l.starts_with("setup")),
                "{name}: {out:?}"
            );
        } else {
            // setup first, then one piece command per piece type, all before the pong.
            assert!(
                out[0].starts_with("setup (") && out[0].contains(&format!(") {w}x{h}+0_")),
                "{name}: {out:?}"
            );
            let fen_board = start.split_whitespace().next().unwrap();
            assert!(
                out[0].contains(&format!(" {fen_board} ")),
                "{name}: {}",
                out[0]
            );
            let pieces: Vec<&String> = out.iter().filter(|l| l.starts_with("piece ")).collect();
            // One per piece type whose moves XBetza can say at all.
            let expressible = spec
                .pieces
                .iter()
                .filter(|p| !kirin::rules::betza::to_xbetza(&p.atoms).text.is_empty())
                .count();
            assert_eq!(pieces.len(), expressible, "{name}: {out:?}");
            assert!(expressible * 2 > spec.pieces.len(), "{name}: {out:?}");
            assert!(
                pieces
                    .iter()
                    .all(|p| p.split_whitespace().nth(1).unwrap().ends_with('&')),
                "{pieces:?}"
            );
        }
        // A move each way: the user's first legal move, then the engine's answer.
        e.send("force");
        let first = legal_after(kirin_name, &start, &[]);
        let mine = first[0].clone();
        e.send(&format!("usermove {}", ranks.to_wire(&mine)));
        e.send("sd 2");
        e.send("go");
        let out =
            e.until(|l| l.starts_with("move ") && !l.ends_with(',') || l.starts_with("Illegal"));
        assert!(out.last().unwrap().starts_with("move "), "{name}: {out:?}");
        let legs: Vec<String> = out
            .iter()
            .filter_map(|l| l.strip_prefix("move "))
            .map(|l| ranks.from_wire(l))
            .collect();
        let answer = legs.concat();
        assert!(
            legal_after(kirin_name, &start, std::slice::from_ref(&mine)).contains(&answer),
            "{name}: {answer} is not a legal reply to {mine}"
        );
        e.send("force");
        e.send(&format!("ping {}", n + 100));
        e.until(|l| l == format!("pong {}", n + 100));
    }
    e.quit();
}

/// A 10x10 game for the rank-numbering tests: chess pieces on a ten-rank board.
const TEN_RANKS: &str = r#"[[variant]]
name = "tenrank"
inherits = "chess"
board = "10x10"
castling = false
start = "rnbqkbnr2/pppppppp2/10/10/10/10/10/10/PPPPPPPP2/RNBQKBNR2 w - - 0 1"
"#;

#[test]
fn cecp_counts_the_ranks_of_ten_rank_boards_from_zero() {
    let dir = std::env::temp_dir().join(format!("kirin-proto-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tenrank.toml");
    std::fs::write(&file, TEN_RANKS).unwrap();
    let mut e = Engine::start_with(&["--variants-file", file.to_str().unwrap()]);
    e.send("xboard");
    e.send("protover 2");
    let f = e.until(|l| l.contains("done=1"));
    assert!(advertised(&f).contains(&"tenrank".to_string()), "{f:?}");
    e.send("variant tenrank");
    e.send("ping 1");
    let out = e.until(|l| l == "pong 1");
    assert!(out[0].contains(") 10x10+0_fairy "), "{out:?}");
    // The pawn on e9 (kirin) is on e8 on the wire, and promotes on e9.
    e.send("setboard k9/4P5/10/10/10/10/10/10/10/4K5 w - - 0 1");
    e.send("force");
    e.send("usermove e9e10q");
    e.until(|l| l.starts_with("Illegal move") && l.ends_with("e9e10q"));
    e.send("usermove e8e9q");
    e.send("ping 2");
    let out = e.until(|l| l == "pong 2");
    assert!(!out.iter().any(|l| l.starts_with("Illegal")), "{out:?}");
    // Highlights: the king on e1 is on e0; its moves run along ranks 0 and 1.
    e.send("undo");
    e.send("lift e0");
    let h = e.until(|l| l.starts_with("highlight ") || l.starts_with("Error"));
    let rows: Vec<&str> = h.last().unwrap()["highlight ".len()..].split('/').collect();
    assert_eq!(rows.len(), 10, "{h:?}");
    assert_eq!(rows[9], "3Y1Y4", "{h:?}");
    assert_eq!(rows[8], "3YYY4", "{h:?}");
    e.send("lift e10");
    e.until(|l| l == "Error (not a square): lift e10");
    e.send("lift e9");
    let h = e.until(|l| l.starts_with("highlight ") || l.starts_with("Error"));
    assert_eq!(h.last().unwrap(), "highlight 10/10/10/10/10/10/10/10/10/10");
    // The engine's moves and its thinking output use ranks 0..9: White has only its
    // king on e0.
    e.send("setboard k9/10/10/10/10/10/10/10/r9/4K5 w - - 0 1");
    e.send("post");
    e.send("sd 3");
    e.send("go");
    let out = e.until(|l| l.starts_with("move "));
    let mv = out.last().unwrap();
    assert!(mv.starts_with("move e0"), "{out:?}");
    let thinking: Vec<&String> = out.iter().filter(|l| l.starts_with("3 ")).collect();
    assert!(!thinking.is_empty(), "{out:?}");
    assert!(thinking[0].contains(" e0"), "{thinking:?}");
    // No move names a rank 10: the words after `move`, and after a thinking line's depth,
    // score, time and nodes (the score may hold the digits: the mop-up's).
    let mut moves = out.iter().flat_map(|l| {
        l.split_whitespace()
            .skip(if l.starts_with("move ") { 1 } else { 4 })
    });
    assert!(!moves.any(|w| w.contains("10")), "{out:?}");
    e.quit();
}

#[test]
fn cecp_highlights_the_moves_of_a_lifted_piece() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e.send("new");
    e.send("lift e2");
    e.until(|l| l == "highlight 8/8/8/8/4Y3/4Y3/8/8");
    // A capture in red, a promotion as a choice.
    e.send("setboard 3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    e.send("lift e7");
    e.until(|l| l == "highlight 3MM3/8/8/8/8/8/8/8");
    e.send("setboard 7k/8/3p4/8/4N3/8/8/K7 w - - 0 1");
    e.send("lift e4");
    e.until(|l| l == "highlight 8/8/3R1Y2/2Y3Y1/8/2Y3Y1/3Y1Y2/8");
    e.send("setboard 7k/8/8/3p4/3P4/8/8/K7 w - - 0 1");
    // A blocked pawn: nothing to mark.
    e.send("lift d4");
    e.until(|l| l == "highlight 8/8/8/8/8/8/8/8");
    e.send("setboard 7k/8/8/2p1p3/3P4/8/8/K7 w - - 0 1");
    e.send("lift d4");
    e.until(|l| l == "highlight 8/8/8/2RYR3/8/8/8/8");
    // A Chu Lion: its own square for igui and the pass, enemies in red.
    e.send("variant chu");
    e.send("setboard 6k5/12/12/12/12/12/4p7/4N7/12/12/12/6K5 w 0 1");
    e.send("lift e5");
    let h = e.until(|l| l.starts_with("highlight "));
    let rows: Vec<&str> = h.last().unwrap()["highlight ".len()..].split('/').collect();
    // The pawn is the intermediate square of the Lion's double moves (C).
    assert_eq!(rows[6], "2YYCYY5", "{h:?}");
    assert_eq!(rows[7], "2YYCYY5", "{h:?}");
    // XBoard reports the chosen intermediate square with put and lift: the second legs
    // from e6 (e6 itself is the plain capture, e5 the return).
    e.send("put e6");
    e.send("lift e6");
    e.until(|l| l == "highlight 12/12/12/12/12/3YYY6/3YRY6/3YYY6/12/12/12/12");
    // put and hover are accepted silently; bad squares are errors.
    e.send("put e6");
    e.send("hover e6");
    e.send("lift");
    e.until(|l| l == "Error (not a square): lift ");
    e.send("put z99");
    e.until(|l| l == "Error (not a square): put z99");
    e.send("hover e13");
    e.until(|l| l == "Error (not a square): hover e13");
    e.send("lift é5");
    e.until(|l| l.starts_with("Error (not a square)"));
    e.send("ping 3");
    e.until(|l| l == "pong 3");
    e.quit();
}

#[test]
fn cecp_malformed_input_is_answered_and_the_engine_goes_on() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    for (bad, answer) in [
        ("variant courier-modern-x", "Error (unsupported variant)"),
        ("variant", "Error (unsupported variant)"),
        ("usermove", "Illegal move"),
        ("usermove e2e9", "Illegal move"),
        ("usermove e2", "Illegal move"),
        ("usermove a1a1a1a1a1,", "Illegal move"),
        ("usermove \u{1F600}", "Illegal move"),
        ("setboard 9/8/8/8/8/8/8/8 w - - 0 1", "Error (bad FEN"),
        ("sd -3", "Error (bad depth)"),
        ("st x", "Error (bad seconds)"),
        ("level 40", "Error (bad time control)"),
        ("memory 0", "Error (bad size)"),
        ("cores many", "Error (bad number)"),
        ("option Nonesuch=1", "Error (unknown option"),
        ("option Contempt=-501", "Error (Contempt must be -500..500)"),
        ("option Contempt=", "Error (Contempt must be -500..500)"),
        ("lift 99", "Error (not a square)"),
        ("frobnicate", "Error (unknown command)"),
    ] {
        e.send("new");
        e.send("force");
        e.send(bad);
        e.send("ping 7");
        let out = e.until(|l| l == "pong 7");
        assert!(out.iter().any(|l| l.starts_with(answer)), "{bad}: {out:?}");
    }
    // Still playing: a move is answered.
    e.send("new");
    e.send("sd 2");
    e.send("usermove e2e4");
    let out = e.until(|l| l.starts_with("move "));
    assert!(out.last().unwrap().len() >= 9, "{out:?}");
    e.quit();
}

#[test]
fn cecp_ponders_after_its_move_and_handles_hit_and_miss() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e.send("new");
    e.send("hard");
    e.send("st 1");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut played = vec!["e2e4".to_string()];
    e.send("usermove e2e4");
    let out = e.until(|l| l.starts_with("move "));
    played.push(out.last().unwrap()[5..].to_string());
    // Pondering: `hint` names the expected reply, `?` does not make the engine move.
    std::thread::sleep(Duration::from_millis(300));
    e.send("hint");
    let hint = e.until(|l| l.starts_with("Hint: "));
    let expected = hint.last().unwrap()[6..].to_string();
    assert!(
        legal_after("chess", start, &played).contains(&expected),
        "{hint:?}"
    );
    e.send("?");
    e.send("ping 1");
    let out = e.until(|l| l == "pong 1");
    assert!(!out.iter().any(|l| l.starts_with("move ")), "{out:?}");
    // A hit: the ponder search becomes the move search; it has already used its second.
    std::thread::sleep(Duration::from_millis(900));
    let asked = std::time::Instant::now();
    e.send(&format!("usermove {expected}"));
    played.push(expected);
    let out = e.until(|l| l.starts_with("move ") || l.starts_with("Illegal"));
    let answered = asked.elapsed();
    let reply = out
        .last()
        .unwrap()
        .strip_prefix("move ")
        .unwrap()
        .to_string();
    assert!(
        legal_after("chess", start, &played).contains(&reply),
        "{out:?}"
    );
    assert!(
        answered < Duration::from_millis(700),
        "a ponder hit took {answered:?}"
    );
    played.push(reply);
    // A miss: some other legal move; the engine searches anew and answers it.
    std::thread::sleep(Duration::from_millis(200));
    e.send("hint");
    e.send("ping 3");
    let hint = e.until(|l| l == "pong 3");
    let expected = hint
        .iter()
        .find_map(|l| l.strip_prefix("Hint: "))
        .unwrap_or("")
        .to_string();
    let legal = legal_after("chess", start, &played);
    let other = ["a2a3", "h2h3", "a2a4", "h2h4", "b1c3", "g1f3"]
        .into_iter()
        .map(str::to_string)
        .find(|m| *m != expected && legal.contains(m))
        .unwrap();
    e.send(&format!("usermove {other}"));
    played.push(other);
    let out = e.until(|l| l.starts_with("move ") || l.starts_with("Illegal"));
    let reply = out
        .last()
        .unwrap()
        .strip_prefix("move ")
        .unwrap()
        .to_string();
    assert!(
        legal_after("chess", start, &played).contains(&reply),
        "{out:?}"
    );
    // `easy` stops pondering: no hint is left; `quit` while pondering is prompt.
    e.send("easy");
    e.send("hint");
    e.send("ping 2");
    let out = e.until(|l| l == "pong 2");
    assert!(!out.iter().any(|l| l.starts_with("Hint")), "{out:?}");
    e.send("hard");
    e.send("force");
    e.send("go");
    e.until(|l| l.starts_with("move "));
    std::thread::sleep(Duration::from_millis(200));
    let asked = std::time::Instant::now();
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
    let took = asked.elapsed();
    assert!(
        took < Duration::from_millis(250),
        "quit while pondering took {took:?}"
    );
}

#[test]
fn cecp_game_ends_are_claimed() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    // The engine mates and says so (XBoard with legality testing off cannot know).
    e.send("new");
    e.send("setboard 7k/8/6K1/8/8/8/8/R7 w - - 0 1");
    e.send("sd 3");
    e.send("go");
    let out = e.until(|l| l.ends_with('}'));
    assert_eq!(out[out.len() - 2], "move a1a8", "{out:?}");
    assert_eq!(out.last().unwrap(), "1-0 {checkmate}");
    // Mated by the user's move, it claims instead of searching.
    e.send("new");
    e.send("force");
    e.send("setboard 7k/8/6K1/8/8/8/8/R7 w - - 0 1");
    e.send("playother");
    e.send("usermove a1a8");
    e.send("ping 1");
    let out = e.until(|l| l == "pong 1");
    assert_eq!(out, ["1-0 {checkmate}", "pong 1"]);
    // A move-rule draw is left to the GUI (counts differ between programs): no claim.
    e.send("new");
    e.send("setboard 7k/8/8/8/8/8/8/K5R1 w - - 99 80");
    e.send("go");
    e.until(|l| l.starts_with("move "));
    e.send("ping 2");
    let out = e.until(|l| l == "pong 2");
    assert_eq!(out, ["pong 2"]);
    // Sho: stalemate loses.
    e.send("variant sho");
    e.send("setboard 8k/6S2/7G1/9/9/9/9/9/K8 b 0 1");
    e.send("go");
    let out = e.until(|l| l.ends_with('}'));
    assert_eq!(out.last().unwrap(), "1-0 {stalemate}", "{out:?}");
    e.quit();
}

/// Tamerlane's special moves as the protocols carry them: the citadel exchange as two
/// comma legs, the King swap and the Pawn of Pawns' redeployment as from-to moves; ranks
/// 1-10 in UCI, 0-9 in CECP.
#[test]
fn tamerlane_special_moves_in_both_protocols() {
    const EXCHANGE: &str = "*11*/7r4*/*K10*/*11*/*11*/*3J1k5*/*11*/*11*/*12/*11* w SCsc - 0 1";
    const SWAP: &str = "*k10*/6r5*/*11*/*11*/*11*/*11*/*11*/*11*/*1N3K6/*10R* w SCsc - 0 1";
    const FORK: &str = "*P9r*/12*/*11*/*11*/*2n1n6*/*3N7*/*10k*/*11*/*5K6/*11* w SCsc - 0 1";
    const STUCK: &str = "*k10*/10R1*/*11*/*11*/*11*/*10p*/*10P*/*11*/*5K6/*1R9* b SCsc - 0 1";
    let cases = [
        (
            EXCHANGE,
            "b8a9,a9e5",
            "b7a8,a8e4",
            "*11*/J6r4*/*11*/*11*/*11*/*3K1k5*",
        ),
        (SWAP, "g2c2", "g1c1", "*1K3N6/*10R* b Csc"),
        (FORK, "b10e5", "b9e4", "*3P'7*/*10k*/*11*/*5K6/*11* b SCsc"),
    ];
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name UCI_Variant value tamerlane");
    e.until(|l| l.starts_with("info string"));
    for (fen, uci, _, after) in cases {
        e.send(&format!("position fen {fen} moves {uci}"));
        e.send("d");
        let out = e.until(|l| l.contains("to move"));
        assert!(out.iter().any(|l| l.contains(after)), "{uci}: {out:?}");
    }
    e.quit();

    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e.send("variant tamerlane");
    e.send("ping 1");
    let setup = e.until(|l| l == "pong 1");
    assert!(setup.iter().any(|l| l.starts_with("setup (")), "{setup:?}");
    for (i, (fen, _, cecp, _)) in cases.iter().enumerate() {
        e.send("force");
        e.send(&format!("setboard {fen}"));
        e.send(&format!("usermove {cecp}"));
        e.send(&format!("ping {}", i + 2));
        let out = e.until(|l| l.starts_with("pong"));
        assert!(
            !out.iter()
                .any(|l| l.contains("llegal") || l.contains("Error")),
            "{cecp}: {out:?}"
        );
    }
    // The engine plays the swap itself when it is the only move (Black stalemated but for
    // it), on the wire with ranks from 0.
    e.send(&format!("setboard {STUCK}"));
    e.send("sd 2");
    e.send("go");
    let out = e.until(|l| l.starts_with("move "));
    assert_eq!(out.last().unwrap(), "move b9l4", "{out:?}");
    e.quit();
}

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn uci_every_go_ends_with_a_bestmove() {
    let legal = legal_after("chess", CHESS_START, &[]);
    let mut e = Engine::uci();
    e.send("position startpos");
    for (go, error) in [
        ("go movetime abc", true),
        ("go wtime -100", true),
        ("go wtime -100 btime -100 winc 0 binc 0", true),
        ("go movetime -5", true),
        ("go depth -1", true),
        ("go depth", true),
        ("go depth wtime 100", true),
        ("go depth 2 sideways", true),
        ("go sideways", true),
        ("go 15", true),
        ("go nodes 1e6", true),
        ("go mate 0", true),
        ("go mate -2", true),
        ("go perft x", true),
        ("go movestogo 99999999999999999999999", true),
        // Only the other side's clock, or an increment alone: a short search.
        ("go btime 5000", false),
        ("go winc 100", false),
        ("go movetime 0", false),
        ("go wtime 0", false),
        ("go depth 0", false),
        ("go nodes 1", false),
        ("go depth 2 movestogo 0", false),
    ] {
        let asked = std::time::Instant::now();
        e.send(go);
        let out = e.until(|l| l.starts_with("bestmove"));
        let took = asked.elapsed();
        assert_eq!(
            out.iter().any(|l| l.starts_with("info string error: go")),
            error,
            "{go}: {out:?}"
        );
        assert!(legal.contains(&bestmove(&out)), "{go}: {out:?}");
        assert!(took < Duration::from_secs(3), "{go} took {took:?}");
    }
    e.quit();
}

#[test]
fn uci_a_rejected_position_changes_nothing() {
    let line: Vec<String> = ["e2e4", "e7e5", "g1f3"].map(String::from).to_vec();
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("d");
    let before = e.until(|l| l.contains("to move")).last().unwrap().clone();
    assert!(before.starts_with("Black to move"), "{before}");
    for bad in [
        "position startpos moves d2d4 d7d5 zzzz",
        "position startpos moves d2d4 d7d5 e1e3",
        "position startpos moves e2e4 e7e5 g1f3 e2e4",
        "position fen rnbqkbnr/pppppppp/8 w - - 0 1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2 e8e7 e2e4",
        "position fen",
        "position startpos e2e4",
        "position",
    ] {
        e.send(bad);
        e.send("d");
        let out = e.until(|l| l.contains("to move"));
        assert!(
            out.iter().any(
                |l| l.starts_with("info string error: ") && l.ends_with("; position unchanged")
            ),
            "{bad}: {out:?}"
        );
        assert_eq!(out.last().unwrap(), &before, "{bad}");
    }
    // The search sees the old position too.
    e.send("go depth 1");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert!(
        legal_after("chess", CHESS_START, &line).contains(&bestmove(&out)),
        "{out:?}"
    );
    e.quit();
}

#[test]
fn uci_the_variant_set_again_starts_over_with_its_rules() {
    // cutechess-cli and GUIs send the variant before every game: the one in use, named
    // again in any case, is set up at its start, and keeps the rules chosen for it.
    let fen = "S7/2S2M(S)2/8/4k1s1/6S1/3S4/8/K7[] w - - 0 30";
    let mut e = Engine::uci();
    e.send("setoption name UCI_Variant value littlegreat");
    e.send("setoption name VariantRules value spear_promotion=forced");
    e.send("position startpos");
    let board = |e: &mut Engine| -> Vec<String> {
        e.send("d");
        let out = e.until(|l| l.contains("to move"));
        out.into_iter().filter(|l| !l.starts_with("info")).collect()
    };
    let start = board(&mut e);
    e.send("go depth 1");
    let best = bestmove(&e.until(|l| l.starts_with("bestmove")));
    e.send(&format!("position startpos moves {best}"));
    assert_ne!(board(&mut e), start);
    e.send("setoption name UCI_Variant value LittleGreat");
    let info = e.until(|l| l.starts_with("info string"));
    assert!(
        info.last()
            .unwrap()
            .starts_with("info string variant LittleGreat rules spear_promotion=forced "),
        "{info:?}"
    );
    assert_eq!(board(&mut e), start);
    e.send(&format!("position fen {fen}"));
    e.send("go perft 1");
    let out = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(out.last().unwrap(), "Nodes searched: 31", "{out:?}");
    e.quit();
}

#[test]
fn uci_searchmoves_and_mate() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go depth 4 searchmoves a2a3 h2h3 e7e5 a2a3");
    let out = e.until(|l| l.starts_with("bestmove"));
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 1, "{out:?}");
    assert!(errors[0].contains("e7e5"), "{out:?}");
    assert!(
        ["a2a3", "h2h3"].contains(&bestmove(&out).as_str()),
        "{out:?}"
    );
    for l in out.iter().filter(|l| l.starts_with("info depth")) {
        let first = l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap();
        assert!(["a2a3", "h2h3"].contains(&first), "{l}");
    }
    // No legal move left: all are searched.
    e.send("go searchmoves e7e5 zz depth 2");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert!(
        out.iter().any(|l| l.ends_with("searching all moves")),
        "{out:?}"
    );
    assert!(legal_after("chess", CHESS_START, &[]).contains(&bestmove(&out)));
    // A back-rank mate in one: `go mate` finds it and ends by itself.
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    for go in ["go mate 1", "go mate 3"] {
        e.send(go);
        let out = e.until(|l| l.starts_with("bestmove"));
        assert_eq!(bestmove(&out), "d1d8", "{go}: {out:?}");
        assert!(out.iter().any(|l| l.contains(" score mate 1 ")), "{out:?}");
    }
    // searchmoves without the mate: the move listed is played.
    e.send("go mate 1 searchmoves g1f1");
    let out = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&out), "g1f1", "{out:?}");
    e.quit();
}

#[test]
fn uci_ponder_and_infinite_wait_for_ponderhit_or_stop() {
    let mut e = Engine::uci();
    e.send("position startpos moves e2e4");
    for (go, release) in [
        ("go ponder depth 2", "ponderhit"),
        ("go ponder depth 2", "stop"),
        ("go infinite depth 2", "stop"),
        ("go ponder nodes 500", "ponderhit"),
        ("go infinite nodes 500", "stop"),
    ] {
        e.send(go);
        if go.contains("depth") {
            // The search has ended by its limit.
            e.until(|l| l.starts_with("info depth 2 "));
        } else {
            std::thread::sleep(Duration::from_millis(100));
        }
        let out = e.ready();
        assert!(
            !out.iter().any(|l| l.starts_with("bestmove")),
            "{go}: {out:?}"
        );
        let asked = std::time::Instant::now();
        e.send(release);
        e.until(|l| l.starts_with("bestmove"));
        assert!(
            asked.elapsed() < Duration::from_millis(500),
            "{go} then {release}: {:?}",
            asked.elapsed()
        );
    }
    // Pondering with a clock: the clock counts after the ponder hit.
    e.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(400));
    let out = e.ready();
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    let asked = std::time::Instant::now();
    e.send("ponderhit");
    e.until(|l| l.starts_with("bestmove"));
    assert!(asked.elapsed() < Duration::from_millis(500));
    // Mated: the verdict at once, the bestmove only after stop.
    e.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go infinite");
    let out = e.ready();
    assert!(
        out.contains(&"info depth 0 score mate 0".to_string()),
        "{out:?}"
    );
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    e.send("stop");
    e.until(|l| l == "bestmove (none)");
    e.quit();
}

#[test]
fn uci_perft_runs_on_the_search_thread() {
    let mut e = Engine::uci();
    e.send("position startpos");
    e.send("go perft 9");
    let asked = std::time::Instant::now();
    let out = e.ready();
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    assert!(!out.iter().any(|l| l.starts_with("Nodes")), "{out:?}");
    let asked = std::time::Instant::now();
    e.send("stop");
    e.until(|l| l == "info string perft stopped");
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    e.send("go perft 2");
    let out = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(out.last().unwrap(), "Nodes searched: 400");
    assert_eq!(out.iter().filter(|l| l.ends_with(": 20")).count(), 20);
    e.send("go perft 99");
    e.until(|l| l.contains("capped at"));
    let asked = std::time::Instant::now();
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
}

#[test]
fn uci_positions_without_a_move() {
    let mut e = Engine::uci();
    for (variant, fen, score) in [
        ("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "mate 0"),
        ("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "cp 0"),
        // Courier: stalemate loses.
        (
            "courier",
            "k1W9/p11/P1K9/12/12/12/12/12 b - - 0 1",
            "mate 0",
        ),
    ] {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send(&format!("position fen {fen}"));
        e.send("go depth 3");
        let out = e.until(|l| l.starts_with("bestmove"));
        let depths: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth")).collect();
        assert_eq!(depths, [&format!("info depth 0 score {score}")], "{fen}");
        assert_eq!(out.last().unwrap(), "bestmove (none)");
    }
    e.quit();
}

/// The engine with its address space limited to about 240 MiB.
fn start_in_little_memory() -> Engine {
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        "ulimit -v 250000 && exec \"$0\"",
        env!("CARGO_BIN_EXE_kirin"),
    ])
    // One malloc arena: every thread's reserving its own would eat the limit.
    .env("MALLOC_ARENA_MAX", "1");
    Engine::start_command(cmd)
}

#[test]
fn hash_beyond_the_memory_is_cut_down_and_said() {
    let mut e = start_in_little_memory();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name Hash value 65536");
    let out = e.ready();
    let said = out
        .iter()
        .find(|l| l.starts_with("info string Hash: got "))
        .unwrap_or_else(|| panic!("{out:?}"));
    assert!(said.ends_with(" MiB of 65536 asked"), "{said}");
    e.send("position startpos");
    e.send("go depth 3");
    e.until(|l| l.starts_with("bestmove"));
    e.send("setoption name Hash value 8");
    assert_eq!(e.ready(), ["readyok"]);
    e.quit();

    let mut e = start_in_little_memory();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e.send("memory 65536");
    e.send("ping 1");
    let out = e.until(|l| l == "pong 1");
    assert!(
        out.iter()
            .any(|l| l.starts_with("# memory: got ") && l.ends_with(" MiB of 65536 asked")),
        "{out:?}"
    );
    e.send("new");
    e.send("sd 2");
    e.send("usermove e2e4");
    e.until(|l| l.starts_with("move "));
    e.quit();
}

#[test]
fn cecp_pong_follows_the_move() {
    let mut e = Engine::xboard();
    // Told to move now, then pinged: the move comes first.
    e.send("new");
    e.send("st 30");
    e.send("usermove e2e4");
    e.send("?");
    e.send("ping 1");
    let out = e.until(|l| l == "pong 1");
    assert!(out[out.len() - 2].starts_with("move "), "{out:?}");
    // Pinged while thinking: the same.
    e.send("new");
    e.send("st 0.3");
    e.send("usermove e2e4");
    e.send("ping 2");
    let out = e.until(|l| l == "pong 2");
    assert!(out[out.len() - 2].starts_with("move "), "{out:?}");
    // A search called off: the pong comes without a move.
    e.send("new");
    e.send("st 30");
    e.send("usermove d2d4");
    e.send("ping 3");
    e.send("force");
    let out = e.until(|l| l == "pong 3");
    assert!(!out.iter().any(|l| l.starts_with("move ")), "{out:?}");
    // Analysis does not hold a pong back.
    e.send("analyze");
    e.send("ping 4");
    let out = e.until(|l| l == "pong 4");
    assert!(!out.iter().any(|l| l.starts_with("move ")), "{out:?}");
    e.send("exit");
    e.quit();
}

/// A variant kirin plays but cannot describe to XBoard (a promoted piece without a base).
const UNDESCRIBABLE: &str = r#"[[variant]]
name = "zedchess"
inherits = "chess"
  [[variant.piece]]
  name = "zed"
  letter = "+z"
  betza = "K"
"#;

#[test]
fn cecp_a_variant_answered_with_an_error_changes_nothing() {
    let dir = std::env::temp_dir().join(format!("kirin-proto-zed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("zed.toml");
    std::fs::write(&file, UNDESCRIBABLE).unwrap();
    let mut e = Engine::start_with(&["--variants-file", file.to_str().unwrap()]);
    e.send("xboard");
    e.send("protover 2");
    let f = e.until(|l| l.contains("done=1"));
    assert!(advertised(&f).contains(&"zedchess".to_string()), "{f:?}");
    e.send("new");
    e.send("force");
    e.send("usermove e2e4");
    for bad in ["variant zedchess", "variant nonesuch"] {
        e.send(bad);
        e.send("ping 1");
        let out = e.until(|l| l == "pong 1");
        assert!(
            out.iter()
                .any(|l| l.starts_with("Error (") && l.ends_with(bad)),
            "{out:?}"
        );
        assert!(!out.iter().any(|l| l.starts_with("setup")), "{out:?}");
    }
    // Still chess after 1. e4.
    e.send("usermove e7e5");
    e.send("sd 2");
    e.send("go");
    let out = e.until(|l| l.starts_with("move ") || l.starts_with("Illegal"));
    let reply = out
        .last()
        .unwrap()
        .strip_prefix("move ")
        .unwrap()
        .to_string();
    let played = ["e2e4", "e7e5"].map(String::from);
    assert!(
        legal_after("chess", CHESS_START, &played).contains(&reply),
        "{out:?}"
    );
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cecp_new_right_after_variant_is_pointed_out() {
    let warning =
        "telluser kirin: 'new' resets the variant to normal chess; send 'variant NAME' after 'new'";
    let mut e = Engine::xboard();
    e.send("variant courier");
    e.send("new");
    e.send("ping 1");
    let out = e.until(|l| l == "pong 1");
    assert!(out.contains(&warning.to_string()), "{out:?}");
    // XBoard's order, or anything between: no warning.
    e.send("new");
    e.send("variant courier");
    e.send("force");
    e.send("new");
    e.send("variant normal");
    e.send("new");
    e.send("ping 2");
    let out = e.until(|l| l == "pong 2");
    assert!(!out.iter().any(|l| l.starts_with("telluser")), "{out:?}");
    e.quit();
}

#[test]
fn lines_that_are_not_utf8_or_too_long_are_answered() {
    let mut long = vec![b'a'; (1 << 20) + 10];
    long.push(b'\n');
    // Before a protocol.
    let mut e = Engine::start();
    e.send_bytes(b"\xff\xfeuci\n");
    e.until(|l| l.contains("input is not UTF-8"));
    e.send_bytes(&long);
    e.until(|l| l.contains("longer than"));
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send_bytes(b"position startpos moves e2e4 \xe9\n");
    e.until(|l| l.starts_with("info string error: input is not UTF-8"));
    e.send_bytes(&long);
    e.until(|l| l.starts_with("info string error: input line of 1048586 bytes"));
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    let out = e.until(|l| l.starts_with("bestmove"));
    let played = ["e2e4".to_string()];
    assert!(legal_after("chess", CHESS_START, &played).contains(&bestmove(&out)));
    e.quit();

    let mut e = Engine::xboard();
    e.send_bytes(b"usermove e2e4\xff\n");
    e.until(|l| l.starts_with("Error (not UTF-8): usermove e2e4"));
    e.send_bytes(&long);
    e.until(|l| l.starts_with("Error (line of 1048586 bytes"));
    e.send("ping 1");
    e.until(|l| l == "pong 1");
    e.quit();
}

/// Every progress line names a move: no `pv` without one, no CECP line without a PV.
#[test]
fn a_long_search_says_it_is_alive_every_second() {
    let mut e = Engine::uci();
    e.send("setoption name UCI_Variant value chu");
    e.send("position startpos");
    e.send("go movetime 2600");
    let out = e.until(|l| l.starts_with("bestmove"));
    let alive: Vec<&String> = out.iter().filter(|l| l.contains(" currmove ")).collect();
    assert!(!alive.is_empty(), "no currmove line in 2.6 s: {out:?}");
    for l in alive {
        let words: Vec<&str> = l.split_whitespace().collect();
        let at = |w: &str| words.iter().position(|x| *x == w).map(|i| words[i + 1]);
        assert!(at("currmove").is_some_and(|m| m.len() >= 4), "{l}");
        assert!(
            at("currmovenumber").is_some_and(|n| n.parse::<u32>().is_ok()),
            "{l}"
        );
        assert!(
            at("time").is_some_and(|t| t.parse::<u64>().unwrap() >= 900),
            "{l}"
        );
    }
    e.quit();
}

#[test]
fn progress_lines_carry_a_move() {
    let mut e = Engine::uci();
    for variant in ["chess", "courier", "chu", "sho"] {
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send("position startpos");
        for go in [
            "go depth 4",
            "go movetime 1",
            "go nodes 1500",
            "go movetime 30",
        ] {
            e.send(go);
            let out = e.until(|l| l.starts_with("bestmove"));
            for l in out
                .iter()
                .filter(|l| l.starts_with("info depth") && !l.contains(" currmove "))
            {
                let pv = l.split(" pv ").nth(1).unwrap_or("");
                assert!(!pv.trim().is_empty(), "{variant} {go}: {l}");
            }
        }
    }
    e.quit();

    let mut e = Engine::xboard();
    e.send("new");
    e.send("post");
    e.send("force");
    for sd in ["sd 1", "sd 4"] {
        e.send(sd);
        e.send("go");
        let out = e.until(|l| l.starts_with("move "));
        for l in out
            .iter()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        {
            assert!(l.split_whitespace().count() >= 5, "{sd}: {l}");
        }
        e.send("force");
    }
    e.send("st 0.01");
    e.send("go");
    let out = e.until(|l| l.starts_with("move "));
    for l in out
        .iter()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
    {
        assert!(l.split_whitespace().count() >= 5, "{l}");
    }
    e.quit();
}

#[test]
fn uci_stop_ponderhit_and_ucinewgame_without_a_search() {
    let mut e = Engine::uci();
    e.send("stop");
    assert_eq!(e.ready(), ["readyok"]);
    e.send("ponderhit");
    let out = e.ready();
    assert!(out[0].starts_with("info string ponderhit"), "{out:?}");
    e.send("ucinewgame");
    e.send("ucinewgame");
    assert_eq!(e.ready(), ["readyok"]);
    e.send("position startpos");
    e.send("go depth 3");
    e.until(|l| l.starts_with("bestmove"));
    // After the bestmove: nothing more to say.
    e.send("stop");
    e.send("stop");
    assert_eq!(e.ready(), ["readyok"]);
    e.send("ponderhit");
    let out = e.ready();
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    e.quit();
}
