//! `kirin match`'s command line, read the way cutechess-cli reads its own: single-dash
//! options, each followed by its values, and `key=value` words for engines, openings,
//! adjudication and SPRT. clap cannot express this grammar (an option's values are
//! `key=value` words up to the next option), so the words are read here, by hand, with
//! an error that names the option and the word for anything not understood.

use super::stats::Sprt;
use std::path::PathBuf;
use std::time::Duration;
use thiserror::Error;

#[derive(Debug, Error, PartialEq)]
pub enum OptionError {
    #[error("unknown option '{0}' (kirin match takes cutechess-cli's options; see docs/match.md)")]
    Unknown(String),
    #[error("{option}: '{word}' is not understood ({why})")]
    Bad {
        option: String,
        word: String,
        why: String,
    },
    #[error("{0}")]
    Missing(String),
}

fn bad(option: &str, word: &str, why: impl Into<String>) -> OptionError {
    OptionError::Bad {
        option: option.to_string(),
        word: word.to_string(),
        why: why.into(),
    }
}

/// How an engine is spoken to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    /// UCI's Shogi dialect: SFEN positions and USI move text, for the games SFEN fits.
    Usi,
    Cecp,
}

/// A game clock: `moves` moves (0: the whole game) in `base`, plus `inc` per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub moves: u32,
    pub base: Duration,
    pub inc: Duration,
}

impl TimeControl {
    /// cutechess's form `[moves/]time[+increment]`, the time in seconds or `minutes:seconds`;
    /// `inf` is no clock (`None`).
    pub fn parse(text: &str) -> Result<Option<TimeControl>, String> {
        if text == "inf" || text == "infinite" {
            return Ok(None);
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (
                m.parse::<u32>()
                    .map_err(|_| format!("'{m}' is not a number of moves"))?,
                r,
            ),
            None => (0, text),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        Ok(Some(TimeControl {
            moves,
            base: seconds_or_clock(base)?,
            inc: seconds(inc)?,
        }))
    }

    /// The PGN `TimeControl` tag: `moves/seconds+increment` (cutechess's form).
    pub fn pgn(&self) -> String {
        let mut s = String::new();
        if self.moves > 0 {
            s += &format!("{}/", self.moves);
        }
        s += &trim_float(self.base.as_secs_f64());
        if !self.inc.is_zero() {
            s += &format!("+{}", trim_float(self.inc.as_secs_f64()));
        }
        s
    }
}

/// A number without a trailing `.0` (`10`, `0.1`).
pub fn trim_float(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Seconds as a non-negative number below a million (a day is 86400).
pub fn seconds(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e6)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("'{text}' is not a number of seconds"))
}

fn seconds_or_clock(text: &str) -> Result<Duration, String> {
    match text.split_once(':') {
        Some((m, s)) => {
            let minutes = m
                .parse::<u32>()
                .ok()
                .filter(|m| *m < 10_000)
                .ok_or_else(|| format!("'{text}' is not minutes:seconds"))?;
            Ok(Duration::from_secs(u64::from(minutes) * 60) + seconds(s)?)
        }
        None => seconds(text),
    }
}

/// One engine of the match, as `-engine` and `-each` describe it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    pub name: Option<String>,
    /// The program and its arguments, `cmd=` split as a shell would.
    pub command: Vec<String>,
    /// More arguments (`arg=`), after those of `cmd=`.
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// `option.NAME=VALUE`, sent as UCI `setoption` or CECP `option`.
    pub options: Vec<(String, String)>,
    /// `cycle.NAME=V1,V2,...` (kirin's addition): options set anew before every game,
    /// each game taking the next value of its list, round and round.
    pub cycles: Vec<(String, Vec<String>)>,
    /// `restart=on` (cutechess's default): a new process for every game; `restart=off`:
    /// the process plays on from game to game (`Player` says when it is replaced).
    pub restart: bool,
    pub tc: Option<TimeControl>,
    /// `st=`: a fixed time per move.
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Time an engine may overrun its clock before it loses on time (`timemargin=` ms).
    pub time_margin: Duration,
    /// The engine's own name for the variant when it differs from kirin's (`variant=`,
    /// kirin's addition: Fairy-Stockfish calls Sho `shoshogi`).
    pub variant: Option<String>,
    /// The named start position of the variant the engine takes as its own (`start=`,
    /// kirin's addition: XBoard engines start Courier from XBoard's array, `start=xboard`);
    /// a game from any other position is sent to it as a FEN.
    pub start: Option<String>,
    /// Lines sent right after the handshake (`initstr=`).
    pub init: Vec<String>,
    /// Where the engine's standard error goes (`stderr=FILE`; default: discarded).
    pub stderr: Option<PathBuf>,
    /// Longest wait for an answer that no clock bounds (handshake, `isready`, a search
    /// limited by depth or nodes): `timeout=` seconds, kirin's addition.
    pub timeout: Duration,
}

