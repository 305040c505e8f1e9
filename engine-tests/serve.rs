//! `kirin serve` driven over real sockets: the board's requests answer as docs/web.md
//! says, and malformed, oversized or hostile requests get an error while the server
//! stays up. (The page itself is tested in a browser: scripts/browser-tests.sh.)

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `kirin serve` on a free port, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start() -> Server {
        Self::start_command(Command::new(env!("CARGO_BIN_EXE_kirin")))
    }

    /// A server with the test hook `KIRIN_FAULT=fault` (docs/protocols.md).
    fn start_with_fault(fault: &str) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_kirin"));
        cmd.env("KIRIN_FAULT", fault);
        Self::start_command(cmd)
    }

    fn start_command(mut cmd: Command) -> Server {
        let mut child = cmd
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("kirin starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("a pipe"))
            .read_line(&mut line)
            .expect("kirin prints its address");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, address }
    }

    /// Sends raw bytes and returns the status and body of the answer.
    fn raw(&self, request: &[u8]) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.address).expect("the server accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        // The server may answer and close before a large body is all written.
        let _ = stream.write_all(request);
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let answer = String::from_utf8_lossy(&answer).to_string();
        let status = answer
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {answer:?}"));
        let body = answer
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_string())
            .unwrap_or_default();
        (status, body)
    }

    fn post_bytes(&self, path: &str, body: &[u8]) -> (u16, String) {
        let mut request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.address,
            body.len()
        )
        .into_bytes();
        request.extend_from_slice(body);
        self.raw(&request)
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.post_bytes(path, body.to_string().as_bytes());
        let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        (status, value)
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.raw(
            format!(
                "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                self.address
            )
            .as_bytes(),
        )
    }

    /// The state of `game`, which must be accepted.
    fn state(&self, game: &Value) -> Value {
        let (status, state) = self.post("/api/state", game);
        assert_eq!(status, 200, "{state}");
        state
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn square(state: &Value, name: &str) -> Value {
    let width = state["width"].as_u64().unwrap() as usize;
    let file = (name.as_bytes()[0] - b'a') as usize;
    let rank: usize = name[1..].parse().unwrap();
    state["board"][(rank - 1) * width + file].clone()
}

fn action_id(state: &Value, text: &str) -> u64 {
    state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["text"] == text)
        .unwrap_or_else(|| panic!("{text} is not among {}", state["legal"]))["id"]
        .as_u64()
        .unwrap()
}

#[test]
fn the_page_and_the_games_are_served() {
    let server = Server::start();
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("app.js"), "the page loads its script");
    assert_eq!(server.get("/nonesuch").0, 404);
    let (status, text) = server.get("/api/variants");
    assert_eq!(status, 200);
    let games: Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    for name in [
        "chess",
        "chu",
        "sho",
        "tamerlane",
        "shofidegi",
        "flee",
        "littlegreat",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    // Every game's start is drawn and has moves.
    for name in names {
        let state = server.state(&json!({ "variant": name }));
        let squares = state["width"].as_u64().unwrap() * state["height"].as_u64().unwrap();
        assert_eq!(state["board"].as_array().unwrap().len() as u64, squares);
        assert!(!state["legal"].as_array().unwrap().is_empty(), "{name}");
        assert!(state["outcome"].is_null());
    }
}

#[test]
fn a_lion_takes_twice_by_the_path_of_its_legs() {
    let server = Server::start();
    let mut game = json!({
        "variant": "chu",
        "fen": "11k/12/12/12/5p6/5p6/5N6/12/12/12/12/K11 w 0 1",
        "moves": [],
    });
    let state = server.state(&game);
    let double = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["text"] == "f6f7,f7f8")
        .expect("the double capture is legal")
        .clone();
    // f6, f7, f8: the squares a person clicks, as indices rank * 12 + file.
    assert_eq!(double["path"], json!([65, 77, 89]));
    assert_eq!(square(&state, "f6")["kanji"], "獅子");
    game["moves"] = json!([double["id"]]);
    let after = server.state(&game);
    assert_eq!(square(&after, "f8")["letter"], "N");
    assert!(square(&after, "f7").is_null() && square(&after, "f6").is_null());
    assert_eq!(after["side"], "black");
    assert_eq!(after["history"][0]["text"], "f6f7,f7f8");
    assert_eq!(after["history"][0]["turn_end"], true);
}

