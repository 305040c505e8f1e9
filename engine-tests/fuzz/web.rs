//! The web board's messages (`kirin serve`, docs/web.md): HTTP requests to the board's
//! router, in-process (`serve::router_for_tests`, driven by `tower`'s `oneshot`, no
//! socket), and the analysis socket's messages as its parser reads them.
//!
//! A request is built from its parts: a method, a path (the board's own or an edited
//! one), `Host` and `Origin` headers (this machine's names and others), a content type,
//! and a body in the shape of the board's requests (`GameRequest`, `MoveRequest`,
//! `ImportRequest`) made of a random legal game of a random game: its variant, options,
//! start, FEN and actions, with some fields given the wrong type or dropped, an
//! unknown field, the text edited, deep nesting or an oversized body. kirin's own
//! searches are kept short: a case asks for 1 to 20 ms or depth 1 or 2, or for a limit
//! out of the server's bounds, which must be refused.
//!
//! Required: no panic and no 5xx; a request naming another host, or sent from another
//! page, is refused (403), and one naming this machine from its own page is not; every
//! refusal (4xx) has a JSON body `{"error": "why"}`; every answer of the API is JSON of
//! its documented form: a state's FEN is the position of the game sent, kirin's move is
//! a legal turn, a PGN reads back, an imported game opens. An analysis message is read
//! as a game to analyse with 1 to 8 lines, a stop, or an error.

use crate::common::{Edit, character, edited, first, game, random_game};
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderValue, Method, Request, Response, StatusCode, Uri, header};
use bolero::{TypeGenerator, check};
use kirin::core::Move;
use kirin::rules::{Game, MoveList, Position};
use kirin::with_width;
use serde_json::{Value, json};
use std::sync::OnceLock;
use tower::ServiceExt;

#[derive(Debug, TypeGenerator)]
struct WebCase {
    game: u8,
    start: u8,
    plies: Vec<u8>,
    /// The method: the path's own, or one of `METHODS`.
    method: Option<u8>,
    path: Target,
    host: Host,
    origin: Option<Origin>,
    /// `application/json`, or one of `CONTENT_TYPES`.
    content_type: Option<u8>,
    body: BodyCase,
}

/// The request's path: one of `PATHS`, edited, or with a query.
#[derive(Debug, TypeGenerator)]
enum Target {
    Real(u8),
    Edited { real: u8, edits: Vec<Edit> },
    Query { real: u8, query: Vec<u8> },
}

#[derive(Debug, TypeGenerator)]
enum Host {
    Loopback(u8),
    Other(u8),
    Missing,
    Edited { loopback: u8, edits: Vec<Edit> },
}

#[derive(Debug, TypeGenerator)]
enum Origin {
    /// The server's own page: `http://` and the `Host`.
    Own,
    Other(u8),
    Edited(Vec<Edit>),
}

/// A body: the shape of a request of the board (by default the path's own), made of
/// the case's game, perhaps with fields changed and the text edited.
#[derive(Debug, TypeGenerator)]
struct BodyCase {
    /// Which request's shape (`Shape`); `None`: the one the path takes.
    shape: Option<u8>,
    game: GameFields,
    movetime: Limit,
    depth: Limit,
    /// Changes of the body's fields: none for a quarter of the cases, else up to three.
    count: u8,
    mangles: Vec<Mangle>,
    /// Edits of the body's text: none for most cases, else up to three.
    edit_count: u8,
    edits: Vec<Edit>,
    wrap: Wrap,
}

/// How a game is named: by its moves from its start, or by its position's FEN.
#[derive(Debug, TypeGenerator)]
struct GameFields {
    by_fen: bool,
    /// The variant's name as written: as listed, in capitals, or edited.
    name: u8,
    name_edits: Vec<Edit>,
    /// Options (`KEY=VALUE`) among the variant's own, by index.
    rules: Vec<u8>,
    fen_count: u8,
    fen_edits: Vec<Edit>,
    ids: Option<IdEdit>,
}

/// A change of the game's list of action ids.
#[derive(Debug, TypeGenerator)]
enum IdEdit {
    Truncate(u8),
    Replace { at: u16, id: u32 },
    Append(u32),
    Repeat,
}

/// A search limit: absent, small (so the search is short), or out of the server's
/// bounds (`OUT_OF_BOUNDS`), which it must refuse.
#[derive(Debug, TypeGenerator)]
enum Limit {
    Absent,
    Small(u8),
    OutOfBounds(u8),
}