impl EngineConfig {
    fn empty() -> EngineConfig {
        EngineConfig {
            name: None,
            command: Vec::new(),
            args: Vec::new(),
            dir: None,
            protocol: Protocol::Uci,
            options: Vec::new(),
            cycles: Vec::new(),
            restart: true,
            tc: None,
            movetime: None,
            depth: None,
            nodes: None,
            time_margin: Duration::ZERO,
            variant: None,
            start: None,
            init: Vec::new(),
            stderr: None,
            timeout: Duration::from_secs(60),
        }
    }

    /// The name the engine plays under: `name=`, else the program's file name.
    pub fn display_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            self.command
                .first()
                .map(|c| {
                    std::path::Path::new(c)
                        .file_name()
                        .map_or(c.clone(), |f| f.to_string_lossy().into_owned())
                })
                .unwrap_or_default()
        })
    }

    /// The `cycle.` options for the engine's `game`-th game (from 0) on its worker: each
    /// list's value at that index, modulo the list's length.
    pub fn cycled(&self, game: u64) -> Vec<(String, String)> {
        self.cycles
            .iter()
            .map(|(name, values)| {
                let i = (game % values.len() as u64) as usize;
                (name.clone(), values[i].clone())
            })
            .collect()
    }

    /// Applies one `key=value` word.
    fn set(&mut self, option: &str, word: &str) -> Result<(), OptionError> {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| bad(option, word, "engine settings are key=value"))?;
        let number = |what: &str| bad(option, word, format!("{key} takes {what}"));
        match key {
            "name" => self.name = Some(value.to_string()),
            "cmd" => self.command = split_command(value),
            "arg" => self.args.push(value.to_string()),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "proto" => {
                self.protocol = match value {
                    "uci" => Protocol::Uci,
                    "usi" => Protocol::Usi,
                    "xboard" | "cecp" => Protocol::Cecp,
                    _ => return Err(bad(option, word, "proto is uci, usi or xboard")),
                }
            }
            "tc" => self.tc = TimeControl::parse(value).map_err(|e| bad(option, word, e))?,
            "st" => self.movetime = Some(seconds(value).map_err(|e| bad(option, word, e))?),
            "depth" => {
                self.depth = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|d| (1..=1000).contains(d))
                        .ok_or_else(|| number("a depth from 1 to 1000"))?,
                )
            }
            "nodes" => {
                self.nodes = Some(
                    value
                        .parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| number("a positive number"))?,
                )
            }
            "timemargin" => {
                self.time_margin =
                    Duration::from_millis(value.parse().map_err(|_| number("milliseconds"))?)
            }
            "timeout" => {
                self.timeout = seconds(value).map_err(|e| bad(option, word, e))?;
            }
            "variant" => self.variant = Some(value.to_string()),
            "start" => self.start = Some(value.to_string()),
            "initstr" => self.init.extend(value.split("\\n").map(str::to_string)),
            "stderr" => self.stderr = Some(PathBuf::from(value)),
            "restart" => {
                self.restart = match value {
                    "on" => true,
                    "off" => false,
                    _ => return Err(bad(option, word, "restart is on or off")),
                }
            }
            // cutechess's settings whose effect kirin match always has or never needs:
            // every engine reports scores from its own side, and none ponders.
            "trust" | "whitepov" | "ponder" | "book" | "bookdepth" | "tscale" | "tmargin" => {}
            _ if key.starts_with("option.") => {
                let name = &key["option.".len()..];
                if name.is_empty() {
                    return Err(bad(option, word, "option. needs a name"));
                }
                self.options.push((name.to_string(), value.to_string()));
            }
            _ if key.starts_with("cycle.") => {
                let name = &key["cycle.".len()..];
                let values: Vec<String> = value.split(',').map(str::to_string).collect();
                if name.is_empty() || values.iter().any(String::is_empty) {
                    return Err(bad(
                        option,
                        word,
                        "cycle.NAME takes values apart by commas, none empty",
                    ));
                }
                // A later word for the same option replaces the earlier (as -engine's
                // words override -each's).
                self.cycles.retain(|(n, _)| n != name);
                self.cycles.push((name.to_string(), values));
            }
            _ => return Err(bad(option, word, "unknown engine setting")),
        }
        Ok(())
    }
}

