//! `kirin datagen`: training positions for the tuner, from games of the engine against
//! itself at a small fixed node count per move.
//!
//! Each game starts from the variant's start position with a few random whole turns (so
//! that games differ), and is dropped if the search already finds it lopsided. Then both
//! sides play the searched move until the game ends by the variant's rules, by the
//! no-progress limit, by the length limit (a draw), or by adjudication: a mate or
//! rule-win score, or a score beyond `--adjudicate` for eight plies in a row. A position
//! is written only when it is quiet, so that its static evaluation is what its outcome
//! is about: not in check, and the searched turn neither captures nor promotes; the
//! opening turns are skipped (they are all alike). One line per position:
//! `FEN <tab> result <tab> score`, the result (1, 0.5, 0) and the searched score (cp)
//! both from White's view.

use crate::arena::pgn::{parse_pgn, replay};
use crate::core::{Move, WHITE};
use crate::eval::Eval;
use crate::rules::{Game, MoveList, Position};
use crate::search::limits::Limits;
use crate::search::tt::Table;
use crate::search::{self, Context, RULE_WIN};
use crate::variants::AnyGame;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

#[derive(clap::Args)]
#[command(
    after_help = "Writes one line per quiet position of the games: FEN, a tab, the game's \
    result from White's view (1, 0.5 or 0), a tab, and the searched score in centipawns from \
    White's view. Read by `kirin tune --data FILE` (docs/tuning.md)."
)]
pub struct DatagenArgs {
    #[command(flatten)]
    pub game: crate::cli_search::GameArgs,
    /// Games to start (a game dropped for a lopsided opening counts).
    #[arg(long, required_unless_present = "pgn")]
    pub games: Option<usize>,
    /// Play no game: write the quiet positions of the finished games of this PGN file
    /// (as `kirin match -pgnout` writes them) instead, each scored by kirin's static
    /// evaluation, for `kirin label` to score anew (docs/tuning.md).
    #[arg(long, conflicts_with_all = ["games", "time", "threads"])]
    pub pgn: Option<std::path::PathBuf>,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Seed of the random openings (the same seed gives the same games on one thread).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// Games played at once, each on its own thread with a one-thread search.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Random turns at the start of a game: at least...
    #[arg(long, default_value_t = 4)]
    pub random_min: usize,
    /// ...and at most.
    #[arg(long, default_value_t = 8)]
    pub random_max: usize,
    /// Drop a game whose score after the random turns is beyond this (cp).
    #[arg(long, default_value_t = 300)]
    pub lopsided: i32,
    /// Turns from the start whose positions are not written.
    #[arg(long, default_value_t = 12)]
    pub skip: usize,
    /// Adjudicate a win when the score stays beyond this for eight plies (cp; 0: never).
    #[arg(long, default_value_t = 1500)]
    pub adjudicate: i32,
    /// Turns after which a game is a draw.
    #[arg(long, default_value_t = 500)]
    pub max_turns: usize,
    /// Start no new game after this many seconds (the games under way are finished and
    /// written): a time budget instead of a game count.
    #[arg(long)]
    pub time: Option<u64>,
}

/// What one game needs to know, taken from the arguments.
#[derive(Clone, Debug)]
pub struct Config {
    pub nodes: u64,
    pub random: (usize, usize),
    pub lopsided: i32,
    pub skip: usize,
    pub adjudicate: i32,
    pub max_turns: usize,
    /// Plies without a capture or pawn move that draw, when the game has no move rule.
    pub no_progress: u32,
}

impl Config {
    fn of(args: &DatagenArgs) -> Result<Config, String> {
        if args.random_min > args.random_max {
            return Err("--random-min is more than --random-max".into());
        }
        Ok(Config {
            nodes: args.nodes,
            random: (args.random_min, args.random_max),
            lopsided: args.lopsided,
            skip: args.skip,
            adjudicate: args.adjudicate,
            max_turns: args.max_turns,
            no_progress: 200,
        })
    }
}

/// A written position: FEN and the searched score from White's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub fen: String,
    pub score: i32,
}

/// A game's quiet positions and its result from White's view (1, 0.5, 0).
#[derive(Clone, Debug)]
pub struct GameSamples {
    pub samples: Vec<Sample>,
    pub result: f64,
}

/// Plies in a row beyond `--adjudicate` that decide a game.
const ADJUDICATE_PLIES: usize = 8;

