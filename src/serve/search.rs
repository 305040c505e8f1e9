//! kirin thinking for the board: a move for a side it plays, and live analysis over a
//! WebSocket. Searches run on the search's own threads (large stacks), never on the
//! server's; a search whose requester has gone away is stopped.

use super::api::{App, MAX_DEPTH, score_json};
use super::game::{GameRequest, Library};
use crate::core::Move;
use crate::protocol::session::{GameState, Session};
use crate::rules::Game;
use crate::search::limits::Limits;
use crate::search::memory::Memory;
use crate::search::tt::Table;
use crate::search::{Info, SearchFault, SearchResult};
use crate::with_width;
use axum::extract::ws::{Message, WebSocket};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use thiserror::Error;
use tokio::sync::{Semaphore, SemaphorePermit, mpsc, oneshot};

/// The table of one search (MiB): the board's searches are short.
const TABLE_MB: usize = 16;
/// Searches for moves that run at once; more wait their turn.
const MOVE_SEARCHES: usize = 2;
/// Analyses that run at once (one per WebSocket).
const ANALYSES: usize = 4;
/// An analysis stops by itself after this long.
pub const MAX_ANALYSIS: Duration = Duration::from_secs(300);
/// The largest message the analysis socket reads.
pub const MAX_MESSAGE: usize = 64 << 10;
/// The most principal variations an analysis shows.
const MAX_MULTIPV: usize = 8;

/// The limits on kirin's thinking shared by all requests.
pub struct Thinking {
    moves: Semaphore,
    analyses: Arc<AtomicUsize>,
}

impl Thinking {
    pub fn new() -> Thinking {
        Thinking {
            moves: Semaphore::new(MOVE_SEARCHES),
            analyses: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Waits for a turn to search a move.
    pub async fn permit(&self) -> SemaphorePermit<'_> {
        self.moves
            .acquire()
            .await
            .expect("the semaphore is never closed")
    }
}

/// Sets the stop flag when dropped: a search outlives no request.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Why kirin has no move for the page.
#[derive(Debug, Error)]
pub enum MoveError {
    /// The position has no legal move.
    #[error("kirin found no move")]
    NoMove,
    /// The search panicked (and caught it).
    #[error(transparent)]
    Fault(SearchFault),
    /// The search's thread ended without answering.
    #[error("internal error: the search ended without an answer")]
    Lost,
}

/// kirin's turn in the session's position, as the page reads it.
pub async fn best_turn(session: Session, limits: Limits) -> Result<Value, MoveError> {
    let stop = Arc::new(AtomicBool::new(false));
    let _guard = StopOnDrop(stop.clone());
    let (tx, rx) = oneshot::channel();
    with_width!(&session, s => {
        let pos = s.pos.clone();
        s.spawn_search(
            limits,
            1,
            Arc::new(Table::new(TABLE_MB)),
            Arc::new(Memory::new()),
            stop,
            Box::new(|_, _| {}),
            Box::new(move |g, r| {
                let answer = match r.fault {
                    Some(fault) => Err(MoveError::Fault(fault)),
                    None => turn_json(g, pos, &r).ok_or(MoveError::NoMove),
                };
                let _ = tx.send(answer);
            }),
        );
    });
    rx.await.unwrap_or(Err(MoveError::Lost))
}

fn turn_json<const W: usize>(
    g: &Game<W>,
    mut pos: crate::rules::Position<W>,
    r: &SearchResult,
) -> Option<Value> {
    r.best?;
    let turn = &r.turn;
    let san = g.san(&mut pos, turn);
    Some(json!({
        "actions": turn.iter().map(|m| m.bits()).collect::<Vec<_>>(),
        "text": crate::rules::notation::wire_turn(g, turn, None),
        "san": san,
        "score": score_json(r.score),
        "depth": r.depth,
        "nodes": r.nodes,
        "time_ms": r.time.as_millis() as u64,
    }))
}

/// What the page sends on the analysis socket.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisCommand {
    analyse: Option<GameRequest>,
    multipv: Option<usize>,
    stop: Option<bool>,
}

/// A running analysis: its stop flag and the signal of its end.
struct Running {
    stop: Arc<AtomicBool>,
    done: oneshot::Receiver<()>,
}

impl Running {
    async fn finish(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.done.await;
    }
}

/// What woke the analysis socket's loop.
enum Event {
    FromPage(String),
    ToPage(Value),
    Closed,
}

