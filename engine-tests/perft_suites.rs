//! Runs every perft suite in `positions/`: each line's FEN is counted to every depth
//! listed whose node count is within the budget, once with bulk counting (speed) and,
//! to a smaller budget, with every leaf made and unmade while checking that the
//! incremental key equals the recomputed one and that unmake restores the position
//! exactly. `cargo test --release -- --ignored` runs every depth of every line.

use kirin::rules::{Game, MoveList, Position};
use kirin::variants::AnyGame;
use kirin::with_width;
use std::path::PathBuf;

struct Line {
    fen: String,
    /// Moves played from the FEN before counting (state a FEN cannot hold).
    moves: Vec<String>,
    /// The legal moves, reviewed by hand against the rules (`;legal m1 m2 ...`).
    legal: Option<Vec<String>>,
    /// Rules the variant is compiled with for this line (`;rules key=value ...`), as
    /// `kirin perft --rule` takes them; empty for the variant's own definition.
    rules: Vec<String>,
    depths: Vec<(u32, u64)>,
    comment: String,
}

fn suites() -> Vec<(String, Vec<Line>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("positions");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("positions/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "epd"))
        .collect();
    files.sort();
    for path in files {
        let variant = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).expect("readable suite");
        let lines = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(parse_line)
            .collect();
        out.push((variant, lines));
    }
    out
}

fn parse_line(line: &str) -> Line {
    let (body, comment) = line.split_once('#').unwrap_or((line, ""));
    let mut parts = body.split(';');
    let fen = parts.next().unwrap().trim().to_string();
    let mut moves = Vec::new();
    let mut legal = None;
    let mut rules = Vec::new();
    let depths = parts
        .filter(|p| {
            let words = |list: &str| list.split_whitespace().map(str::to_string).collect();
            if let Some(list) = p.trim().strip_prefix("moves ") {
                moves = words(list);
                false
            } else if let Some(list) = p.trim().strip_prefix("legal ") {
                legal = Some(words(list));
                false
            } else if let Some(list) = p.trim().strip_prefix("rules ") {
                rules = words(list);
                assert!(
                    rules.iter().all(|r: &String| r.contains('=')),
                    "bad ';rules' entry (want key=value ...) in {line}"
                );
                false
            } else {
                true
            }
        })
        .map(|p| {
            let p = p.trim();
            let (d, n) = p
                .strip_prefix('D')
                .and_then(|r| r.split_once(' '))
                .unwrap_or_else(|| panic!("bad depth entry '{p}' in {line}"));
            (d.parse().unwrap(), n.trim().parse().unwrap())
        })
        .collect();
    Line {
        fen,
        moves,
        legal,
        rules,
        depths,
        comment: comment.trim().to_string(),
    }
}

/// Perft that makes every leaf, checks the incremental key after each make and that
/// unmake gives back the exact position.
fn checked_perft<const W: usize>(g: &Game<W>, pos: &mut Position<W>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    g.legal_moves(pos, &mut list);
    let mut nodes = 0;
    for &m in &list {
        let before = pos.clone();
        let side = pos.side;
        let u = pos.make(g, m);
        assert_eq!(pos.key, pos.compute_key(g), "key after {}", g.move_text(m));
        if g.multi_action {
            // A turn in progress is written in FEN too (`w+1:s...`) and read back.
            let fen = pos.to_fen(g);
            let again = Position::from_fen(g, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(again.to_fen(g), fen);
            assert_eq!(again.key, pos.key, "key of {fen}");
        }
        // Depth counts whole turns: the actions of one turn are one ply.
        let left = if pos.side == side { depth } else { depth - 1 };
        nodes += checked_perft(g, pos, left);
        pos.unmake(g, m, u);
        assert!(
            *pos == before,
            "unmake of {} in {}",
            g.move_text(m),
            before.to_fen(g)
        );
    }
    nodes
}

fn run(bulk_budget: u64, checked_budget: u64) {
    let mut failures = Vec::new();
    let mut total = 0u64;
    for (variant, lines) in suites() {
        let default = AnyGame::builtin(&variant).unwrap_or_else(|e| panic!("{variant}: {e}"));
        for line in &lines {
            let any = if line.rules.is_empty() {
                None
            } else {
                let spec =
                    kirin::variants::with_rules(&variant, &line.rules, "").unwrap_or_else(|e| {
                        panic!(
                            "{variant}: ;rules {}: {e}  {}",
                            line.rules.join(" "),
                            line.fen
                        )
                    });
                Some(AnyGame::new(&spec).unwrap_or_else(|e| {
                    panic!(
                        "{variant}: ;rules {}: {e}  {}",
                        line.rules.join(" "),
                        line.fen
                    )
                }))
            };
            let rules = if line.rules.is_empty() {
                String::new()
            } else {
                format!(" [rules {}]", line.rules.join(" "))
            };
            with_width!(any.as_ref().unwrap_or(&default), g => {{
                let mut pos = Position::from_fen(g, &line.fen)
                    .unwrap_or_else(|e| panic!("{variant}{rules}: {}: {e}", line.fen));
                assert_eq!(Position::from_fen(g, &pos.to_fen(g)).unwrap().to_fen(g), pos.to_fen(g));
                for text in &line.moves {
                    let turn = g.parse_turn(&mut pos, text)
                        .unwrap_or_else(|e| panic!("{variant}{rules}: move {text}: {e}  {}", line.fen));
                    for m in turn {
                        pos.make(g, m);
                    }
                }
                if let Some(expected) = &line.legal {
                    let mut list = MoveList::new();
                    g.legal_moves(&mut pos, &mut list);
                    let mut got: Vec<String> = list.iter().map(|&m| g.move_text(m)).collect();
                    got.sort();
                    let mut expected = expected.clone();
                    expected.sort();
                    if got != expected {
                        failures.push(format!(
                            "{variant}{rules}: legal moves {got:?} != {expected:?}  {}",
                            line.fen
                        ));
                    }
                }
                for &(depth, expected) in &line.depths {
                    if expected <= bulk_budget {
                        let got = g.perft(&mut pos.clone(), depth, true);
                        total += got;
                        if got != expected {
                            failures.push(format!(
                                "{variant}{rules} D{depth}: {got} != {expected}  {}  # {}",
                                line.fen, line.comment
                            ));
                        }
                    }
                    if expected <= checked_budget {
                        let got = checked_perft(g, &mut pos.clone(), depth);
                        if got != expected {
                            failures.push(format!(
                                "{variant}{rules} D{depth} (full): {got} != {expected}  {}",
                                line.fen
                            ));
                        }
                    }
                }
            }});
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    assert!(total > 0);
}

#[test]
fn perft_suites_within_budget() {
    run(20_000_000, 200_000);
}

#[test]
#[ignore = "runs every depth of every suite; minutes of CPU"]
fn perft_suites_all_depths() {
    run(u64::MAX, 5_000_000);
}

#[test]
fn every_variant_has_a_suite_with_ten_million_nodes() {
    let suites = suites();
    for spec in kirin::variants::builtin() {
        let (_, lines) = suites
            .iter()
            .find(|(v, _)| v == &spec.name)
            .unwrap_or_else(|| panic!("no positions/{}.epd", spec.name));
        assert!(
            lines.len() >= 9,
            "{}: start plus at least eight positions",
            spec.name
        );
        let deepest: u64 = lines
            .iter()
            .map(|l| l.depths.last().map_or(0, |d| d.1))
            .sum();
        assert!(
            deepest >= 10_000_000,
            "{}: deepest counts sum to {deepest}",
            spec.name
        );
    }
}