/// A change of one field of the body: which (by index, one past the fields: a new
/// one), and to what.
#[derive(Debug, TypeGenerator)]
struct Mangle {
    field: u8,
    to: Replacement,
}

#[derive(Debug, TypeGenerator)]
enum Replacement {
    Drop,
    Null,
    Number(i64),
    Float(u8),
    Text(u8),
    Bool(bool),
    EmptyArray,
    EmptyObject,
    /// A list of many elements (an option list, a list of ids).
    Long(u16),
}

/// What the body's text becomes.
#[derive(Debug, TypeGenerator)]
enum Wrap {
    Plain,
    Plain2,
    Plain3,
    Empty,
    /// Arrays nested this deep.
    Nested(u16),
    /// The body grown past the server's limit (64 KiB) by this many bytes.
    Oversize(u16),
    /// The body in another JSON value (an array, a string).
    Inside(bool),
    Garbage(Vec<u8>),
}

const PATHS: &[&str] = &[
    "/api/state",
    "/api/move",
    "/api/pgn",
    "/api/import",
    "/api/variants",
    "/api/analyse",
    "/",
    "/app.js",
    "/style.css",
    "/api",
    "/api/state/",
    "/index.html",
];

const LOOPBACK_HOSTS: &[&str] = &[
    "127.0.0.1",
    "127.0.0.1:8080",
    "localhost",
    "localhost:80",
    "[::1]:8080",
    "[::1]",
    "LOCALHOST:8080",
    "127.1.2.3:9",
];

const OTHER_HOSTS: &[&str] = &[
    "example.com",
    "localhost.evil.com",
    "192.168.1.2:8080",
    "[::2]",
    "",
    "127.0.0.1.nip.io",
    "0.0.0.0:8080",
    "evil.com:8080",
];

const OTHER_ORIGINS: &[&str] = &[
    "http://evil.com",
    "null",
    "http://localhost.evil.com",
    "file://",
    "http://127.0.0.1:1",
    "",
];

const METHODS: &[&str] = &[
    "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "BREW",
];

/// Content types other than `application/json`; `None`: no header.
const CONTENT_TYPES: &[Option<&str>] = &[
    None,
    Some("application/json; charset=utf-8"),
    Some("text/plain"),
    Some(""),
    Some("application/vnd.kirin+json"),
    Some("multipart/form-data"),
];

/// Limits the server refuses (movetime 1 to 60 000 ms, depth 1 to 64).
const OUT_OF_BOUNDS: &[&str] = &[
    "0",
    "-1",
    "60001",
    "65",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "2147483648",
    "1e400",
    "2.5",
    "\"10\"",
    "[5]",
];

const TEXTS: &[&str] = &[
    "",
    "chess",
    "CHU",
    "okazaki=on",
    "x=y=z",
    "start",
    "1-0",
    "\u{0}",
];

/// The longest edited text (a name, a FEN, a path).
const TEXT_LIMIT: usize = 2048;

/// The server's limit on a body (docs/web.md).
const MAX_BODY: usize = 64 << 10;

#[test]
fn web() {
    check!()
        .with_type::<WebCase>()
        .with_iterations(200)
        .for_each(|case| {
            with_width!(game(case.game), g => one_request(g, case));
        });
}

/// The board's router, as `kirin serve` answers on a loopback address, and a runtime to
/// drive it: made once per process (a game compiled for a request stays in its cache).
fn server() -> &'static (tokio::runtime::Runtime, Router) {
    static SERVER: OnceLock<(tokio::runtime::Runtime, Router)> = OnceLock::new();
    SERVER.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        (runtime, kirin::serve::router_for_tests())
    })
}

/// The status, content type and body of the router's answer to `request`.
fn send(request: Request<Body>) -> (StatusCode, Option<String>, Vec<u8>) {
    let (runtime, router) = server();
    runtime.block_on(async {
        let response: Response<Body> = router
            .clone()
            .oneshot(request)
            .await
            .expect("the router's error type is Infallible");
        let status = response.status();
        let kind = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = axum::body::to_bytes(response.into_body(), 64 << 20)
            .await
            .expect("an answer's body is read whole");
        (status, kind, body.to_vec())
    })
}

