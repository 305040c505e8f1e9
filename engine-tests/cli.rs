//! Drives the built `kirin` binary: perft output format and error handling.

use std::process::Command;

fn kirin(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kirin"))
        .args(args)
        .output()
        .expect("kirin runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_divide_prints_moves_then_the_node_line() {
    let (code, out, _) = kirin(&["perft", "--variant", "courier", "--depth", "2", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    let moves: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains(": ") && l.starts_with(|c: char| c.is_ascii_lowercase()))
        .collect();
    assert_eq!(moves.len(), 26);
    let sum: u64 = moves
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 678);
    assert!(lines.contains(&"Nodes searched: 678"));
    assert!(out.contains("nodes per second"));
}

#[test]
fn perft_threads_and_named_start_and_moves() {
    let (_, out, _) = kirin(&[
        "perft",
        "--variant",
        "courier",
        "--start",
        "xboard",
        "--depth",
        "3",
        "--threads",
        "2",
    ]);
    assert!(out.contains("Nodes searched: 8500"), "{out}");
    let (_, out, _) = kirin(&[
        "perft",
        "--variant",
        "chess",
        "--moves",
        "e2e4 e7e5",
        "--depth",
        "1",
    ]);
    assert!(out.contains("Nodes searched: 29"), "{out}");
    let (_, out, _) = kirin(&["perft", "--variant", "sho", "--depth", "2", "--full"]);
    assert!(out.contains("Nodes searched: 676"), "{out}");
}

#[test]
fn bad_input_gives_a_clear_error_and_no_panic() {
    for args in [
        vec!["perft", "--variant", "nonesuch", "--depth", "1"],
        vec![
            "perft",
            "--variant",
            "chess",
            "--fen",
            "rnbqkbnr/pppppppp/8/8 w - - 0 1",
            "--depth",
            "1",
        ],
        vec![
            "perft",
            "--variant",
            "chess",
            "--fen",
            "xyz",
            "--depth",
            "1",
        ],
        vec!["perft", "--variant", "chess", "--fen", "", "--depth", "1"],
        vec![
            "perft",
            "--variant",
            "chess",
            "--moves",
            "e2e5",
            "--depth",
            "1",
        ],
        vec![
            "perft",
            "--variant",
            "courier",
            "--start",
            "nonesuch",
            "--depth",
            "1",
        ],
    ] {
        let (code, _, err) = kirin(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("kirin: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_users_variants_file_can_inherit_a_builtin_game() {
    let dir = std::env::temp_dir().join(format!("kirin-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mine.toml");
    std::fs::write(
        &file,
        "[[variant]]\nname = \"nocastle\"\ninherits = \"chess\"\ncastling = false\nstart = \"r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1\"\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let (code, out, err) = kirin(&[
        "--variants-file",
        path,
        "perft",
        "--variant",
        "nocastle",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Nodes searched: 24"), "{out}");
    std::fs::write(&file, "[[variant]]\nname = \"bad\"\nboard = \"20x20\"\n").unwrap();
    let (code, _, err) = kirin(&["--variants-file", path, "variants"]);
    assert_eq!(code, 2);
    assert!(err.contains("mine.toml") && err.contains("bad"), "{err}");
    let (code, _, err) = kirin(&["--variants-file", "/nonexistent/x.toml", "variants"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn rules_can_be_replaced_from_the_command_line() {
    let (code, out, err) = kirin(&[
        "perft",
        "--variant",
        "chu",
        "--rule",
        "okazaki=true",
        "--depth",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Nodes searched: 1296"), "{out}");
    // Duodecimal with promotion to any type: the pawn on j11 is no longer blocked
    // (7 promotions each to j12 and by capture on i12).
    let fen = "1ru2kqfb2U/1pppcp1p1P1p/p1n8n/1U2p1p2p2/12/12/12/12/1P6P3/6P4P/P2PPPKB1PP1/RN1BC1QF2NR w - - 0 14";
    let (_, out, _) = kirin(&[
        "perft",
        "--variant",
        "duodecimal",
        "--fen",
        fen,
        "--depth",
        "1",
    ]);
    assert!(out.contains("Nodes searched: 67"), "{out}");
    let (code, out, _) = kirin(&[
        "perft",
        "--variant",
        "duodecimal",
        "--rule",
        "promotion_limit=none",
        "--fen",
        fen,
        "--depth",
        "1",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("Nodes searched: 81"), "{out}");
    for bad in ["nonsense", "wings=2", "promotion=sideways", "stalemate=\"x"] {
        let (code, _, err) = kirin(&["perft", "--variant", "chu", "--rule", bad, "--depth", "1"]);
        assert_eq!(code, 2, "{bad}");
        assert!(
            err.starts_with("kirin: ") && !err.contains("panicked"),
            "{bad}: {err}"
        );
    }
}
