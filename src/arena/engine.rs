//! An engine of a match: a child process spoken to over UCI, USI or CECP. The player knows
//! nothing of the game's rules: it sends positions, moves and clocks as text and brings
//! back the engine's move (or resignation, or result claim) as text, with the engine's
//! last reported score and depth. Every wait has a deadline, so a hung engine never
//! hangs the match, and a dead one is noticed at its next read or write.

use super::options::{EngineConfig, Protocol, TimeControl};
use crate::core::{Color, WHITE};
use crate::rules::fen::FenStyle;
use crate::rules::{Game, Position};
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use thiserror::Error;

/// The longest line read from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;
/// How long an engine may take to end after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);
/// The memory, in MiB, given to a CECP engine that asks (`feature memory=1`) when no
/// `memory` setting says otherwise: XBoard's default order of size.
const CECP_MEMORY_MB: u32 = 64;
/// How long a CECP engine may stay silent after `protover 2` before it is taken to
/// speak protocol version 1 (as cutechess and XBoard wait).
const FEATURE_WAIT: Duration = Duration::from_secs(2);

#[derive(Debug, Error, Clone, PartialEq)]
pub enum EngineError {
    #[error("cannot start '{command}': {why}")]
    Start { command: String, why: String },
    #[error("disconnects")]
    Disconnected,
    /// No answer within the deadline: `waiting` says for what.
    #[error("does not answer ({waiting})")]
    Stalled { waiting: String },
    #[error("{0}")]
    Protocol(String),
}

/// One line from the engine, or the end of its output.
enum Output {
    Line(String),
    Closed,
}

/// The engine's process, its input, and its output as lines on a channel (read on a
/// thread of its own so that every wait can time out).
struct Process {
    /// `None` for a scripted engine, which has no process to wait for or kill.
    child: Option<Child>,
    /// The engine's standard input; `None` once closed.
    input: Option<Box<dyn Write + Send>>,
    lines: Receiver<Output>,
    /// Prefix of `-debug` lines, or `None` when quiet.
    debug: Option<String>,
}

impl Process {
    fn start(cfg: &EngineConfig, debug: Option<String>) -> Result<Process, EngineError> {
        let program = cfg.command.first().ok_or_else(|| EngineError::Start {
            command: String::new(),
            why: "no command".into(),
        })?;
        let mut command = Command::new(program);
        command
            .args(&cfg.command[1..])
            .args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        command.stderr(match &cfg.stderr {
            Some(path) => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map(Stdio::from)
                .map_err(|e| EngineError::Start {
                    command: program.clone(),
                    why: format!("stderr file {}: {e}", path.display()),
                })?,
            None => Stdio::null(),
        });
        if let Some(dir) = &cfg.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(|e| EngineError::Start {
            command: cfg.command.join(" "),
            why: e.to_string(),
        })?;
        let stdout = child.stdout.take().ok_or(EngineError::Disconnected)?;
        let (tx, lines) = unbounded();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(line) = read_line(&mut reader) {
                if tx.send(Output::Line(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Output::Closed);
        });
        Ok(Process {
            input: child
                .stdin
                .take()
                .map(|stdin| Box::new(stdin) as Box<dyn Write + Send>),
            child: Some(child),
            lines,
            debug,
        })
    }

    /// An engine that has written `output` and closed it, and whose input goes nowhere:
    /// every line it will ever say is waiting, so no read waits for a deadline.
    fn scripted(output: Vec<String>) -> Process {
        let (tx, lines) = unbounded();
        for line in output {
            let _ = tx.send(Output::Line(line));
        }
        let _ = tx.send(Output::Closed);
        Process {
            child: None,
            input: Some(Box::new(std::io::sink())),
            lines,
            debug: None,
        }
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(prefix) = &self.debug {
            eprintln!("{prefix} < {line}");
        }
        let input = self.input.as_mut().ok_or(EngineError::Disconnected)?;
        writeln!(input, "{line}")
            .and_then(|()| input.flush())
            .map_err(|_| EngineError::Disconnected)
    }

