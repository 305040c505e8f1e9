//! (being written)
use crate::variants::AnyGame;

#[derive(clap::Args)]
pub struct OpeningsArgs {
    #[arg(long, default_value = crate::cli::DEFAULT_VARIANT)]
    pub variant: String,
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
}

pub fn run(_game: &AnyGame, _args: &OpeningsArgs) -> Result<(), String> {
    Err("not yet".into())
}
