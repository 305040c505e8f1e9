//! `kirin label`: scores the positions of a `kirin datagen` file anew with another engine,
//! the judge, so that `kirin tune` can fit kirin's evaluation to a stronger engine's
//! opinion rather than to kirin's own.
//!
//! Each position is sent to the judge as a start position (a FEN, an SFEN over USI, an
//! XBoard FEN over CECP) and searched to the limit its `--engine` words give (`depth=`,
//! `nodes=` or `st=`); the last score the judge reported replaces the line's score, turned
//! to White's view. The FEN and the game's result are kept as they are. A position the
//! judge calls a mate is left out (its score is no number of centipawns, and the result
//! already says who wins), as is one for which it reported no score. Several judges may
//! run at once (`--jobs`), each scoring every n-th line; the lines are written in the
//! order they were read, a block at a time (`BLOCK`), so that a run stopped part way
//! keeps what it had scored.

use super::data::{self, DataError};
use crate::arena::engine::{EngineError, History, Player, Reply, Score, position_text};
use crate::arena::options::{self, EngineConfig, Protocol};
use crate::core::{BLACK, WHITE};
use crate::rules::Game;
use crate::variants::AnyGame;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;
use thiserror::Error;

#[derive(clap::Args)]
#[command(
    after_help = "Reads `kirin datagen`'s lines (FEN, result, score, apart by tabs) and writes \
    them again with the judge's score in centipawns from White's view. Example: `kirin label \
    --variant courier --data c.txt --out c-judged.txt --jobs 2 --engine \
    cmd=fairy-stockfish depth=8` (docs/tuning.md)."
)]
pub struct LabelArgs {
    #[command(flatten)]
    pub game: crate::cli_search::GameArgs,
    /// Positions written by `kirin datagen`.
    #[arg(long)]
    pub data: PathBuf,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The judge, in the words of `kirin match -engine`: `cmd=PROGRAM`, one limit
    /// (`depth=N`, `nodes=N` or `st=SECONDS`), and any of `proto=`, `option.NAME=VALUE`,
    /// `variant=`, `initstr=`, `timeout=`.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., required = true)]
    pub engine: Vec<String>,
    /// Judges run at once, each a process of its own scoring its share of the lines.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
}

