//! `kirin match --merge FILE...`: the PGNs of a match's shards read back as one match.
//! The games are ordered by their `Round` (the game's number in the whole match), the
//! first engine is game 1's White, game pairs are counted by number as the match made
//! them (`-repeat` as given to the shards), and the SPRT (`-sprt` as given) is reported
//! on the whole.

use super::options::MatchConfig;
use super::pgn::{PgnGame, parse_pgn, write_pgn};
use super::report::Standings;
use super::tournament::Job;

pub fn run(cfg: &MatchConfig) -> Result<(), String> {
    let mut games: Vec<(u64, PgnGame)> = Vec::new();
    for path in &cfg.merge {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (i, g) in parse_pgn(&text)
            .map_err(|e| format!("{}: {e}", path.display()))?
            .into_iter()
            .enumerate()
        {
            let round = g
                .tag("Round")
                .and_then(|r| r.parse::<u64>().ok())
                .ok_or_else(|| {
                    format!(
                        "{} game {}: no game number in its Round tag",
                        path.display(),
                        i + 1
                    )
                })?;
            games.push((round, g));
        }
    }
    games.sort_by_key(|(round, _)| *round);
    if let Some(w) = games.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!(
            "game {} appears twice (a shard merged twice?)",
            w[0].0
        ));
    }
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
                pair: (round - 1) / u64::from(cfg.repeat),
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
