//! The command line: `kirin perft`, `analyse`, `bench`, `selfplay`, `openings`, `match`,
//! `datagen`, `tune`, `eval`, `values` and `variants`; without a command, the UCI and XBoard protocols on standard input.

use crate::rules::Game;
use crate::rules::position::Position;
use crate::search::MAX_THREADS;
use crate::variants::{self, AnyGame};
use crate::with_width;
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

pub use crate::cli_search::{DEFAULT_VARIANT, setup};

#[derive(Parser)]
#[command(
    name = "kirin",
    version,
    about = "A chess engine for large and historical chess variants",
    long_about = "A chess engine for large and historical chess variants.\n\n\
        Run without a command, kirin is an engine for a GUI or match runner: it reads \
        standard input and speaks UCI after 'uci' or XBoard/CECP after 'xboard' \
        (docs/protocols.md). The commands below are for people at a terminal; every one \
        plays chu unless given --variant ('kirin variants' lists the games)."
)]
struct Cli {
    /// A TOML file of extra variant definitions (format: docs/variants.md); its variants
    /// may inherit the built-in ones.
    #[arg(long, global = true)]
    variants_file: Option<std::path::PathBuf>,
    /// Without a command kirin waits for `uci` or `xboard` and speaks that protocol.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaf nodes of the legal-move tree (move generator test and benchmark).
    Perft(PerftArgs),
    /// Lists the variants kirin knows.
    Variants,
    /// Analyses a position: prints the board and the search's lines as it deepens.
    /// Without arguments: the chu start position for ten seconds.
    Analyse(AnalyseArgs),
    /// Searches a fixed set of positions to fixed depths on one thread; prints the node
    /// total (a signature of the search) and the speed.
    Bench {
        /// Added to every position's depth (-20 to 20; a depth never goes below 1).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true,
              value_parser = clap::value_parser!(i32).range(-20..=20))]
        depth_offset: i32,
        /// Search threads, 1 to 256 (with more than one the node count is not
        /// deterministic; use it to measure time to depth).
        #[arg(long, default_value_t = 1, value_parser = threads)]
        threads: usize,
    },
    /// Plays the engine against itself and prints how each game ended.
    Selfplay(SelfplayArgs),
    /// Writes balanced opening positions of a variant as EPD (short random lines whose
    /// searched score stays within a window), for `kirin match -openings`.
    Openings(crate::arena::openings::OpeningsArgs),
    /// Plays matches between engines (UCI or CECP) under kirin's rules, with
    /// cutechess-cli's options: `kirin match -engine cmd=A -engine cmd=B -each tc=10+0.1
    /// -variant courier -games 20` (docs/match.md).
    Match(crate::arena::MatchArgs),
    /// Writes training positions for `kirin tune`: quiet positions of self-play games at a
    /// fixed node count per move, with the game's result and the searched score.
    Datagen(crate::tune::datagen::DatagenArgs),
    /// Scores the positions of a `kirin datagen` file anew with another engine (a UCI, USI
    /// or CECP judge at a fixed depth, node count or time), for `kirin tune`.
    Label(crate::tune::label::LabelArgs),
    /// Fits a variant's evaluation parameters to `kirin datagen`'s positions (Texel's
    /// method) and prints them as a `[variant.eval]` section (docs/tuning.md).
    Tune(crate::tune::texel::TuneArgs),
    /// Serves a board for every game on a local web page (docs/web.md): play against
    /// kirin or by hand, and analyse.
    Serve(crate::serve::ServeArgs),
    /// Prints a position's static evaluation term by term: what each piece type's
    /// numbers and each global weight add, in centipawns for the side to move.
    Eval(PositionArgs),
    /// Prints the piece values of a variant (its `[variant.eval]` values where it has
    /// them, else the values kirin derives from the moves).
    Values {
        #[arg(long, default_value = DEFAULT_VARIANT)]
        variant: String,
    },
}

#[derive(clap::Args)]
struct AnalyseArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Search to this depth.
    #[arg(long)]
    depth: Option<i32>,
    /// Search this many milliseconds (default 10000 when no other limit is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Search threads, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = threads)]
    threads: usize,
    /// Transposition table size in MiB, 1 to 65536 (the UCI `Hash` default); a size the
    /// machine cannot give is halved until it can.
    #[arg(long, default_value_t = crate::search::tt::DEFAULT_MB, value_parser = hash_mb)]
    hash: usize,
}

/// A variant and one of its positions: the start, a named start or a FEN, and moves
/// played from there.
#[derive(clap::Args)]
struct PositionArgs {
    #[command(flatten)]
    game: crate::cli_search::GameArgs,
    /// Position to start from (default: the variant's start position).
    #[arg(long)]
    fen: Option<String>,
    /// A named start position of the variant instead of the default one.
    #[arg(long)]
    start: Option<String>,
    /// Moves to play first, apart by spaces, in kirin's coordinates (`e2e4`) or SAN (`Nf3`).
    #[arg(long)]
    moves: Option<String>,
}