/// Splits a command as a shell would: words apart by spaces, quotes group, a backslash
/// escapes the next character.
pub fn split_command(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quote, mut started, mut escaped) = (None, false, false);
    for c in text.chars() {
        if escaped {
            word.push(c);
            escaped = false;
            continue;
        }
        match (c, quote) {
            ('\\', q) if q != Some('\'') => escaped = true,
            ('"' | '\'', None) => {
                quote = Some(c);
                started = true;
            }
            (c, Some(q)) if c == q => quote = None,
            (' ' | '\t', None) => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    Epd,
    Pgn,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OpeningsConfig {
    pub file: PathBuf,
    pub format: OpeningFormat,
    pub random: bool,
    /// Plies of a PGN opening to play (all of them by default).
    pub plies: Option<usize>,
    /// The first opening to use, from 1.
    pub start: usize,
}

/// `-draw`: a draw when both engines' scores stay within `score` centipawns for
/// `movecount` consecutive moves each, from move `movenumber` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// `-resign`: an engine whose score stays at `-score` centipawns or below for
/// `movecount` consecutive moves loses (with `twosided`, only when its opponent's score
/// agrees).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    Gauntlet,
}

/// Everything `kirin match` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    pub variant: String,
    /// `-start NAME`: the variant's named start the games begin from when no opening
    /// says otherwise (kirin's `--start`).
    pub start: Option<String>,
    /// `-rule KEY=VALUE`: a rule choice of the variant (kirin's `--rule`).
    pub rules: Vec<String>,
    pub variants_file: Option<PathBuf>,
    pub games: u32,
    pub rounds: u32,
    /// Games played from each opening (`-repeat`: 2; `-repeat N`).
    pub repeat: u32,
    pub concurrency: usize,
    pub openings: Option<OpeningsConfig>,
    pub pgnout: Option<PathBuf>,
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    pub maxmoves: Option<u32>,
    pub recover: bool,
    pub sprt: Option<Sprt>,
    pub rating_interval: u32,
    pub format: Format,
    pub event: String,
    pub site: String,
    pub seed: u64,
    /// Games are not reversed in colour within an encounter (`-noswap`).
    pub noswap: bool,
    /// This run plays shard `i` of `n` (from 1): the game pairs whose index is `i - 1`
    /// modulo `n`.
    pub shard: Option<(u32, u32)>,
    /// `--merge FILE...`: combine shard PGNs instead of playing.
    pub merge: Vec<PathBuf>,
    /// Print every line that crosses an engine's pipes (`-debug`).
    pub debug: bool,
    /// Milliseconds to wait between games (`-wait`).
    pub wait: Duration,
}

impl MatchConfig {
    fn defaults() -> MatchConfig {
        MatchConfig {
            engines: Vec::new(),
            variant: "standard".into(),
            start: None,
            rules: Vec::new(),
            variants_file: None,
            games: 1,
            rounds: 1,
            repeat: 1,
            concurrency: 1,
            openings: None,
            pgnout: None,
            draw: None,
            resign: None,
            maxmoves: None,
            recover: false,
            sprt: None,
            rating_interval: 10,
            format: Format::RoundRobin,
            event: "?".into(),
            site: "?".into(),
            seed: 0,
            noswap: false,
            shard: None,
            merge: Vec::new(),
            debug: false,
            wait: Duration::ZERO,
        }
    }
}

/// Reads `kirin match`'s words.
pub fn parse(args: &[String]) -> Result<MatchConfig, OptionError> {
    let mut cfg = MatchConfig::defaults();
    let mut each: Vec<String> = Vec::new();
    let mut engine_words: Vec<Vec<String>> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let option = args[i].as_str();
        i += 1;
        // The option's values: the words up to the next option.
        let start = i;
        while i < args.len() && !is_option(&args[i]) {
            i += 1;
        }
        let values = &args[start..i];
        apply(&mut cfg, option, values, &mut each, &mut engine_words)?;
    }
    for words in engine_words {
        let words: Vec<String> = each.iter().chain(&words).cloned().collect();
        cfg.engines.push(engine("-engine", &words)?);
    }
    check(&cfg)?;
    Ok(cfg)
}

