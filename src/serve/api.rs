//! The board's requests: the games, a game's state, kirin's move, PGN out and in.
//! Every handler answers a bad request with status 400 and `{"error": "why"}`, and a bug
//! of kirin's (a search that panicked, or a handler: `super::answer_panic`) with 500.

use super::game::{GameError, GameRequest, Library, state_view};
use super::search::{self, MoveError, Thinking};
use crate::arena::pgn::{self, PgnGame, PgnMove};
use crate::core::Move;
use crate::protocol::session::GameState;
use crate::search::MATE_BOUND;
use crate::with_width;
use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

/// What every handler shares.
pub struct App {
    pub library: Library,
    pub thinking: Thinking,
}

impl App {
    /// The server's state over the built-in games and a user's definitions file
    /// (`user_text`, whose games are `extra`).
    pub fn new(user_text: String, extra: Vec<crate::rules::spec::VariantSpec>) -> App {
        App {
            library: Library::new(user_text, extra),
            thinking: Thinking::new(),
        }
    }
}

pub type Shared = State<Arc<App>>;

/// A refused request: status 400 (or another) with `{"error": "why"}`.
pub struct ApiError(StatusCode, String);

impl ApiError {
    pub fn bad(why: impl ToString) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, why.to_string())
    }

    /// A bug of kirin's, not of the request: status 500.
    pub fn internal(why: impl ToString) -> ApiError {
        ApiError(StatusCode::INTERNAL_SERVER_ERROR, why.to_string())
    }

    /// A refusal with another status than 400 (a page not found, a method not served).
    pub fn with_status(status: StatusCode, why: impl ToString) -> ApiError {
        ApiError(status, why.to_string())
    }
}

