//! `kirin serve`: a local web server and the page it serves, a board on which a person
//! plays and analyses every game kirin knows (docs/web.md).
//!
//! - `game`: the game a request names, replayed, and the state the board draws;
//! - `api`: the requests and their answers;
//! - `search`: kirin's moves and the live analysis socket;
//! - `assets`: the page's files, compiled in.

mod api;
mod assets;
mod game;
mod search;

use crate::fault::Panicked;
use api::{ApiError, App};
use axum::Router;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{DefaultBodyLimit, Request, State, WebSocketUpgrade};
use axum::http::{Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
#[doc(hidden)]
pub use game::GameRequest;
use std::any::Any;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use tower_http::catch_panic::CatchPanicLayer;

/// The largest request body read (a game of `game::MAX_MOVES` ids fits).
const MAX_BODY: usize = 64 << 10;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default serves this machine only; another address
    /// lets anyone who reaches it make kirin think.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
}

/// Serves the board until the process is stopped. `user_text` and `extra` are a user's
/// definitions file and its games.
pub fn run(
    args: &ServeArgs,
    user_text: String,
    extra: Vec<crate::rules::spec::VariantSpec>,
) -> Result<(), String> {
    let app = Arc::new(App::new(user_text, extra));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(async {
        let address = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| format!("cannot listen on {address}: {e}"))?;
        let bound = listener
            .local_addr()
            .map_err(|e| format!("cannot read the address listened on: {e}"))?;
        say!("kirin serves its board at http://{bound}/ (open it in a browser; Ctrl-C stops)");
        axum::serve(listener, router(app, args.host.is_loopback()))
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}

/// The board's routes over the built-in games, as `kirin serve` answers them on a
/// loopback address (the `Host` and `Origin` checks on): the web fuzz target drives it
/// in-process, with no socket.
#[doc(hidden)]
pub fn router_for_tests() -> Router {
    router(Arc::new(App::new(String::new(), Vec::new())), true)
}

/// What one message of the analysis socket asks for: a game to analyse and its number
/// of lines, `None` for a stop, or why the message is refused. Public for the web fuzz
/// target, which reads messages with it instead of opening sockets.
#[doc(hidden)]
pub fn analysis_command(text: &str) -> Result<Option<(GameRequest, usize)>, String> {
    search::command(text)
}

fn router(app: Arc<App>, loopback: bool) -> Router {
    let router = Router::new()
        .route("/", get(|| async { assets::serve("index.html") }))
        .route("/app.js", get(|| async { assets::serve("app.js") }))
        .route("/style.css", get(|| async { assets::serve("style.css") }))
        .route("/api/variants", get(api::variants))
        .route("/api/state", post(api::state))
        .route("/api/move", post(api::engine_move))
        .route("/api/pgn", post(api::export_pgn))
        .route("/api/import", post(api::import))
        .route("/api/analyse", get(analyse))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app);
    let router = if loopback {
        router.layer(middleware::from_fn(local_hosts_only))
    } else {
        router
    };
    router.layer(CatchPanicLayer::custom(answer_panic))
}

/// A handler that panicked is answered 500 with `{"error": "internal error: ..."}`
/// rather than with a closed connection, and the server serves on.
fn answer_panic(payload: Box<dyn Any + Send>) -> Response {
    let panic = Panicked::from_payload(&*payload);
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        axum::Json(serde_json::json!({ "error": format!("internal error: {panic}") })),
    )
        .into_response()
}

/// Served on a loopback address, the server answers only requests that name a loopback
/// host: a web page elsewhere whose name an attacker points at 127.0.0.1 (DNS rebinding)
/// is refused, and so is a WebSocket opened by a page of another origin.
async fn local_hosts_only(request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !is_loopback_host(host) {
        return refuse(format!(
            "this server answers only 127.0.0.1 and localhost, not '{host}'"
        ));
    }
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let origin_host = origin.split_once("://").map_or("", |(_, rest)| rest);
        if origin_host != host {
            return refuse(format!("requests from the page '{origin}' are not served"));
        }
    }
    next.run(request).await
}

/// Whether a `Host` header names this machine (`localhost`, `127.0.0.1`, `[::1]`, with
/// or without a port).
fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

fn refuse(why: String) -> Response {
    (
        StatusCode::FORBIDDEN,
        axum::Json(serde_json::json!({ "error": why })),
    )
        .into_response()
}

/// `GET /api/analyse`: the live analysis WebSocket. A request that opens none (no
/// `Upgrade` header, another protocol version) is refused as every request is, with
/// `{"error": "why"}`.
async fn analyse(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    State(app): State<Arc<App>>,
) -> Response {
    match ws {
        Ok(ws) => ws
            .max_message_size(search::MAX_MESSAGE)
            .max_frame_size(search::MAX_MESSAGE)
            .on_upgrade(move |socket| search::analysis_socket(socket, app)),
        Err(e) => ApiError::with_status(e.status(), e.body_text()).into_response(),
    }
}

/// A path the server has no page or request for: 404 with `{"error": "why"}`, as the
/// page reads every refusal.
async fn not_found(uri: Uri) -> ApiError {
    ApiError::with_status(
        StatusCode::NOT_FOUND,
        format!("no such page or request: {uri}"),
    )
}

/// A path served with another method: 405 with `{"error": "why"}`.
async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::with_status(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{uri} is not served for {method}"),
    )
}

#[cfg(test)]
mod tests {
    use super::is_loopback_host;

    #[test]
    fn loopback_hosts_are_told_from_others() {
        for host in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:80",
            "[::1]:8080",
            "LOCALHOST",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "",
            "example.com",
            "192.168.1.2:8080",
            "localhost.evil.com",
            "[::2]",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }
}
