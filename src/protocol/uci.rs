//! UCI, as Fairy-Stockfish speaks it for variants: `UCI_Variant` lists every variant,
//! `startpos` is each variant's default start (Courier's historical one), ranks are
//! written 1..17, multi-leg moves in the comma form. Errors become `info string` lines;
//! the engine never stops reading.

use super::session::{Session, wire_move};
use super::{Input, say};
use crate::search::limits::Limits;
use crate::search::score_text;
use crate::search::tt::Table;
use crate::variants::{self, spec::VariantSpec};
use crate::with_session;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

const MAX_HASH_MB: usize = 65536;
const MAX_THREADS: usize = 256;

pub struct Uci {
    session: Session,
    /// A user's variants (`--variants-file`), besides the built-in ones.
    extra: Vec<VariantSpec>,
    variant: String,
    threads: usize,
    multipv: usize,
    hash_mb: usize,
    tt: Arc<Table>,
    stop: Arc<AtomicBool>,
    pondering: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
}

impl Default for Uci {
    fn default() -> Self {
        Self::new()
    }
}

impl Uci {
    pub fn new() -> Uci {
        Self::with_variants(Vec::new())
    }

    /// A session that knows `extra` besides the built-in variants.
    pub fn with_variants(extra: Vec<VariantSpec>) -> Uci {
        let variant = "chess".to_string();
        let spec = variants::find(&variant).expect("chess is built in");
        Uci {
            session: Session::new(spec).expect("built-in variants compile"),
            extra,
            variant,
            threads: 1,
            multipv: 1,
            hash_mb: 16,
            tt: Arc::new(Table::new(16)),
            stop: Arc::new(AtomicBool::new(false)),
            pondering: Arc::new(AtomicBool::new(false)),
            search: None,
        }
    }

    /// Runs until `quit` or the end of input.
    pub fn run(&mut self, input: &Input) {
        self.identify();
        while let Ok(line) = input.recv() {
            if !self.command(line.trim()) {
                break;
            }
        }
        self.stop_search();
    }

    fn identify(&self) {
        say(&format!("id name kirin {}", env!("CARGO_PKG_VERSION")));
        say("id author the kirin developers");
        let names: Vec<String> = variants::builtin()
            .iter()
            .chain(&self.extra)
            .map(|v| format!("var {}", v.name))
            .collect();
        say(&format!(
            "option name UCI_Variant type combo default chess {}",
            names.join(" ")
        ));
        say(&format!(
            "option name Hash type spin default 16 min 1 max {MAX_HASH_MB}"
        ));
        say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        say("option name MultiPV type spin default 1 min 1 max 64");
        say("option name Ponder type check default false");
        say("uciok");
    }