impl From<MoveError> for ApiError {
    fn from(e: MoveError) -> ApiError {
        match e {
            MoveError::NoMove => ApiError::bad(e),
            MoveError::Fault(_) | MoveError::Lost => ApiError::internal(e),
        }
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        ApiError::bad(e)
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> ApiError {
        // Every refusal is a 400, a body over the limit (413) and JSON of another shape
        // (422) too: the message says which.
        ApiError::bad(e.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

type Reply = Result<Json<Value>, ApiError>;

fn reply(value: impl Serialize) -> Reply {
    serde_json::to_value(value)
        .map(Json)
        .map_err(ApiError::internal)
}

/// `GET /api/variants`.
pub async fn variants(State(app): Shared) -> Json<Value> {
    let list: Vec<Value> = app
        .library
        .specs()
        .map(|v| {
            json!({
                "name": v.name,
                "description": v.description,
                "width": v.geometry.width,
                "height": v.geometry.height,
                "starts": v.starts.iter().map(|(name, _)| name).collect::<Vec<_>>(),
                "options": v.options.iter().map(|(key, value, description)| json!({
                    "key": key, "value": value, "description": description
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Json(Value::Array(list))
}

/// `POST /api/state`: the position after the game's actions.
pub async fn state(State(app): Shared, body: Result<Json<GameRequest>, JsonRejection>) -> Reply {
    let Json(request) = body?;
    let session = app.library.open(&request)?;
    with_width!(&session, s => reply(state_view(s)))
}

/// How long kirin may think for one move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    game: GameRequest,
    movetime: Option<u64>,
    depth: Option<i32>,
}

/// The longest a move may be thought about, and the deepest.
pub const MAX_MOVETIME_MS: u64 = 60_000;
pub const MAX_DEPTH: i32 = 64;

/// `POST /api/move`: kirin's turn in the game's position.
pub async fn engine_move(
    State(app): Shared,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Reply {
    let Json(request) = body?;
    let limits = move_limits(request.movetime, request.depth)?;
    let session = app.library.open(&request.game)?;
    let over = with_width!(&session, s => {
        let mut pos = s.pos.clone();
        s.game.outcome(&mut pos).map(|o| o.reason)
    });
    if let Some(reason) = over {
        return Err(ApiError::bad(format!("the game is over ({reason})")));
    }
    let _permit = app.thinking.permit().await;
    Ok(Json(search::best_turn(session, limits).await?))
}

fn move_limits(
    movetime: Option<u64>,
    depth: Option<i32>,
) -> Result<crate::search::limits::Limits, ApiError> {
    if let Some(ms) = movetime
        && !(1..=MAX_MOVETIME_MS).contains(&ms)
    {
        return Err(ApiError::bad(format!(
            "movetime {ms} is not 1 to {MAX_MOVETIME_MS} ms"
        )));
    }
    if let Some(d) = depth
        && !(1..=MAX_DEPTH).contains(&d)
    {
        return Err(ApiError::bad(format!("depth {d} is not 1 to {MAX_DEPTH}")));
    }
    // A depth is still bounded in time, so that no request holds a search for long.
    let ms = movetime.unwrap_or(if depth.is_some() {
        MAX_MOVETIME_MS
    } else {
        1000
    });
    Ok(crate::search::limits::Limits {
        depth,
        movetime: Some(Duration::from_millis(ms)),
        ..Default::default()
    })
}

/// A score as the page reads it, from the side to move.
pub fn score_json(score: i32) -> Value {
    if score.abs() >= MATE_BOUND {
        let text = crate::search::score_text(score);
        let moves: i64 = text.trim_start_matches("mate ").parse().unwrap_or_default();
        json!({ "mate": moves })
    } else {
        json!({ "cp": score })
    }
}

/// `POST /api/pgn`: the game as PGN.
pub async fn export_pgn(
    State(app): Shared,
    body: Result<Json<GameRequest>, JsonRejection>,
) -> Reply {
    let Json(request) = body?;
    let session = app.library.open(&request)?;
    let text = with_width!(&session, s => game_pgn(s, &request));
    Ok(Json(json!({ "pgn": text })))
}

fn game_pgn<const W: usize>(s: &GameState<W>, request: &GameRequest) -> String {
    let g = &*s.game;
    let mut pos = s.pos.clone();
    for (m, u) in s.played.iter().rev() {
        pos.unmake(g, *m, *u);
    }
    let start_fen = pos.to_fen(g);
    let actions: Vec<Move> = s.played.iter().map(|&(m, _)| m).collect();
    let moves = g
        .turns_of(&pos, &actions)
        .into_iter()
        .map(|turn| {
            let san = g.san(&mut pos, &turn);
            for &m in &turn {
                pos.make(g, m);
            }
            PgnMove { san, comment: None }
        })
        .collect();
    let mut end = s.pos.clone();
    let outcome = g.outcome(&mut end);
    let result = outcome.map_or("*", |o| super::game::result_text(o.verdict, end.side));
    let mut tags = vec![
        ("Event".to_string(), "kirin serve".to_string()),
        ("Variant".to_string(), g.spec.name.clone()),
    ];
    if request.fen.is_some() || request.start.as_deref().is_some_and(|s| !s.is_empty()) {
        tags.push(("SetUp".to_string(), "1".to_string()));
        tags.push(("FEN".to_string(), start_fen));
    }
    if !request.rules.is_empty() {
        tags.push(("VariantRules".to_string(), request.rules.join(" ")));
    }
    let game = PgnGame {
        tags,
        moves,
        result: result.to_string(),
        final_comment: outcome.map(|o| o.reason.to_string()),
    };
    pgn::write_pgn(&game)
}

/// `POST /api/import`: a game from PGN, or a FEN checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportRequest {
    pgn: Option<String>,
    variant: Option<String>,
    #[serde(default)]
    rules: Vec<String>,
    fen: Option<String>,
}

/// The longest PGN imported.
const MAX_IMPORT: usize = 60 << 10;

pub async fn import(State(app): Shared, body: Result<Json<ImportRequest>, JsonRejection>) -> Reply {
    let Json(request) = body?;
    let game = match (&request.pgn, &request.fen) {
        (Some(text), _) => game_of_pgn(&app.library, text, &request)?,
        (None, Some(fen)) => GameRequest {
            variant: request
                .variant
                .clone()
                .ok_or_else(|| ApiError::bad("a FEN needs its variant"))?,
            rules: request.rules.clone(),
            start: None,
            fen: Some(fen.trim().to_string()),
            moves: Vec::new(),
        },
        (None, None) => return Err(ApiError::bad("give a PGN text or a FEN")),
    };
    // Checked by replaying it, as every request is.
    app.library.open(&game)?;
    reply(game)
}

fn game_of_pgn(
    library: &Library,
    text: &str,
    request: &ImportRequest,
) -> Result<GameRequest, ApiError> {
    if text.len() > MAX_IMPORT {
        return Err(ApiError::bad(format!(
            "the PGN is longer than {MAX_IMPORT} bytes"
        )));
    }
    let games = pgn::parse_pgn(text).map_err(ApiError::bad)?;
    let pgn_game = games
        .into_iter()
        .next()
        .ok_or_else(|| ApiError::bad("the text holds no game"))?;
    let tag = |name: &str| {
        pgn_game
            .tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let variant = tag("Variant")
        .or_else(|| request.variant.clone())
        .unwrap_or_else(|| "chess".to_string());
    let rules = match tag("VariantRules") {
        Some(r) => r.split_whitespace().map(str::to_string).collect(),
        None => request.rules.clone(),
    };
    let mut game = GameRequest {
        variant,
        rules,
        start: None,
        fen: tag("FEN"),
        moves: Vec::new(),
    };
    let session = library.open(&game)?;
    game.moves = with_width!(&session, s => {
        let g = &*s.game;
        let mut pos = s.pos.clone();
        let mut ids = Vec::new();
        for (i, m) in pgn_game.moves.iter().enumerate() {
            let turn = g.parse_san(&mut pos, &m.san).map_err(|e| {
                ApiError::bad(format!("move {} '{}': {e}", i + 1, m.san))
            })?;
            if !g.is_legal_turn(&pos, &turn) {
                return Err(ApiError::bad(format!("move {} '{}' repeats a position", i + 1, m.san)));
            }
            for a in turn {
                pos.make(g, a);
                ids.push(a.bits());
            }
            if ids.len() > super::game::MAX_MOVES {
                return Err(ApiError::bad("the game is too long"));
            }
        }
        Ok::<_, ApiError>(ids)
    })?;
    Ok(game)
}