#[test]
fn drops_swaps_and_reserves_are_offered() {
    let server = Server::start();
    let state = server.state(&json!({
        "variant": "shofidegi",
        "fen": "4s12/17/2Q14/17/17/17/17/17/17/15k1/17/17/4P12/T2V13/17/1K7A7/6G10[PT] w - - 0 1",
    }));
    let white = &state["reserves"][0];
    assert_eq!(white["owner"], "white");
    assert_eq!(white["pieces"].as_array().unwrap().len(), 2);
    let drop = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["text"] == "T@a3")
        .unwrap();
    assert_eq!(drop["path"], json!([34]));
    assert_eq!(drop["drop"]["letter"], "T");
    let tamerlane = json!({
        "variant": "tamerlane",
        "fen": "*k10*/6r5*/*11*/*11*/*11*/*11*/*11*/*11*/*1N3K6/*10R* w SCsc - 0 1",
    });
    let state = server.state(&tamerlane);
    assert_eq!(state["citadels"], json!([25, 104]));
    assert!(state["holes"].as_array().unwrap().contains(&json!(0)));
    let swap = action_id(&state, "g2c2");
    let mut game = tamerlane.clone();
    game["moves"] = json!([swap]);
    let after = server.state(&game);
    assert_eq!(square(&after, "c2")["letter"], "K");
    assert_eq!(square(&after, "g2")["letter"], "N");
}