    /// The next line, waiting until `deadline` at most.
    fn recv(&mut self, deadline: Instant, waiting: &str) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Output::Line(line)) => {
                if let Some(prefix) = &self.debug {
                    eprintln!("{prefix} > {line}");
                }
                Ok(line)
            }
            Ok(Output::Closed) | Err(RecvTimeoutError::Disconnected) => {
                Err(EngineError::Disconnected)
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Stalled {
                waiting: waiting.to_string(),
            }),
        }
    }

    /// Asks the engine to quit, and kills it if it has not within a moment.
    fn stop(&mut self, quit: &str) {
        let _ = self.send(quit);
        self.input = None;
        let Some(child) = &mut self.child else { return };
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let Some(child) = &mut self.child else { return };
        if let Ok(None) = child.try_wait() {
            let _ = child.kill();
        }
        let _ = child.wait();
    }
}

/// A line of at most `MAX_LINE` bytes (the rest dropped), without its line end; `None`
/// at the end of the output.
fn read_line(reader: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    let n = reader
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', &mut bytes)
        .ok()?;
    if n == 0 {
        return None;
    }
    if bytes.last() != Some(&b'\n') && n == MAX_LINE {
        // Skip the rest of an overlong line.
        let mut rest = Vec::new();
        let _ = reader.read_until(b'\n', &mut rest);
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// A score as an engine reports it, from its own side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// A mate reported further away than this many moves counts as this far for the
/// adjudication, so that any mate, however distant an engine says it is, stays a large
/// score of the right sign.
const FARTHEST_MATE: u32 = 10_000;

impl Score {
    /// Centipawns, mates as large numbers (for adjudication): a mate in `n` is worth
    /// `100 000 - n`, being mated in `n` the opposite.
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Centipawns(cp) => cp,
            Score::Mate(n) => {
                let value = 100_000 - n.unsigned_abs().min(FARTHEST_MATE) as i32;
                if n >= 0 { value } else { -value }
            }
        }
    }

    /// As cutechess writes it in a PGN comment: `+0.35`, `-1.20`, `+M5`, `-M3`. (Any
    /// number an engine sends is written as it said it, `i32::MIN` too.)
    pub fn pgn(self) -> String {
        match self {
            Score::Centipawns(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let abs = cp.unsigned_abs();
                format!("{sign}{}.{:02}", abs / 100, abs % 100)
            }
            Score::Mate(n) => format!("{}M{}", if n < 0 { '-' } else { '+' }, n.unsigned_abs()),
        }
    }
}

/// What the engine said about its search before it moved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    pub score: Option<Score>,
    pub depth: Option<u32>,
}

/// The words in which UCI and its Shogi dialect USI differ (the rest is the same).
struct Dialect {
    hello: &'static str,
    ok: &'static str,
    new_game: &'static str,
    /// The dialect's own name of the variant option.
    variant_option: &'static str,
    /// `position fen ...` or `position sfen ...`.
    position: &'static str,
    /// The names of White's time and increment in `go`, then Black's: UCI's `wtime` is
    /// White's, USI's `btime` is sente's, the first player's, which is kirin's White.
    clock_names: [(&'static str, &'static str); 2],
}

const UCI: Dialect = Dialect {
    hello: "uci",
    ok: "uciok",
    new_game: "ucinewgame",
    variant_option: "UCI_Variant",
    position: "fen",
    clock_names: [("wtime", "winc"), ("btime", "binc")],
};

const USI: Dialect = Dialect {
    hello: "usi",
    ok: "usiok",
    new_game: "usinewgame",
    variant_option: "USI_Variant",
    position: "sfen",
    clock_names: [("btime", "binc"), ("wtime", "winc")],
};

/// The engine's answer when asked to move.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A move in the engine's text (legs of a CECP multi-leg move already joined).
    Move(String),
    Resign,
    /// A CECP result claim: `1-0`, `0-1` or `1/2-1/2`, and the engine's comment.
    Claim {
        result: String,
        comment: String,
    },
}

/// The clocks when the engine is asked to move.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    /// Time left for the engine and its opponent.
    pub own: Duration,
    pub opponent: Duration,
    /// Moves to the next time control, if the clock has periods.
    pub moves_to_go: Option<u32>,
}

/// What the engine is told about the game it plays: where it starts, and the moves
/// played since (in the engine's own text).
pub struct History<'a> {
    /// The start position's FEN, or `None` for the variant's own start.
    pub fen: Option<&'a str>,
    pub moves: &'a [String],
    /// The side to move is White (CECP's `time`/`otim` need no colour, UCI's do).
    pub white_to_move: bool,
}

