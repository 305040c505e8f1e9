//! Drops over the protocols, against the built binary: the made-up `drophouse` game of
//! `test-games/model.toml` (Crazyhouse-like reserves) loaded with `--variants-file`. Under
//! CECP the `setup` line gives XBoard its holdings size and the FEN its `[...]` holdings,
//! drops go both ways as `P@e5`; under UCI a line of moves with a drop is searched.

#[path = "support/engine.rs"]
mod engine;

use engine::{Engine, bestmove};
use kirin::protocol::session::Session;
use kirin::variants::load_file;
use kirin::with_width;
use std::path::PathBuf;

fn model_file() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests/test-games/model.toml")
        .to_string_lossy()
        .into_owned()
}

/// True when `text` is a legal move of drophouse after `moves` from `fen`.
fn legal_after(fen: &str, moves: &[&str], text: &str) -> bool {
    let (_, specs) = load_file(std::path::Path::new(&model_file())).unwrap();
    let spec = specs.iter().find(|s| s.name == "drophouse").unwrap();
    let mut session = Session::new(spec).unwrap();
    with_width!(&mut session, s => {
        s.set_line(Some(fen), moves).unwrap();
        s.parse(text).is_ok()
    })
}

const IN_HAND: &str = "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w - - 0 1";

#[test]
fn cecp_sets_up_holdings_and_passes_drops() {
    let file = model_file();
    let mut e = Engine::xboard_with(&["--variants-file", &file]);
    e.send("variant drophouse");
    e.send("ping 1");
    let out = e.until(|l| l == "pong 1");
    // Five kinds in hand (P N B R Q, the first five slots XBoard numbers), and the FEN's
    // empty holdings.
    assert_eq!(
        out[0],
        "setup (PNBRQKpnbrqk) 8x8+5_fairy rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1",
        "{out:?}"
    );
    e.send(&format!("setboard {IN_HAND}"));
    e.send("force");
    e.send("usermove P@e5");
    // Black's drop, as a person might type it.
    e.send("usermove p@d6");
    e.send("ping 2");
    let out = e.until(|l| l == "pong 2");
    assert!(
        !out.iter()
            .any(|l| l.contains("rror") || l.starts_with("Illegal")),
        "{out:?}"
    );
    // The reserve is empty now: a second White pawn drop is refused.
    e.send("usermove P@e4");
    e.until(|l| l.starts_with("Illegal move") && l.ends_with("P@e4"));
    // The engine answers with a legal move; with a Queen in hand, a drop is one of them.
    e.send("sd 2");
    e.send("go");
    let out = e.until(|l| l.starts_with("move "));
    let reply = out.last().unwrap()["move ".len()..].to_string();
    assert!(legal_after(IN_HAND, &["P@e5", "p@d6"], &reply), "{reply}");
    e.send("new");
    e.send("variant drophouse");
    e.send("setboard 4k3/8/8/8/8/8/8/4K3[Qq] w - - 0 1");
    e.send("sd 2");
    e.send("go");
    let out = e.until(|l| l.starts_with("move "));
    let reply = out.last().unwrap();
    assert!(reply.starts_with("move Q@"), "{out:?}");
    e.quit();
}

#[test]
fn uci_plays_and_searches_after_a_drop() {
    let file = model_file();
    let mut e = Engine::start_with(&["--variants-file", &file]);
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name UCI_Variant value drophouse");
    e.send(&format!("position fen {IN_HAND} moves P@e5"));
    e.send("go depth 2");
    let out = e.until(|l| l.starts_with("bestmove"));
    let best = bestmove(&out);
    assert!(legal_after(IN_HAND, &["P@e5"], &best), "{out:?}");
    e.quit();
}