/// A game as a case names it, and what the server must say of it.
struct Named {
    /// The `GameRequest` as JSON.
    game: Value,
    /// The position's FEN.
    fen: String,
    /// The request names the game as it was played: no name, FEN or id changed.
    exact: bool,
    /// The game as PGN (its start's FEN, each turn in SAN), and the ids it stands for.
    pgn: String,
    pgn_ids: Vec<u32>,
}

fn one_request<const W: usize>(g: &Game<W>, case: &WebCase) {
    let named = named_game(g, case.start, &case.plies, &case.body.game);
    let path = match path(&case.path) {
        Some(p) => p,
        // Not a request target at all: the HTTP parser refuses it before the router.
        None => return,
    };
    let shape = shape_of(&case.body, &path);
    let (body, pristine) = body(&named, shape, &case.body);
    let too_long = beyond_bounds(&body);
    if shape == Shape::Move && !short_search(&body) {
        // An edit made the limit valid but long: a request the server serves, slowly.
        return;
    }
    let method = match case.method {
        Some(m) => {
            Method::from_bytes(METHODS[m as usize % METHODS.len()].as_bytes()).expect("a method")
        }
        None => own_method(&path),
    };
    let mut request = Request::builder().method(method.clone()).uri(path.as_str());
    let host = host(&case.host);
    let origin = case.origin.as_ref().map(|o| origin(o, host.as_deref()));
    for (name, value) in [
        (header::HOST, host.as_deref()),
        (header::ORIGIN, origin.as_deref()),
        (
            header::CONTENT_TYPE,
            match case.content_type {
                None => Some("application/json"),
                Some(c) => CONTENT_TYPES[c as usize % CONTENT_TYPES.len()],
            },
        ),
    ] {
        if let Some(v) = value {
            // A value that is no header (a line break) never reaches the router.
            let Ok(v) = HeaderValue::from_bytes(v.as_bytes()) else {
                return;
            };
            request = request.header(name, v);
        }
    }
    let request = request.body(Body::from(body)).expect("a request");
    let (status, kind, answer) = send(request);

    let welcome =
        matches!(case.host, Host::Loopback(_)) && matches!(case.origin, None | Some(Origin::Own));
    let foreign = matches!(case.host, Host::Other(_) | Host::Missing)
        || matches!(case.origin, Some(Origin::Other(_)));
    assert!(
        !status.is_server_error(),
        "{method} {path}: {status} {}",
        String::from_utf8_lossy(&answer)
    );
    if foreign {
        assert_eq!(
            status,
            StatusCode::FORBIDDEN,
            "{method} {path} from {host:?}, {origin:?}"
        );
    }
    if welcome {
        assert_ne!(
            status,
            StatusCode::FORBIDDEN,
            "{method} {path} from {host:?}, {origin:?}"
        );
    }
    if welcome && method == Method::POST && path == "/api/move" && too_long {
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "a search beyond the server's bounds"
        );
    }
    if method == Method::HEAD {
        return;
    }
    if status.is_client_error() {
        refusal(&method, &path, status, kind.as_deref(), &answer);
    } else if status.is_success() && path.starts_with("/api/") {
        let value: Value = serde_json::from_slice(&answer).unwrap_or_else(|e| {
            panic!("{method} {path}: {status} with a body that is no JSON ({e})")
        });
        let route = path.split('?').next().unwrap_or("");
        answered(g, &named, route, shape, pristine, &value);
    }
}

/// A refusal's body is `{"error": "why"}`, as JSON.
fn refusal(method: &Method, path: &str, status: StatusCode, kind: Option<&str>, answer: &[u8]) {
    let text = String::from_utf8_lossy(answer);
    assert_eq!(
        kind,
        Some("application/json"),
        "{method} {path}: {status} '{text}' is not JSON"
    );
    let value: Value = serde_json::from_slice(answer)
        .unwrap_or_else(|e| panic!("{method} {path}: {status} '{text}': {e}"));
    let why = value["error"].as_str().unwrap_or("");
    assert!(
        !why.is_empty() && value.as_object().is_some_and(|o| o.len() == 1),
        "{method} {path}: {status} '{text}' is not {{\"error\": \"why\"}}"
    );
}