/// An engine described by `key=value` words as `-engine` takes them (`cmd=` needed),
/// `option` naming where they were given in an error.
pub fn engine(option: &str, words: &[String]) -> Result<EngineConfig, OptionError> {
    let mut engine = EngineConfig::empty();
    for w in words {
        engine.set(option, w)?;
    }
    if engine.command.is_empty() {
        return Err(OptionError::Missing(format!(
            "{option}: every engine needs cmd=PROGRAM"
        )));
    }
    Ok(engine)
}

/// An option word: a dash and a letter (`-games`, `--merge`), not a negative number.
fn is_option(word: &str) -> bool {
    let body = word.trim_start_matches('-');
    word.starts_with('-') && body.starts_with(|c: char| c.is_ascii_alphabetic())
}

fn apply(
    cfg: &mut MatchConfig,
    option: &str,
    values: &[String],
    each: &mut Vec<String>,
    engines: &mut Vec<Vec<String>>,
) -> Result<(), OptionError> {
    let one = || -> Result<&str, OptionError> {
        match values {
            [v] => Ok(v.as_str()),
            _ => Err(OptionError::Missing(format!("{option} takes one value"))),
        }
    };
    let count = |min: u32| -> Result<u32, OptionError> {
        let v = one()?;
        v.parse::<u32>()
            .ok()
            .filter(|n| *n >= min && *n <= 1_000_000)
            .ok_or_else(|| bad(option, v, format!("a number from {min} to 1000000")))
    };
    match option.trim_start_matches('-') {
        "engine" => engines.push(values.to_vec()),
        "each" => each.extend(values.iter().cloned()),
        "variant" => cfg.variant = one()?.to_string(),
        "rule" => cfg.rules.extend(values.iter().cloned()),
        "start" => cfg.start = Some(one()?.to_string()),
        "variants-file" | "variants_file" => cfg.variants_file = Some(PathBuf::from(one()?)),
        "games" => cfg.games = count(1)?,
        "rounds" => cfg.rounds = count(1)?,
        "repeat" => {
            cfg.repeat = if values.is_empty() { 2 } else { count(1)? };
        }
        "concurrency" => cfg.concurrency = count(1)?.min(256) as usize,
        "openings" => cfg.openings = Some(openings(option, values)?),
        "pgnout" => match values {
            [file, ..] => cfg.pgnout = Some(PathBuf::from(file)),
            [] => return Err(OptionError::Missing("-pgnout takes a file".into())),
        },
        "draw" => cfg.draw = Some(draw(option, values)?),
        "resign" => cfg.resign = Some(resign(option, values)?),
        "maxmoves" => cfg.maxmoves = Some(count(1)?),
        "recover" => cfg.recover = true,
        "sprt" => cfg.sprt = Some(sprt(option, values)?),
        "ratinginterval" => cfg.rating_interval = count(0)?,
        "tournament" => {
            cfg.format = match one()? {
                "round-robin" => Format::RoundRobin,
                "gauntlet" => Format::Gauntlet,
                v => return Err(bad(option, v, "round-robin or gauntlet")),
            }
        }
        "event" => cfg.event = values.join(" "),
        "site" => cfg.site = values.join(" "),
        "srand" => {
            let v = one()?;
            cfg.seed = v.parse().map_err(|_| bad(option, v, "a number"))?;
        }
        "noswap" => cfg.noswap = true,
        "debug" => cfg.debug = true,
        "wait" => cfg.wait = Duration::from_millis(u64::from(count(0)?)),
        "shard" => {
            let v = one()?;
            let parsed = v
                .split_once('/')
                .and_then(|(i, n)| Some((i.parse::<u32>().ok()?, n.parse::<u32>().ok()?)))
                .filter(|(i, n)| *i >= 1 && i <= n);
            cfg.shard = Some(parsed.ok_or_else(|| bad(option, v, "i/n with 1 <= i <= n"))?);
        }
        "merge" => cfg.merge.extend(values.iter().map(PathBuf::from)),
        // cutechess options whose effect does not apply: kirin match keeps no opening book,
        // no tablebases and no engine configuration file.
        "recover-all" => cfg.recover = true,
        _ => return Err(OptionError::Unknown(option.to_string())),
    }
    Ok(())
}

/// `key=value` words into a map-like lookup, rejecting unknown keys.
fn pairs<'a>(
    option: &str,
    values: &'a [String],
    known: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, OptionError> {
    values
        .iter()
        .map(|w| {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| bad(option, w, "expected key=value"))?;
            if known.contains(&k) {
                Ok((k, v))
            } else {
                Err(bad(option, w, format!("keys are {}", known.join(", "))))
            }
        })
        .collect()
}