    /// Handles one command; false on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match cmd {
            "" => {}
            "uci" => self.identify(),
            "isready" => say("readyok"),
            "setoption" => self.set_option(rest),
            "ucinewgame" => {
                self.stop_search();
                self.tt.clear();
            }
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => self.stop_search(),
            "ponderhit" => self.pondering.store(false, Ordering::Relaxed),
            "quit" => return false,
            "d" => with_session!(&self.session, s => {
                say(&crate::cli_search::board_text(&s.game, &s.pos))
            }),
            _ => say(&format!("info string unknown command '{cmd}'")),
        }
        true
    }

    fn stop_search(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
    }

    fn set_option(&mut self, rest: &str) {
        let Some(after_name) = rest.strip_prefix("name ") else {
            say("info string error: setoption needs 'name NAME [value VALUE]'");
            return;
        };
        let (name, value) = match after_name.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (after_name.trim(), ""),
        };
        self.stop_search();
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match variants::find_in(&self.extra, value).and_then(Session::new) {
                Ok(session) => {
                    self.session = session;
                    self.variant = value.to_string();
                    let (w, h) =
                        with_session!(&self.session, s => (s.game.geo.width, s.game.geo.height));
                    say(&format!(
                        "info string variant {value} files {w} ranks {h} startpos {}",
                        with_session!(&self.session, s => s.game.spec.start.clone())
                    ));
                }
                Err(e) => say(&format!("info string error: {e}")),
            },
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                    self.hash_mb = mb;
                    self.tt = Arc::new(Table::new(mb));
                }
                _ => say(&format!(
                    "info string error: Hash must be 1..{MAX_HASH_MB}, not '{value}'"
                )),
            },
            "threads" => match value.parse::<usize>() {
                Ok(t) if (1..=MAX_THREADS).contains(&t) => self.threads = t,
                _ => say(&format!(
                    "info string error: Threads must be 1..{MAX_THREADS}, not '{value}'"
                )),
            },
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=64).contains(&n) => self.multipv = n,
                _ => say(&format!(
                    "info string error: MultiPV must be 1..64, not '{value}'"
                )),
            },
            "ponder" => {}
            _ => say(&format!("info string error: unknown option '{name}'")),
        }
    }

    fn position(&mut self, rest: &str) {
        self.stop_search();
        let (setup, moves) = match rest.split_once(" moves") {
            Some((s, m)) => (s.trim(), m.trim()),
            None => (rest.trim(), ""),
        };
        let fen = if setup == "startpos" {
            None
        } else if let Some(f) = setup.strip_prefix("fen ") {
            Some(f.trim())
        } else {
            say("info string error: position needs 'startpos' or 'fen FEN'");
            return;
        };
        let result = with_session!(&mut self.session, s => {
            let backup = (s.pos.clone(), s.played.len());
            let r = s.set_position(fen).and_then(|_| {
                for text in moves.split_whitespace() {
                    let m = s.parse(text)?;
                    s.play(m);
                }
                Ok(())
            });
            if r.is_err() && backup.1 == 0 {
                s.pos = backup.0;
            }
            r
        });
        if let Err(e) = result {
            say(&format!("info string error: {e}"));
        }
    }

    fn go(&mut self, rest: &str) {
        self.stop_search();
        let words: Vec<&str> = rest.split_whitespace().collect();
        let white = with_session!(&self.session, s => s.pos.side == 0);
        let mut limits = Limits {
            multipv: self.multipv,
            ..Default::default()
        };
        let mut ponder = false;
        let mut i = 0;
        let number = |i: usize| words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
        while i < words.len() {
            let n = number(i);
            let ms = n.map(Duration::from_millis);
            match (words[i], n) {
                ("infinite", _) => limits.infinite = true,
                ("ponder", _) => ponder = true,
                ("depth", Some(d)) => limits.depth = Some(d.min(100) as i32),
                ("nodes", Some(v)) => limits.nodes = Some(v),
                ("movetime", Some(_)) => limits.movetime = ms,
                ("wtime", Some(_)) if white => limits.time = ms,
                ("btime", Some(_)) if !white => limits.time = ms,
                ("winc", Some(_)) if white => limits.inc = ms.unwrap_or_default(),
                ("binc", Some(_)) if !white => limits.inc = ms.unwrap_or_default(),
                ("wtime" | "btime" | "winc" | "binc", Some(_)) => {}
                ("movestogo", Some(v)) => limits.movestogo = Some(v.min(1000) as u32),
                ("perft", Some(d)) => return self.perft(d.min(20) as u32),
                (w, _) if w.parse::<u64>().is_ok() => {}
                (w, _) => {
                    say(&format!("info string error: go: unexpected '{w}'"));
                    return;
                }
            }
            i += if n.is_some() { 2 } else { 1 };
        }
        if ponder {
            self.pondering.store(true, Ordering::Relaxed);
            limits.pondering = Some(self.pondering.clone());
        }
        self.stop.store(false, Ordering::Relaxed);
        let (stop, pondering) = (self.stop.clone(), self.pondering.clone());
        let infinite = limits.infinite;
        let handle = with_session!(&self.session, s => s.spawn_search(
            limits,
            self.threads,
            self.tt.clone(),
            self.stop.clone(),
            Box::new(|game, i| {
                let secs = i.time.as_secs_f64().max(1e-3);
                let pv: Vec<String> = i.pv.iter().map(|&m| wire_move(game, m, None)).collect();
                say(&format!(
                    "info depth {} seldepth {} multipv {} score {} nodes {} nps {:.0} hashfull {} time {} pv {}",
                    i.depth, i.seldepth, i.multipv, score_text(i.score), i.nodes,
                    i.nodes as f64 / secs, i.hashfull, i.time.as_millis(), pv.join(" ")
                ));
            }),
            Box::new(move |game, r| {
                let wire = |m| wire_move(game, m, None);
                // UCI: no bestmove before `stop` or `ponderhit` in infinite or ponder mode.
                while (infinite || pondering.load(Ordering::Relaxed)) && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                match r.best {
                    Some(b) => match r.ponder {
                        Some(p) => say(&format!("bestmove {} ponder {}", wire(b), wire(p))),
                        None => say(&format!("bestmove {}", wire(b))),
                    },
                    None => say("bestmove (none)"),
                }
            }),
        ));
        self.search = Some(handle);
    }

    fn perft(&mut self, depth: u32) {
        with_session!(&self.session, s => {
            let counts = s.game.divide(&s.pos, depth, true, self.threads);
            for (m, n) in &counts {
                say(&format!("{}: {n}", s.wire(*m, None)));
            }
            let total: u64 = if depth == 0 { 1 } else { counts.iter().map(|c| c.1).sum() };
            say(&format!("\nNodes searched: {total}\n"));
        });
    }
}