impl PositionArgs {
    /// The position in `game`.
    fn setup<const W: usize>(&self, game: &Game<W>) -> Result<Position<W>, String> {
        setup(
            game,
            self.fen.as_deref(),
            self.start.as_deref(),
            self.moves.as_deref(),
        )
    }
}

#[derive(clap::Args)]
struct SelfplayArgs {
    #[command(flatten)]
    game: crate::cli_search::GameArgs,
    #[arg(long)]
    start: Option<String>,
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Milliseconds per move.
    #[arg(long, default_value_t = 20)]
    movetime: u64,
    /// A game clock instead: seconds per game plus increment per move, e.g. `1+0.01`.
    /// A side that exceeds its clock loses by time forfeit.
    #[arg(long)]
    tc: Option<String>,
    /// Plies without a capture or pawn move that end a game as a draw.
    #[arg(long, default_value_t = 200)]
    no_progress: u32,
    /// Opening plies chosen at random, so that games differ.
    #[arg(long, default_value_t = 4)]
    random_plies: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::Args)]
struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Print the count under each root move.
    #[arg(long)]
    divide: bool,
    /// Threads to split the root moves over, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = threads)]
    threads: usize,
    /// Make and unmake every leaf instead of counting the last ply in bulk.
    #[arg(long)]
    full: bool,
}

/// `--threads`: a number from 1 to `MAX_THREADS`.
fn threads(text: &str) -> Result<usize, String> {
    bounded(text, 1, MAX_THREADS)
}

/// `--hash`: mebibytes from 1 to the protocols' maximum.
fn hash_mb(text: &str) -> Result<usize, String> {
    bounded(text, 1, crate::search::tt::MAX_MB)
}

fn bounded(text: &str, min: usize, max: usize) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("'{text}' is not a number from {min} to {max}")),
    }
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    crate::fault::install_hook();
    let cli = Cli::parse();
    let catalog = match &cli.variants_file {
        Some(path) => match variants::load_file(path) {
            Ok((user_text, extra)) => Catalog { user_text, extra },
            Err(e) => {
                eprintln!("kirin: {e}");
                return ExitCode::from(2);
            }
        },
        None => Catalog {
            user_text: String::new(),
            extra: Vec::new(),
        },
    };
    let Some(command) = cli.command else {
        crate::protocol::run_with(&catalog.extra);
        return ExitCode::SUCCESS;
    };
    let result = match command {
        Command::Perft(args) => perft(&catalog, &args),
        Command::Analyse(args) => analyse(&catalog, &args),
        Command::Bench {
            depth_offset,
            threads,
        } => crate::cli_search::bench(depth_offset, threads),
        Command::Selfplay(args) => selfplay(&catalog, &args),
        Command::Values { variant } => values(&catalog, &variant),
        Command::Eval(args) => evaluation(&catalog, &args),
        Command::Openings(args) => catalog
            .game(&args.game)
            .and_then(|any| crate::arena::openings::run(&any, &args)),
        Command::Match(args) => crate::arena::run(&args, cli.variants_file.as_deref()),
        Command::Serve(args) => crate::serve::run(&args, catalog.user_text, catalog.extra),
        Command::Datagen(args) => catalog
            .game(&args.game)
            .and_then(|any| crate::tune::datagen::run(&any, &args)),
        Command::Label(args) => catalog
            .game(&args.game)
            .and_then(|any| crate::tune::label::run(&any, &args)),
        Command::Tune(args) => catalog
            .game(&args.game)
            .and_then(|any| crate::tune::texel::run(&any, &args)),
        Command::Variants => {
            for v in catalog.extra.iter().chain(variants::builtin()) {
                say!(
                    "{:16} {}x{}  {}",
                    v.name,
                    v.geometry.width,
                    v.geometry.height,
                    v.description
                );
                for (name, _) in &v.starts {
                    say!("{:16} --start {name}", "");
                }
                for (key, value, what) in &v.options {
                    say!("{:16} --rule {key}={value}: {what}", "");
                }
            }
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kirin: {e}");
            ExitCode::from(2)
        }
    }
}

/// The variants a command may use: a user's definitions file (if any) and the built-in
/// ones.
struct Catalog {
    user_text: String,
    extra: Vec<crate::rules::spec::VariantSpec>,
}

impl Catalog {
    /// Compiles the variant `name` with `rules` replaced.
    fn compile(&self, name: &str, rules: &[String]) -> Result<AnyGame, String> {
        let spec = variants::find_with_rules(&self.extra, name, rules, &self.user_text)
            .map_err(|e| e.to_string())?;
        AnyGame::new(&spec).map_err(|e| e.to_string())
    }

    /// The variant a command's `--variant` and `--rule` arguments name.
    fn game(&self, args: &crate::cli_search::GameArgs) -> Result<AnyGame, String> {
        self.compile(&args.variant, &args.rules)
    }
}