/// Checks the answer of the API to a request it served. With the game sent as it was
/// made (`pristine`), the answer is checked against it.
fn answered<const W: usize>(
    g: &Game<W>,
    named: &Named,
    route: &str,
    shape: Shape,
    pristine: bool,
    value: &Value,
) {
    match route {
        "/api/variants" => assert!(
            value
                .as_array()
                .is_some_and(|list| list.iter().any(|v| v["name"] == "chess")),
            "the variants list no chess"
        ),
        "/api/state" if pristine => assert_eq!(
            value["fen"], named.fen,
            "{}: the state is not the game's position",
            g.spec.name
        ),
        "/api/move" if pristine => legal_answer(g, named, value),
        "/api/pgn" => {
            let text = value["pgn"].as_str().expect("a PGN text");
            let games = kirin::arena::pgn::parse_pgn(text)
                .unwrap_or_else(|e| panic!("the PGN served does not read back: {e}\n{text}"));
            assert_eq!(games.len(), 1, "{text}");
            if pristine {
                // The PGN served imports as the game: the same actions.
                let imported = post("/api/import", &json!({ "pgn": text }));
                let by_moves = shape == Shape::Game && !named.game["fen"].is_string();
                let line = if by_moves { &named.pgn_ids[..] } else { &[] };
                assert_eq!(imported["moves"], json!(line), "{}: {text}", g.spec.name);
            }
        }
        "/api/import" => {
            // The game imported opens: the page asks for its state next.
            post("/api/state", value);
            if pristine && shape == Shape::ImportPgn {
                assert_eq!(
                    value["moves"],
                    json!(named.pgn_ids),
                    "{}: {} imported as other actions",
                    g.spec.name,
                    named.pgn
                );
            }
        }
        _ => {}
    }
}

/// The answer to a request the server must serve.
fn post(route: &str, body: &Value) -> Value {
    let request = Request::post(route)
        .header(header::HOST, "localhost")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .expect("a request");
    let (status, _, answer) = send(request);
    let text = String::from_utf8_lossy(&answer);
    assert_eq!(status, StatusCode::OK, "{route} {body}: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{route}: {e}: {text}"))
}

/// kirin's move is a legal turn of the game's position.
fn legal_answer<const W: usize>(g: &Game<W>, named: &Named, value: &Value) {
    let mut pos = Position::from_fen(g, &named.fen).expect("the game's FEN");
    let turn: Vec<Move> = value["actions"]
        .as_array()
        .expect("kirin's move has actions")
        .iter()
        .map(|id| {
            id.as_u64()
                .and_then(|id| u32::try_from(id).ok())
                .and_then(Move::from_bits)
                .unwrap_or_else(|| panic!("{id} is no action id"))
        })
        .collect();
    assert!(!turn.is_empty(), "kirin's move has no action");
    // The repetition rule needs the game's history, which a FEN does not carry: the
    // actions are checked against the position's legal moves.
    let mut list = MoveList::new();
    for &m in &turn {
        g.legal_moves(&mut pos, &mut list);
        assert!(
            list.contains(&m),
            "{}: kirin's move {} is not legal in {}",
            g.spec.name,
            g.move_text(m),
            named.fen
        );
        pos.make(g, m);
    }
}

/// The request shapes of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Game,
    Move,
    ImportPgn,
    ImportFen,
    Analysis,
}

fn shape_of(body: &BodyCase, path: &str) -> Shape {
    const ALL: [Shape; 5] = [
        Shape::Game,
        Shape::Move,
        Shape::ImportPgn,
        Shape::ImportFen,
        Shape::Analysis,
    ];
    match body.shape {
        Some(i) => ALL[i as usize % ALL.len()],
        None => match path {
            "/api/move" => Shape::Move,
            "/api/import" if body.game.by_fen => Shape::ImportFen,
            "/api/import" => Shape::ImportPgn,
            _ => Shape::Game,
        },
    }
}

