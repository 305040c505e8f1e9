//! `kirin openings`: balanced opening positions of any game, as EPD (one FEN a line), for
//! `kirin match -openings file=X format=epd` or cutechess-cli; and `read_epd`, the reader
//! the match runner uses.
//!
//! Method. Each attempt starts from the variant's start position (or `--start`, `--fen`,
//! `--moves`) and plays `--plies` random whole turns. A random turn is chosen among the
//! legal actions that do not lose material by a quick check: an action's balance is its
//! static exchange value (`search::see`) less the best static exchange the opponent then
//! has on any capture (0 if none), and the turn is drawn uniformly among the actions whose
//! balance is at least min(0, the best balance), so that, as far as static exchanges see, no
//! piece is left hanging while a safe move exists; `--uniform` draws among all legal actions instead. A turn of
//! several actions (Little Great Chess's honours, ransoms, offers) is played action by
//! action until the turn is over (`Game::turn_in_progress`), so every line written is a
//! position at a turn boundary. The position reached is then searched (one thread, a
//! fixed depth or node count, hence deterministic) and kept only if the game is not over,
//! the score (from the side to move) is within `--window` centipawns and no position with
//! the same key was kept before. With `--seed` the output is the same on every run.

use crate::eval::Eval;
use crate::rules::{Game, MoveList, Position};
use crate::search::limits::Limits;
use crate::search::see::see;
use crate::search::tt::Table;
use crate::search::{self, Context};
use crate::variants::AnyGame;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

#[derive(clap::Args)]
#[command(
    after_help = "Each line is a full FEN as kirin writes it. A random line is played \
    from the start (each turn drawn among the moves that do not lose material by a static \
    exchange check), searched (one thread, to a fixed depth or node count), and kept when \
    the game is not over, the score (side to move) is within the window and the position \
    is new. A turn of several actions is played to its end: every line is a position at a \
    turn boundary. Openings are written as they are found."
)]
pub struct OpeningsArgs {
    #[command(flatten)]
    pub game: crate::cli_search::GameArgs,
    /// How many openings to write.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Random turns played from the start position.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Search depth of the balance check (default: 6 on boards of up to 200 squares, 4 on
    /// larger ones, flee and shofidegi: about a tenth of a second a position or less).
    #[arg(long, value_parser = clap::value_parser!(i32).range(1..=64))]
    pub depth: Option<i32>,
    /// Search this many nodes instead of a fixed depth (with --depth: whichever ends
    /// first).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Keep a position only if its searched score is within this many centipawns of 0.
    #[arg(long, default_value_t = 100)]
    pub window: i32,
    /// Seed of the random lines (the same seed gives the same openings); default: from
    /// the clock, printed on standard error.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Give up after this many random lines (default: 50 per opening asked for).
    #[arg(long)]
    pub attempts: Option<usize>,
    /// Draw the random turns among all legal moves (default: among those that do not
    /// lose material by a static exchange check).
    #[arg(long)]
    pub uniform: bool,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Start from this named start position (see `kirin variants`).
    #[arg(long)]
    pub start: Option<String>,
    /// Moves played from the start before the random turns (as `kirin analyse` reads
    /// them).
    #[arg(long)]
    pub moves: Option<String>,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub output: Option<std::path::PathBuf>,
    /// `epd`: one FEN a line; `pgn`: each opening as the moves from the start, for
    /// engines that cannot be given a position (no CECP `setboard`, or a FEN of their own).
    #[arg(long, default_value = "epd", value_parser = ["epd", "pgn"])]
    pub format: String,
}

/// The search depth when neither `--depth` nor `--nodes` is given, for a board of
/// `squares` squares: 6, or 4 above 200 squares (flee, shofidegi), where depth 6 takes
/// a second or two a position and depth 4 about a tenth of a second.
pub fn default_depth(squares: usize) -> i32 {
    if squares <= 200 { 6 } else { 4 }
}

/// What `generate` does.
#[derive(Clone, Debug)]
pub struct Config {
    pub count: usize,
    pub plies: usize,
    pub limits: Limits,
    pub window: i32,
    pub seed: u64,
    pub attempts: usize,
    pub uniform: bool,
}