/// `kirin datagen`.
pub fn run(game: &AnyGame, args: &DatagenArgs) -> Result<(), String> {
    let config = Config::of(args)?;
    let mut out: Box<dyn Write + Send> = match &args.out {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        )),
        None => Box::new(std::io::stdout()),
    };
    if let Some(path) = &args.pgn {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let lines = crate::with_width!(game, g => {
            let start = crate::cli_search::setup(g, None, None, None)?;
            pgn_positions(g, &start, &text, args.skip)
        })?;
        out.write_all(lines.concat().as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write: {e}"))?;
        eprintln!(
            "kirin: datagen: {} positions of {}",
            lines.len(),
            path.display()
        );
        return Ok(());
    }
    let games = args.games.unwrap_or(0);
    let out = Mutex::new(out);
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (played, dropped, positions) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    );
    let failure = Mutex::new(None::<String>);
    crate::with_width!(game, g => {
        let start = crate::cli_search::setup(g, None, None, None)?;
        std::thread::scope(|s| {
            for _ in 0..args.threads {
                let worker = || {
                    let eval = Eval::new(g);
                    let tt = Table::new(16);
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let out_of_time = args
                            .time
                            .is_some_and(|t| started.elapsed().as_secs() >= t);
                        if i >= games
                            || out_of_time
                            || failure.lock().expect("unpoisoned").is_some()
                        {
                            break;
                        }
                        let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(i as u64));
                        let Some(record) = play_game(g, &eval, &tt, &start, &config, &mut rng) else {
                            dropped.fetch_add(1, Ordering::Relaxed);
                            continue;
                        };
                        let text: String = record.samples.iter()
                            .map(|s| format!("{}\t{}\t{}\n", s.fen, record.result, s.score))
                            .collect();
                        if let Err(e) = out.lock().expect("unpoisoned").write_all(text.as_bytes()) {
                            *failure.lock().expect("unpoisoned") = Some(format!("cannot write: {e}"));
                            break;
                        }
                        let n = positions.fetch_add(record.samples.len(), Ordering::Relaxed)
                            + record.samples.len();
                        let done = played.fetch_add(1, Ordering::Relaxed) + 1;
                        if done % 50 == 0 {
                            eprintln!(
                                "kirin: datagen {}: {done} games, {n} positions, {:.0} s",
                                g.spec.name,
                                started.elapsed().as_secs_f64()
                            );
                        }
                    }
                };
                // A search needs a larger stack than a new thread gets.
                std::thread::Builder::new()
                    .stack_size(16 << 20)
                    .spawn_scoped(s, worker)
                    .map_err(|e| format!("cannot start a datagen thread: {e}"))?;
            }
            Ok::<(), String>(())
        })?;
        Ok::<(), String>(())
    })?;
    if let Some(e) = failure.into_inner().expect("unpoisoned") {
        return Err(e);
    }
    out.into_inner()
        .expect("unpoisoned")
        .flush()
        .map_err(|e| format!("cannot write: {e}"))?;
    eprintln!(
        "kirin: datagen: {} games ({} lopsided openings dropped), {} positions, {:.1} s",
        played.into_inner(),
        dropped.into_inner(),
        positions.into_inner(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Plays one game from `start` (see the module's comment); `None` if its random opening
/// ended the game or left it lopsided.
pub fn play_game<const W: usize>(
    game: &Game<W>,
    eval: &Eval,
    tt: &Table,
    start: &Position<W>,
    config: &Config,
    rng: &mut ChaCha8Rng,
) -> Option<GameSamples> {
    let mut pos = start.clone();
    let random = rng.gen_range(config.random.0..=config.random.1);
    for _ in 0..random {
        if game.outcome(&mut pos).is_some() {
            return None;
        }
        random_turn(game, &mut pos, rng)?;
    }
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Default::default()
    };
    let no_progress = if game.spec.move_rule > 0 {
        u32::MAX
    } else {
        config.no_progress
    };
    let mut samples = Vec::new();
    let mut turns = random;
    let mut decided = 0usize;
    let result = loop {
        if let Some(o) = game.outcome(&mut pos) {
            break white_result(o.verdict, pos.side == WHITE);
        }
        if turns >= config.max_turns || pos.halfmove >= no_progress {
            break 0.5;
        }
        // A fresh stop flag for every search: a finished search leaves its flag set.
        let stop = AtomicBool::new(false);
        let ctx = Context {
            game,
            eval,
            tt,
            stop: &stop,
            memory: None,
        };
        let r = search::search(&ctx, &pos, &limits, 1, &mut |_| {});
        r.best?;
        let white = if pos.side == WHITE { r.score } else { -r.score };
        if turns == random && white.abs() > config.lopsided {
            return None;
        }
        // A mate or a win by a rule that the search has found decides the game.
        if white.abs() >= RULE_WIN {
            break if white > 0 { 1.0 } else { 0.0 };
        }
        decided = if config.adjudicate > 0 && white.abs() >= config.adjudicate {
            decided + 1
        } else {
            0
        };
        if decided >= ADJUDICATE_PLIES {
            break if white > 0 { 1.0 } else { 0.0 };
        }
        if turns >= config.skip && !game.in_check(&pos) && is_quiet(game, &pos, &r.turn) {
            samples.push(Sample {
                fen: pos.to_fen(game),
                score: white,
            });
        }
        for &m in &r.turn {
            pos.make(game, m);
        }
        turns += 1;
    };
    Some(GameSamples { samples, result })
}

/// The quiet positions (as `play_game` writes them: past the first `skip` turns, not in
/// check, the turn played from them neither capturing nor promoting) of the finished
/// games of a PGN text, one datagen line each, scored by the static evaluation.
pub fn pgn_positions<const W: usize>(
    game: &Game<W>,
    start: &Position<W>,
    text: &str,
    skip: usize,
) -> Result<Vec<String>, String> {
    let eval = Eval::new(game);
    let start_fen = start.to_fen(game);
    let mut lines = Vec::new();
    for pgn in parse_pgn(text).map_err(|e| e.to_string())? {
        // The parser has put the Result tag's there if the movetext ended without one.
        let result = match pgn.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            _ => continue,
        };
        let (mut pos, turns) = replay(game, &pgn, &start_fen).map_err(|e| e.to_string())?;
        for (i, turn) in turns.iter().enumerate() {
            if i >= skip && !game.in_check(&pos) && is_quiet(game, &pos, turn) {
                let score = eval.evaluate(game, &pos);
                let white = if pos.side == WHITE { score } else { -score };
                lines.push(format!("{}\t{result}\t{white}\n", pos.to_fen(game)));
            }
            for &m in turn {
                pos.make(game, m);
            }
        }
    }
    Ok(lines)
}

/// A game's result from White's view, from the verdict for the side to move.
fn white_result(verdict: crate::rules::spec::Verdict, white_to_move: bool) -> f64 {
    use crate::rules::spec::Verdict;
    match verdict {
        Verdict::Draw => 0.5,
        Verdict::Win if white_to_move => 1.0,
        Verdict::Loss if !white_to_move => 1.0,
        _ => 0.0,
    }
}

/// Plays one random whole turn (every action of it); `None` if there was no legal move.
fn random_turn<const W: usize>(
    game: &Game<W>,
    pos: &mut Position<W>,
    rng: &mut ChaCha8Rng,
) -> Option<()> {
    loop {
        let mut list = MoveList::new();
        game.game_moves(pos, &mut list);
        if list.is_empty() {
            return None;
        }
        pos.make(game, list[rng.gen_range(0..list.len())]);
        if !game.turn_in_progress(pos) {
            return Some(());
        }
    }
}

/// Whether `turn` takes nothing and promotes nothing: the opponent has as many pieces on
/// the board afterwards, and no action names a promotion. (Measured on the board rather
/// than by move kind, so that every game's captures count: a Lion's double capture, a
/// capture on the way of a multi-leg move, a ransom.)
fn is_quiet<const W: usize>(game: &Game<W>, pos: &Position<W>, turn: &[Move]) -> bool {
    if turn.iter().any(|m| m.promotes_to().is_some()) {
        return false;
    }
    let them = pos.side.opposite();
    let before = pos.by_color[them].count();
    let mut after = pos.clone();
    for &m in turn {
        after.make(game, m);
    }
    after.by_color[them].count() >= before
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            nodes: 300,
            random: (2, 4),
            lopsided: 300,
            skip: 2,
            adjudicate: 1500,
            max_turns: 40,
            no_progress: 200,
        }
    }

    #[test]
    fn a_pgn_gives_its_quiet_positions_with_the_result() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => {
            let start = Position::from_fen(g, &g.spec.start).unwrap();
            let text = "[Event \"?\"]\n[Result \"1-0\"]\n\n1. Rl3 El6 2. Kg2 Ej8 1-0\n\n\
                        [Event \"?\"]\n[Result \"*\"]\n\n1. Rl3 *\n";
            let lines = pgn_positions(g, &start, text, 1).unwrap();
            // The unfinished game gives nothing; the first turn is skipped.
            assert_eq!(lines.len(), 3, "{lines:?}");
            let first = Position::from_fen(g, lines[0].split('\t').next().unwrap()).unwrap();
            assert_eq!(first.side, crate::core::BLACK);
            assert!(lines.iter().all(|l| l.split('\t').nth(1) == Some("1")), "{lines:?}");
            assert!(pgn_positions(g, &start, "1. Zz9 1-0", 0).is_err());
        });
    }

    #[test]
    fn games_give_quiet_positions_that_read_back() {
        for name in ["chess", "courier", "littlegreat"] {
            let any = AnyGame::builtin(name).unwrap();
            crate::with_width!(&any, g => {
                let eval = Eval::new(g);
                let tt = Table::new(1);
                let start = Position::from_fen(g, &g.spec.start).unwrap();
                let mut total = 0;
                for seed in 0..3 {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let Some(r) = play_game(g, &eval, &tt, &start, &config(), &mut rng) else {
                        continue;
                    };
                    assert!([0.0, 0.5, 1.0].contains(&r.result), "{name}: {}", r.result);
                    for s in &r.samples {
                        let mut pos = Position::from_fen(g, &s.fen)
                            .unwrap_or_else(|e| panic!("{name}: {}: {e}", s.fen));
                        assert!(!g.in_check(&pos), "{name}: in check: {}", s.fen);
                        assert!(g.outcome(&mut pos).is_none(), "{name}: over: {}", s.fen);
                        assert!(s.score.abs() < RULE_WIN);
                    }
                    total += r.samples.len();
                }
                assert!(total > 0, "{name}: no positions");
            });
        }
    }
}
