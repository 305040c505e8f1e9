//! `kirin match`: games between engines over UCI and CECP, refereed by kirin's own rules,
//! with cutechess-cli's options, PGN output, Elo and SPRT; `kirin openings` writes
//! balanced start positions for any game.

pub mod openings;
pub mod pgn;
pub mod stats;

/// `kirin match`'s arguments: cutechess-cli's single-dash options, read by `options`.
#[derive(clap::Args)]
#[command(disable_help_flag = true)]
pub struct MatchArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub args: Vec<String>,
}

pub fn run(_args: &MatchArgs, _variants_file: Option<&std::path::Path>) -> Result<(), String> {
    Err("not yet".into())
}