/// What `generate` did.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    pub found: usize,
    pub attempts: usize,
    /// The shallowest depth a search completed (`i32::MAX` if none ran).
    pub shallowest: i32,
}

pub fn run(game: &AnyGame, args: &OpeningsArgs) -> Result<(), String> {
    if args.window < 0 {
        return Err("--window must not be negative".into());
    }
    let seed = args.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let seed = t.as_nanos() as u64 ^ u64::from(std::process::id()).rotate_left(32);
        eprintln!("kirin: openings seed {seed}");
        seed
    });
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    crate::with_width!(game, g => {
        let start = crate::cli_search::setup(g, args.fen.as_deref(), args.start.as_deref(), args.moves.as_deref())?;
        let depth = match (args.depth, args.nodes) {
            (Some(d), _) => Some(d),
            (None, Some(_)) => None,
            (None, None) => Some(default_depth(g.squares)),
        };
        let config = Config {
            count: args.count,
            plies: args.plies,
            limits: Limits { depth, nodes: args.nodes, ..Default::default() },
            window: args.window,
            seed,
            attempts: args.attempts.unwrap_or(args.count.saturating_mul(50)).max(1),
            uniform: args.uniform,
        };
        let started = Instant::now();
        let pgn = args.format == "pgn";
        // A start other than the variant's default goes into the games' FEN tag.
        let fen_tag = crate::cli_search::setup(g, None, None, None).ok().as_ref() != Some(&start);
        let summary = generate(g, &start, &config, &mut |fen, turns| {
            let text = if pgn { opening_pgn(g, &start, fen_tag, turns) } else { format!("{fen}\n") };
            write!(out, "{text}")
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot write: {e}"))
        })?;
        if summary.found < config.count {
            return Err(format!(
                "found only {} of {} openings of {} in {} attempts (score within {} cp after \
                 {} random turns; those found are written); widen --window, change --plies or \
                 allow more --attempts",
                summary.found, config.count, g.spec.name, summary.attempts, config.window,
                config.plies
            ));
        }
        eprintln!(
            "kirin: {} openings of {} in {} attempts, {:.1} s",
            summary.found,
            g.spec.name,
            summary.attempts,
            started.elapsed().as_secs_f64()
        );
        Ok(())
    })
}

/// Receives each opening found: its FEN and the turns that reached it from the start.
pub type Emit<'a> = dyn FnMut(&str, &[Vec<crate::core::Move>]) -> Result<(), String> + 'a;

/// Generates up to `config.count` openings from `start`, calling `emit` with each one's
/// FEN as it is found, within `config.attempts` random lines.
pub fn generate<const W: usize>(
    game: &Game<W>,
    start: &Position<W>,
    config: &Config,
    emit: &mut Emit,
) -> Result<Summary, String> {
    let eval = Eval::new(game);
    let tt = Table::new(16);
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut seen = HashSet::new();
    let mut summary = Summary {
        found: 0,
        attempts: 0,
        shallowest: i32::MAX,
    };
    while summary.found < config.count && summary.attempts < config.attempts {
        summary.attempts += 1;
        let Some((mut pos, turns)) = random_line(game, &eval, start, config, &mut rng) else {
            continue;
        };
        if game.outcome(&mut pos).is_some() || seen.contains(&pos.key) {
            continue;
        }
        // A fresh stop flag for every search: a finished search sets its flag (to stop
        // its helpers), and a flag left set would cut the next search to one iteration.
        let stop = AtomicBool::new(false);
        let ctx = Context {
            game,
            eval: &eval,
            tt: &tt,
            stop: &stop,
            memory: None,
        };
        let r = search::search(&ctx, &pos, &config.limits, 1, &mut |_| {});
        summary.shallowest = summary.shallowest.min(r.depth);
        if r.best.is_none() || r.score.abs() > config.window {
            continue;
        }
        seen.insert(pos.key);
        emit(&pos.to_fen(game), &turns)?;
        summary.found += 1;
    }
    Ok(summary)
}

