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
    // The same moves in SAN, as kirin's PGN files write them, mixed with coordinates.
    let count = |moves: &str| {
        let (code, out, err) = kirin(&[
            "perft",
            "--variant",
            "courier",
            "--start",
            "xboard",
            "--moves",
            moves,
            "--depth",
            "2",
        ]);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .find(|l| l.starts_with("Nodes searched"))
            .map(str::to_string)
            .expect("a node line")
    };
    assert_eq!(count("Ea3 Ee6 Ec1 Nj6"), count("c1a3 c8e6 a3c1 k8j6"));
    assert_eq!(count("c1a3 Ee6 a3c1 Nj6"), count("c1a3 c8e6 a3c1 k8j6"));
    let (_, out, _) = kirin(&["perft", "--variant", "sho", "--depth", "2", "--full"]);
    assert!(out.contains("Nodes searched: 676"), "{out}");
}

#[test]
fn bad_input_gives_a_clear_error_and_no_panic() {
    // The tuner's scale must be a number above 0 (checked before any data is read).
    let bad_scales = ["0", "1e-400", "NaN", "inf"].map(|k| {
        vec![
            "tune",
            "--variant",
            "courier",
            "--data",
            "none.txt",
            "--k",
            k,
        ]
    });
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
    ]
    .into_iter()
    .chain(bad_scales)
    {
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

/// Runs kirin, reads the first line of its output and closes the pipe, as `| head -1`
/// does; returns the line, the exit code and standard error.
fn first_line_then_close(args: &[&str]) -> (String, i32, String) {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kirin"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kirin runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (line, status.code().unwrap_or(-1), err)
}

#[test]
fn a_closed_pipe_ends_output_quietly() {
    for args in [
        vec!["analyse", "--variant", "chess", "--depth", "30"],
        vec!["bench"],
    ] {
        let (line, code, err) = first_line_then_close(&args);
        assert!(!line.is_empty(), "{args:?}");
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn thread_hash_and_depth_bounds_are_checked() {
    for args in [
        vec!["analyse", "--threads", "40000", "--depth", "1"],
        vec!["analyse", "--threads", "0", "--depth", "1"],
        vec!["perft", "--threads", "20000", "--depth", "1"],
        vec!["bench", "--threads", "0"],
        vec!["analyse", "--hash", "0", "--depth", "1"],
        vec!["analyse", "--hash", "65537", "--depth", "1"],
        vec!["bench", "--depth-offset", "2147483647"],
        vec!["bench", "--depth-offset", "-2147483648"],
    ] {
        let (code, out, err) = kirin(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("--"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn the_largest_hash_never_aborts() {
    // More than the process may have (its address space limited to about 240 MiB): the
    // table is halved until it fits instead of aborting, and the user is told.
    let out = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 250000 && exec \"$0\" analyse --variant chess --hash 65536 --depth 2",
            env!("CARGO_BIN_EXE_kirin"),
        ])
        .env("MALLOC_ARENA_MAX", "1")
        .output()
        .expect("kirin runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("MiB of the 65536 MiB asked"), "{text}");
    assert!(text.contains("best move"), "{text}");
}

#[test]
fn definitions_that_cannot_work_are_refused() {
    for rule in [
        "castling_king_steps=0",
        "castling_king_steps=7",
        "castling_king_steps=2147483648",
        "castling_king_steps=4294967295",
    ] {
        let (code, _, err) = kirin(&[
            "perft",
            "--variant",
            "chess",
            "--rule",
            rule,
            "--depth",
            "1",
        ]);
        assert_eq!(code, 2, "{rule}: {err}");
        assert!(err.contains("castling_king_steps"), "{rule}: {err}");
        assert!(!err.contains("panicked"), "{rule}: {err}");
    }
    let dir = std::env::temp_dir().join(format!("kirin-castles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("castles.toml");
    std::fs::write(
        &file,
        "[[variant]]\nname = \"selfcastle\"\ninherits = \"chess\"\n  [[variant.piece]]\n  name = \"king\"\n  letter = \"k\"\n  betza = \"K\"\n  royal = true\n  castles = true\n",
    )
    .unwrap();
    let (code, _, err) = kirin(&[
        "--variants-file",
        file.to_str().unwrap(),
        "perft",
        "--variant",
        "selfcastle",
        "--depth",
        "1",
    ]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("castling partner"), "{err}");
}

#[test]
fn quiescence_stays_small_with_many_promoting_captures() {
    // Every pawn of both sides can take and promote: without a bound on quiescence
    // depth 1 took 18.7M nodes.
    let (code, out, err) = kirin(&[
        "analyse",
        "--variant",
        "sho",
        "--fen",
        "LNSGKGSNL/1R2E2B1/PPPPPPPPP/9/9/9/ppppppppp/1b2e2r1/lnsgkgs1l w - - 0 1",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    let nodes: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("best move "))
        .and_then(|l| l.split(", ").nth(1))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {out}"));
    assert!(nodes < 1_000_000, "{nodes} nodes at depth 1");
}

#[test]
fn analyse_tells_mate_from_stalemate_and_explains_the_letters() {
    let (_, out, _) = kirin(&[
        "analyse",
        "--variant",
        "chess",
        "--fen",
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    ]);
    assert!(
        out.contains("checkmate") && out.contains("Black wins"),
        "{out}"
    );
    let (_, out, _) = kirin(&[
        "analyse",
        "--variant",
        "chess",
        "--fen",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ]);
    assert!(out.contains("stalemate") && out.contains("a draw"), "{out}");
    let (_, out, _) = kirin(&["analyse", "--variant", "chu", "--depth", "1"]);
    assert!(out.contains("N lion") && out.contains("O kirin"), "{out}");
}

#[test]
fn every_command_plays_the_same_default_game_and_names_match_in_any_case() {
    let (_, out, _) = kirin(&["perft", "--depth", "1"]);
    assert!(out.contains("Nodes searched: 36"), "chu's start: {out}");
    let (code, out, _) = kirin(&["perft", "--variant", "Chu", "--depth", "1"]);
    assert_eq!(code, 0);
    assert!(out.contains("Nodes searched: 36"), "{out}");
    let (code, _, err) = kirin(&["perft", "--variant", "courier-modern", "--depth", "1"]);
    assert_eq!(code, 0, "the old name still works: {err}");
    let (_, out, _) = kirin(&["--help"]);
    assert!(out.contains("UCI") && out.contains("xboard"), "{out}");
}

#[test]
fn sudden_death_games_are_not_lost_on_time() {
    // A short sudden-death clock used to run down until a move's own overhead flagged it
    // (35 of 98 runs at 2+0, 1+0 and 0.5+0.01); the reserve is never spent.
    let (code, out, err) = kirin(&[
        "selfplay",
        "--variant",
        "chess",
        "--games",
        "3",
        "--tc",
        "0.3+0",
        "--seed",
        "5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("game ").count(), 3, "{out}");
    assert!(!out.contains("time forfeit"), "{out}");
    assert!(out.contains("clocks: White"), "{out}");
}

#[test]
fn a_position_too_crowded_for_a_move_list_is_refused() {
    // Sixty Lions once overflowed the move list and aborted the engine; a board of
    // them is still more than a list holds.
    let fen = format!("{}5K4k1 w - - 0 1", "NNNNNNNNNNNN/".repeat(11));
    let (code, _, err) = kirin(&["perft", "--variant", "chu", "--fen", &fen, "--depth", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("too many pieces"), "{err}");
}

#[test]
fn en_passant_false_means_no_en_passant() {
    // After e2e4 a7a6 e4e5 f7f5, White may take on f6 in chess, not without en passant.
    let moves = "e2e4 a7a6 e4e5 f7f5";
    let (_, out, _) = kirin(&[
        "perft",
        "--variant",
        "chess",
        "--moves",
        moves,
        "--depth",
        "1",
    ]);
    assert!(out.contains("Nodes searched: 31"), "{out}");
    let (code, out, err) = kirin(&[
        "perft",
        "--variant",
        "chess",
        "--rule",
        "en_passant=false",
        "--moves",
        moves,
        "--depth",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Nodes searched: 30"), "{out}");
}

#[test]
fn definition_keys_that_would_do_nothing_are_refused() {
    let (code, _, err) = kirin(&[
        "perft",
        "--variant",
        "courier",
        "--rule",
        "okazaki=true",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("lion-trading"), "{err}");
    let (code, _, err) = kirin(&[
        "perft",
        "--variant",
        "courier",
        "--rule",
        "castling=true",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("castles = true"), "{err}");
    let (code, _, err) = kirin(&[
        "perft",
        "--variant",
        "chu",
        "--rule",
        "okazaki=true",
        "--depth",
        "1",
    ]);
    assert_eq!(code, 0, "Chu has the Lion-trading rules: {err}");
}

#[test]
fn label_writes_long_data_block_by_block_in_order() {
    // More lines than one block (2 000): the second block's lines follow the first's, in
    // the order read, each with its own result.
    let dir = std::env::temp_dir().join(format!("kirin-label-blocks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (data, out) = (dir.join("data.txt"), dir.join("out.txt"));
    let lines = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t0.5\t0",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1\t1\t0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1\t0\t0",
    ];
    let many: Vec<&str> = lines.iter().cycle().take(2_101).copied().collect();
    std::fs::write(&data, many.join("\n") + "\n").unwrap();
    let judge = format!("cmd={}", env!("CARGO_BIN_EXE_kirin"));
    let (code, _, err) = kirin(&[
        "label",
        "--variant",
        "chess",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--jobs",
        "2",
        "--engine",
        &judge,
        "depth=1",
    ]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(&out).unwrap();
    let got: Vec<&str> = written.lines().collect();
    assert_eq!(got.len(), many.len(), "{err}");
    for (i, (line, given)) in got.iter().zip(&many).enumerate() {
        let kept = |l: &str| l.rsplit_once('\t').unwrap().0.to_string();
        assert_eq!(kept(line), kept(given), "line {}", i + 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn label_rescores_positions_with_a_judge_from_whites_view() {
    let dir = std::env::temp_dir().join(format!("kirin-label-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    // The start; White a Queen up with Black to move; Black a Queen up with White to
    // move; White to move and mate in one (Ra8), which the judge scores as a mate and
    // which is left out.
    let lines = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\t0.5\t0",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1\t1\t0",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1\t0\t0",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\t1\t0",
    ];
    std::fs::write(&data, lines.join("\n") + "\n").unwrap();
    let judge = format!("cmd={}", env!("CARGO_BIN_EXE_kirin"));
    let data_arg = data.to_str().unwrap();
    let args = [
        "label",
        "--variant",
        "chess",
        "--data",
        data_arg,
        "--jobs",
        "2",
        "--engine",
        &judge,
        "depth=4",
    ];
    let (code, out, err) = kirin(&args);
    assert_eq!(code, 0, "{err}");
    let got: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(got.len(), 3, "the mate is left out: {out}");
    for (line, fields) in lines.iter().zip(&got) {
        let given: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields[..2], given[..2], "FEN and result kept: {out}");
    }
    let score = |i: usize| got[i][2].parse::<i32>().unwrap();
    assert!(score(0).abs() < 100, "the start is level: {out}");
    assert!(score(1) > 500, "White's Queen, Black to move: {out}");
    assert!(score(2) < -500, "Black's Queen, White to move: {out}");
    assert!(err.contains("3 of 4 positions scored"), "{err}");

    let (code, _, err) = kirin(&[
        "label",
        "--variant",
        "chess",
        "--data",
        data_arg,
        "--engine",
        &judge,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs a limit"), "{err}");
    std::fs::write(
        &data,
        format!("{}\n{}\n", lines[0], lines[1].replace("\t1\t", "\t2\t")),
    )
    .unwrap();
    let (code, _, err) = kirin(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("data.txt:2: result '2'"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn eval_prints_the_terms_and_their_total() {
    let fen = "5r1w3r/1p1nb1k1p1p1/e2p2fe1pbn/p1pPm1Fp3p/P1P1P1pP3P/1PN1M1B1PP2/R6N1KP1/2EB2W2E1R b - - 3 30";
    let (code, out, err) = kirin(&["eval", "--variant", "courier", "--fen", fen]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().any(|l| l.starts_with("knight ")), "{out}");
    // The rows, each rounded to a tenth, add up to the total within their rounding.
    let sums: f64 = out
        .lines()
        .skip_while(|l| !l.starts_with("piece "))
        .skip(1)
        .take_while(|l| !l.starts_with("total "))
        .map(|l| l.rsplit(' ').next().unwrap().parse::<f64>().unwrap())
        .sum();
    let total_line = out
        .lines()
        .find(|l| l.starts_with("total "))
        .expect("a total");
    let total: f64 = total_line.split(' ').nth(1).unwrap().parse().unwrap();
    assert!((sums - total).abs() < 2.0, "{sums} against {total}\n{out}");
    // Black to move: the White's view is the total negated.
    assert!(
        total_line.contains("for Black")
            && total_line.contains(&format!("({} for White)", -total as i32))
    );
    let (code, _, err) = kirin(&["eval", "--variant", "courier", "--fen", "not a fen"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("kirin: "), "{err}");
}