fn openings(option: &str, values: &[String]) -> Result<OpeningsConfig, OptionError> {
    let mut o = OpeningsConfig {
        file: PathBuf::new(),
        format: OpeningFormat::Pgn,
        random: false,
        plies: None,
        start: 1,
    };
    let known = ["file", "format", "order", "plies", "start", "policy"];
    for (k, v) in pairs(option, values, &known)? {
        let word = format!("{k}={v}");
        match k {
            "file" => o.file = PathBuf::from(v),
            "format" => {
                o.format = match v {
                    "epd" => OpeningFormat::Epd,
                    "pgn" => OpeningFormat::Pgn,
                    _ => return Err(bad(option, &word, "format is epd or pgn")),
                }
            }
            "order" => {
                o.random = match v {
                    "random" => true,
                    "sequential" => false,
                    _ => return Err(bad(option, &word, "order is random or sequential")),
                }
            }
            "plies" => {
                o.plies = Some(v.parse().map_err(|_| bad(option, &word, "a number"))?);
            }
            "start" => {
                o.start = v
                    .parse()
                    .ok()
                    .filter(|s| *s >= 1)
                    .ok_or_else(|| bad(option, &word, "a number from 1"))?;
            }
            // Each opening is played `-repeat` times in a row whatever the policy.
            _ => {}
        }
    }
    if o.file.as_os_str().is_empty() {
        return Err(OptionError::Missing("-openings needs file=FILE".into()));
    }
    Ok(o)
}

fn number<T: std::str::FromStr>(option: &str, key: &str, value: &str) -> Result<T, OptionError> {
    value
        .parse()
        .map_err(|_| bad(option, &format!("{key}={value}"), "a number"))
}

fn draw(option: &str, values: &[String]) -> Result<DrawRule, OptionError> {
    let mut d = DrawRule {
        movenumber: 0,
        movecount: 1,
        score: 0,
    };
    for (k, v) in pairs(option, values, &["movenumber", "movecount", "score"])? {
        match k {
            "movenumber" => d.movenumber = number(option, k, v)?,
            "movecount" => d.movecount = number(option, k, v)?,
            _ => d.score = number(option, k, v)?,
        }
    }
    Ok(d)
}

fn resign(option: &str, values: &[String]) -> Result<ResignRule, OptionError> {
    let mut r = ResignRule {
        movecount: 1,
        score: 0,
        twosided: false,
    };
    for (k, v) in pairs(option, values, &["movecount", "score", "twosided"])? {
        match k {
            "movecount" => r.movecount = number(option, k, v)?,
            "score" => r.score = number(option, k, v)?,
            _ => r.twosided = v == "true",
        }
    }
    Ok(r)
}

fn sprt(option: &str, values: &[String]) -> Result<Sprt, OptionError> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, None, None);
    for (k, v) in pairs(option, values, &["elo0", "elo1", "alpha", "beta"])? {
        let x: f64 = number(option, k, v)?;
        match k {
            "elo0" => elo0 = Some(x),
            "elo1" => elo1 = Some(x),
            "alpha" => alpha = Some(x),
            _ => beta = Some(x),
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err(OptionError::Missing("-sprt needs elo0= and elo1=".into()));
    };
    Sprt::new(elo0, elo1, alpha.unwrap_or(0.05), beta.unwrap_or(0.05))
        .map_err(|e| bad(option, &values.join(" "), e))
}