#[test]
fn kirin_moves_and_the_game_round_trips_through_pgn() {
    let server = Server::start();
    let start = server.state(&json!({ "variant": "chess" }));
    let e4 = action_id(&start, "e2e4");
    let mut game = json!({ "variant": "chess", "moves": [e4] });
    let (status, reply) = server.post("/api/move", &json!({ "game": game, "depth": 3 }));
    assert_eq!(status, 200, "{reply}");
    let actions = reply["actions"].as_array().unwrap().clone();
    assert_eq!(actions.len(), 1);
    game["moves"].as_array_mut().unwrap().extend(actions);
    let state = server.state(&game);
    assert_eq!(state["ply"], 2);
    let (status, pgn) = server.post("/api/pgn", &game);
    assert_eq!(status, 200);
    let text = pgn["pgn"].as_str().unwrap();
    assert!(text.contains("1. e4 "), "{text}");
    let (status, imported) = server.post("/api/import", &json!({ "pgn": text }));
    assert_eq!(status, 200, "{imported}");
    assert_eq!(imported["moves"], game["moves"]);
    assert_eq!(imported["variant"], "chess");
    // A finished game gets no move from kirin.
    let mate = json!({ "variant": "chess",
        "fen": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3" });
    let state = server.state(&mate);
    assert_eq!(
        state["outcome"],
        json!({ "result": "0-1", "reason": "checkmate" })
    );
    let (status, reply) = server.post("/api/move", &json!({ "game": mate, "movetime": 50 }));
    assert_eq!(status, 400);
    assert!(reply["error"].as_str().unwrap().contains("over"));
}

#[test]
fn bad_requests_get_an_error_and_the_server_stays_up() {
    let server = Server::start();
    let refused = |path: &str, body: &[u8], why: &str| {
        let (status, text) = server.post_bytes(path, body);
        assert_eq!(status, 400, "{why}: {text}");
        let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{why}: {e}"));
        assert!(value["error"].is_string(), "{why}: {text}");
    };
    let bad_games: [(&[u8], &str); 9] = [
        (b"{not json", "malformed JSON"),
        (b"[1, 2, 3]", "JSON of another shape"),
        (br#"{"variant": "nonesuch"}"#, "an unknown game"),
        (br#"{"variant": "chess", "extra": 1}"#, "an unknown field"),
        (br#"{"variant": "chess", "moves": [7]}"#, "an illegal id"),
        (br#"{"variant": "chess", "moves": [-1]}"#, "a negative id"),
        (br#"{"variant": "chess", "fen": "8/8 w"}"#, "a broken FEN"),
        (br#"{"variant": "chess", "start": "x"}"#, "an unknown start"),
        (br#"{"variant": "chess", "rules": ["a"]}"#, "a bad option"),
    ];
    for (body, why) in bad_games {
        refused("/api/state", body, why);
    }
    let many = json!({ "variant": "chess", "moves": vec![1; 5000] }).to_string();
    refused("/api/state", many.as_bytes(), "too many moves");
    let huge = format!(
        r#"{{"variant": "chess", "fen": "{}"}}"#,
        "p".repeat(1 << 20)
    );
    refused("/api/state", huge.as_bytes(), "a body of a mebibyte");
    let long_fen = format!(r#"{{"variant": "chess", "fen": "{}"}}"#, "p".repeat(2000));
    refused("/api/state", long_fen.as_bytes(), "a long FEN");
    let cases: [(&str, &[u8], &str); 4] = [
        (
            "/api/move",
            br#"{"game": {"variant": "chess"}, "movetime": 0}"#,
            "no time",
        ),
        (
            "/api/move",
            br#"{"game": {"variant": "chess"}, "depth": 999}"#,
            "too deep",
        ),
        (
            "/api/import",
            br#"{"pgn": "1. e4 e5 2. Qxf7 *"}"#,
            "an illegal PGN move",
        ),
        (
            "/api/import",
            br#"{"fen": "8/8/8"}"#,
            "a FEN without its game",
        ),
    ];
    for (path, body, why) in cases {
        refused(path, body, why);
    }
    // Not HTTP at all, and a connection that says nothing: the server goes on.
    let (status, _) = server.raw(b"GARBAGE\r\n\r\n");
    assert_eq!(status, 400);
    let silent = TcpStream::connect(&server.address).unwrap();
    let (status, _) = server.get("/api/variants");
    assert_eq!(status, 200);
    drop(silent);
}

/// A path the server has no page for, a method it does not serve there, and a plain GET
/// of the analysis socket are refused with `{"error": "why"}` like any bad request, not
/// with an empty or plain-text body (found by the web fuzz target).
#[test]
fn every_refusal_is_json() {
    let server = Server::start();
    for (path, status) in [("/nosuch", 404), ("/api/state", 405), ("/api/analyse", 400)] {
        let (got, text) = server.get(path);
        assert_eq!(got, status, "GET {path}: {text}");
        let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(value["error"].is_string(), "GET {path}: {text}");
    }
}

#[test]
fn only_pages_of_this_machine_are_answered() {
    let server = Server::start();
    let get = |headers: &str| {
        server
            .raw(
                format!("GET /api/variants HTTP/1.1\r\n{headers}Connection: close\r\n\r\n")
                    .as_bytes(),
            )
            .0
    };
    let host = format!("Host: {}\r\n", server.address);
    assert_eq!(get(&host), 200);
    let port = server.address.rsplit(':').next().unwrap();
    assert_eq!(get(&format!("Host: localhost:{port}\r\n")), 200);
    // A name an attacker's DNS points at 127.0.0.1, and a page of another origin.
    assert_eq!(get(&format!("Host: evil.example:{port}\r\n")), 403);
    let origin = format!("{host}Origin: http://evil.example\r\n");
    assert_eq!(get(&origin), 403);
    let same = format!("{host}Origin: http://{}\r\n", server.address);
    assert_eq!(get(&same), 200);
}

/// A panic in a request's handler or in its search is answered 500 with a JSON error,
/// and the server answers the next requests as usual.
#[test]
fn a_panic_is_a_500_and_the_server_serves_on() {
    let chess = json!({ "variant": "chess" });
    let server = Server::start_with_fault("command-panic");
    let (status, error) = server.post("/api/state", &chess);
    assert_eq!(status, 500, "{error}");
    let why = error["error"].as_str().unwrap();
    assert!(
        why.starts_with("internal error: KIRIN_FAULT=command-panic"),
        "{why}"
    );
    assert_eq!(server.state(&chess)["ply"], 0);

    let server = Server::start_with_fault("search-panic");
    let ask = json!({ "game": chess, "depth": 3 });
    let (status, error) = server.post("/api/move", &ask);
    assert_eq!(status, 500, "{error}");
    let why = error["error"].as_str().unwrap();
    assert!(
        why.starts_with("internal error in the search: KIRIN_FAULT=search-panic"),
        "{why}"
    );
    let (status, reply) = server.post("/api/move", &ask);
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["depth"], 3);
}
