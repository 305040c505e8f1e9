//! Command-line front ends of the search (`analyse`, `bench`, `selfplay`), and what every
//! command shares: the default game and setting up a position.

use crate::core::{Move, MoveKind, WHITE, type_of_piece};
use crate::eval::Eval;
use crate::rules::diagram::board_text;
use crate::rules::fen::piece_symbol;
use crate::rules::spec::Verdict;
use crate::rules::{Game, MoveList, Position};
use crate::search::limits::Limits;
use crate::search::tt::Table;
use crate::search::{self, Info, score_text};
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The game every command plays unless told otherwise (the README's).
pub const DEFAULT_VARIANT: &str = "chu";

/// The game a command plays: a variant and its rule options, the two arguments every
/// command that plays a game shares (flattened into its arguments).
#[derive(clap::Args)]
pub struct GameArgs {
    /// Variant name (see `kirin variants`; any case).
    #[arg(long, default_value = DEFAULT_VARIANT)]
    pub variant: String,
    /// Replaces one of the variant's rules or rule options, e.g. `--rule okazaki=true` (keys:
    /// `kirin variants`, docs/variants.md); repeatable.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub rules: Vec<String>,
}

/// Sets up a position from a variant's start (or a named start, or a FEN) and moves.
pub fn setup<const W: usize>(
    game: &Game<W>,
    fen: Option<&str>,
    start: Option<&str>,
    moves: Option<&str>,
) -> Result<Position<W>, String> {
    let fen = match (fen, start) {
        (Some(_), Some(_)) => return Err("give --fen or --start, not both".into()),
        (Some(f), None) => f.to_string(),
        (None, s) => game
            .spec
            .start_position(s.unwrap_or(""))
            .ok_or_else(|| {
                let names: Vec<&str> = game.spec.starts.iter().map(|(n, _)| n.as_str()).collect();
                format!(
                    "{} has no start position '{}' (named starts: {})",
                    game.spec.name,
                    s.unwrap_or(""),
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                )
            })?
            .to_string(),
    };
    let mut pos = Position::from_fen(game, &fen).map_err(|e| format!("bad FEN: {e}"))?;
    // Moves apart by spaces, or by `;` in a game of one action per turn (where `;` joins
    // the actions of one turn, rules::turns). Each in kirin's coordinates or in SAN, so
    // that a game's moves can be copied from one of kirin's PGN files.
    let separators: &[char] = if game.multi_action {
        &[' ']
    } else {
        &[' ', ';']
    };
    for text in moves
        .unwrap_or("")
        .split(separators)
        .filter(|t| !t.is_empty())
    {
        for m in game.parse_san(&mut pos, text).map_err(|e| e.to_string())? {
            pos.make(game, m);
        }
    }
    Ok(pos)
}

/// A move for people: the piece letter, `-` or `x`, and the squares (`Ne5xe6xe7` for a
/// Lion's double capture, `pass` for a pass).
pub fn readable<const W: usize>(game: &Game<W>, pos: &Position<W>, m: Move) -> String {
    if m.kind() == MoveKind::Rule {
        // A rule's move may move no piece (a ransom, the end of a turn).
        return game.rule_move_readable(pos, m);
    }
    let g = &game.geo;
    let piece = piece_symbol(game, pos.mover(m)).to_ascii_uppercase();
    let sep = |sq: usize| if pos.board[sq] != 0 { "x" } else { "-" };
    let mut s = match m.kind() {
        MoveKind::Pass => return "pass".to_string(),
        MoveKind::Drop => format!("{piece}@{}", g.name(m.to())),
        MoveKind::Castle => format!("{piece}{}-{} (castles)", g.name(m.from()), g.name(m.to())),
        MoveKind::TwoLeg if m.to() == m.from() => {
            format!("{piece}{}x{}!", g.name(m.from()), g.name(m.aux()))
        }
        MoveKind::TwoLeg => format!(
            "{piece}{}x{}{}{}",
            g.name(m.from()),
            g.name(m.aux()),
            sep(m.to()),
            g.name(m.to())
        ),
        MoveKind::MultiLeg => {
            let way: String = game
                .captures_on_the_way(m)
                .iter()
                .map(|&sq| format!("x{}", g.name(sq as usize)))
                .collect();
            let end = if m.to() == m.from() {
                "!".to_string()
            } else {
                format!("{}{}", sep(m.to()), g.name(m.to()))
            };
            format!("{piece}{}{way}{end}", g.name(m.from()))
        }
        MoveKind::EnPassant => format!("{piece}{}x{} e.p.", g.name(m.from()), g.name(m.to())),
        // A move a game's rule defines: its rule writes it.
        MoveKind::Rule => unreachable!("answered above"),
        _ => format!(
            "{piece}{}{}{}",
            g.name(m.from()),
            sep(m.to()),
            g.name(m.to())
        ),
    };
    if let Some(p) = m.promotes_to() {
        let letter = &game.spec.pieces[type_of_piece(p)].letter;
        s += &if letter.starts_with('+') {
            "+".to_string()
        } else {
            format!("={}", letter.to_ascii_uppercase())
        };
    }
    s
}

/// A principal variation in readable notation.
pub fn pv_text<const W: usize>(game: &Game<W>, pos: &Position<W>, pv: &[Move]) -> String {
    let mut p = pos.clone();
    let mut parts = Vec::new();
    for &m in pv {
        parts.push(readable(game, &p, m));
        p.make(game, m);
    }
    parts.join(" ")
}

/// The pieces on the board as a legend: each letter with its piece's name (upper case
/// White, lower case Black), so that `R'` or `+o` in a board or line can be read.
pub fn legend<const W: usize>(game: &Game<W>, pos: &Position<W>) -> String {
    let mut types: Vec<usize> = Vec::new();
    for &code in pos.board.iter().take(game.squares) {
        let t = (code as usize).wrapping_sub(1) / 2;
        if code != 0 && !types.contains(&t) {
            types.push(t);
        }
    }
    types.sort_by_key(|&t| {
        game.spec.pieces[t]
            .letter
            .trim_start_matches('+')
            .to_string()
    });
    let entries: Vec<String> = types
        .iter()
        .map(|&t| {
            let p = &game.spec.pieces[t];
            format!("{} {}", p.letter.to_ascii_uppercase(), p.name)
        })
        .collect();
    let mut out = String::from("pieces (White upper case, Black lower case):");
    let mut width = out.len();
    for e in entries {
        if width + e.len() + 2 > 90 {
            out += "\n ";
            width = 1;
        }
        out += "  ";
        out += &e;
        width += e.len() + 2;
    }
    out
}

/// `kirin analyse`: the board and its legend, then one line per completed iteration,
/// with a progress line about once a second while an iteration runs.
pub fn analyse<const W: usize>(
    game: &Game<W>,
    pos: &Position<W>,
    limits: &Limits,
    threads: usize,
    hash_mb: usize,
) {
    say!("{}", board_text(game, pos));
    say!("{}\n", legend(game, pos));
    if let Some(end) = game.outcome(&mut pos.clone()) {
        say!("{}", game_over_text(pos, end));
        return;
    }
    let eval = Eval::new(game);
    let tt = Table::new(hash_mb);
    if tt.mb() < hash_mb {
        say!(
            "hash: {} MiB of the {hash_mb} MiB asked (the machine has no more to give)",
            tt.mb()
        );
    }
    let stop = AtomicBool::new(false);
    say!(
        "{:>5} {:>10} {:>12} {:>10} {:>8}  pv",
        "depth",
        "score",
        "nodes",
        "nps",
        "time"
    );
    let mut report = |i: &Info| {
        let secs = i.time.as_secs_f64();
        say!(
            "{:>2}/{:<2} {:>10} {:>12} {:>10.0} {:>8.2}  {}",
            i.depth,
            i.seldepth,
            score_text(i.score),
            i.nodes,
            i.nodes as f64 / secs.max(1e-6),
            secs,
            pv_text(game, pos, &i.pv)
        );
    };
    let mut progress = |p: &search::Progress| {
        let secs = p.time.as_secs_f64();
        say!(
            "{:>2}    {:>10} {:>12} {:>10.0} {:>8.2}  searching move {}: {}",
            p.depth,
            "...",
            p.nodes,
            p.nodes as f64 / secs.max(1e-6),
            secs,
            p.number,
            readable(game, pos, p.currmove)
        );
    };
    let r = search::search_with_progress(
        &search::Context {
            game,
            eval: &eval,
            tt: &tt,
            stop: &stop,
            memory: None,
        },
        pos,
        limits,
        threads,
        &mut report,
        &mut progress,
    );
    match r.best {
        Some(m) => say!(
            "best move {} ({}), {} nodes in {:.2} s",
            game.turn_text(&r.turn),
            readable(game, pos, m),
            r.nodes,
            r.time.as_secs_f64()
        ),
        None => say!("no legal move"),
    }
}

/// A finished game in words: how it ended and who won, e.g. "checkmate: White wins".
pub fn game_over_text<const W: usize>(
    pos: &Position<W>,
    end: crate::rules::outcome::Outcome,
) -> String {
    let mover = pos.side.name();
    let other = pos.side.opposite().name();
    let result = match end.verdict {
        Verdict::Draw => "a draw".to_string(),
        Verdict::Loss => format!("{other} wins"),
        Verdict::Win => format!("{mover} wins"),
    };
    format!("game over, {} ({mover} to move): {result}", end.reason)
}

/// One bench position: variant, FEN and depth.
pub struct BenchPosition {
    pub variant: &'static str,
    pub fen: &'static str,
    pub depth: i32,
}

/// The positions of `kirin bench`: each variant's start and a middlegame from its suite.
pub const BENCH: &[BenchPosition] = &[
    BenchPosition {
        variant: "chess",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 15,
    },
    BenchPosition {
        variant: "chess",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 12,
    },
    BenchPosition {
        variant: "courier",
        fen: "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
        depth: 14,
    },
    BenchPosition {
        variant: "courier",
        fen: "r3mkewbe1r/1pp5ppp1/2nppbfp1n2/p4pp4p/P4PP4P/3PP1FP1N2/RPPN4PPP1/2EBMK1WBE1R w - - 3 11",
        depth: 12,
    },
    BenchPosition {
        variant: "modern-courier",
        fen: "rnebwfkmbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBWFKMBENR w - - 0 1",
        depth: 13,
    },
    BenchPosition {
        variant: "sho",
        fen: "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL w 0 1",
        depth: 13,
    },
    BenchPosition {
        variant: "sho",
        fen: "ln2g3l/2r1eskb1/pp2s1n1p/3pg2P1/4pp3/2pG1P3/PP1PS3P/1B1SG1R2/LN2K2NL w - - 0 25",
        depth: 12,
    },
    BenchPosition {
        variant: "duodecimal",
        fen: "rnubckqfbunr/pppppppppppp/12/12/12/12/12/12/12/12/PPPPPPPPPPPP/RNUBCKQFBUNR w - - 0 1",
        depth: 12,
    },
    BenchPosition {
        variant: "chu",
        fen: "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w 0 1",
        depth: 11,
    },
];

/// `kirin bench`: every bench position searched to its depth on one thread with an empty
/// 16 MiB table. The node total is a signature of the search: it changes only when the
/// search (or move generation, or evaluation) changes.
pub fn bench(depth_offset: i32, threads: usize) -> Result<(), String> {
    let mut total = 0u64;
    let start = Instant::now();
    for b in BENCH {
        let any = crate::variants::AnyGame::builtin(b.variant).map_err(|e| e.to_string())?;
        let nodes = crate::with_width!(&any, g => bench_one(g, b.fen, (b.depth + depth_offset).max(1), threads)?);
        say!(
            "{:16} depth {:2} nodes {:>10}  {}",
            b.variant,
            (b.depth + depth_offset).max(1),
            nodes,
            b.fen
        );
        total += nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    say!("Time: {secs:.3} s");
    say!("Nodes searched: {total}");
    say!("Nodes/second: {:.0}", total as f64 / secs.max(1e-9));
    Ok(())
}

fn bench_one<const W: usize>(
    game: &Game<W>,
    fen: &str,
    depth: i32,
    threads: usize,
) -> Result<u64, String> {
    let pos = Position::from_fen(game, fen).map_err(|e| e.to_string())?;
    let eval = Eval::new(game);
    let tt = Table::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let r = search::search(
        &search::Context {
            game,
            eval: &eval,
            tt: &tt,
            stop: &stop,
            memory: None,
        },
        &pos,
        &limits,
        threads,
        &mut |_| {},
    );
    Ok(r.nodes)
}

/// How a self-play game ended.
pub struct GameRecord {
    pub result: &'static str,
    pub reason: String,
    pub plies: usize,
    /// What was left on White's and Black's clocks at the end (with a game clock).
    pub clocks: Option<[Duration; 2]>,
}

/// Plays one game of the engine against itself, `movetime` per move, the first
/// `random_plies` moves chosen at random (seeded) so that games differ. A game ends by a
/// rule of the variant or, failing that, when `no_progress` plies pass without a capture
/// or a pawn move (`max_plies` bounds it in any case).
/// How much time each move gets: a fixed time per move, or a game clock (time plus
/// increment per move) on which the engine must not run out.
#[derive(Clone, Copy, Debug)]
pub enum TimeControl {
    PerMove(Duration),
    Clock { base: Duration, inc: Duration },
}

/// The clocks of a timed game (per-move games have none).
fn on_clock(clocks: [Duration; 2]) -> Option<[Duration; 2]> {
    (clocks[0] != Duration::MAX).then_some(clocks)
}

pub fn selfplay_game<const W: usize>(
    game: &Game<W>,
    start: &Position<W>,
    tc: TimeControl,
    seed: u64,
    random_plies: usize,
    no_progress: u32,
    max_plies: usize,
) -> Result<GameRecord, String> {
    let eval = Eval::new(game);
    let tt = Table::new(16);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut plies = 0;
    let mut clocks = match tc {
        TimeControl::Clock { base, .. } => [base, base],
        TimeControl::PerMove(_) => [Duration::MAX, Duration::MAX],
    };
    loop {
        if let Some(o) = game.outcome(&mut pos) {
            let white_wins = (o.verdict == Verdict::Win) == (pos.side == WHITE);
            let result = match o.verdict {
                Verdict::Draw => "1/2-1/2",
                _ if white_wins => "1-0",
                _ => "0-1",
            };
            return Ok(GameRecord {
                result,
                reason: o.reason.to_string(),
                plies,
                clocks: on_clock(clocks),
            });
        }
        if pos.halfmove >= no_progress || plies >= max_plies {
            return Ok(GameRecord {
                result: "1/2-1/2",
                reason: "no-progress limit".into(),
                plies,
                clocks: on_clock(clocks),
            });
        }
        let mut list = MoveList::new();
        game.game_moves(&mut pos, &mut list);
        let turn = if plies < random_plies {
            vec![list[rng.gen_range(0..list.len())]]
        } else {
            let stop = AtomicBool::new(false);
            let limits = match tc {
                TimeControl::PerMove(t) => Limits {
                    movetime: Some(t),
                    ..Default::default()
                },
                TimeControl::Clock { inc, .. } => Limits {
                    time: Some(clocks[pos.side]),
                    inc,
                    ..Default::default()
                },
            };
            let started = Instant::now();
            let r = search::search(
                &search::Context {
                    game,
                    eval: &eval,
                    tt: &tt,
                    stop: &stop,
                    memory: None,
                },
                &pos,
                &limits,
                1,
                &mut |_| {},
            );
            if let TimeControl::Clock { inc, .. } = tc {
                let used = started.elapsed();
                if used > clocks[pos.side] {
                    let result = if pos.side == WHITE { "0-1" } else { "1-0" };
                    return Ok(GameRecord {
                        result,
                        reason: format!(
                            "time forfeit ({} ms used, {} ms left)",
                            used.as_millis(),
                            clocks[pos.side].as_millis()
                        ),
                        plies,
                        clocks: on_clock(clocks),
                    });
                }
                clocks[pos.side] = clocks[pos.side] - used + inc;
            }
            r.best
                .ok_or("the search returned no move in a position with legal moves")?;
            r.turn
        };
        // The whole turn the search chose, each action checked as it is played.
        for m in turn {
            let mut list = MoveList::new();
            game.game_moves(&mut pos, &mut list);
            if !list.contains(&m) {
                return Err(format!(
                    "illegal move {} in {}",
                    game.move_text(m),
                    pos.to_fen(game)
                ));
            }
            pos.make(game, m);
        }
        plies += 1;
    }
}
