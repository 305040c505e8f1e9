//! The command line: `kirin perft` and `kirin variants`.

use crate::rules::{Game, Position};
use crate::variants::{self, AnyGame};
use crate::with_game;
use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

/// Prints a line to stdout; if stdout is gone (a closed pipe), exits quietly instead of
/// panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    };
}
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "kirin",
    version,
    about = "A chess engine for large and historical chess variants"
)]
struct Cli {
    /// A TOML file of extra variant definitions (format: docs/variants.md); its variants
    /// may inherit the built-in ones.
    #[arg(long, global = true)]
    variants_file: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaf nodes of the legal-move tree (move generator test and benchmark).
    Perft(PerftArgs),
    /// Lists the variants kirin knows.
    Variants,
}

#[derive(clap::Args)]
struct PerftArgs {
    /// Variant name (see `kirin variants`).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Position to start from (default: the variant's start position).
    #[arg(long)]
    fen: Option<String>,
    /// A named start position of the variant instead of the default one.
    #[arg(long)]
    start: Option<String>,
    /// Moves to play first, space- or comma-separated, in coordinate notation.
    #[arg(long)]
    moves: Option<String>,
    /// Depth in plies.
    #[arg(long)]
    depth: u32,
    /// Print the count under each root move.
    #[arg(long)]
    divide: bool,
    /// Threads to split the root moves over.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Make and unmake every leaf instead of counting the last ply in bulk.
    #[arg(long)]
    full: bool,
    /// Replace a rule of the variant's definition, e.g. `--rule okazaki=true` or
    /// `--rule promotion=to-zone` (keys: docs/variants.md). May be repeated.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    rules: Vec<String>,
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let (user_text, extra) = match &cli.variants_file {
        Some(path) => match variants::load_file(path) {
            Ok(loaded) => loaded,
            Err(e) => {
                eprintln!("kirin: {e}");
                return ExitCode::from(2);
            }
        },
        None => (String::new(), Vec::new()),
    };
    let result = match cli.command {
        Command::Perft(args) => perft(&user_text, &extra, &args),
        Command::Variants => {
            for v in extra.iter().chain(variants::builtin()) {
                say!(
                    "{:16} {}x{}  {}",
                    v.name,
                    v.geometry.width,
                    v.geometry.height,
                    v.description
                );
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

/// Sets up a position from a variant's start (or a named start, or a FEN) and moves.
pub fn setup<const W: usize>(
    game: &Game<W>,
    fen: Option<&str>,
    start: Option<&str>,
    moves: Option<&str>,
) -> Result<Position<W>, String> {
    let fen = match (fen, start) {
        (Some(_), Some(_)) => return Err("give --fen or --start, not both".into()),
        (Some(f), None) => f.to_string(),
        (None, s) => game
            .spec
            .start_position(s.unwrap_or(""))
            .ok_or_else(|| {
                let names: Vec<&str> = game.spec.starts.iter().map(|(n, _)| n.as_str()).collect();
                format!(
                    "{} has no start position '{}' (named starts: {})",
                    game.spec.name,
                    s.unwrap_or(""),
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                )
            })?
            .to_string(),
    };
    let mut pos = Position::from_fen(game, &fen).map_err(|e| format!("bad FEN: {e}"))?;
    for text in moves
        .unwrap_or("")
        .split([' ', ';'])
        .filter(|t| !t.is_empty())
    {
        let m = game.parse_move(&mut pos, text)?;
        pos.make(game, m);
    }
    Ok(pos)
}

fn perft(
    user_text: &str,
    extra: &[variants::spec::VariantSpec],
    args: &PerftArgs,
) -> Result<(), String> {
    let spec = variants::find_in(extra, &args.variant).map_err(|e| e.to_string())?;
    let spec = if args.rules.is_empty() {
        spec.clone()
    } else {
        variants::with_rules(&spec.name, &args.rules, user_text).map_err(|e| e.to_string())?
    };
    let any = AnyGame::new(&spec).map_err(|e| e.to_string())?;
    with_game!(&any, g => run_perft(g, args))
}

fn run_perft<const W: usize>(game: &Game<W>, args: &PerftArgs) -> Result<(), String> {
    let pos = setup(
        game,
        args.fen.as_deref(),
        args.start.as_deref(),
        args.moves.as_deref(),
    )?;
    let threads = args.threads.max(1);
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