/// The game of the case as a `GameRequest`: the variant's name, some of its options,
/// its start (a named start or the FEN of the position) and the ids of its actions.
fn named_game<const W: usize>(g: &Game<W>, start: u8, plies: &[u8], fields: &GameFields) -> Named {
    let (pos, played) = random_game(g, start, plies);
    let spec = &g.spec;
    let name_edits = match fields.name % 4 {
        1 => first(&fields.name_edits, 2),
        _ => &[],
    };
    let name = match fields.name % 4 {
        0 => spec.name.to_uppercase(),
        _ => edited(&spec.name, name_edits, TEXT_LIMIT),
    };
    let fen_edits = first(&fields.fen_edits, fields.fen_count % 3);
    let rules: Vec<String> = fields
        .rules
        .iter()
        .take(4)
        .filter_map(|&i| spec.options.get(i as usize % spec.options.len().max(1)))
        .map(|(key, value, _)| format!("{key}={value}"))
        .collect();
    let fen = pos.to_fen(g);
    // `random_game`'s start: the variant's own, or one of its named starts.
    let index = start as usize % (1 + spec.starts.len());
    let (pgn, pgn_ids) = pgn_of(g, index, &played);
    let mut game = json!({ "variant": name, "rules": rules });
    let exact = if fields.by_fen {
        game["fen"] = json!(edited(&fen, fen_edits, TEXT_LIMIT));
        game["moves"] = json!([]);
        name_edits.is_empty() && fen_edits.is_empty()
    } else {
        game["start"] = match index {
            0 => Value::Null,
            i => json!(spec.starts[i - 1].0),
        };
        let mut ids: Vec<u32> = played.iter().map(|m| m.bits()).collect();
        change_ids(&mut ids, fields.ids.as_ref());
        game["moves"] = json!(ids);
        name_edits.is_empty() && fields.ids.is_none()
    };
    Named {
        game,
        fen,
        exact,
        pgn,
        pgn_ids,
    }
}

/// The PGN of a game played from the start `index` picks (0: the variant's own): its
/// FEN, then each turn in SAN (a turn left in the middle completed, as the PGN writer
/// completes it); and the ids of the actions it stands for.
fn pgn_of<const W: usize>(g: &Game<W>, index: usize, played: &[Move]) -> (String, Vec<u32>) {
    let start = match index {
        0 => g.spec.start.as_str(),
        i => g.spec.starts[i - 1].1.as_str(),
    };
    let mut pos = Position::from_fen(g, start).expect("start positions parse");
    let turns = g.turns_of(&pos, played);
    let mut text = format!("[Variant \"{}\"]\n[FEN \"{start}\"]\n\n", g.spec.name);
    for turn in &turns {
        text += &g.san(&mut pos, turn);
        text += " ";
        for &m in turn {
            pos.make(g, m);
        }
    }
    text += "*\n";
    let ids = turns.concat().iter().map(|m| m.bits()).collect();
    (text, ids)
}

fn change_ids(ids: &mut Vec<u32>, change: Option<&IdEdit>) {
    match change {
        None => {}
        Some(IdEdit::Truncate(n)) => ids.truncate(*n as usize),
        Some(IdEdit::Replace { at, id }) if !ids.is_empty() => {
            let i = *at as usize % ids.len();
            ids[i] = *id;
        }
        Some(IdEdit::Replace { .. }) => {}
        Some(IdEdit::Append(id)) => ids.push(*id),
        Some(IdEdit::Repeat) => ids.extend(ids.clone()),
    }
}

/// The body's bytes, and whether it is the game as it was made (no field changed, no
/// text edited) so that the answer can be checked against the game.
fn body(named: &Named, shape: Shape, case: &BodyCase) -> (Vec<u8>, bool) {
    let mut value = match shape {
        Shape::Game => named.game.clone(),
        Shape::Move => {
            let mut v = json!({ "game": named.game });
            limit(&mut v, "movetime", &case.movetime, |n| 1 + n % 20);
            limit(&mut v, "depth", &case.depth, |n| 1 + n % 2);
            if v.get("movetime").is_none() && v.get("depth").is_none() {
                v["movetime"] = json!(1 + case.edit_count % 20);
            }
            v
        }
        Shape::ImportPgn => json!({ "pgn": named.pgn, "variant": named.game["variant"] }),
        Shape::ImportFen => json!({
            "variant": named.game["variant"],
            "rules": named.game["rules"],
            "fen": named.game.get("fen").cloned().unwrap_or_else(|| json!(named.fen)),
        }),
        Shape::Analysis => json!({ "analyse": named.game, "multipv": 1 + case.edit_count % 9 }),
    };
    let mangles = first(&case.mangles, case.count % 4);
    for m in mangles {
        mangle(&mut value, m);
    }
    let edits = first(&case.edits, (case.edit_count % 8).saturating_sub(4));
    let text = edited(&value.to_string(), edits, MAX_BODY + 1024);
    let pristine = named.exact
        && mangles.is_empty()
        && edits.is_empty()
        && matches!(case.wrap, Wrap::Plain | Wrap::Plain2 | Wrap::Plain3);
    (wrap(text, &case.wrap), pristine)
}