/// Features a CECP engine announced.
#[derive(Default)]
struct Features {
    ping: bool,
    setboard: bool,
    memory: bool,
    smp: bool,
    usermove: bool,
    variants: Option<Vec<String>>,
}

/// An engine, started and greeted, ready for games.
pub struct Player {
    pub cfg: EngineConfig,
    process: Process,
    features: Features,
    /// UCI options the engine listed (names only), to say which `option.X` is unknown.
    uci_options: Vec<String>,
    /// UCI: the values of the `UCI_Variant` combo.
    uci_variants: Vec<String>,
    /// UCI and USI: the name under which the engine listed its variant option, if it did
    /// (`USI_Variant` for kirin and Fairy-Stockfish, `UCI_Variant` for an engine that keeps UCI's name).
    variant_option: Option<String>,
    /// The colour the engine plays in the current game (USI's `gameover` is said from
    /// the engine's side).
    side: Color,
    /// CECP: moves of the current game already sent.
    sent: usize,
    /// CECP: the `memory` sent before each game to an engine that asks for it.
    memory_mb: u32,
    ping: u32,
    pub thought: Thought,
}

impl Player {
    /// Starts the engine and greets it in its protocol.
    pub fn start(cfg: &EngineConfig, debug: Option<String>) -> Result<Player, EngineError> {
        Player::greet(cfg, Process::start(cfg, debug)?)
    }

    /// A player whose engine is a script: `output` is everything the engine says, as if
    /// it had said it all at once and then ended, and what the player writes is
    /// discarded. The match runner's fuzz target drives the protocol code with it, with
    /// no process to start and no wait: once the script is read the engine is gone.
    #[doc(hidden)]
    pub fn scripted(cfg: &EngineConfig, output: Vec<String>) -> Result<Player, EngineError> {
        Player::greet(cfg, Process::scripted(output))
    }

    /// Greets the engine in its protocol and sends it the configured options.
    fn greet(cfg: &EngineConfig, process: Process) -> Result<Player, EngineError> {
        let mut player = Player {
            cfg: cfg.clone(),
            process,
            features: Features::default(),
            uci_options: Vec::new(),
            uci_variants: Vec::new(),
            variant_option: None,
            side: WHITE,
            sent: 0,
            memory_mb: CECP_MEMORY_MB,
            ping: 0,
            thought: Thought::default(),
        };
        match cfg.protocol {
            Protocol::Uci | Protocol::Usi => player.greet_uci()?,
            Protocol::Cecp => player.greet_cecp()?,
        }
        player.send_options()?;
        for line in &cfg.init {
            player.process.send(line)?;
        }
        Ok(player)
    }

    /// The `option.NAME=VALUE` settings, right after the handshake (as cutechess sends
    /// them), so that they hold before the first game is set up.
    fn send_options(&mut self) -> Result<(), EngineError> {
        for (name, value) in self.cfg.options.clone() {
            self.set(&name, &value)?;
        }
        Ok(())
    }

    /// Sets one engine option: UCI and USI `setoption` (the engine must have listed it),
    /// CECP `option NAME=VALUE`, except for CECP's own commands of the settings every
    /// GUI gives: `memory` (MiB, sent before each game, as XBoard sends it) and `cores`.
    fn set(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let line = match self.cfg.protocol {
            Protocol::Uci | Protocol::Usi => {
                if !self
                    .uci_options
                    .iter()
                    .any(|o| o.eq_ignore_ascii_case(name))
                {
                    return Err(EngineError::Protocol(format!("has no option '{name}'")));
                }
                format!("setoption name {name} value {value}")
            }
            Protocol::Cecp if name == "memory" || name == "cores" => {
                let (asked, feature) = match name {
                    "memory" => (self.features.memory, "memory"),
                    _ => (self.features.smp, "smp"),
                };
                if !asked {
                    return Err(EngineError::Protocol(format!(
                        "takes no {name} command (no feature {feature}=1)"
                    )));
                }
                let n: u32 = value.parse().ok().filter(|n| *n > 0).ok_or_else(|| {
                    EngineError::Protocol(format!(
                        "{name} must be a positive number, not '{value}'"
                    ))
                })?;
                if name == "cores" {
                    format!("cores {n}")
                } else {
                    // Sent with the next game's set-up, where XBoard sends it.
                    self.memory_mb = n;
                    return Ok(());
                }
            }
            Protocol::Cecp => {
                // CECP's check options take 1 and 0 (cutechess translates the same way).
                let value = match value {
                    "true" => "1",
                    "false" => "0",
                    v => v,
                };
                format!("option {name}={value}")
            }
        };
        self.process.send(&line)
    }

