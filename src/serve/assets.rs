//! The page's files, compiled into the binary so that `kirin serve` needs nothing beside
//! it. With `KIRIN_ASSETS_DIR` set they are read from that directory on each request
//! instead, so that the page can be worked on without rebuilding kirin.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// A file of the page: its name, media type and compiled-in contents.
struct Asset {
    name: &'static str,
    media_type: &'static str,
    contents: &'static str,
}

const ASSETS: [Asset; 3] = [
    Asset {
        name: "index.html",
        media_type: "text/html; charset=utf-8",
        contents: include_str!("assets/index.html"),
    },
    Asset {
        name: "app.js",
        media_type: "text/javascript; charset=utf-8",
        contents: include_str!("assets/app.js"),
    },
    Asset {
        name: "style.css",
        media_type: "text/css; charset=utf-8",
        contents: include_str!("assets/style.css"),
    },
];

/// The file `name` (`index.html` for the page itself), or 404.
pub fn serve(name: &str) -> Response {
    let Some(asset) = ASSETS.iter().find(|a| a.name == name) else {
        return (StatusCode::NOT_FOUND, "no such file").into_response();
    };
    let contents = match std::env::var_os("KIRIN_ASSETS_DIR") {
        Some(dir) => match std::fs::read_to_string(std::path::Path::new(&dir).join(asset.name)) {
            Ok(text) => text,
            Err(e) => {
                return (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("{}: {e}", asset.name),
                )
                    .into_response();
            }
        },
        None => asset.contents.to_string(),
    };
    (
        [
            (header::CONTENT_TYPE, asset.media_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        contents,
    )
        .into_response()
}
