//! `kirin match` as a referee: a scripted fake engine (engine-tests/support/fake-engine.py)
//! plays legal moves from a list, then an illegal one, or hangs, crashes, overruns its
//! clock, resigns or claims a result, and each decision of the referee is checked in the
//! PGN it writes. Also kirin against itself over UCI and CECP, shards merged back into
//! one match, and an SPRT that stops the match by itself.

use std::process::Command;
use std::time::Instant;

const FAKE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/engine-tests/support/fake-engine.py"
);
const KIRIN: &str = env!("CARGO_BIN_EXE_kirin");

/// An `-engine` option's words for the fake engine with these actions.
fn fake(name: &str, proto: &str, actions: &str) -> Vec<String> {
    vec![
        "-engine".into(),
        format!("cmd=python3 {FAKE} {proto} {actions}"),
        format!("name={name}"),
        format!("proto={proto}"),
    ]
}

struct Run {
    code: i32,
    out: String,
    pgn: String,
    seconds: f64,
}

/// Runs `kirin match` with these words and a fresh PGN file.
fn run_match(words: &[String]) -> Run {
    let dir = std::env::temp_dir().join(format!(
        "kirin-arena-{}-{}",
        std::process::id(),
        words.len() * 7919 + words.iter().map(|w| w.len()).sum::<usize>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join(format!("{}.pgn", rand_suffix()));
    let _ = std::fs::remove_file(&pgn);
    let started = Instant::now();
    let out = Command::new(KIRIN)
        .arg("match")
        .args(words)
        .arg("-pgnout")
        .arg(&pgn)
        .output()
        .expect("kirin runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr),
        pgn: std::fs::read_to_string(&pgn).unwrap_or_default(),
        seconds: started.elapsed().as_secs_f64(),
    }
}

fn rand_suffix() -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    format!(
        "{}-{}",
        N.fetch_add(1, Ordering::Relaxed),
        std::process::id()
    )
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// A one-game chess match between two fakes, with extra options.
fn duel(white: &str, black: &str, proto: &str, extra: &str) -> Run {
    let mut w = fake("W", proto, white);
    w.extend(fake("B", proto, black));
    w.extend(words(extra));
    run_match(&w)
}

fn tag<'a>(pgn: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("[{name} \"");
    pgn.lines()
        .find_map(|l| l.strip_prefix(start.as_str()))
        .map(|rest| rest.trim_end_matches("\"]"))
}

fn assert_result(run: &Run, result: &str, termination: &str, reason: &str) {
    assert_eq!(
        tag(&run.pgn, "Result"),
        Some(result),
        "{}\n{}",
        run.out,
        run.pgn
    );
    assert_eq!(
        tag(&run.pgn, "Termination"),
        Some(termination),
        "{}\n{}",
        run.out,
        run.pgn
    );
    assert!(
        run.pgn.contains(reason),
        "no '{reason}' in\n{}\n{}",
        run.pgn,
        run.out
    );
}

#[test]
fn a_mate_ends_the_game_by_the_rules() {
    let run = duel("f2f3 g2g4", "e7e5 d8h4", "uci", "-each tc=10+0");
    assert_eq!(run.code, 0, "{}", run.out);
    assert_result(&run, "0-1", "normal", "{Black mates}");
    assert_eq!(tag(&run.pgn, "PlyCount"), Some("4"));
    assert!(run.pgn.contains("1. f3"), "moves in SAN: {}", run.pgn);
    assert!(
        run.out.contains("Score of W vs B: 0 - 1 - 0"),
        "{}",
        run.out
    );
}

#[test]
fn an_illegal_move_forfeits_and_names_the_position() {
    let run = duel("e2e4 e1e3", "e7e5", "uci", "-each tc=10+0");
    assert_result(
        &run,
        "0-1",
        "rules infraction",
        "White makes an illegal move: e1e3",
    );
    assert!(
        run.pgn
            .contains("position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq"),
        "{}",
        run.pgn
    );
}

#[test]
fn overrunning_the_clock_loses_on_time_even_with_a_move() {
    let run = duel("e2e4 sleep:1300:d2d4", "e7e5 d7d5", "uci", "-each tc=1+0");
    assert_result(&run, "0-1", "time forfeit", "White loses on time");
}

#[test]
fn a_hung_engine_loses_when_its_flag_falls_and_the_match_goes_on() {
    let mut w = fake("Hang", "uci", "hang");
    w.extend(fake("Mover", "uci", "e2e4"));
    // No -recover: a time loss does not stop a match (a crash or a stall does).
    w.extend(words("-each tc=0.5+0 -games 2"));
    let run = run_match(&w);
    assert_eq!(run.code, 0, "{}", run.out);
    // Game 1: Hang has White and hangs; game 2: Mover plays e4 and Hang hangs as Black.
    assert_eq!(
        run.pgn.matches("[Termination \"time forfeit\"]").count(),
        2,
        "{}",
        run.pgn
    );
    assert!(
        run.out.contains("Score of Hang vs Mover: 0 - 2 - 0"),
        "{}",
        run.out
    );
    assert!(run.seconds < 20.0, "took {} s", run.seconds);
}

#[test]
fn silence_without_a_clock_stalls_and_stops_the_match_without_recover() {
    let mut w = fake("Hang", "uci", "hang");
    w.extend(fake("Mover", "uci", "e2e4"));
    w.extend(words("-each depth=3 timeout=0.5 -games 2"));
    let run = run_match(&w);
    assert_ne!(run.code, 0, "{}", run.out);
    assert!(run.out.contains("-recover"), "{}", run.out);
    assert_eq!(
        tag(&run.pgn, "Termination"),
        Some("stalled connection"),
        "{}",
        run.pgn
    );
    assert_eq!(
        run.pgn.matches("[Event").count(),
        1,
        "one game only: {}",
        run.pgn
    );
}

#[test]
fn a_crash_is_a_disconnection() {
    let run = duel("e2e4 crash", "e7e5 d7d5", "uci", "-each tc=10+0 -recover");
    assert_result(&run, "0-1", "abandoned", "White disconnects");
}

#[test]
fn a_false_claim_forfeits_and_a_claimed_own_loss_is_a_resignation() {
    let run = duel("e2e4 claim:1-0", "e7e5 d7d5", "xboard", "-each tc=10+0");
    assert_result(
        &run,
        "0-1",
        "rules infraction",
        "White makes an invalid result claim: 1-0",
    );
    let run = duel("e2e4", "claim:1-0", "xboard", "-each tc=10+0");
    assert_result(&run, "1-0", "normal", "Black resigns");
    let run = duel("e2e4 d2d4", "e7e5 resign", "xboard", "-each tc=10+0");
    assert_result(&run, "1-0", "normal", "Black resigns");
}

#[test]
fn a_move_the_engine_has_not_got_is_a_forfeit_over_uci() {
    let run = duel("resign", "e7e5", "uci", "-each tc=10+0");
    assert_result(&run, "0-1", "rules infraction", "bestmove (none)");
}

#[test]
fn adjudication_by_score_and_by_length() {
    let run = duel(
        "e2e4@-600 d2d4@-700",
        "e7e5@600 d7d5@650",
        "uci",
        "-each tc=10+0 -resign movecount=2 score=500",
    );
    assert_result(&run, "0-1", "adjudication", "Black wins by adjudication");
    let run = duel(
        "e2e4@5 d2d4@0 g1f3@3",
        "e7e5@-2 d7d5@0 g8f6@1",
        "uci",
        "-each tc=10+0 -draw movenumber=1 movecount=2 score=10",
    );
    assert_result(&run, "1/2-1/2", "adjudication", "Draw by adjudication");
    let run = duel("e2e4 d2d4", "e7e5 d7d5", "uci", "-each tc=10+0 -maxmoves 1");
    assert_result(&run, "1/2-1/2", "adjudication", "maximum moves");
}

#[test]
fn kirin_plays_kirin_over_both_protocols_in_courier() {
    let w = vec![
        "-variant".to_string(),
        "courier".into(),
        "-engine".into(),
        format!("cmd={KIRIN}"),
        "name=kirin-uci".into(),
        "-engine".into(),
        format!("cmd={KIRIN}"),
        "name=kirin-cecp".into(),
        "proto=xboard".into(),
        "option.XBoard start positions=false".into(),
        "option.Claim only mate and stalemate=false".into(),
        "-each".into(),
        "tc=2+0.05".into(),
        "-games".into(),
        "2".into(),
        "-maxmoves".into(),
        "30".into(),
    ];
    let run = run_match(&w);
    assert_eq!(run.code, 0, "{}", run.out);
    assert_eq!(
        run.pgn.matches("[Variant \"courier\"]").count(),
        2,
        "{}",
        run.pgn
    );
    for t in ["time forfeit", "rules infraction", "abandoned", "stalled"] {
        assert!(!run.pgn.contains(t), "{t} in {}", run.pgn);
    }
}

#[test]
fn shards_merge_into_the_whole_match() {
    let base = |shard: &str| {
        let mut w = fake("A", "uci", "f2f3 g2g4");
        w.extend(fake("B", "uci", "e7e5 d8h4"));
        w.extend(words(&format!("-each tc=10+0 -games 6 -repeat {shard}")));
        run_match(&w)
    };
    let whole = base("");
    let one = base("-shard 1/2");
    let two = base("-shard 2/2");
    assert_eq!(
        one.pgn.matches("[Event").count() + two.pgn.matches("[Event").count(),
        6
    );
    let dir = std::env::temp_dir();
    let (a, b) = (
        dir.join(format!("{}.pgn", rand_suffix())),
        dir.join(format!("{}.pgn", rand_suffix())),
    );
    std::fs::write(&a, &one.pgn).unwrap();
    std::fs::write(&b, &two.pgn).unwrap();
    let merged = Command::new(KIRIN)
        .args(["match", "--merge"])
        .arg(&a)
        .arg(&b)
        .args(["-repeat", "-sprt", "elo0=0", "elo1=10"])
        .output()
        .unwrap();
    let merged = String::from_utf8_lossy(&merged.stdout);
    let score = |text: &str| {
        text.lines()
            .rev()
            .find(|l| l.starts_with("Score of"))
            .map(str::to_string)
    };
    assert_eq!(score(&merged), score(&whole.out), "{merged}\n{}", whole.out);
    assert!(merged.contains("Ptnml(0-2)"), "{merged}");
}

#[test]
fn an_sprt_stops_the_match_by_itself() {
    let mut w = vec![
        "-engine".to_string(),
        format!("cmd={KIRIN}"),
        "name=kirin".into(),
    ];
    w.extend(fake("Blunder", "uci", "a1a1"));
    w.extend(words(
        "-each st=0.02 timemargin=200 -games 1000 -repeat -sprt elo0=0 elo1=50 alpha=0.05 beta=0.05 -ratinginterval 0",
    ));
    let run = run_match(&w);
    assert_eq!(run.code, 0, "{}", run.out);
    assert!(run.out.contains("H1 was accepted"), "{}", run.out);
    let games = run.pgn.matches("[Event").count();
    assert!(games < 200, "{games} games");
}

/// A fresh file for an engine's standard error, and its lines once read.
fn stderr_file() -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("kirin-arena-stderr-{}.txt", rand_suffix()));
    let _ = std::fs::remove_file(&path);
    path
}