    fn deadline(&self) -> Instant {
        Instant::now() + self.cfg.timeout
    }

    /// The words of the engine's dialect of UCI (USI's for a USI engine).
    fn dialect(&self) -> &'static Dialect {
        match self.cfg.protocol {
            Protocol::Usi => &USI,
            Protocol::Uci | Protocol::Cecp => &UCI,
        }
    }

    fn greet_uci(&mut self) -> Result<(), EngineError> {
        let dialect = self.dialect();
        self.process.send(dialect.hello)?;
        let deadline = self.deadline();
        loop {
            let line = self.process.recv(deadline, dialect.ok)?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some(ok) if ok == dialect.ok => return Ok(()),
                Some("option") => self.read_uci_option(&line),
                _ => {}
            }
        }
    }

    /// Remembers an `option name N type T ... var V ...` line's name and combo values.
    fn read_uci_option(&mut self, line: &str) {
        let Some(rest) = line.split_once(" name ").map(|(_, r)| r) else {
            return;
        };
        let name = rest.split(" type ").next().unwrap_or("").trim().to_string();
        if name == "UCI_Variant" || name == "USI_Variant" {
            // The dialect's own name wins where an engine lists both.
            if self.variant_option.is_none() || name == self.dialect().variant_option {
                self.variant_option = Some(name.clone());
            }
            self.uci_variants = rest
                .split(" var ")
                .skip(1)
                .map(|v| v.split_whitespace().next().unwrap_or("").to_string())
                .collect();
        }
        self.uci_options.push(name);
    }

    fn greet_cecp(&mut self) -> Result<(), EngineError> {
        self.process.send("xboard")?;
        self.process.send("protover 2")?;
        let hard = self.deadline();
        let mut deadline = Instant::now() + FEATURE_WAIT;
        loop {
            let line = match self.process.recv(deadline.min(hard), "feature done=1") {
                Ok(line) => line,
                // No `done=0`: a silent engine speaks protocol version 1.
                Err(EngineError::Stalled { .. }) if deadline < hard => return Ok(()),
                Err(e) => return Err(e),
            };
            if let Some(features) = line.strip_prefix("feature ") {
                match self.read_features(features)? {
                    Some(true) => return Ok(()),
                    Some(false) => deadline = hard,
                    None => {}
                }
            }
        }
    }

    /// Reads one `feature` line, accepting what kirin match uses; `Some(done)` when the
    /// line had `done=`.
    fn read_features(&mut self, text: &str) -> Result<Option<bool>, EngineError> {
        let mut done = None;
        for (name, value) in feature_pairs(text) {
            let on = value == "1";
            let accepted = match name.as_str() {
                "ping" => {
                    self.features.ping = on;
                    true
                }
                "setboard" => {
                    self.features.setboard = on;
                    true
                }
                "memory" => {
                    self.features.memory = on;
                    true
                }
                "smp" => {
                    self.features.smp = on;
                    true
                }
                "usermove" => {
                    self.features.usermove = on;
                    true
                }
                "variants" => {
                    self.features.variants =
                        Some(value.split(',').map(|v| v.trim().to_string()).collect());
                    true
                }
                "done" => {
                    done = Some(on);
                    true
                }
                // Moves are read and written in coordinates only.
                "san" => !on,
                _ => true,
            };
            let word = if accepted { "accepted" } else { "rejected" };
            self.process.send(&format!("{word} {name}"))?;
        }
        Ok(done)
    }

    /// Tells the engine a new game begins, in which it plays `side`: the options of this
    /// game (`cycle.`), then its variant, start and clock.
    pub fn new_game(
        &mut self,
        variant: &str,
        fen: Option<&str>,
        settings: &[(String, String)],
        side: Color,
    ) -> Result<(), EngineError> {
        self.side = side;
        self.sent = 0;
        self.thought = Thought::default();
        for (name, value) in settings {
            self.set(name, value)?;
        }
        match self.cfg.protocol {
            Protocol::Uci | Protocol::Usi => self.new_game_uci(variant),
            Protocol::Cecp => self.new_game_cecp(variant, fen),
        }
    }

    fn new_game_uci(&mut self, variant: &str) -> Result<(), EngineError> {
        let dialect = self.dialect();
        let option = self
            .variant_option
            .clone()
            .unwrap_or_else(|| dialect.variant_option.to_string());
        if !is_chess(variant) || !self.uci_variants.is_empty() {
            if !self.uci_variants.iter().any(|v| v == variant) {
                if is_chess(variant) {
                    // An engine of variants whose chess has another name plays its default.
                } else {
                    return Err(EngineError::Protocol(format!(
                        "does not play the variant '{variant}' (its {option} values: {})",
                        self.uci_variants.join(" ")
                    )));
                }
            } else {
                self.process
                    .send(&format!("setoption name {option} value {variant}"))?;
            }
        }
        self.process.send(dialect.new_game)?;
        self.sync()
    }

    fn new_game_cecp(&mut self, variant: &str, fen: Option<&str>) -> Result<(), EngineError> {
        // An engine that asks for its memory gets it before every game, as XBoard gives it
        // (HaChu allocates its table, which its move legality needs, only then).
        if self.features.memory {
            self.process.send(&format!("memory {}", self.memory_mb))?;
        }
        self.process.send("new")?;
        if !is_chess(variant) {
            if let Some(list) = &self.features.variants
                && !list.iter().any(|v| v == variant)
            {
                return Err(EngineError::Protocol(format!(
                    "does not play the variant '{variant}' (its variants: {})",
                    list.join(",")
                )));
            }
            self.process.send(&format!("variant {variant}"))?;
        }
        self.process.send("force")?;
        if let Some(fen) = fen {
            if !self.features.setboard {
                return Err(EngineError::Protocol(
                    "cannot take a start position (no setboard feature)".into(),
                ));
            }
            self.process.send(&format!("setboard {fen}"))?;
        }
        self.send_cecp_clock()?;
        self.process.send("post")?;
        self.process.send("easy")?;
        self.sync()
    }

    fn send_cecp_clock(&mut self) -> Result<(), EngineError> {
        if let Some(tc) = self.cfg.tc {
            self.process.send(&cecp_level(&tc))?;
        } else if let Some(st) = self.cfg.movetime {
            // `st` takes whole seconds; a fraction is rounded up (the referee's clock
            // still allows only the time given).
            self.process
                .send(&format!("st {}", st.as_secs_f64().ceil().max(1.0)))?;
        }
        if let Some(depth) = self.cfg.depth {
            self.process.send(&format!("sd {depth}"))?;
        }
        if self.cfg.nodes.is_some() {
            return Err(EngineError::Protocol(
                "nodes= is a UCI limit; CECP has none".into(),
            ));
        }
        Ok(())
    }

    /// Waits until the engine has read everything sent (`isready` / `ping`), so that an
    /// error it answers is seen before the game starts.
    fn sync(&mut self) -> Result<(), EngineError> {
        let deadline = self.deadline();
        match self.cfg.protocol {
            Protocol::Uci | Protocol::Usi => {
                self.process.send("isready")?;
                loop {
                    if self.process.recv(deadline, "readyok")?.trim() == "readyok" {
                        return Ok(());
                    }
                }
            }
            Protocol::Cecp => {
                if !self.features.ping {
                    return Ok(());
                }
                self.ping += 1;
                let want = format!("pong {}", self.ping);
                self.process.send(&format!("ping {}", self.ping))?;
                loop {
                    let line = self.process.recv(deadline, &want)?;
                    let line = line.trim();
                    if line == want {
                        return Ok(());
                    }
                    if let Some(e) = cecp_error(line) {
                        return Err(EngineError::Protocol(e));
                    }
                    // Before a game, an engine that tells the user of an error has refused
                    // what it was sent (HaChu, a `setboard` in letters it does not read; it
                    // may then exit, and "disconnects" would not say why).
                    if let Some(message) = line.strip_prefix("tellusererror") {
                        return Err(EngineError::Protocol(format!(
                            "rejects what it was sent: {}",
                            message.trim()
                        )));
                    }
                }
            }
        }
    }

    /// Asks the engine for its move and waits for it until `deadline`.
    pub fn think(
        &mut self,
        history: &History,
        clocks: Option<Clocks>,
        deadline: Instant,
    ) -> Result<Reply, EngineError> {
        self.thought = Thought::default();
        match self.cfg.protocol {
            Protocol::Uci | Protocol::Usi => self.think_uci(history, clocks, deadline),
            Protocol::Cecp => self.think_cecp(history, clocks, deadline),
        }
    }

    fn think_uci(
        &mut self,
        history: &History,
        clocks: Option<Clocks>,
        deadline: Instant,
    ) -> Result<Reply, EngineError> {
        let mut position = match history.fen {
            Some(fen) => format!("position {} {fen}", self.dialect().position),
            None => "position startpos".to_string(),
        };
        if !history.moves.is_empty() {
            position += " moves ";
            position += &history.moves.join(" ");
        }
        self.process.send(&position)?;
        self.process.send(&self.uci_go(history, clocks))?;
        loop {
            let line = self.process.recv(deadline, "bestmove")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => self.read_uci_info(&line),
                Some("bestmove") => {
                    let usi = self.cfg.protocol == Protocol::Usi;
                    return match words.next() {
                        Some("resign") if usi => Ok(Reply::Resign),
                        // USI's claim of a win by declaration (Shogi's entering-king rule):
                        // checked as a CECP claim is, so a false one loses.
                        Some("win") if usi => Ok(Reply::Claim {
                            result: if history.white_to_move { "1-0" } else { "0-1" }.into(),
                            comment: "bestmove win".into(),
                        }),
                        Some(m) if m != "(none)" && m != "0000" => Ok(Reply::Move(m.to_string())),
                        other => Err(EngineError::Protocol(format!(
                            "answers 'bestmove {}' in a position with legal moves",
                            other.unwrap_or("")
                        ))),
                    };
                }
                _ => {}
            }
        }
    }

    fn uci_go(&self, history: &History, clocks: Option<Clocks>) -> String {
        let mut go = String::from("go");
        if let (Some(c), Some(tc)) = (clocks, self.cfg.tc) {
            let ms = |d: Duration| d.as_millis();
            let (w, b) = if history.white_to_move {
                (c.own, c.opponent)
            } else {
                (c.opponent, c.own)
            };
            let [(w_time, w_inc), (b_time, b_inc)] = self.dialect().clock_names;
            go += &format!(
                " {w_time} {} {b_time} {} {w_inc} {} {b_inc} {}",
                ms(w),
                ms(b),
                ms(tc.inc),
                ms(tc.inc)
            );
            if self.cfg.protocol == Protocol::Usi {
                // Shogi's clocks have a byoyomi; these have none (the increment stands).
                go += " byoyomi 0";
            }
            if let Some(n) = c.moves_to_go {
                go += &format!(" movestogo {n}");
            }
        }
        if let Some(st) = self.cfg.movetime {
            go += &format!(" movetime {}", st.as_millis());
        }
        if let Some(d) = self.cfg.depth {
            go += &format!(" depth {d}");
        }
        if let Some(n) = self.cfg.nodes {
            go += &format!(" nodes {n}");
        }
        go
    }

    fn read_uci_info(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut i = 1;
        while i + 1 < words.len() {
            let value = words[i + 1];
            match words[i] {
                "depth" => self.thought.depth = value.parse().ok(),
                "score" if i + 2 < words.len() => {
                    let n = words[i + 2].parse().ok();
                    self.thought.score = match value {
                        "cp" => n.map(Score::Centipawns),
                        // USI counts a mate in plies, UCI in moves.
                        "mate" if self.cfg.protocol == Protocol::Usi => n.map(|plies: i32| {
                            Score::Mate(plies.signum() * plies.unsigned_abs().div_ceil(2) as i32)
                        }),
                        "mate" => n.map(Score::Mate),
                        _ => self.thought.score,
                    };
                    i += 1;
                }
                // The rest of the line is the variation or free text.
                "pv" | "string" => return,
                _ => {}
            }
            i += 1;
        }
    }

    fn think_cecp(
        &mut self,
        history: &History,
        clocks: Option<Clocks>,
        deadline: Instant,
    ) -> Result<Reply, EngineError> {
        // The engine stays in force mode between its moves: the opponent's moves are
        // sent, then the clocks, then `go`.
        for m in &history.moves[self.sent.min(history.moves.len())..] {
            let line = if self.features.usermove {
                format!("usermove {m}")
            } else {
                m.clone()
            };
            self.process.send(&line)?;
        }
        self.sent = history.moves.len();
        if let (Some(c), Some(_)) = (clocks, self.cfg.tc) {
            let cs = |d: Duration| d.as_millis() / 10;
            self.process.send(&format!("time {}", cs(c.own)))?;
            self.process.send(&format!("otim {}", cs(c.opponent)))?;
        }
        self.process.send("go")?;
        let mut legs = String::new();
        loop {
            let line = self.process.recv(deadline, "move")?;
            let line = line.trim();
            if let Some(m) = line.strip_prefix("move ") {
                let m = m.trim();
                legs += m;
                // A multi-leg move comes one leg per line, all but the last ending in a
                // comma (as HaChu and kirin send Lion moves).
                if m.ends_with(',') {
                    continue;
                }
                self.process.send("force")?;
                self.sent += 1;
                return Ok(Reply::Move(std::mem::take(&mut legs)));
            }
            if line == "resign" {
                return Ok(Reply::Resign);
            }
            if let Some((result, comment)) = cecp_claim(line) {
                return Ok(Reply::Claim { result, comment });
            }
            if let Some(e) = cecp_error(line) {
                return Err(EngineError::Protocol(e));
            }
            self.read_cecp_thinking(line);
        }
    }

    /// A thinking line: `depth score time nodes pv...` (score in centipawns; mates as
    /// 100000 + moves, as XBoard reads them).
    fn read_cecp_thinking(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let depth = words.next().and_then(|d| {
            d.trim_end_matches(|c: char| !c.is_ascii_digit())
                .parse()
                .ok()
        });
        let Some(depth) = depth else { return };
        let Some(score) = words.next().and_then(|s| s.parse::<i32>().ok()) else {
            return;
        };
        // Time and nodes follow; the referee keeps its own clock.
        let score = match score {
            s if s >= 100_000 => Score::Mate(s - 100_000),
            s if s <= -100_000 => Score::Mate(s + 100_000),
            s => Score::Centipawns(s),
        };
        self.thought = Thought {
            score: Some(score),
            depth: Some(depth),
        };
    }

    /// Tells a CECP or USI engine how the game ended (UCI has no word for it); the
    /// engine stays for the next game.
    pub fn game_over(&mut self, result: &str, comment: &str) -> Result<(), EngineError> {
        match self.cfg.protocol {
            Protocol::Cecp => self.process.send(&format!("result {result} {{{comment}}}")),
            Protocol::Usi => match usi_game_over(result, self.side) {
                Some(word) => self.process.send(&format!("gameover {word}")),
                None => Ok(()),
            },
            Protocol::Uci => Ok(()),
        }
    }

    /// Tells the engine how the game ended, then stops it.
    pub fn finish(mut self, result: Option<(&str, &str)>) {
        if let Some((result, comment)) = result {
            let _ = self.game_over(result, comment);
        }
        self.process.stop("quit");
    }
}