fn analyse(catalog: &Catalog, args: &AnalyseArgs) -> Result<(), String> {
    let any = catalog.game(&args.position.game)?;
    let mut limits = crate::search::limits::Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime.map(std::time::Duration::from_millis),
        ..Default::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.movetime = Some(std::time::Duration::from_secs(10));
    }
    with_width!(&any, g => {
        let pos = args.position.setup(g)?;
        crate::cli_search::analyse(g, &pos, &limits, args.threads, args.hash);
        Ok(())
    })
}

fn selfplay(catalog: &Catalog, args: &SelfplayArgs) -> Result<(), String> {
    let any = catalog.game(&args.game)?;
    with_width!(&any, g => {
        let start = setup(g, None, args.start.as_deref(), None)?;
        let (mut white, mut black, mut draws) = (0, 0, 0);
        let tc = match &args.tc {
            None => crate::cli_search::TimeControl::PerMove(std::time::Duration::from_millis(args.movetime)),
            Some(text) => {
                let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
                let secs = |t: &str| {
                    crate::arena::options::seconds(t)
                        .map_err(|_| format!("--tc '{text}' is not SECONDS+INCREMENT"))
                };
                crate::cli_search::TimeControl::Clock { base: secs(base)?, inc: secs(inc)? }
            }
        };
        for i in 0..args.games {
            let r = crate::cli_search::selfplay_game(
                g,
                &start,
                tc,
                args.seed.wrapping_add(i as u64),
                args.random_plies,
                args.no_progress,
                2000,
            )?;
            match r.result {
                "1-0" => white += 1,
                "0-1" => black += 1,
                _ => draws += 1,
            }
            let clocks = r.clocks.map_or(String::new(), |[w, b]| {
                format!("  (clocks: White {:.2} s, Black {:.2} s)", w.as_secs_f64(), b.as_secs_f64())
            });
            say!("game {:>3}: {:7} {:>4} plies  {}{clocks}", i + 1, r.result, r.plies, r.reason);
        }
        say!("{}: +{white} -{black} ={draws} (White's view)", g.spec.name);
        Ok(())
    })
}

fn values(catalog: &Catalog, name: &str) -> Result<(), String> {
    let any = catalog.compile(name, &[])?;
    with_width!(&any, g => {
        let e = crate::eval::Eval::new(g);
        for (t, p) in g.spec.pieces.iter().enumerate() {
            say!("{:>3} {:>6}  {} ({})", p.letter, e.values[t], p.name, p.betza);
        }
        Ok(())
    })
}

fn evaluation(catalog: &Catalog, args: &PositionArgs) -> Result<(), String> {
    use crate::eval::params::PIECE_TERMS;
    let any = catalog.game(&args.game)?;
    with_width!(&any, g => {
        let pos = args.setup(g)?;
        let b = crate::eval::Eval::new(g).breakdown(g, &pos);
        let (side, white) = if pos.side == crate::core::WHITE {
            ("White", b.total)
        } else {
            ("Black", -b.total)
        };
        say!("{}", pos.to_fen(g));
        say!("centipawns for the side to move ({side}); 0 where a term does not count");
        if b.no_mating_force {
            say!("no side can mate: a draw by material, whatever the terms");
        }
        let columns: String = PIECE_TERMS.iter().chain(&["squares"]).map(|c| format!("{c:>10}")).collect();
        say!("{:<12}{columns}{:>9}", "piece", "sum");
        for (p, row) in g.spec.pieces.iter().zip(&b.pieces) {
            let cells: String = row.iter().map(|v| format!("{v:>10.1}")).collect();
            say!("{:<12}{cells}{:>9.1}", p.name, row.iter().sum::<f64>());
        }
        for (term, v) in b.globals.iter().filter(|(_, v)| *v != 0.0) {
            say!("{term:<16}{v:>8.1}");
        }
        if b.fixed.abs() >= 0.05 {
            say!("{:<16}{:>8.1}", "mop-up, rounding", b.fixed);
        }
        say!("total {} for {side} ({white} for White)", b.total);
        Ok(())
    })
}

fn perft(catalog: &Catalog, args: &PerftArgs) -> Result<(), String> {
    let any = catalog.game(&args.position.game)?;
    with_width!(&any, g => run_perft(g, args))
}

fn run_perft<const W: usize>(game: &Game<W>, args: &PerftArgs) -> Result<(), String> {
    let pos = args.position.setup(game)?;
    let threads = args.threads;
    let start = Instant::now();
    let nodes = if args.divide || threads > 1 {
        let counts = game.divide(&pos, args.depth, !args.full, threads);
        if args.divide {
            for (m, n) in &counts {
                say!("{}: {n}", game.move_text(*m));
            }
            say!("");
        }
        if args.depth == 0 {
            1
        } else {
            counts.iter().map(|(_, n)| n).sum()
        }
    } else {
        let mut p = pos.clone();
        game.perft(&mut p, args.depth, !args.full)
    };
    let secs = start.elapsed().as_secs_f64();
    say!("Nodes searched: {nodes}");
    say!(
        "Time: {:.3} s, {:.0} nodes per second",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    Ok(())
}