fn lines_of(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_kept_process_plays_on_with_its_options_cycled_between_games() {
    let (kept, fresh) = (stderr_file(), stderr_file());
    let mut w = fake("Kept", "uci", "f2f3 g2g4 f2f3 g2g4 f2f3 g2g4");
    w.extend([
        "restart=off".to_string(),
        "cycle.Hash=1,16,64".into(),
        "cycle.Threads=1,2".into(),
        format!("stderr={}", kept.display()),
    ]);
    w.extend(fake("Fresh", "uci", "e7e5 d8h4"));
    w.push(format!("stderr={}", fresh.display()));
    w.extend(words("-each tc=10+0 -games 3 -noswap"));
    let run = run_match(&w);
    assert_eq!(run.code, 0, "{}", run.out);
    assert_eq!(run.pgn.matches("{Black mates}").count(), 3, "{}", run.pgn);
    // One process for the three games, told the next values before each.
    assert_eq!(
        lines_of(&kept),
        [
            "started",
            "setoption name Hash value 1",
            "setoption name Threads value 1",
            "setoption name Hash value 16",
            "setoption name Threads value 2",
            "setoption name Hash value 64",
            "setoption name Threads value 1",
        ]
    );
    // restart=on (the default): a new process for every game.
    let started = lines_of(&fresh).iter().filter(|l| *l == "started").count();
    assert_eq!(started, 3);
    let white_options: Vec<&str> = run
        .pgn
        .lines()
        .filter_map(|l| l.strip_prefix("[WhiteOptions \""))
        .collect();
    assert_eq!(
        white_options,
        [
            "Hash=1 Threads=1\"]",
            "Hash=16 Threads=2\"]",
            "Hash=64 Threads=1\"]"
        ]
    );
    assert!(!run.pgn.contains("BlackOptions"), "{}", run.pgn);
}

#[test]
fn cecp_memory_and_cores_are_its_own_commands_and_a_time_loss_restarts_the_loser() {
    let (mover, sleeper) = (stderr_file(), stderr_file());
    let mut w = fake("Mover", "xboard", "f2f3 f2f3");
    w.extend([
        "cycle.memory=8,32".to_string(),
        "cycle.cores=2".into(),
        format!("stderr={}", mover.display()),
    ]);
    w.extend(fake("Sleeper", "xboard", "sleep:1300:e7e5"));
    w.push(format!("stderr={}", sleeper.display()));
    w.extend(words("-each tc=1+0 restart=off -games 2 -noswap"));
    let run = run_match(&w);
    assert_eq!(run.code, 0, "{}", run.out);
    assert_eq!(
        run.pgn.matches("[Termination \"time forfeit\"]").count(),
        2,
        "{}",
        run.pgn
    );
    // The memory given before each game is the cycled one (not kirin match's 64).
    assert_eq!(
        lines_of(&mover),
        ["started", "cores 2", "memory 8", "cores 2", "memory 32"]
    );
    // The engine that lost on time is replaced for the next game, restart=off or not.
    let started = lines_of(&sleeper)
        .iter()
        .filter(|l| *l == "started")
        .count();
    assert_eq!(started, 2);
}

#[test]
fn a_cycled_option_the_engine_lacks_stops_the_match() {
    let mut w = fake("A", "uci", "e2e4");
    w.push("cycle.Contempt=0,10".into());
    w.extend(fake("B", "uci", "e7e5"));
    w.extend(words("-each tc=10+0 -games 2"));
    let run = run_match(&w);
    assert_ne!(run.code, 0, "{}", run.out);
    assert!(run.pgn.contains("has no option 'Contempt'"), "{}", run.pgn);
}

/// kirin over USI against kirin over UCI in `variant`, with `extra` options: both games
/// end in order (no forfeit of any kind), and the PGN says so.
fn kirin_usi_against_uci(variant: &str, extra: &str) -> Run {
    let mut w = words(&format!(
        "-variant {variant} -engine cmd={KIRIN} name=kirin-usi proto=usi \
         -engine cmd={KIRIN} name=kirin-uci proto=uci -games 2 -maxmoves 24"
    ));
    w.extend(words(extra));
    let run = run_match(&w);
    assert_eq!(run.code, 0, "{}", run.out);
    assert_eq!(
        run.pgn.matches(&format!("[Variant \"{variant}\"]")).count(),
        2,
        "{}",
        run.pgn
    );
    for t in ["time forfeit", "rules infraction", "abandoned", "stalled"] {
        assert!(!run.pgn.contains(t), "{t} in {}", run.pgn);
    }
    run
}

#[test]
fn kirin_plays_kirin_over_usi_and_uci_in_sho() {
    kirin_usi_against_uci("sho", "-each tc=2+0.05");
}

/// From a position not the start (an EPD opening), so that the USI side is sent
/// `position sfen`; Chu's Lion moves of two legs go over USI as three squares.
#[test]
fn kirin_plays_kirin_over_usi_and_uci_in_chu_from_an_opening() {
    let dir = std::env::temp_dir().join(format!("kirin-usi-chu-{}", rand_suffix()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("chu.epd");
    let out = Command::new(KIRIN)
        .args([
            "openings",
            "--variant",
            "chu",
            "--count",
            "1",
            "--seed",
            "7",
        ])
        .args(["--depth", "2", "--output"])
        .arg(&epd)
        .output()
        .expect("kirin openings runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = kirin_usi_against_uci(
        "chu",
        &format!(
            "-each depth=2 -openings file={} format=epd -repeat",
            epd.display()
        ),
    );
    assert_eq!(run.pgn.matches("[SetUp \"1\"]").count(), 2, "{}", run.pgn);
}

/// A game SFEN cannot carry (chess: castling, en passant) is refused before any game.
#[test]
fn a_usi_engine_in_a_game_sfen_cannot_carry_is_refused() {
    let run = run_match(&words(&format!(
        "-variant chess -engine cmd={KIRIN} name=kirin-usi proto=usi \
         -engine cmd={KIRIN} name=kirin-uci -each depth=1 -games 1"
    )));
    assert_ne!(run.code, 0, "{}", run.out);
    assert!(
        run.out.contains("kirin-usi cannot play over USI") && run.out.contains("castling"),
        "{}",
        run.out
    );
    assert!(!run.out.contains("Finished game"), "{}", run.out);
}