/// `config.plies` random turns from `start` and the position they reach, or `None` if
/// the game ends on the way.
fn random_line<const W: usize>(
    game: &Game<W>,
    eval: &Eval,
    start: &Position<W>,
    config: &Config,
    rng: &mut ChaCha8Rng,
) -> Option<(Position<W>, Vec<Vec<crate::core::Move>>)> {
    let mut pos = start.clone();
    let mut turns = Vec::new();
    // A start in the middle of a turn first finishes it.
    let mut turn = Vec::new();
    while game.turn_in_progress(&pos) {
        let m = random_action(game, eval, &mut pos, config.uniform, rng)?;
        pos.make(game, m);
        turn.push(m);
    }
    if !turn.is_empty() {
        turns.push(turn);
    }
    for _ in 0..config.plies {
        if game.outcome(&mut pos).is_some() {
            return None;
        }
        // One turn: its first action, then the rest until the turn is over.
        let mut turn = Vec::new();
        loop {
            let m = random_action(game, eval, &mut pos, config.uniform, rng)?;
            pos.make(game, m);
            turn.push(m);
            if !game.turn_in_progress(&pos) {
                break;
            }
        }
        turns.push(turn);
    }
    Some((pos, turns))
}

/// An opening as a PGN game: the moves from `start` in SAN (with a `FEN` tag when
/// `fen_tag`), result `*`.
fn opening_pgn<const W: usize>(
    game: &Game<W>,
    start: &Position<W>,
    fen_tag: bool,
    turns: &[Vec<crate::core::Move>],
) -> String {
    use super::pgn::{PgnGame, PgnMove, write_pgn};
    let mut pgn = PgnGame::default();
    pgn.set_tag("Event", "kirin openings");
    pgn.set_tag("Result", "*");
    if fen_tag {
        pgn.set_tag("FEN", start.to_fen(game));
        pgn.set_tag("SetUp", "1");
    }
    pgn.set_tag("Variant", game.spec.name.clone());
    let mut pos = start.clone();
    for turn in turns {
        let san = game.san(&mut pos, turn);
        for &m in turn {
            pos.make(game, m);
        }
        pgn.moves.push(PgnMove { san, comment: None });
    }
    pgn.result = "*".into();
    write_pgn(&pgn)
}

/// A random legal action of `pos` (see the module's comment), or `None` if there is none.
fn random_action<const W: usize>(
    game: &Game<W>,
    eval: &Eval,
    pos: &mut Position<W>,
    uniform: bool,
    rng: &mut ChaCha8Rng,
) -> Option<crate::core::Move> {
    let mut list = MoveList::new();
    game.game_moves(pos, &mut list);
    if list.is_empty() {
        return None;
    }
    if uniform || list.len() == 1 {
        return Some(list[rng.gen_range(0..list.len())]);
    }
    let balances: Vec<i32> = list.iter().map(|&m| balance(game, eval, pos, m)).collect();
    let floor = balances.iter().copied().max().unwrap_or(0).min(0);
    let safe: Vec<usize> = (0..list.len()).filter(|&i| balances[i] >= floor).collect();
    Some(list[safe[rng.gen_range(0..safe.len())]])
}

/// What `m` wins by a static exchange, less the best static exchange the opponent then
/// has (when `m` ends the turn).
fn balance<const W: usize>(
    game: &Game<W>,
    eval: &Eval,
    pos: &mut Position<W>,
    m: crate::core::Move,
) -> i32 {
    let gain = see(game, eval, pos, m);
    let u = pos.make(game, m);
    let threat = if game.turn_in_progress(pos) {
        0
    } else {
        let mut replies = MoveList::new();
        game.pseudo_moves(pos, &mut replies);
        replies
            .iter()
            .map(|&r| see(game, eval, pos, r))
            .max()
            .unwrap_or(0)
            .max(0)
    };
    pos.unmake(game, m, u);
    gain - threat
}

/// One opening of an openings file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub fen: String,
}