/// Why the positions could not be labelled.
#[derive(Debug, Error)]
pub enum LabelError {
    #[error("--engine: {0}")]
    Engine(#[from] options::OptionError),
    #[error("--engine: the judge needs a limit for each position: depth=N, nodes=N or st=SECONDS")]
    NoLimit,
    #[error("--engine: the judge is given no clock (tc=); give it depth=, nodes= or st=")]
    Clock,
    #[error("the judge cannot be told this game over USI: {0}")]
    Usi(String),
    #[error(transparent)]
    Data(#[from] DataError),
    #[error("the judge: {0}")]
    Start(EngineError),
    #[error("the judge, at line {line} of the data: {source}")]
    Judge { line: usize, source: EngineError },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

/// One line of the data: its text as read, and the position as the judge is told it.
struct Entry {
    fen: String,
    result: String,
    /// The position in the judge's protocol (FEN, XBoard FEN or SFEN).
    judged_as: String,
    white_to_move: bool,
}

/// Runs `kirin label`.
pub fn run(any: &AnyGame, args: &LabelArgs) -> Result<(), String> {
    crate::with_width!(any, g => label(g, args).map_err(|e| e.to_string()))
}

fn label<const W: usize>(game: &Game<W>, args: &LabelArgs) -> Result<(), LabelError> {
    let judge = judge_config(&args.engine)?;
    if judge.protocol == Protocol::Usi {
        game.sfen_support()
            .map_err(|e| LabelError::Usi(e.to_string()))?;
    }
    let started = Instant::now();
    let entries = read_entries(game, &judge, &args.data)?;
    let variant = judge
        .variant
        .clone()
        .unwrap_or_else(|| game.spec.name.clone());
    let mut out = Output::open(args.out.as_ref())?;
    let progress = Progress {
        done: AtomicUsize::new(0),
        total: entries.len(),
    };
    let mut scored = 0;
    for (b, block) in entries.chunks(BLOCK).enumerate() {
        let first = b * BLOCK;
        let scores = judge_all(
            &judge,
            &variant,
            block,
            first,
            &progress,
            args.jobs as usize,
        )?;
        let mut text = String::new();
        for (entry, score) in block.iter().zip(&scores) {
            if let Some(cp) = score {
                text += &format!("{}\t{}\t{cp}\n", entry.fen, entry.result);
                scored += 1;
            }
        }
        out.write(&text)?;
    }
    eprintln!(
        "kirin: label {}: {scored} of {} positions scored, {} left out (mate or no score), {:.1} s",
        game.spec.name,
        entries.len(),
        entries.len() - scored,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The judge's configuration: `kirin match`'s engine words, with a limit a position and
/// no clock.
fn judge_config(words: &[String]) -> Result<EngineConfig, LabelError> {
    let judge = options::engine("--engine", words)?;
    if judge.tc.is_some() {
        return Err(LabelError::Clock);
    }
    if judge.depth.is_none() && judge.nodes.is_none() && judge.movetime.is_none() {
        return Err(LabelError::NoLimit);
    }
    Ok(judge)
}

/// The data's lines, each with the position as the judge is told it (FEN, XBoard FEN
/// or SFEN by its protocol).
fn read_entries<const W: usize>(
    game: &Game<W>,
    judge: &EngineConfig,
    path: &Path,
) -> Result<Vec<Entry>, LabelError> {
    Ok(data::read(game, path, |line| {
        Ok(Entry {
            fen: line.fen.to_string(),
            result: line.result_text.to_string(),
            judged_as: position_text(game, &line.pos, judge.protocol),
            white_to_move: line.pos.side == WHITE,
        })
    })?)
}

/// Lines judged, then written, at a time: a run stopped part way loses at most this many
/// (a judge is started again for each block, which costs a UCI judge its hash table once
/// per block).
const BLOCK: usize = 2_000;

/// How many positions all judges have scored, of how many.
struct Progress {
    done: AtomicUsize,
    total: usize,
}

/// Every entry's score (White's view; `None` where it is left out), in order, from `jobs`
/// judges scoring every `jobs`-th entry; `first` is the index of the first entry in the
/// data (for the line numbers of errors).
fn judge_all(
    judge: &EngineConfig,
    variant: &str,
    entries: &[Entry],
    first: usize,
    progress: &Progress,
    jobs: usize,
) -> Result<Vec<Option<i32>>, LabelError> {
    let jobs = jobs.min(entries.len()).max(1);
    let failed = AtomicBool::new(false);
    let shares: Vec<Result<Vec<Option<i32>>, LabelError>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs)
            .map(|job| {
                let failed = &failed;
                s.spawn(move || {
                    let share = entries.iter().enumerate().skip(job).step_by(jobs);
                    let share = share.map(|(i, e)| (first + i, e));
                    let result = judge_share(judge, variant, share, progress, failed);
                    if result.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    result
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a judging thread panicked"))
            .collect()
    });
    let shares = shares.into_iter().collect::<Result<Vec<_>, _>>()?;
    // Entry i is the (i / jobs)-th of share i % jobs.
    Ok((0..entries.len())
        .map(|i| shares[i % jobs][i / jobs])
        .collect())
}

/// One judge's scores of its share of the entries, stopping early when another judge
/// has failed.
fn judge_share<'a>(
    judge: &EngineConfig,
    variant: &str,
    share: impl Iterator<Item = (usize, &'a Entry)>,
    progress: &Progress,
    failed: &AtomicBool,
) -> Result<Vec<Option<i32>>, LabelError> {
    let at = |line: usize| move |source| LabelError::Judge { line, source };
    let mut player = Player::start(judge, None).map_err(LabelError::Start)?;
    let mut scores = Vec::new();
    let mut fresh = true;
    for (i, entry) in share {
        if failed.load(Ordering::Relaxed) {
            break;
        }
        // A CECP engine takes a position only as a new game's start (`setboard`); a UCI
        // engine is told the position with each search, and keeps its hash table from
        // one to the next (the lines of a game follow one another).
        if fresh || judge.protocol == Protocol::Cecp {
            let side = if entry.white_to_move { WHITE } else { BLACK };
            player
                .new_game(variant, Some(&entry.judged_as), &[], side)
                .map_err(at(i + 1))?;
            fresh = false;
        }
        scores.push(judge_one(&mut player, judge, entry).map_err(at(i + 1))?);
        let n = progress.done.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(10_000) {
            eprintln!("kirin: label: {n} of {} positions", progress.total);
        }
    }
    player.finish(None);
    Ok(scores)
}

/// The judge's score of one position, centipawns from White's view; `None` for a mate,
/// or no score at all (the line is left out).
fn judge_one(
    player: &mut Player,
    judge: &EngineConfig,
    entry: &Entry,
) -> Result<Option<i32>, EngineError> {
    let history = History {
        fen: Some(&entry.judged_as),
        moves: &[],
        white_to_move: entry.white_to_move,
    };
    let deadline = Instant::now() + judge.timeout + judge.movetime.unwrap_or_default();
    let reply = player.think(&history, None, deadline)?;
    Ok(match (reply, player.thought.score) {
        (Reply::Move(_), Some(Score::Centipawns(cp))) => {
            Some(if entry.white_to_move { cp } else { -cp })
        }
        _ => None,
    })
}

/// Where the scored lines go: a file (created anew) or standard output.
enum Output {
    File(std::fs::File, String),
    Stdout,
}

impl Output {
    fn open(out: Option<&PathBuf>) -> Result<Output, LabelError> {
        Ok(match out {
            Some(path) => {
                let shown = path.display().to_string();
                let file = std::fs::File::create(path).map_err(|source| LabelError::Write {
                    path: shown.clone(),
                    source,
                })?;
                Output::File(file, shown)
            }
            None => Output::Stdout,
        })
    }

    /// Writes `text` through to its destination (nothing kept in a buffer).
    fn write(&mut self, text: &str) -> Result<(), LabelError> {
        let (result, path) = match self {
            Output::File(file, path) => (file.write_all(text.as_bytes()), path.as_str()),
            Output::Stdout => {
                let mut out = std::io::stdout().lock();
                let done = out.write_all(text.as_bytes()).and_then(|_| out.flush());
                (done, "standard output")
            }
        };
        result.map_err(|source| LabelError::Write {
            path: path.to_string(),
            source,
        })
    }
}