fn limit(v: &mut Value, key: &str, limit: &Limit, small: impl Fn(u64) -> u64) {
    match limit {
        Limit::Absent => {}
        Limit::Small(n) => v[key] = json!(small(u64::from(*n))),
        Limit::OutOfBounds(i) => {
            let text = OUT_OF_BOUNDS[*i as usize % OUT_OF_BOUNDS.len()];
            // `1e400` is no JSON number serde_json reads: written as text, refused as such.
            v[key] = serde_json::from_str(text).unwrap_or_else(|_| json!(text));
        }
    }
}

/// Changes one field of an object (or of its `game`, for a move or an analysis).
fn mangle(value: &mut Value, m: &Mangle) {
    // Even fields are those of the game inside a move or an analysis request.
    let inner = ["game", "analyse"]
        .into_iter()
        .find(|k| value.get(*k).is_some_and(Value::is_object));
    let target = match inner {
        Some(k) if m.field.is_multiple_of(2) => &mut value[k],
        _ => value,
    };
    let Some(object) = target.as_object_mut() else {
        return;
    };
    let keys: Vec<String> = object.keys().cloned().collect();
    let key = keys
        .get(m.field as usize / 2 % (keys.len() + 1))
        .cloned()
        .unwrap_or_else(|| "unknown".to_string());
    let new = match &m.to {
        Replacement::Drop => {
            object.remove(&key);
            return;
        }
        Replacement::Null => Value::Null,
        Replacement::Number(n) => json!(n),
        Replacement::Float(f) => json!(f64::from(*f) / 7.0),
        Replacement::Text(t) => json!(TEXTS[*t as usize % TEXTS.len()]),
        Replacement::Bool(b) => json!(b),
        Replacement::EmptyArray => json!([]),
        Replacement::EmptyObject => json!({}),
        Replacement::Long(n) => json!(vec![1; *n as usize % 8192]),
    };
    object.insert(key, new);
}

fn wrap(text: String, wrap: &Wrap) -> Vec<u8> {
    match wrap {
        Wrap::Plain | Wrap::Plain2 | Wrap::Plain3 => text.into_bytes(),
        Wrap::Empty => Vec::new(),
        Wrap::Nested(depth) => {
            let depth = *depth as usize % 4096;
            format!("{}{text}{}", "[".repeat(depth), "]".repeat(depth)).into_bytes()
        }
        Wrap::Oversize(extra) => {
            let pad = (MAX_BODY + *extra as usize).saturating_sub(text.len());
            format!("{{\"pad\": \"{}\", \"body\": {text}}}", " ".repeat(pad)).into_bytes()
        }
        Wrap::Inside(array) if *array => format!("[{text}]").into_bytes(),
        Wrap::Inside(_) => Value::String(text).to_string().into_bytes(),
        Wrap::Garbage(bytes) => bytes
            .iter()
            .map(|&b| character(b))
            .collect::<String>()
            .into_bytes(),
    }
}

/// A move request whose limits keep the search short: it has a limit, and any limit it
/// has is small or out of the server's bounds (so refused). Without one the server
/// thinks a second, and with a large one up to a minute: requests it must serve, but
/// too slowly for a fuzz case. The body is read as the server reads it (JSON, the last
/// of a repeated key).
fn short_search(body: &[u8]) -> bool {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return true;
    };
    let long = |key: &str, short: u64, max: u64| {
        value
            .get(key)
            .and_then(Value::as_u64)
            .is_some_and(|n| n > short && n <= max)
    };
    let unlimited = value.get("movetime").is_none() && value.get("depth").is_none();
    !unlimited && !long("movetime", 20, 60_000) && !long("depth", 2, 64)
}

/// The method a path of the board is asked with: POST for the requests that carry a
/// game, GET for the rest.
fn own_method(path: &str) -> Method {
    let posted = ["/api/state", "/api/move", "/api/pgn", "/api/import"];
    if posted.iter().any(|p| path.starts_with(p)) {
        Method::POST
    } else {
        Method::GET
    }
}