/// One opening per non-empty line that is not a comment (`#`); a line is either a full FEN
/// or an EPD record (4+ FEN fields followed by `op value;` operations — take `hmvc`/`fmvn`
/// when present, else halfmove 0 fullmove 1). Errors name the line number.
///
/// A line with a `;` is an EPD record: its first four fields are the position's (board,
/// side, castling, en passant) and the rest its operations; any other line is taken as a
/// FEN as it is (kirin's FENs may have more fields than chess's). Only the side field is
/// checked here: the match runner reads each FEN with the game.
pub fn read_epd(text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let number = i + 1;
        let fen = if line.contains(';') {
            epd_record(line)
        } else {
            plain_fen(line)
        }
        .map_err(|e| format!("line {number}: {e}: {line}"))?;
        openings.push(Opening { fen });
    }
    Ok(openings)
}

/// Checks a FEN's side field (`w`, `b`, with kirin's `+N` actions and `:state`).
fn check_side(field: Option<&str>) -> Result<(), String> {
    let Some(field) = field else {
        return Err("no side to move".into());
    };
    let side = field.split_once(':').map_or(field, |(s, _)| s);
    let side = side.split_once('+').map_or(side, |(s, _)| s);
    if side == "w" || side == "b" {
        Ok(())
    } else {
        Err(format!("'{field}' is not a side to move (w or b)"))
    }
}

