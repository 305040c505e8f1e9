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

use api::App;
use axum::Router;
use axum::extract::{DefaultBodyLimit, State, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::{get, post};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

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
    let app = Arc::new(App {
        library: game::Library::new(user_text, extra),
        thinking: search::Thinking::new(),
    });
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
        axum::serve(listener, router(app))
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}

fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { assets::serve("index.html") }))
        .route("/app.js", get(|| async { assets::serve("app.js") }))
        .route("/style.css", get(|| async { assets::serve("style.css") }))
        .route("/api/variants", get(api::variants))
        .route("/api/state", post(api::state))
        .route("/api/move", post(api::engine_move))
        .route("/api/pgn", post(api::export_pgn))
        .route("/api/import", post(api::import))
        .route("/api/analyse", get(analyse))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// `GET /api/analyse`: the live analysis WebSocket.
async fn analyse(ws: WebSocketUpgrade, State(app): State<Arc<App>>) -> Response {
    ws.max_message_size(search::MAX_MESSAGE)
        .max_frame_size(search::MAX_MESSAGE)
        .on_upgrade(move |socket| search::analysis_socket(socket, app))
}