/// Serves one analysis socket until the page closes it. Each message from the page
/// first ends the running analysis and drops what it had still to say, so that every
/// line the page reads after its message is about the position it sent (each line also
/// carries that position's FEN).
pub async fn analysis_socket(mut socket: WebSocket, app: Arc<App>) {
    let (out_tx, mut out_rx) = mpsc::unbounded_channel::<Value>();
    let mut running: Option<Running> = None;
    loop {
        let event = tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(t))) => Event::FromPage(t.to_string()),
                Some(Ok(Message::Binary(_))) => Event::FromPage(String::new()),
                // Pings are answered by the socket itself.
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                _ => Event::Closed,
            },
            Some(value) = out_rx.recv() => Event::ToPage(value),
        };
        match event {
            Event::Closed => break,
            Event::ToPage(value) => {
                if socket
                    .send(Message::Text(value.to_string().into()))
                    .await
                    .is_err()
                {
                    break;
                }
            }
            Event::FromPage(text) => {
                if let Some(r) = running.take() {
                    r.finish().await;
                    while out_rx.try_recv().is_ok() {}
                }
                let answer = match command(&text) {
                    Err(why) => Some(error(&why)),
                    Ok(None) => Some(json!({"type": "done"})),
                    Ok(Some((game, multipv))) => {
                        match start(&app.library, &app.thinking, &game, multipv, out_tx.clone()) {
                            Ok(r) => {
                                running = Some(r);
                                None
                            }
                            Err(why) => Some(error(&why)),
                        }
                    }
                };
                if let Some(a) = answer {
                    let _ = out_tx.send(a);
                }
            }
        }
    }
    if let Some(r) = running {
        r.finish().await;
    }
}

fn error(why: &str) -> Value {
    json!({"type": "error", "message": why})
}

/// The game and MultiPV a message asks to analyse, or `None` for a stop.
pub fn command(text: &str) -> Result<Option<(GameRequest, usize)>, String> {
    let c: AnalysisCommand = serde_json::from_str(text).map_err(|e| format!("bad message: {e}"))?;
    match (c.analyse, c.stop) {
        (Some(game), None | Some(false)) => {
            let multipv = c.multipv.unwrap_or(1);
            if !(1..=MAX_MULTIPV).contains(&multipv) {
                return Err(format!("multipv {multipv} is not 1 to {MAX_MULTIPV}"));
            }
            Ok(Some((game, multipv)))
        }
        (None, Some(true)) => Ok(None),
        _ => Err("send {\"analyse\": GAME, \"multipv\": N} or {\"stop\": true}".to_string()),
    }
}

/// Starts analysing `game`, sending each iteration's lines to `out`.
fn start(
    library: &Library,
    thinking: &Thinking,
    game: &GameRequest,
    multipv: usize,
    out: mpsc::UnboundedSender<Value>,
) -> Result<Running, String> {
    let session = library.open(game).map_err(|e| e.to_string())?;
    let running = thinking.analyses.fetch_add(1, Ordering::SeqCst);
    if running >= ANALYSES {
        thinking.analyses.fetch_sub(1, Ordering::SeqCst);
        return Err(format!("{ANALYSES} analyses are running already"));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let (done_tx, done_rx) = oneshot::channel();
    let limits = Limits {
        depth: Some(MAX_DEPTH),
        movetime: Some(MAX_ANALYSIS),
        multipv,
        ..Default::default()
    };
    let over = with_width!(&session, s => {
        let mut pos = s.pos.clone();
        s.game.outcome(&mut pos).map(|o| o.reason)
    });
    if let Some(reason) = over {
        thinking.analyses.fetch_sub(1, Ordering::SeqCst);
        return Err(format!("the game is over ({reason})"));
    }
    let counter = thinking.analyses.clone();
    with_width!(&session, s => spawn_analysis(s, limits, stop.clone(), out, move || {
        counter.fetch_sub(1, Ordering::SeqCst);
        let _ = done_tx.send(());
    }));
    Ok(Running {
        stop,
        done: done_rx,
    })
}

fn spawn_analysis<const W: usize>(
    s: &GameState<W>,
    limits: Limits,
    stop: Arc<AtomicBool>,
    out: mpsc::UnboundedSender<Value>,
    finished: impl FnOnce() + Send + 'static,
) {
    let pos = s.pos.clone();
    let fen = pos.to_fen(&s.game);
    let fen_done = fen.clone();
    let done_out = out.clone();
    s.spawn_search(
        limits,
        1,
        Arc::new(Table::new(TABLE_MB)),
        Arc::new(Memory::new()),
        stop,
        Box::new(move |g, info| {
            let _ = out.send(info_json(g, &pos, &fen, info));
        }),
        Box::new(move |_, r| {
            if let Some(fault) = r.fault {
                let _ = done_out.send(error(&fault.to_string()));
            }
            let _ = done_out.send(json!({"type": "done", "fen": fen_done}));
            finished();
        }),
    );
}

fn info_json<const W: usize>(
    g: &Game<W>,
    pos: &crate::rules::Position<W>,
    fen: &str,
    info: &Info,
) -> Value {
    let mut p = pos.clone();
    let pv_san: Vec<String> = info
        .turns
        .iter()
        .map(|turn| {
            let san = g.san(&mut p, turn);
            for &m in turn {
                p.make(g, m);
            }
            san
        })
        .collect();
    let ms = info.time.as_millis().max(1) as u64;
    json!({
        "type": "info",
        "fen": fen,
        "multipv": info.multipv,
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": score_json(info.score),
        "nodes": info.nodes,
        "nps": info.nodes * 1000 / ms,
        "time_ms": ms,
        "pv": info.pv.iter().map(|m: &Move| m.bits()).collect::<Vec<_>>(),
        "pv_san": pv_san,
    })
}