fn plain_fen(line: &str) -> Result<String, String> {
    check_side(line.split_whitespace().nth(1))?;
    Ok(line.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The FEN of an EPD record: its four position fields and its `hmvc` and `fmvn`.
fn epd_record(line: &str) -> Result<String, String> {
    let mut rest = line;
    let mut fields = Vec::new();
    for _ in 0..4 {
        rest = rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let field = &rest[..end];
        if field.is_empty() || field.contains(';') {
            return Err("an EPD record has four position fields before its operations".into());
        }
        fields.push(field);
        rest = &rest[end..];
    }
    check_side(Some(fields[1]))?;
    let (mut halfmove, mut fullmove) = (0u32, 1u32);
    for op in operations(rest)? {
        let mut words = op.split_whitespace();
        let Some(code) = words.next() else {
            continue;
        };
        let operand = words.next();
        let number = |what: &str| {
            operand
                .and_then(|w| w.parse::<u32>().ok())
                .ok_or_else(|| format!("{code} needs a number ({what})"))
        };
        match code {
            "hmvc" => halfmove = number("the halfmove clock")?,
            "fmvn" => {
                fullmove = number("the move number")?;
                if fullmove == 0 {
                    return Err("fmvn must be at least 1".into());
                }
            }
            _ => {}
        }
    }
    Ok(format!("{} {halfmove} {fullmove}", fields.join(" ")))
}

/// The operations of an EPD record's tail, split at the `;` outside quoted strings.
fn operations(tail: &str) -> Result<Vec<&str>, String> {
    let mut ops = Vec::new();
    let mut quoted = false;
    let mut from = 0;
    for (i, c) in tail.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                ops.push(tail[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err("a quoted operand is not closed".into());
    }
    let last = tail[from..].trim();
    if !last.is_empty() {
        // The last operation's `;` is missing: read it all the same.
        ops.push(last);
    }
    if ops.iter().any(|op| {
        op.split_whitespace()
            .next()
            .is_some_and(|code| !code.chars().next().is_some_and(|c| c.is_ascii_alphabetic()))
    }) {
        return Err("an EPD operation must begin with its opcode".into());
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants;

    fn openings_of(variant: &str, seed: u64) -> Vec<String> {
        let spec = variants::find(variant).unwrap();
        let any = AnyGame::new(spec).unwrap();
        crate::with_width!(&any, g => {
            let start = crate::cli_search::setup(g, None, None, None).unwrap();
            let config = Config {
                count: 5,
                plies: 8,
                limits: Limits { depth: Some(default_depth(g.squares)), ..Default::default() },
                window: 100,
                seed,
                attempts: 250,
                uniform: false,
            };
            let mut fens = Vec::new();
            let summary = generate(g, &start, &config, &mut |fen, _| {
                fens.push(fen.to_string());
                Ok(())
            })
            .unwrap();
            assert_eq!(summary.found, 5, "{variant}: {summary:?}");
            // Every search went to the full depth (a stop flag left set by one search
            // once cut the next ones to one iteration).
            assert_eq!(summary.shallowest, default_depth(g.squares), "{variant}");
            let mut keys = HashSet::new();
            for fen in &fens {
                let mut pos = Position::from_fen(g, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                assert_eq!(pos.actions, 0, "{fen}");
                assert!(g.outcome(&mut pos).is_none(), "{fen}");
                assert_eq!(pos.to_fen(g), *fen);
                assert!(keys.insert(pos.key), "duplicate {fen}");
            }
            fens
        })
    }

    #[test]
    fn generates_balanced_distinct_deterministic_openings() {
        for variant in ["chess", "courier", "chu"] {
            let first = openings_of(variant, 7);
            assert_eq!(first, openings_of(variant, 7), "{variant}");
            assert_ne!(first, openings_of(variant, 8), "{variant}");
            // Read back as the match runner reads them.
            let read = read_epd(&first.join("\n")).unwrap();
            assert_eq!(
                read.iter().map(|o| o.fen.clone()).collect::<Vec<_>>(),
                first
            );
        }
    }

    #[test]
    fn little_great_openings_end_whole_turns() {
        let spec = variants::find("littlegreat").unwrap();
        let any = AnyGame::new(spec).unwrap();
        crate::with_width!(&any, g => {
            let start = crate::cli_search::setup(g, None, None, None).unwrap();
            let config = Config {
                count: 3,
                plies: 12,
                limits: Limits { depth: Some(2), ..Default::default() },
                window: 300,
                seed: 1,
                attempts: 200,
                uniform: true,
            };
            let mut fens = Vec::new();
            generate(g, &start, &config, &mut |fen, _| {
                fens.push(fen.to_string());
                Ok(())
            })
            .unwrap();
            assert!(!fens.is_empty());
            for fen in &fens {
                let pos = Position::from_fen(g, fen).unwrap();
                assert!(!g.turn_in_progress(&pos), "{fen}");
            }
        });
    }

    #[test]
    fn reads_epd_and_fen_lines() {
        let text = "\
# openings
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1

  rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - hmvc 3; fmvn 12; id \"a; b\";
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 id \"x\"; c0 \"no counters\";
8/8/8/8/8/8/8/K1k5[Qq] b+1:s - - 5 40
";
        let read = read_epd(text).unwrap();
        let fens: Vec<&str> = read.iter().map(|o| o.fen.as_str()).collect();
        assert_eq!(
            fens,
            [
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 3 12",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 1",
                "8/8/8/8/8/8/8/K1k5[Qq] b+1:s - - 5 40",
            ]
        );
        assert_eq!(read_epd("").unwrap(), []);
        assert_eq!(read_epd("# nothing\n\n   \n").unwrap(), []);
    }

    #[test]
    fn epd_errors_name_the_line() {
        let bad = [
            ("\n\nhello\n", "line 3"),
            ("# x\nnot a fen at all\n", "line 2"),
            ("8/8/8/8/8/8/8/K1k5 w - - 0 1\n8/8 w -; hmvc 1;\n", "line 2"),
            ("8/8/8/8/8/8/8/K1k5 w - - hmvc x;\n", "line 1"),
            ("8/8/8/8/8/8/8/K1k5 w - - fmvn 0;\n", "line 1"),
            ("8/8/8/8/8/8/8/K1k5 w - - c0 \"open;\n", "line 1"),
            ("8/8/8/8/8/8/8/K1k5 x - - hmvc 1;\n", "line 1"),
            ("8/8/8/8/8/8/8/K1k5 w - - ; 12;\n", "line 1"),
        ];
        for (text, line) in bad {
            let e = read_epd(text).unwrap_err();
            assert!(e.starts_with(line), "{text:?}: {e}");
        }
    }
}