/// A move request asking for more than the server gives (a movetime not 1 to 60 000 ms,
/// a depth not 1 to 64), which it must refuse rather than cut.
fn beyond_bounds(body: &[u8]) -> bool {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return false;
    };
    let outside = |key: &str, max: u64| {
        value
            .get(key)
            .filter(|v| !v.is_null())
            .is_some_and(|v| !v.as_u64().is_some_and(|n| (1..=max).contains(&n)))
    };
    outside("movetime", 60_000) || outside("depth", 64)
}

fn path(target: &Target) -> Option<String> {
    let real = |i: &u8| PATHS[*i as usize % PATHS.len()];
    let text = match target {
        Target::Real(i) => real(i).to_string(),
        Target::Edited { real: i, edits } => edited(real(i), first(edits, 3), 256),
        Target::Query { real: i, query } => format!(
            "{}?{}",
            real(i),
            query
                .iter()
                .take(64)
                .map(|&b| character(b))
                .collect::<String>()
        ),
    };
    text.parse::<Uri>().ok().map(|_| text)
}

fn host(host: &Host) -> Option<String> {
    match host {
        Host::Loopback(i) => Some(LOOPBACK_HOSTS[*i as usize % LOOPBACK_HOSTS.len()].into()),
        Host::Other(i) => Some(OTHER_HOSTS[*i as usize % OTHER_HOSTS.len()].into()),
        Host::Missing => None,
        Host::Edited { loopback, edits } => Some(edited(
            LOOPBACK_HOSTS[*loopback as usize % LOOPBACK_HOSTS.len()],
            first(edits, 2),
            256,
        )),
    }
}

fn origin(origin: &Origin, host: Option<&str>) -> String {
    match origin {
        Origin::Own => format!("http://{}", host.unwrap_or("")),
        Origin::Other(i) => OTHER_ORIGINS[*i as usize % OTHER_ORIGINS.len()].into(),
        Origin::Edited(edits) => edited(
            &format!("http://{}", host.unwrap_or("")),
            first(edits, 2),
            256,
        ),
    }
}

/// One message of the analysis socket, as the page would send it, changed and edited.
#[derive(Debug, TypeGenerator)]
struct AnalysisCase {
    game: u8,
    start: u8,
    plies: Vec<u8>,
    stop: Option<bool>,
    analyse: bool,
    multipv: Option<i64>,
    fields: GameFields,
    count: u8,
    mangles: Vec<Mangle>,
    edit_count: u8,
    edits: Vec<Edit>,
}

#[test]
fn analysis_messages() {
    check!()
        .with_type::<AnalysisCase>()
        .with_iterations(300)
        .for_each(|case| {
            with_width!(game(case.game), g => one_message(g, case));
        });
}

fn one_message<const W: usize>(g: &Game<W>, case: &AnalysisCase) {
    let named = named_game(g, case.start, &case.plies, &case.fields);
    let mut message = json!({});
    if case.analyse {
        message["analyse"] = named.game.clone();
    }
    if let Some(n) = case.multipv {
        message["multipv"] = json!(n);
    }
    if let Some(stop) = case.stop {
        message["stop"] = json!(stop);
    }
    for m in first(&case.mangles, case.count % 4) {
        mangle(&mut message, m);
    }
    let text = edited(
        &message.to_string(),
        first(&case.edits, (case.edit_count % 8).saturating_sub(4)),
        MAX_BODY,
    );
    read_message(&text);
}

/// What the parser made of a message agrees with the message read as JSON.
fn read_message(text: &str) {
    let value: Option<Value> = serde_json::from_str(text).ok();
    match kirin::serve::analysis_command(text) {
        Err(why) => assert!(!why.is_empty(), "an empty error for '{text}'"),
        Ok(None) => {
            let value = value.unwrap_or_else(|| panic!("a stop read from '{text}', no JSON"));
            assert_eq!(value["stop"], true, "a stop read from '{text}'");
            assert!(value["analyse"].is_null(), "a stop read from '{text}'");
        }
        Ok(Some((game, multipv))) => {
            let value = value.unwrap_or_else(|| panic!("a game read from '{text}', no JSON"));
            assert!(
                (1..=8).contains(&multipv),
                "multipv {multipv} from '{text}'"
            );
            assert_ne!(
                value["stop"], true,
                "an analysis read from the stop '{text}'"
            );
            assert_eq!(
                serde_json::to_value(&game).expect("a game is JSON")["variant"],
                value["analyse"]["variant"],
                "another game read from '{text}'"
            );
        }
    }
}