/// What must hold between the options.
fn check(cfg: &MatchConfig) -> Result<(), OptionError> {
    if !cfg.merge.is_empty() {
        return Ok(());
    }
    if cfg.engines.len() < 2 {
        return Err(OptionError::Missing(
            "a match needs at least two -engine options".into(),
        ));
    }
    for e in &cfg.engines {
        if e.tc.is_none() && e.movetime.is_none() && e.depth.is_none() && e.nodes.is_none() {
            return Err(OptionError::Missing(format!(
                "engine {} has no time control: give tc=, st=, depth= or nodes= (with -each for all)",
                e.display_name()
            )));
        }
    }
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        return Err(OptionError::Missing(
            "-sprt needs exactly two engines".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        split_command(text)
    }

    #[test]
    fn a_cutechess_command_line_reads() {
        let cfg = parse(&words(
            "-variant courier -engine cmd=./kirin proto=uci name=kirin \
             -engine cmd=/usr/games/fairy-stockfish proto=uci \"option.Hash=32\" \
             -each tc=40/1:30+0.5 timemargin=50 -games 20 -repeat -recover \
             -openings file=o.epd format=epd order=random -pgnout out.pgn \
             -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 \
             -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -concurrency 2 -maxmoves 300",
        ))
        .unwrap();
        assert_eq!(cfg.engines.len(), 2);
        assert_eq!(cfg.engines[0].display_name(), "kirin");
        assert_eq!(cfg.engines[1].display_name(), "fairy-stockfish");
        assert_eq!(cfg.engines[1].options, vec![("Hash".into(), "32".into())]);
        let tc = cfg.engines[0].tc.unwrap();
        assert_eq!(
            (tc.moves, tc.base.as_secs(), tc.inc.as_millis()),
            (40, 90, 500)
        );
        assert_eq!(tc.pgn(), "40/90+0.5");
        assert_eq!(cfg.engines[1].time_margin, Duration::from_millis(50));
        assert_eq!((cfg.games, cfg.repeat, cfg.concurrency), (20, 2, 2));
        assert!(cfg.recover && cfg.openings.as_ref().unwrap().random);
        assert_eq!(cfg.draw.unwrap().score, 10);
        assert_eq!(cfg.maxmoves, Some(300));
    }

    #[test]
    fn mistakes_are_named() {
        let e = parse(&words("-engine cmd=a -engine cmd=b -each tc=1 -gmes 3")).unwrap_err();
        assert_eq!(e, OptionError::Unknown("-gmes".into()));
        let e = parse(&words("-engine cmd=a tc=x -engine cmd=b tc=1")).unwrap_err();
        assert!(e.to_string().contains("tc=x"), "{e}");
        let e = parse(&words("-engine cmd=a -engine cmd=b")).unwrap_err();
        assert!(e.to_string().contains("time control"), "{e}");
        assert!(parse(&words("-engine cmd=a -each tc=1")).is_err());
        assert!(
            parse(&words(
                "-engine cmd=a -engine cmd=b -each tc=1 -sprt elo0=5 elo1=0"
            ))
            .is_err()
        );
        assert!(parse(&words("-engine cmd=a -engine cmd=b -each tc=1 -shard 3/2")).is_err());
        assert!(parse(&words("-engine cmd=a -engine cmd=b -each st=-1")).is_err());
    }

    #[test]
    fn cycled_options_take_the_next_value_each_game() {
        let cfg = parse(&words(
            "-engine cmd=a restart=off cycle.Hash=1,16,64 -engine cmd=b \
             -each tc=1 cycle.Threads=1,2 cycle.Hash=8",
        ))
        .unwrap();
        let a = &cfg.engines[0];
        assert!(!a.restart && cfg.engines[1].restart);
        let pair = |n: &str, v: &str| (n.to_string(), v.to_string());
        assert_eq!(a.cycled(0), [pair("Threads", "1"), pair("Hash", "1")]);
        assert_eq!(a.cycled(4), [pair("Threads", "1"), pair("Hash", "16")]);
        assert_eq!(a.cycled(5), [pair("Threads", "2"), pair("Hash", "64")]);
        assert_eq!(
            cfg.engines[1].cycled(7),
            [pair("Threads", "2"), pair("Hash", "8")]
        );
        for wrong in [
            "cycle.Hash=",
            "cycle.Hash=1,,2",
            "cycle.=1",
            "restart=maybe",
        ] {
            let e = parse(&words(&format!(
                "-engine cmd=a {wrong} -engine cmd=b -each tc=1"
            )));
            assert!(e.is_err(), "{wrong}");
        }
    }

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(
            split_command(r#"kirin --variants-file "my games.toml" a\ b 'c d'"#),
            ["kirin", "--variants-file", "my games.toml", "a b", "c d"]
        );
        assert!(split_command("  ").is_empty());
    }

    #[test]
    fn time_controls() {
        assert_eq!(TimeControl::parse("inf"), Ok(None));
        let tc = TimeControl::parse("10+0.1").unwrap().unwrap();
        assert_eq!(
            (tc.moves, tc.base.as_secs(), tc.inc.as_millis()),
            (0, 10, 100)
        );
        assert_eq!(tc.pgn(), "10+0.1");
        assert!(TimeControl::parse("x/10").is_err());
        assert!(TimeControl::parse("1e9").is_err());
    }
}
