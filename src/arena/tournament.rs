//! The schedule of a match (who plays whom, with which colours, from which opening),
//! the workers that play its games side by side, and the bookkeeping of results: the
//! PGN file, the score lines, and the SPRT that may stop the match.

use super::engine::Player;
use super::openings::read_epd;
use super::options::{Format, MatchConfig, OpeningFormat};
use super::pgn::{parse_pgn, replay, write_pgn};
use super::referee::{self, Finished, Setup};
use super::report::Standings;
use crate::core::Move;
use crate::rules::{Game, Position};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};

/// Where a game starts, and the opening moves played from there before the engines
/// think.
#[derive(Clone)]
pub struct Opening<const W: usize> {
    pub start: Position<W>,
    pub book: Vec<Vec<Move>>,
}

/// The start positions the games are measured against: the variant's own (a game from
/// elsewhere gets a FEN tag) and each engine's own (a game from elsewhere is sent to that
/// engine as a FEN).
pub struct Starts<const W: usize> {
    pub variant: Position<W>,
    pub engines: Vec<Position<W>>,
}

/// The position of the variant's start named `name` (`None`: the default one).
pub fn named_start<const W: usize>(
    game: &Game<W>,
    name: Option<&str>,
) -> Result<Position<W>, String> {
    crate::cli_search::setup(game, None, name, None)
}

/// The pair a game belongs to: the use of an opening it is, counting `repeat` games a
/// use, by its number in the whole match (from 1).
pub fn pair_of(number: u64, repeat: u32) -> u64 {
    (number - 1) / u64::from(repeat.max(1))
}

impl<const W: usize> Starts<W> {
    pub fn new(game: &Game<W>, cfg: &MatchConfig) -> Result<Self, String> {
        Ok(Starts {
            variant: named_start(game, None)?,
            engines: cfg
                .engines
                .iter()
                .map(|e| named_start(game, e.start.as_deref()))
                .collect::<Result<_, _>>()?,
        })
    }
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// The game's number in the whole match, from 1 (the PGN's `Round`).
    pub number: u64,
    pub white: usize,
    pub black: usize,
    /// Which use of an opening this is: the games of one use form a pair (the same
    /// opening with colours reversed) for the pentanomial count.
    pub pair: u64,
    pub opening: usize,
}

/// The games of the match in the order cutechess plays them: for each round, each
/// encounter (all pairs of engines, or the first engine against each other one), `games`
/// games with colours alternating; each opening is used for `repeat` games in a row.
pub fn schedule(cfg: &MatchConfig, openings: usize) -> Vec<Job> {
    let n = cfg.engines.len();
    let encounters: Vec<(usize, usize)> = match cfg.format {
        Format::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Format::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    };
    let mut jobs = Vec::new();
    for _ in 0..cfg.rounds {
        for &(a, b) in &encounters {
            for g in 0..u64::from(cfg.games) {
                let number = jobs.len() as u64 + 1;
                let pair = pair_of(number, cfg.repeat);
                let swap = !cfg.noswap && g % 2 == 1;
                let (white, black) = if swap { (b, a) } else { (a, b) };
                jobs.push(Job {
                    number,
                    white,
                    black,
                    pair,
                    opening: (pair as usize) % openings.max(1),
                });
            }
        }
    }
    if let Some((i, n)) = cfg.shard {
        jobs.retain(|j| j.pair % u64::from(n) == u64::from(i - 1));
    }
    jobs
}