/// USI's word for `result` (`1-0`, `0-1`, `1/2-1/2`) from the side of the engine that
/// played `side`; `None` for a game without a result.
fn usi_game_over(result: &str, side: Color) -> Option<&'static str> {
    let won = if side == WHITE { "1-0" } else { "0-1" };
    match result {
        "1/2-1/2" => Some("draw"),
        "1-0" | "0-1" if result == won => Some("win"),
        "1-0" | "0-1" => Some("lose"),
        _ => None,
    }
}

/// `pos` as an engine speaking `protocol` is given it: kirin's FEN over UCI, SFEN over
/// USI, the XBoard-styled FEN over CECP.
pub fn position_text<const W: usize>(
    game: &Game<W>,
    pos: &Position<W>,
    protocol: Protocol,
) -> String {
    match protocol {
        Protocol::Uci => pos.to_fen(game),
        Protocol::Usi => game.sfen(pos),
        Protocol::Cecp => pos.to_fen_styled(game, FenStyle::Xboard),
    }
}

/// True for the names of orthodox chess (no `variant` command, no `UCI_Variant`).
pub fn is_chess(variant: &str) -> bool {
    matches!(variant, "standard" | "chess" | "normal")
}

/// CECP's `level MPS BASE INC`, the base in minutes or `minutes:seconds`.
fn cecp_level(tc: &TimeControl) -> String {
    let secs = tc.base.as_secs();
    let base = if secs.is_multiple_of(60) && tc.base.subsec_millis() == 0 {
        (secs / 60).to_string()
    } else if tc.base.subsec_millis() == 0 {
        format!("{}:{:02}", secs / 60, secs % 60)
    } else {
        // XBoard's level has whole seconds; a fraction goes to the engine as the
        // nearest second above (the referee's clock keeps the real base).
        let up = tc.base.as_secs_f64().ceil() as u64;
        format!("{}:{:02}", up / 60, up % 60)
    };
    format!(
        "level {} {base} {}",
        tc.moves,
        super::options::trim_float(tc.inc.as_secs_f64())
    )
}

