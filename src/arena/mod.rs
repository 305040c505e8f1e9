//! `kirin match`: games between engines over UCI, USI and CECP, refereed by kirin's own rules,
//! with cutechess-cli's options, PGN output, Elo and SPRT; `kirin openings` writes
//! balanced start positions for any game.

pub mod engine;
pub mod merge;
pub mod openings;
pub mod options;
pub mod pgn;
pub mod referee;
pub mod report;
pub mod stats;
pub mod tournament;

use crate::variants::{self, AnyGame};
use crate::with_width;

/// `kirin match`'s arguments: cutechess-cli's single-dash options, read by `options`.
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub struct MatchArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<String>,
}

/// Runs `kirin match` (or `kirin match --merge`).
pub fn run(args: &MatchArgs, variants_file: Option<&std::path::Path>) -> Result<(), String> {
    let cfg = options::parse(&args.args).map_err(|e| e.to_string())?;
    if !cfg.merge.is_empty() {
        return merge::run(&cfg, cfg.variants_file.as_deref().or(variants_file));
    }
    let any = compile(&cfg, variants_file)?;
    let standings = with_width!(&any, g => {
        usi_fits(g, &cfg)?;
        let openings = tournament::load_openings(g, &cfg)?;
        let whole = options::MatchConfig { shard: None, ..cfg.clone() };
        let total = tournament::schedule(&whole, openings.len()).len() as u64;
        let shard = tournament::schedule(&cfg, openings.len());
        let starts = tournament::Starts::new(g, &cfg)?;
        tournament::play(g, &cfg, &openings, &starts, shard, total)?
    });
    say!("Finished match ({} games)", standings.games());
    Ok(())
}

/// Refuses a match in which a USI engine would play a game that SFEN cannot carry (pieces
/// in hand, castling...): such an engine could not be told the positions.
fn usi_fits<const W: usize>(
    game: &crate::rules::Game<W>,
    cfg: &options::MatchConfig,
) -> Result<(), String> {
    for e in cfg
        .engines
        .iter()
        .filter(|e| e.protocol == options::Protocol::Usi)
    {
        game.sfen_support()
            .map_err(|why| format!("{} cannot play over USI: {why}", e.display_name()))?;
    }
    Ok(())
}

/// The game the match plays: `-variant` (cutechess's `standard` is kirin's `chess`) with
/// `-rule` choices, from the built-in games or a `--variants-file`.
fn compile(
    cfg: &options::MatchConfig,
    variants_file: Option<&std::path::Path>,
) -> Result<AnyGame, String> {
    compile_variant(
        &cfg.variant,
        &cfg.rules,
        cfg.variants_file.as_deref().or(variants_file),
    )
}

/// Compiles the game named `name` (cutechess's `standard` is kirin's `chess`) with `rules`
/// replaced, from the built-in games or a variants file.
pub fn compile_variant(
    name: &str,
    rules: &[String],
    file: Option<&std::path::Path>,
) -> Result<AnyGame, String> {
    let (user_text, extra) = match file {
        Some(path) => variants::load_file(path).map_err(|e| e.to_string())?,
        None => (String::new(), Vec::new()),
    };
    let name = if engine::is_chess(name) {
        "chess"
    } else {
        name
    };
    let spec =
        variants::find_with_rules(&extra, name, rules, &user_text).map_err(|e| e.to_string())?;
    AnyGame::new(&spec).map_err(|e| e.to_string())
}