/// Reads the openings file (or gives the variant's start alone), in the order the
/// match uses them.
pub fn load_openings<const W: usize>(
    game: &Game<W>,
    cfg: &MatchConfig,
) -> Result<Vec<Opening<W>>, String> {
    let default_start = named_start(game, cfg.start.as_deref())?;
    let default_fen = default_start.to_fen(game);
    let Some(o) = &cfg.openings else {
        return Ok(vec![Opening {
            start: default_start,
            book: Vec::new(),
        }]);
    };
    let text = std::fs::read_to_string(&o.file)
        .map_err(|e| format!("openings file {}: {e}", o.file.display()))?;
    let mut list = match o.format {
        OpeningFormat::Epd => read_epd(&text)?
            .into_iter()
            .enumerate()
            .map(|(i, op)| {
                let start = Position::from_fen(game, &op.fen)
                    .map_err(|e| format!("{} opening {}: {e}", o.file.display(), i + 1))?;
                Ok(Opening {
                    start,
                    book: Vec::new(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?,
        OpeningFormat::Pgn => parse_pgn(&text)
            .map_err(|e| format!("{}: {e}", o.file.display()))?
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let (start, mut turns) = replay(game, g, &default_fen)
                    .map_err(|e| format!("{} game {}: {e}", o.file.display(), i + 1))?;
                if let Some(plies) = o.plies {
                    turns.truncate(plies);
                }
                Ok(Opening { start, book: turns })
            })
            .collect::<Result<Vec<_>, String>>()?,
    };
    if list.is_empty() {
        return Err(format!("{} holds no opening", o.file.display()));
    }
    if o.random {
        list.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(cfg.seed));
    }
    let first = (o.start - 1) % list.len();
    list.rotate_left(first);
    Ok(list)
}

/// A worker's engines between games: for each engine of the match, the process kept
/// from its last game (`restart=off`) and how many games it has played on this worker
/// (which picks its `cycle.` values).
struct Seats(Vec<Seat>);

#[derive(Default)]
struct Seat {
    kept: Option<Player>,
    games: u64,
}

impl Drop for Seats {
    /// The kept processes are asked to quit (not killed) when the worker ends.
    fn drop(&mut self) {
        for p in self.0.iter_mut().filter_map(|s| s.kept.take()) {
            p.finish(None);
        }
    }
}

/// Plays the scheduled games on `cfg.concurrency` workers and keeps the standings;
/// returns them when the match ends (all played, the SPRT decided, or an engine failed
/// without `-recover`).
pub fn play<const W: usize>(
    game: &Game<W>,
    cfg: &MatchConfig,
    openings: &[Opening<W>],
    starts: &Starts<W>,
    jobs: Vec<Job>,
    total: u64,
) -> Result<Standings, String> {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.display_name()).collect();
    let mut standings = Standings::new(names.clone(), cfg.sprt);
    let mut pgn_file = match &cfg.pgnout {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("-pgnout {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>());
    let stop = AtomicBool::new(false);
    // Each game sends `None` as it starts and its end when it is over.
    let (tx, rx) = mpsc::channel::<(Job, Option<Finished>)>();
    let mut failure = None;
    // The games played when the SPRT decided, and its verdict: the games already under
    // way then are played out and counted, and may move the final LLR back inside the
    // bounds, so the final lines alone would not say why the match stopped.
    let mut decided = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || {
                let mut seats = Seats(cfg.engines.iter().map(|_| Seat::default()).collect());
                while !stop.load(Ordering::Relaxed) {
                    let Some(job) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
                        return;
                    };
                    // The main thread prints the start, so that a game's start never
                    // comes before the previous game's end.
                    if tx.send((job, None)).is_err() {
                        return;
                    }
                    let finished =
                        play_one(game, cfg, &openings[job.opening], starts, job, &mut seats);
                    // An engine failure without -recover stops the match before this worker
                    // takes another game (the main thread says why).
                    if finished.failed.contains(&true) && !cfg.recover {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if tx.send((job, Some(finished))).is_err() {
                        return;
                    }
                    std::thread::sleep(cfg.wait);
                }
            });
        }
        drop(tx);
        for (job, finished) in rx {
            let Some(finished) = finished else {
                say!(
                    "Started game {} of {total} ({} vs {})",
                    job.number,
                    names[job.white],
                    names[job.black]
                );
                continue;
            };
            say!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                job.number,
                names[job.white],
                names[job.black],
                finished.result,
                finished.reason
            );
            if let Some(file) = pgn_file.as_mut()
                && let Err(e) = file.write_all(write_pgn(&finished.pgn).as_bytes())
            {
                failure = Some(format!("-pgnout: {e}"));
                stop.store(true, Ordering::Relaxed);
            }
            standings.add(&job, finished.result);
            if cfg.rating_interval > 0
                && standings
                    .games()
                    .is_multiple_of(u64::from(cfg.rating_interval))
            {
                standings.print();
            } else if let Some(line) = standings.score_line() {
                // The score after every game, as cutechess prints it; the Elo, pair and
                // SPRT lines every -ratinginterval games.
                say!("{line}");
            }
            if decided.is_none()
                && let Some(hypothesis) = standings.sprt_accepted()
            {
                decided = Some((standings.games(), hypothesis));
                stop.store(true, Ordering::Relaxed);
            }
            let failed = [job.white, job.black]
                .iter()
                .zip(finished.failed)
                .filter(|(_, f)| *f)
                .map(|(e, _)| names[*e].clone())
                .collect::<Vec<_>>();
            if !failed.is_empty() && !cfg.recover {
                failure = Some(format!(
                    "{} failed in game {} ({}); the match stops (-recover plays on)",
                    failed.join(" and "),
                    job.number,
                    finished.reason
                ));
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    standings.print();
    if let Some((games, hypothesis)) = decided
        && games < standings.games()
    {
        say!(
            "SPRT: {hypothesis} was accepted after game {games}; the {} games under way then were played out and are counted above",
            standings.games() - games
        );
    }
    match failure {
        Some(f) => Err(f),
        None => Ok(standings),
    }
}

fn play_one<const W: usize>(
    game: &Game<W>,
    cfg: &MatchConfig,
    opening: &Opening<W>,
    starts: &Starts<W>,
    job: Job,
    seats: &mut Seats,
) -> Finished {
    let sides = [job.white, job.black];
    let engines = sides.map(|e| &cfg.engines[e]);
    let variant_name =
        |e: &super::options::EngineConfig| e.variant.clone().unwrap_or_else(|| cfg.variant.clone());
    let settings = sides.map(|e| {
        let seat = &mut seats.0[e];
        seat.games += 1;
        cfg.engines[e].cycled(seat.games - 1)
    });
    let (finished, kept) = referee::play(
        game,
        cfg,
        Setup {
            engines,
            start: opening.start.clone(),
            from_fen: sides.map(|e| opening.start != starts.engines[e]),
            fen_tag: opening.start != starts.variant,
            book: opening.book.clone(),
            round: job.number,
            variant_names: engines.map(variant_name),
            settings,
        },
        sides.map(|e| seats.0[e].kept.take()),
    );
    for (e, p) in sides.into_iter().zip(kept) {
        seats.0[e].kept = p;
    }
    finished
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::options::parse;

    fn config(text: &str) -> MatchConfig {
        parse(&crate::arena::options::split_command(text)).unwrap()
    }

    #[test]
    fn pairs_share_an_opening_with_colours_reversed() {
        let cfg = config("-engine cmd=a -engine cmd=b -each tc=1 -games 6 -repeat");
        let jobs = schedule(&cfg, 10);
        assert_eq!(jobs.len(), 6);
        for pair in jobs.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!((pair[0].white, pair[1].white), (0, 1));
        }
        assert_eq!(jobs[2].opening, 1);
    }

    #[test]
    fn shards_split_by_pairs() {
        let all = schedule(
            &config("-engine cmd=a -engine cmd=b -each tc=1 -games 10 -repeat"),
            99,
        );
        let one = schedule(
            &config("-engine cmd=a -engine cmd=b -each tc=1 -games 10 -repeat -shard 1/2"),
            99,
        );
        let two = schedule(
            &config("-engine cmd=a -engine cmd=b -each tc=1 -games 10 -repeat -shard 2/2"),
            99,
        );
        assert_eq!(one.len() + two.len(), all.len());
        let mut both: Vec<Job> = one.iter().chain(&two).copied().collect();
        both.sort_by_key(|j| j.number);
        assert_eq!(both, all);
        assert!(one.iter().all(|j| j.pair % 2 == 0));
    }

    #[test]
    fn round_robin_and_gauntlet() {
        let rr = schedule(
            &config("-engine cmd=a -engine cmd=b -engine cmd=c -each tc=1 -games 2"),
            1,
        );
        assert_eq!(rr.len(), 6);
        let g = schedule(
            &config(
                "-engine cmd=a -engine cmd=b -engine cmd=c -each tc=1 -games 2 -tournament gauntlet",
            ),
            1,
        );
        assert_eq!(g.len(), 4);
        assert!(g.iter().all(|j| j.white == 0 || j.black == 0));
    }
}