/// The `name=value` pairs of a CECP `feature` line (values quoted or not).
fn feature_pairs(text: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut rest = text.trim();
    while let Some((name, after)) = rest.split_once('=') {
        let name = name.trim().to_string();
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.split_once('"') {
                Some((v, n)) => (v.to_string(), n),
                None => (quoted.to_string(), ""),
            }
        } else {
            match after.split_once(char::is_whitespace) {
                Some((v, n)) => (v.to_string(), n),
                None => (after.to_string(), ""),
            }
        };
        pairs.push((name, value));
        rest = next.trim_start();
    }
    pairs
}

/// A CECP result claim: `1-0 {comment}`, `0-1 {...}`, `1/2-1/2 {...}`.
fn cecp_claim(line: &str) -> Option<(String, String)> {
    let (result, rest) = line.split_once(' ').unwrap_or((line, ""));
    if !matches!(result, "1-0" | "0-1" | "1/2-1/2") {
        return None;
    }
    let comment = rest.trim().trim_start_matches('{').trim_end_matches('}');
    Some((result.to_string(), comment.to_string()))
}

/// The engine saying a command of ours was wrong: `Illegal move...` or `Error (...)`.
fn cecp_error(line: &str) -> Option<String> {
    (line.starts_with("Illegal move") || line.starts_with("Error"))
        .then(|| format!("rejects what it was sent: {line}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_told_to_the_user_while_a_game_is_set_up_is_a_refusal() {
        let words = ["cmd=engine", "proto=xboard"].map(String::from);
        let cfg = super::super::options::engine("-engine", &words).unwrap();
        let script = [
            "feature ping=1 setboard=1 done=1",
            "tellusererror Unknown piece 'x'",
        ];
        let mut player = Player::scripted(&cfg, script.map(String::from).to_vec()).unwrap();
        let refused = player.new_game("chu", Some("12/12 w - - 0 1"), &[], crate::core::WHITE);
        match refused {
            Err(EngineError::Protocol(why)) => assert!(why.contains("Unknown piece 'x'"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn feature_lines() {
        let f = feature_pairs(r#"ping=1 setboard=1 variants="normal,chu" myname="Ha Chu" done=1"#);
        assert_eq!(f[2], ("variants".to_string(), "normal,chu".to_string()));
        assert_eq!(f[3].1, "Ha Chu");
        assert_eq!(f[4], ("done".to_string(), "1".to_string()));
    }

    #[test]
    fn claims_and_levels() {
        assert_eq!(
            cecp_claim("1/2-1/2 {Draw by repetition}"),
            Some(("1/2-1/2".into(), "Draw by repetition".into()))
        );
        assert_eq!(cecp_claim("12 34 5 6 e2e4"), None);
        let tc = TimeControl::parse("40/90+0.5").unwrap().unwrap();
        assert_eq!(cecp_level(&tc), "level 40 1:30 0.5");
        let tc = TimeControl::parse("10+0.1").unwrap().unwrap();
        assert_eq!(cecp_level(&tc), "level 0 0:10 0.1");
        assert_eq!(Score::Centipawns(-5).pgn(), "-0.05");
        assert_eq!(Score::Mate(3).pgn(), "+M3");
    }

    /// The extreme numbers an engine may send (the engine-output fuzz target sends them):
    /// written as sent, and a distant mate still counts for the side it favours.
    #[test]
    fn extreme_scores() {
        assert_eq!(Score::Centipawns(i32::MIN).pgn(), "-21474836.48");
        assert_eq!(Score::Mate(i32::MIN).pgn(), "-M2147483648");
        assert_eq!(Score::Mate(-3).centipawns(), -99_997);
        assert_eq!(Score::Mate(i32::MIN + 100_000).centipawns(), -90_000);
        assert_eq!(Score::Mate(i32::MAX).centipawns(), 90_000);
    }
}
