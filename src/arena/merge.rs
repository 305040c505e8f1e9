//! `kirin match --merge FILE...`: the PGNs of a match's shards read back as one match.
//! The games are ordered by their `Round` (the game's number in the whole match), the
//! first engine is game 1's White, game pairs are counted by number as the match made
//! them (`-repeat` as given to the shards), and the SPRT (`-sprt` as given) is reported
//! on the whole. Every game is also replayed under kirin's rules for its `Variant` tag
//! (chess without one): a move kirin cannot read or finds illegal is an error naming the
//! file and game, so a merge also proves the shards' moves (or another runner's PGN, such
//! as cutechess-cli's) sound.

use super::options::MatchConfig;
use super::pgn::{PgnGame, parse_pgn, write_pgn};
use super::report::Standings;
use super::tournament::{Job, pair_of};
use crate::variants::AnyGame;
use crate::with_width;

pub fn run(cfg: &MatchConfig, variants_file: Option<&std::path::Path>) -> Result<(), String> {
    let mut games: Vec<(Option<u64>, PgnGame)> = Vec::new();
    for path in &cfg.merge {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let read = parse_pgn(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        games.extend(
            read.into_iter()
                .map(|g| (g.tag("Round").and_then(|r| r.parse::<u64>().ok()), g)),
        );
    }
    let mut compiled = std::collections::HashMap::new();
    for (i, (_, g)) in games.iter().enumerate() {
        check_moves(g, cfg, variants_file, &mut compiled)
            .map_err(|e| format!("game {} read: {e}", i + 1))?;
    }
    say!(
        "Replayed {} games under kirin's rules: every move legal",
        games.len()
    );
    if let Some(i) = (1..games.len()).find(|&i| games[..i].iter().any(|(_, g)| *g == games[i].1)) {
        return Err(format!(
            "game {} read appears twice (a shard merged twice?)",
            i + 1
        ));
    }
    let games = number_games(games);
    let mut names: Vec<String> = Vec::new();
    let mut index = |name: &str| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    };
    let mut jobs = Vec::new();
    for (round, g) in &games {
        let white = index(g.tag("White").unwrap_or("?"));
        let black = index(g.tag("Black").unwrap_or("?"));
        jobs.push((
            Job {
                number: *round,
                white,
                black,
                pair: pair_of(*round, cfg.repeat),
                opening: 0,
            },
            g.result.clone(),
        ));
    }
    let mut standings = Standings::new(names, cfg.sprt);
    for (job, result) in &jobs {
        if matches!(result.as_str(), "1-0" | "0-1" | "1/2-1/2") {
            standings.add(job, result);
        }
    }
    say!(
        "Merged {} games from {} files",
        standings.games(),
        cfg.merge.len()
    );
    standings.print();
    if let Some(path) = &cfg.pgnout {
        let text: String = games.iter().map(|(_, g)| write_pgn(g)).collect();
        std::fs::write(path, text).map_err(|e| format!("-pgnout {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Replays a game's moves under kirin's rules for its variant (with `-rule` choices when
/// it is `-variant`'s), compiling each variant once.
fn check_moves(
    g: &PgnGame,
    cfg: &MatchConfig,
    variants_file: Option<&std::path::Path>,
    compiled: &mut std::collections::HashMap<String, AnyGame>,
) -> Result<(), String> {
    let name = g.tag("Variant").unwrap_or("standard").to_string();
    if !compiled.contains_key(&name) {
        let rules = if name == cfg.variant {
            cfg.rules.as_slice()
        } else {
            &[]
        };
        compiled.insert(
            name.clone(),
            super::compile_variant(&name, rules, variants_file)?,
        );
    }
    let any = &compiled[&name];
    with_width!(any, game => {
        let start = game
            .spec
            .start_position("")
            .ok_or_else(|| format!("{name} has no start position"))?
            .to_string();
        super::pgn::replay(game, g, &start).map(|_| ()).map_err(|e| e.to_string())
    })
}

/// The games in match order with their numbers: by the `Round` tag where it numbers the
/// games (kirin match writes the game's number there); where it does not (cutechess
/// writes the round, shared by the games of an encounter), in the order read, which
/// keeps a runner's pairs together.
fn number_games(games: Vec<(Option<u64>, PgnGame)>) -> Vec<(u64, PgnGame)> {
    let mut rounds: Vec<u64> = games.iter().filter_map(|(r, _)| *r).collect();
    rounds.sort_unstable();
    let distinct = rounds.len() == games.len() && rounds.windows(2).all(|w| w[0] != w[1]);
    if !distinct {
        say!("The Round tags do not number the games one by one: games taken in the order read");
        return games
            .into_iter()
            .enumerate()
            .map(|(i, (_, g))| (i as u64 + 1, g))
            .collect();
    }
    let mut numbered: Vec<(u64, PgnGame)> = games
        .into_iter()
        .map(|(r, g)| (r.unwrap_or(0), g))
        .collect();
    numbered.sort_by_key(|(round, _)| *round);
    numbered
}
