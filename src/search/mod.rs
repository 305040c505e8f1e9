//! Alpha-beta search, generic over the bitboard width and so monomorphised per board size:
//! iterative deepening with aspiration windows, principal variation search, quiescence
//! with static exchange evaluation, null-move pruning, late move reductions, killer,
//! history, continuation-history and counter-move ordering, check extensions and mate-distance scores, with the
//! variants' own results (stalemate verdicts, repetition rules, bare king, loss of the last
//! royal) in the tree. Lazy SMP: every thread searches the same root, sharing only the
//! transposition table, the stop flag and a node counter.

pub mod limits;
pub mod memory;
pub mod see;
pub mod tt;

use crate::core::{Color, Move, MoveKind, piece_index, type_of_piece};
use crate::eval::{Eval, PawnCache};
use crate::fault::{self, Fault, Panicked};
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::{Position, color_of};
use crate::rules::spec::{BareKing, RepetitionRule, Verdict};
use arrayvec::ArrayVec;
use limits::{Clock, Limits};
use memory::{Heuristics, Memory};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Duration;
use thiserror::Error;
use tt::{Bound, Table};

pub const MATE: i32 = 30000;
/// Scores beyond this are mates in a known number of plies (wins by a rule lie below it,
/// beyond `WIN_BOUND`).
pub const MATE_BOUND: i32 = MATE - 1000;
/// A game won by a rule that leaves the loser's royal on the board (bare king). Below the
/// mate scores, so that taking the last royal, where the search sees it, is preferred:
/// otherwise, with a bared opponent that a GUI lets play on, every move would look equally
/// won and the engine would never finish the game.
pub const RULE_WIN: i32 = MATE_BOUND - 1000;
/// Scores beyond this are wins, by mate or by a rule, at a known distance in plies from
/// the root (`RULE_WIN - ply` at the deepest): the table keeps them counted from the node
/// instead (`to_tt`, `from_tt`).
const WIN_BOUND: i32 = RULE_WIN - MAX_PLY as i32;
const INF: i32 = 31000;
/// The most search threads any command or protocol accepts.
pub const MAX_THREADS: usize = 256;
const MAX_PLY: usize = 120;

/// The stacks a thread that searches asks for, largest first: every ply keeps a move list
/// (`MAX_MOVES` moves, 32 KiB) on it, so `MAX_PLY` of them need about 4 MiB, more than the
/// 2 MiB a new thread gets. Only the pages a search touches are committed; a process
/// whose address space is limited may not get the first, and then takes the next (the
/// last is the default, for a search that must run somehow).
const SEARCH_STACKS: [Option<usize>; 3] = [Some(16 << 20), Some(8 << 20), None];

/// Starts a thread for a search (`SEARCH_STACKS`).
pub fn spawn_search_thread<F, T>(run: F) -> std::thread::JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    // A failed spawn drops the closure it was given, so the search waits in a cell that
    // every attempt shares, and the thread that starts takes it out.
    let cell = std::sync::Arc::new(std::sync::Mutex::new(Some(run)));
    for size in SEARCH_STACKS {
        // Named, so that the panic hook's line says which thread failed.
        let named = std::thread::Builder::new().name("search".to_string());
        let builder = match size {
            Some(size) => named.stack_size(size),
            None => named,
        };
        let cell = cell.clone();
        let started = builder.spawn(move || {
            let run = cell.lock().expect("unpoisoned").take().expect("run once");
            run()
        });
        if let Ok(handle) = started {
            return handle;
        }
    }
    panic!("no thread could be started for the search")
}
/// Quiescence plies in which every capture is searched; deeper, only recaptures.
const FULL_QUIESCENCE: usize = 6;

/// Ordering keys (`Worker::order`): the table move, captures that do not lose material,
/// killers and the counter move (from `KILLER_KEY` up), quiet moves by history (within
/// +-`HISTORY_MAX`), and captures that lose material below them all.
const TT_KEY: i32 = 10_000_000;
const GOOD_CAPTURE_KEY: i32 = 1_000_000;
const KILLER_KEY: i32 = 880_000;
const BAD_CAPTURE_KEY: i32 = -1_000_000;
/// History saturates here (the gravity of `reward_quiet`).
const HISTORY_MAX: i32 = 16384;
/// Late move reductions: one ply less or more per this much history.
const HISTORY_PER_REDUCTION: i32 = HISTORY_MAX / 2;
/// A static evaluation not taken (in check).
const NO_EVAL: i32 = -INF - 1;
/// Entries of a search thread's evaluation cache (a power of two; eight bytes each).
const EVAL_CACHE: usize = 1 << 16;

/// How boldly the search prunes, reduces and extends. Depth limits of 0 turn a method
/// off.
#[derive(Clone, Copy, Debug)]
struct Pruning {
    /// Reverse futility: at most this depth, a margin per ply (less one ply when
    /// improving).
    rfp_depth: i32,
    rfp_margin: i32,
    /// Null move reduction: `null_base + depth / null_div`, plus up to three plies for
    /// an evaluation above beta (one per 200 cp) when `null_by_eval`.
    null_base: i32,
    null_div: i32,
    null_by_eval: bool,
    /// Internal iterative reduction of a node without a table move.
    iir: bool,
    /// Singular extensions from this depth.
    singular_depth: i32,
    /// Late move pruning: quiet moves past (3 + depth^2) / 2 (improving: twice as
    /// many), at most this depth.
    lmp_depth: i32,
    /// Futility pruning of quiet moves: the static evaluation this far below alpha.
    futility_depth: i32,
    futility_base: i32,
    futility_margin: i32,
    /// Static exchange pruning: quiet moves that lose more than `see_quiet` x depth^2,
    /// captures that lose more than `see_capture` x depth.
    see_depth: i32,
    see_quiet: i32,
    see_capture: i32,
    /// Late move reductions from the second move (third in PV nodes), for captures
    /// that lose material too, by history, improving, killers; else from the fourth
    /// quiet move by depth and move number only.
    lmr_refined: bool,
    /// The reductions' base: 0.75 + ln(depth) ln(move number) / `lmr_divisor` plies.
    lmr_divisor: f64,
    /// Captures that lose material by exchange ordered after the quiet moves.
    bad_captures_last: bool,
    /// The table's score, where its bound allows, replaces the static evaluation.
    tt_eval: bool,
    /// Quiet moves that give check are spared late-move, futility and exchange pruning.
    spare_checks: bool,
}

impl Pruning {
    /// The methods accepted by SPRT in Courier (docs/search.md).
    const FULL: Pruning = Pruning {
        rfp_depth: 8,
        rfp_margin: 80,
        null_base: 3,
        null_div: 3,
        null_by_eval: true,
        iir: true,
        singular_depth: 8,
        lmp_depth: 8,
        futility_depth: 6,
        futility_base: 100,
        futility_margin: 90,
        see_depth: 8,
        see_quiet: 25,
        see_capture: 90,
        lmr_refined: true,
        // 3.0 (smaller reductions) led by 3.5 points over 300 Courier games against
        // Fairy-Stockfish and by 20 +/- 43 Elo in Sho self-play: not proven, not taken
        // (docs/search.md, 2026-12-04).
        lmr_divisor: 2.25,
        bad_captures_last: true,
        tt_eval: true,
        spare_checks: true,
    };

    /// The search before them, kept for games with captures that static exchange
    /// evaluation cannot follow (lame and multi-leg captures, as a Lion's): there the
    /// full set lost to it in Chu (166-265 over ten short matches of its variants), and
    /// which part costs is not yet known.
    const CAUTIOUS: Pruning = Pruning {
        rfp_depth: 3,
        rfp_margin: 120,
        null_base: 2,
        null_div: 4,
        null_by_eval: false,
        iir: false,
        singular_depth: 0,
        lmp_depth: 0,
        futility_depth: 0,
        futility_base: 0,
        futility_margin: 0,
        see_depth: 0,
        see_quiet: 0,
        see_capture: 0,
        lmr_refined: false,
        lmr_divisor: 2.25,
        bad_captures_last: false,
        tt_eval: false,
        spare_checks: false,
    };

    /// The profile for `game`.
    fn of<const W: usize>(game: &Game<W>) -> Pruning {
        if game.complex_attackers.iter().all(|a| a.is_empty()) {
            Pruning::FULL
        } else {
            Pruning::CAUTIOUS
        }
    }
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Info {
    /// Which principal variation this is (1 = the best).
    pub multipv: usize,
    pub depth: i32,
    pub seldepth: usize,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: usize,
    pub pv: Vec<Move>,
    /// `pv` cut into whole turns.
    pub turns: Vec<Vec<Move>>,
}

/// Where a long iteration stands, reported about once a second between completed
/// iterations so that a user (or GUI) sees the search is alive.
#[derive(Clone, Debug)]
pub struct Progress {
    pub depth: i32,
    /// The root move being searched and its number in the search order (from 1).
    pub currmove: Move,
    pub number: usize,
    pub nodes: u64,
    pub time: Duration,
}

/// How often `Progress` is reported.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    /// The principal variation the best move came with.
    pub pv: Vec<Move>,
    /// The whole turn the best move begins (`rules::turns`): the best move alone in a
    /// game of one action per turn.
    pub turn: Vec<Move>,
    /// The turn expected in reply, if the variation reaches it.
    pub ponder_turn: Option<Vec<Move>>,
    pub score: i32,
    pub depth: i32,
    /// The deepest ply the completed iteration reached.
    pub seldepth: usize,
    pub nodes: u64,
    pub time: Duration,
    /// A panic caught in one of the search's threads, and what the result is then.
    pub fault: Option<SearchFault>,
}

impl SearchResult {
    /// No move, no depth.
    fn empty() -> SearchResult {
        SearchResult {
            best: None,
            ponder: None,
            pv: Vec::new(),
            turn: Vec::new(),
            ponder_turn: None,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
            fault: None,
        }
    }
}

/// A panic in a search, caught: the search still answers, as `recovery` says.
#[derive(Clone, Debug, Error)]
#[error("internal error in the search: {panic}; {recovery}")]
pub struct SearchFault {
    pub panic: Panicked,
    pub recovery: Recovery,
}

/// What a search answers after one of its threads panicked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum Recovery {
    /// Helper thread N stopped; the others searched on.
    #[error("search thread {0} stopped, the others searched on")]
    HelperLost(usize),
    /// The main thread stopped: the move of its last completed iteration (this depth).
    #[error("the move is the best of depth {0}, the last completed")]
    LastIteration(i32),
    /// The main thread stopped before completing an iteration: the first legal move.
    #[error("the move is the first legal one")]
    FirstLegal,
    /// The main thread stopped in a position without a legal move.
    #[error("there is no legal move")]
    NoMove,
}

/// A score as text: `cp N` or `mate N` (moves, negative when being mated).
pub fn score_text(score: i32) -> String {
    if score.abs() >= MATE_BOUND {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// What the threads share.
struct Shared<'a> {
    tt: &'a Table,
    stop: &'a AtomicBool,
    nodes: AtomicU64,
}

/// What a search works with besides the position: the game, its evaluation, the shared
/// transposition table and the stop flag (set it to end the search early).
pub struct Context<'a, const W: usize> {
    pub game: &'a Game<W>,
    pub eval: &'a Eval,
    pub tt: &'a Table,
    pub stop: &'a AtomicBool,
    /// The move-ordering statistics of the game's earlier searches, kept for its later
    /// ones; without it every search starts from nothing.
    pub memory: Option<&'a Memory>,
}

/// Searches `pos` within `limits` on `threads` threads, calling `report` after every
/// completed iteration of the main thread.
pub fn search<const W: usize>(
    ctx: &Context<W>,
    pos: &Position<W>,
    limits: &Limits,
    threads: usize,
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    search_with_progress(ctx, pos, limits, threads, report, &mut |_| {})
}

/// `search`, also calling `progress` about once a second while an iteration runs.
///
/// A panic in any of the threads is caught and said in the result's `fault`: when a
/// helper panics the others search on; when the main thread does, the search ends with
/// the best move of the main thread's last completed iteration, or the first legal move
/// before any (`rescue`). A bug thus costs a search its depth, never the engine.
pub fn search_with_progress<const W: usize>(
    ctx: &Context<W>,
    pos: &Position<W>,
    limits: &Limits,
    threads: usize,
    report: &mut dyn FnMut(&Info),
    progress: &mut dyn FnMut(&Progress),
) -> SearchResult {
    let mut last: Option<Info> = None;
    let mut remember = |i: &Info| {
        if i.multipv == 1 {
            last = Some(i.clone());
        }
        report(i)
    };
    let searched = fault::catch(|| run_threads(ctx, pos, limits, threads, &mut remember, progress));
    searched.unwrap_or_else(|panic| rescue(ctx.game, pos, limits, last.as_ref(), panic))
}

/// Sets the stop flag when dropped: when the main thread ends, by returning or by a
/// panic, the helpers end too and the threads' scope can close.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

/// The search on `threads` threads: the main one here, the helpers on scoped threads.
/// A helper's panic is caught on its thread and becomes the result's `fault`; the main
/// thread's goes on to the caller.
fn run_threads<const W: usize>(
    ctx: &Context<W>,
    pos: &Position<W>,
    limits: &Limits,
    threads: usize,
    report: &mut dyn FnMut(&Info),
    progress: &mut dyn FnMut(&Progress),
) -> SearchResult {
    let Context {
        game,
        eval,
        tt,
        stop,
        memory,
    } = *ctx;
    let learnt = |id| {
        let n = heuristics_size(game);
        memory.map_or_else(|| Heuristics::new(n), |m| m.take(id, n))
    };
    let keep = |id, w: Worker<W>| {
        if let Some(m) = memory {
            m.keep(id, w.heuristics());
        }
    };
    tt.new_search();
    let shared = Shared {
        tt,
        stop,
        nodes: AtomicU64::new(0),
    };
    let clock = Clock::new(limits, pos.occupied().count() as usize);
    let threads = threads.max(1);
    let (main, helpers) = std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads)
            .map(|id| {
                let shared = &shared;
                let pos = pos.clone();
                let helper = move || {
                    fault::catch(|| {
                        fault::inject(Fault::HelperPanic);
                        let mut w =
                            Worker::new(game, eval, shared, clock, limits, pos, id, learnt(id));
                        let result = w.iterate(&mut |_| {});
                        keep(id, w);
                        result
                    })
                    .map_err(|panic| SearchFault {
                        panic,
                        recovery: Recovery::HelperLost(id),
                    })
                };
                // A helper that cannot have a large stack is not started: the main
                // thread searches on without it.
                std::thread::Builder::new()
                    .name(format!("search helper {id}"))
                    .stack_size(SEARCH_STACKS[0].expect("a size"))
                    .spawn_scoped(s, helper)
                    .ok()
            })
            .collect();
        let stop_helpers = StopOnDrop(stop);
        let mut w = Worker::new(
            game,
            eval,
            &shared,
            clock,
            limits,
            pos.clone(),
            0,
            learnt(0),
        );
        w.progress = Some(progress);
        let main = w.iterate(report);
        keep(0, w);
        drop(stop_helpers);
        let helpers: Vec<_> = handles
            .into_iter()
            .flatten()
            .filter_map(|h| h.join().ok())
            .collect();
        (main, helpers)
    });
    // The deepest completed iteration wins; the main thread on a tie.
    let mut best = main;
    let mut helper_won = false;
    for h in helpers {
        match h {
            Ok(h) if h.depth > best.depth && h.best.is_some() => {
                let fault = best.fault.take();
                best = SearchResult { fault, ..h };
                helper_won = true;
            }
            Ok(_) => {}
            Err(fault) => {
                best.fault.get_or_insert(fault);
            }
        }
    }
    best.nodes = shared.nodes.load(Relaxed);
    best.time = clock.elapsed();
    if let Some(b) = best.best {
        if best.pv.first() != Some(&b) {
            best.pv = vec![b];
        }
        let mut turns = split_turns(game, pos, &best.pv);
        // The last line the main thread reported is not the one played: the line played
        // is reported, so that a GUI shows the move with its own score and variation.
        if helper_won {
            let info = Info {
                multipv: 1,
                depth: best.depth,
                seldepth: best.seldepth,
                score: best.score,
                nodes: best.nodes,
                time: best.time,
                hashfull: tt.hashfull(),
                turns,
                pv: best.pv.clone(),
            };
            report(&info);
            turns = info.turns;
        }
        let mut turns = turns.into_iter();
        best.turn = turns.next().unwrap_or_else(|| vec![b]);
        best.ponder_turn = turns.next();
    }
    best
}

/// The result of a search whose main thread panicked: the main thread's `last`
/// completed principal variation if there was one, else the first legal root move (of
/// `searchmoves`, when those are legal), else none.
fn rescue<const W: usize>(
    game: &Game<W>,
    pos: &Position<W>,
    limits: &Limits,
    last: Option<&Info>,
    panic: Panicked,
) -> SearchResult {
    let mut result = SearchResult::empty();
    if let Some(info) = last.filter(|i| !i.pv.is_empty()) {
        result.best = info.pv.first().copied();
        result.ponder = info.pv.get(1).copied();
        result.pv = info.pv.clone();
        result.turn = info.turns.first().cloned().unwrap_or_default();
        result.ponder_turn = info.turns.get(1).cloned();
        result.score = info.score;
        result.depth = info.depth;
        result.nodes = info.nodes;
        result.time = info.time;
        result.fault = Some(SearchFault {
            panic,
            recovery: Recovery::LastIteration(info.depth),
        });
        return result;
    }
    let mut root = MoveList::new();
    game.game_moves(&mut pos.clone(), &mut root);
    let listed = root
        .iter()
        .copied()
        .find(|m| limits.searchmoves.contains(m));
    result.best = listed.or_else(|| root.first().copied());
    if let Some(m) = result.best {
        result.pv = vec![m];
        result.turn = split_turns(game, pos, &[m])
            .into_iter()
            .next()
            .unwrap_or_else(|| vec![m]);
    }
    let recovery = if result.best.is_some() {
        Recovery::FirstLegal
    } else {
        Recovery::NoMove
    };
    result.fault = Some(SearchFault { panic, recovery });
    result
}

/// A line of actions from `pos` cut into whole turns (`rules::turns`), each move its own
/// turn in a game of one action per turn.
fn split_turns<const W: usize>(game: &Game<W>, pos: &Position<W>, line: &[Move]) -> Vec<Vec<Move>> {
    if game.multi_action {
        game.turns_of(pos, line)
    } else {
        line.iter().map(|&m| vec![m]).collect()
    }
}

/// A node's moves as the search takes them (`Worker::next_move`): the table's move
/// first, when it is legal, then the generated moves by their ordering keys.
struct Picker {
    stage: Stage,
    tt_move: Option<Move>,
    /// The table's move is tried before the moves are generated.
    table_first: bool,
    list: MoveList,
    /// Ordering keys of `list` (the ply's buffer, handed back after the node).
    keys: Vec<i32>,
    /// The first move of `list` not yet tried.
    next: usize,
}

/// Where a `Picker` stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    TableMove,
    Generate,
    Ordered,
}

impl Picker {
    fn new(keys: Vec<i32>, tt_move: Option<Move>, table_first: bool) -> Picker {
        Picker {
            stage: if table_first {
                Stage::TableMove
            } else {
                Stage::Generate
            },
            tt_move,
            table_first,
            list: MoveList::new(),
            keys,
            next: 0,
        }
    }
}

struct Worker<'a, const W: usize> {
    game: &'a Game<W>,
    eval: &'a Eval,
    shared: &'a Shared<'a>,
    clock: Clock,
    limits: &'a Limits,
    pos: Position<W>,
    id: usize,
    nodes: u64,
    unreported: u64,
    stopped: bool,
    seldepth: usize,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    counter: Vec<Option<Move>>,
    /// Continuation history (`Heuristics::continuation`); empty: not kept.
    continuation: Vec<i16>,
    /// The move made at each ply and the board code of the piece that made it.
    stack: Vec<Option<(Move, u8)>>,
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Root moves left out (the better lines of a multi-PV search).
    excluded: Vec<Move>,
    /// The main thread's progress reporter, the depth and root move being searched
    /// (with its number), and when progress was last reported.
    progress: Option<&'a mut dyn FnMut(&Progress)>,
    current: (i32, Option<Move>, usize),
    last_progress: Duration,
    /// The deepest iteration this thread has completed.
    completed_depth: i32,
    /// Per ply: the static evaluation (`NO_EVAL` in check), and the ordering keys' buffer
    /// (kept, so that no node allocates).
    evals: Vec<i32>,
    keys: Vec<Vec<i32>>,
    /// How boldly this game's search prunes (`Pruning::of`).
    pruning: Pruning,
    /// Per ply: the move a singular-extension search leaves out.
    singular_excluded: Vec<Option<Move>>,
    /// Late move reductions by depth and move number.
    lmr: Box<[[i32; 64]; 64]>,
    /// Recent static evaluations, `EVAL_CACHE` entries indexed by the key's low bits,
    /// each the key's upper 48 bits beside the score (`cached_eval`).
    eval_cache: Vec<u64>,
    /// The pawn structures this thread has evaluated (`eval::PawnCache`).
    pawn_cache: PawnCache<W>,
    /// The side the search is for (the root's side to move): a draw is worth
    /// `-limits.contempt` to it.
    root_side: Color,
    /// Nodes between two looks at the limits: 1024, or 64 when the time is short, so
    /// that a move made on the last of the clock is not late by a thousand nodes of a
    /// big game.
    check_every: u64,
}

impl<'a, const W: usize> Worker<'a, W> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &'a Game<W>,
        eval: &'a Eval,
        shared: &'a Shared<'a>,
        clock: Clock,
        limits: &'a Limits,
        pos: Position<W>,
        id: usize,
        learnt: Heuristics,
    ) -> Self {
        let root_side = pos.side;
        let pruning = Pruning::of(game);
        Worker {
            game,
            eval,
            shared,
            clock,
            limits,
            pos,
            id,
            nodes: 0,
            unreported: 0,
            stopped: false,
            seldepth: 0,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: learnt.history,
            counter: learnt.counter,
            continuation: learnt.continuation,
            stack: vec![None; MAX_PLY + 1],
            pv: vec![[None; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY],
            excluded: Vec::new(),
            progress: None,
            current: (0, None, 0),
            last_progress: Duration::ZERO,
            completed_depth: 0,
            evals: vec![NO_EVAL; MAX_PLY + 2],
            keys: vec![Vec::new(); MAX_PLY + 1],
            singular_excluded: vec![None; MAX_PLY + 1],
            pruning,
            lmr: reductions(pruning.lmr_divisor),
            eval_cache: vec![0; EVAL_CACHE],
            pawn_cache: PawnCache::default(),
            check_every: if clock.is_tight() { 64 } else { 1024 },
            root_side,
        }
    }

    /// The move-ordering statistics this thread leaves for the game's next search.
    fn heuristics(self) -> Heuristics {
        Heuristics {
            history: self.history,
            counter: self.counter,
            continuation: self.continuation,
        }
    }

    /// Iterative deepening; returns the last completed iteration's result.
    fn iterate(&mut self, report: &mut dyn FnMut(&Info)) -> SearchResult {
        let mut result = SearchResult::empty();
        let mut root = MoveList::new();
        self.game.game_moves(&mut self.pos, &mut root);
        if !self.limits.searchmoves.is_empty() {
            root.retain(|m| self.limits.searchmoves.contains(m));
        }
        if root.is_empty() {
            return result;
        }
        result.best = Some(root[0]);
        let mut max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 10)
            .min(MAX_PLY as i32 - 10);
        if let Some(n) = self.limits.mate {
            // A mate in n moves is 2n - 1 plies; the margin covers reductions.
            max_depth = max_depth.min((2 * n.min(50) as i32 - 1).max(1) + 4);
        }
        let mut score = 0;
        let mut stable = 0;
        let first = 1;
        for depth in first..=max_depth.max(1) {
            if self.skips(depth) && depth < max_depth {
                continue;
            }
            if depth == 2 && self.id == 0 {
                fault::inject(Fault::SearchPanic);
            }
            self.seldepth = 0;
            let mut window = 35;
            let (mut alpha, mut beta) = if depth >= 4 {
                (score - window, score + window)
            } else {
                (-INF, INF)
            };
            let s = loop {
                let s = self.search(depth, alpha, beta, 0, true);
                if self.stopped {
                    break s;
                }
                if s <= alpha {
                    alpha = (alpha - window).max(-INF);
                } else if s >= beta {
                    beta = (beta + window).min(INF);
                } else {
                    break s;
                }
                window *= 2;
                if window > 1000 {
                    alpha = -INF;
                    beta = INF;
                }
            };
            if self.stopped {
                // An interrupted iteration is never reported; at the first depth its best
                // move so far still beats the first move generated.
                if depth == first
                    && let Some(m) = self.pv[0][0]
                {
                    result.best = Some(m);
                }
                break;
            }
            // Computed once: the result and the progress line both carry it.
            let pv = self.root_pv();
            if let Some(m) = self.pv[0][0] {
                if result.best == Some(m) {
                    stable += 1;
                } else {
                    stable = 0;
                }
                result.best = Some(m);
                result.ponder = if self.pv_len[0] > 1 {
                    self.pv[0][1]
                } else {
                    None
                };
                result.pv = pv.clone();
            }
            score = s;
            result.score = s;
            result.depth = depth;
            result.seldepth = self.seldepth;
            self.completed_depth = depth;
            if self.id == 0 {
                self.flush_nodes();
                report(&self.info(1, depth, s, pv));
                self.other_lines(depth, root.len(), report);
                let factor = if stable >= 3 {
                    0.6
                } else if stable == 0 {
                    1.4
                } else {
                    1.0
                };
                let mate_found = self
                    .limits
                    .mate
                    .is_some_and(|n| s >= MATE_BOUND && (MATE - s + 1) / 2 <= n as i32);
                if (self.clock.soft_passed(factor) && !self.limits.is_pondering())
                    || mate_found
                    || (!self.limits.infinite
                        && s.abs() >= MATE_BOUND
                        && depth >= 2 * (MATE - s.abs()) + 4)
                {
                    break;
                }
            }
            // Whichever thread completes the depth limit first ends the search.
            if depth >= max_depth && self.limits.depth.is_some() {
                self.shared.stop.store(true, Relaxed);
            }
            if self.stopped || self.shared.stop.load(Relaxed) {
                break;
            }
        }
        self.flush_nodes();
        result
    }

    /// The progress line of principal variation `multipv` (`pv`, from `root_pv`) just
    /// searched to `depth`.
    fn info(&self, multipv: usize, depth: i32, score: i32, pv: Vec<Move>) -> Info {
        Info {
            multipv,
            depth,
            seldepth: self.seldepth,
            score,
            nodes: self.shared.nodes.load(Relaxed),
            time: self.clock.elapsed(),
            hashfull: self.shared.tt.hashfull(),
            turns: split_turns(self.game, &self.pos, &pv),
            pv,
        }
    }

    /// The principal variation from the root, to the end of the game where it ends in one:
    /// a node whose side to move can take the last royal is scored won without the
    /// capture being played, so the capture is added here (a mating line of USI's
    /// `go mate` must end the game).
    fn root_pv(&self) -> Vec<Move> {
        let mut pv: Vec<Move> = (0..self.pv_len[0]).filter_map(|i| self.pv[0][i]).collect();
        let mut pos = self.pos.clone();
        for &m in &pv {
            pos.make(self.game, m);
        }
        if let Some(m) = self.game.last_royal_capture(&mut pos) {
            pv.push(m);
        }
        pv
    }

    /// The second and further principal variations of a multi-PV search at `depth`: each
    /// a full-window search of the root without the moves of the better lines.
    fn other_lines(&mut self, depth: i32, root_moves: usize, report: &mut dyn FnMut(&Info)) {
        let lines = self.limits.multipv.clamp(1, root_moves);
        let mut excluded: Vec<Move> = self.pv[0][0].into_iter().collect();
        for k in 2..=lines {
            self.excluded = excluded.clone();
            let s = self.search(depth, -INF, INF, 0, true);
            self.excluded.clear();
            if self.stopped {
                return;
            }
            let Some(m) = self.pv[0][0] else { return };
            self.flush_nodes();
            report(&self.info(k, depth, s, self.root_pv()));
            excluded.push(m);
        }
    }

    /// True for a root move this search leaves out: a better line's move in a multi-PV
    /// search, or one not among `searchmoves`.
    fn left_out(&self, m: Move) -> bool {
        self.excluded.contains(&m)
            || (!self.limits.searchmoves.is_empty() && !self.limits.searchmoves.contains(&m))
    }

    /// Helper threads skip some depths so that threads spread over different depths
    /// (Stockfish's skip pattern): thread `id` skips `depth` when
    /// `(depth + phase) / size` is odd.
    fn skips(&self, depth: i32) -> bool {
        const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
        const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
        if self.id == 0 {
            return false;
        }
        let i = (self.id - 1) % 20;
        ((depth + PHASE[i]) / SIZE[i]) % 2 != 0
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.unreported, Relaxed);
        self.unreported = 0;
    }

    /// Counts a node and looks at the stop flag; every 1024 nodes (`check_every`) also
    /// publishes the count and checks the limits.
    ///
    /// The flag is looked at on every node, not with the limits: a thousand nodes of
    /// Hiashatar, Flee! or ShoFIDEgi take 5 to 10 ms (150-300 thousand nodes a second),
    /// all of it added to the time from `stop` or `?` to the move, where a relaxed load
    /// of a flag nobody writes during the search costs next to nothing. The clock is
    /// still read only every `check_every` nodes.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported >= self.check_every {
            self.flush_nodes();
            if self.id == 0 {
                let over_nodes = self
                    .limits
                    .nodes
                    .is_some_and(|n| self.shared.nodes.load(Relaxed) >= n);
                let out_of_time = if self.completed_depth > 0 {
                    self.clock.hard_passed()
                } else {
                    self.clock.panic_passed()
                };
                if over_nodes || (out_of_time && !self.limits.is_pondering()) {
                    self.shared.stop.store(true, Relaxed);
                }
                self.report_progress();
            }
        }
        if self.shared.stop.load(Relaxed) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Calls the progress reporter if a second has passed since it last was (or since
    /// the search started).
    fn report_progress(&mut self) {
        let now = self.clock.elapsed();
        if now < self.last_progress + PROGRESS_EVERY {
            return;
        }
        let (depth, Some(currmove), number) = self.current else {
            return;
        };
        if let Some(progress) = self.progress.as_mut() {
            self.last_progress = now;
            progress(&Progress {
                depth,
                currmove,
                number,
                nodes: self.shared.nodes.load(Relaxed),
                time: now,
            });
        }
    }

    /// The score of a position without legal moves for the side to move.
    fn no_moves(&self, in_check: bool, ply: usize) -> i32 {
        // Without a check rule a side with no move is stalemated, attacked or not.
        if in_check && self.game.uses_check() {
            return -MATE + ply as i32;
        }
        match self.game.spec.stalemate {
            Verdict::Loss => -MATE + ply as i32,
            Verdict::Win => MATE - ply as i32,
            Verdict::Draw => self.draw(),
        }
    }

    /// A draw's score for the side to move: the contempt counts against the side the
    /// search is for and for its opponent.
    fn draw(&self) -> i32 {
        if self.pos.side == self.root_side {
            -self.limits.contempt
        } else {
            self.limits.contempt
        }
    }

    /// A result by rule before any move is searched: the move rule, the game's own rules
    /// (`Game::rule_outcome`), repetition (as a draw), and the bare-king rules.
    fn rule_result(&self, ply: usize) -> Option<i32> {
        let g = self.game;
        let pos = &self.pos;
        if g.spec.move_rule > 0 && pos.halfmove >= g.spec.move_rule {
            return Some(self.draw());
        }
        if g.rules.outcome
            && let Some(o) = g.rule_outcome(pos)
        {
            return Some(match o.verdict {
                Verdict::Draw => self.draw(),
                Verdict::Win => RULE_WIN - ply as i32,
                Verdict::Loss => -RULE_WIN + ply as i32,
            });
        }
        if g.spec.repetition_rule == RepetitionRule::Draw && pos.repetitions(g) > 0 {
            return Some(self.draw());
        }
        let us = pos.side;
        match g.spec.bare_king {
            BareKing::Play => None,
            BareKing::Draw => {
                (g.is_bare(pos, us) || g.is_bare(pos, us.opposite())).then(|| self.draw())
            }
            BareKing::LossUnlessRebare => {
                let (we, they) = (g.is_bare(pos, us), g.is_bare(pos, us.opposite()));
                if we && they {
                    Some(self.draw())
                } else if they {
                    Some(RULE_WIN - ply as i32)
                } else if we {
                    let others = pos.by_color[us.opposite()]
                        .andnot(pos.royals(g, us.opposite()))
                        .count();
                    (others >= 2).then_some(-RULE_WIN + ply as i32)
                } else {
                    None
                }
            }
        }
    }

    fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant | MoveKind::TwoLeg | MoveKind::MultiLeg => true,
            MoveKind::Pass | MoveKind::Castle => false,
            MoveKind::Rule => self.game.rule_move_removes(&self.pos, m).is_some_and(|sq| {
                let code = self.pos.board[sq];
                code != 0 && color_of(code) != self.pos.side
            }),
            _ => {
                let code = self.pos.board[m.to()];
                code != 0 && color_of(code) != self.pos.side
            }
        }
    }

    /// Material the move wins at once (victims, promotion gain), for ordering.
    fn gain(&self, m: Move) -> i32 {
        let e = self.eval;
        let b = &self.pos.board;
        let mut v = match m.kind() {
            MoveKind::EnPassant | MoveKind::TwoLeg | MoveKind::MultiLeg => {
                let on_the_way = self.game.captures_on_the_way(m);
                on_the_way
                    .iter()
                    .map(|&sq| e.value_of(b[sq as usize]))
                    .sum()
            }
            _ => 0,
        };
        let removed = match m.kind() {
            MoveKind::Castle => None,
            MoveKind::Rule => self.game.rule_move_removes(&self.pos, m),
            _ => Some(m.to()).filter(|&to| to != m.from()),
        };
        match removed {
            Some(sq) if b[sq] != 0 => {
                // A rule's move may remove a piece of the mover's own.
                if color_of(b[sq]) == self.pos.side {
                    v -= e.value_of(b[sq]);
                } else {
                    v += e.value_of(b[sq]);
                }
            }
            _ => {}
        }
        if let Some(p) = m.promotes_to() {
            v += e.values[type_of_piece(p)] - e.value_of(b[m.from()]);
        }
        v
    }

    /// Ordering keys of `list` into `keys`: the table move, captures and promotions that
    /// do not lose material (by gain, then the cheaper attacker), killers, the counter
    /// move, quiet moves by history, and last the captures that lose material.
    fn order(&self, list: &MoveList, tt_move: Option<Move>, ply: usize, keys: &mut Vec<i32>) {
        let prev = self.stack[ply.saturating_sub(1)].filter(|_| ply > 0);
        let counter = prev
            .and_then(|(m, code)| self.counter[(code as usize - 1) * self.game.squares + m.to()]);
        let follows = self.follows(ply);
        keys.clear();
        keys.extend(list.iter().map(|&m| {
            if Some(m) == tt_move {
                return TT_KEY;
            }
            if self.is_capture(m) || m.promotes_to().is_some() {
                let gain = self.gain(m);
                let attacker = self.eval.value_of(self.pos.mover(m));
                let key = capture_key(gain, attacker);
                // Taking a piece worth at least the taker cannot lose by exchange: only
                // the others need the exchange evaluated.
                return if self.pruning.bad_captures_last
                    && gain < attacker
                    && see::see(self.game, self.eval, &self.pos, m) < 0
                {
                    BAD_CAPTURE_KEY + key
                } else {
                    GOOD_CAPTURE_KEY + key
                };
            }
            if self.killers[ply][0] == Some(m) {
                return KILLER_KEY + 20_000;
            }
            if self.killers[ply][1] == Some(m) {
                return KILLER_KEY + 10_000;
            }
            if counter == Some(m) {
                return KILLER_KEY;
            }
            let idx = self.history_index(m);
            self.history[idx] + self.continuation_score(&follows, idx)
        }));
    }

    /// The rows of the continuation history that the quiet moves at `ply` are scored
    /// and rewarded in: those of the moves one and two plies before (none where the
    /// table is not kept, or the ply began the search or followed a null move).
    fn follows(&self, ply: usize) -> [Option<usize>; 2] {
        if self.continuation.is_empty() {
            return [None, None];
        }
        let row = |back: usize| -> Option<usize> {
            let (m, code) = self.stack[ply.checked_sub(back)?]?;
            let t = type_of_piece(code as usize - 1);
            // A row holds an entry per history index.
            Some((t * self.game.squares + m.to()) * self.history.len())
        };
        [row(1), row(2)]
    }

    /// What the continuation history says of the move of history index `idx`.
    #[inline]
    fn continuation_score(&self, follows: &[Option<usize>; 2], idx: usize) -> i32 {
        follows
            .iter()
            .flatten()
            .map(|row| self.continuation[row + idx] as i32)
            .sum()
    }

    /// The next move of a node to try, with its ordering key: the table's move, when it
    /// was found legal alone, before any move is generated (when it cuts the node off,
    /// as it mostly does, nothing else is generated or ordered); then the legal moves,
    /// best key first, the table's move left out. The moves come in the order they
    /// would come if all were generated first: the table's move heads that order.
    fn next_move(&mut self, picker: &mut Picker, ply: usize) -> Option<(Move, i32)> {
        let Picker {
            stage,
            tt_move,
            table_first,
            list,
            keys,
            next,
        } = picker;
        match *stage {
            Stage::TableMove => {
                *stage = Stage::Generate;
                return tt_move.map(|m| (m, TT_KEY));
            }
            Stage::Generate => {
                *stage = Stage::Ordered;
                self.game.legal_moves(&mut self.pos, list);
                self.order(list, *tt_move, ply, keys);
                if *table_first {
                    let j = list.iter().position(|&m| Some(m) == *tt_move);
                    debug_assert!(j.is_some(), "a move surely_legal passed is generated");
                    if let Some(j) = j {
                        list.swap(0, j);
                        keys.swap(0, j);
                        *next = 1;
                    }
                }
            }
            Stage::Ordered => {}
        }
        let i = *next;
        if i >= list.len() {
            return None;
        }
        let j = (i..list.len())
            .max_by_key(|&j| keys[j])
            .expect("non-empty range");
        list.swap(i, j);
        keys.swap(i, j);
        *next += 1;
        Some((list[i], keys[i]))
    }

    #[inline]
    fn history_index(&self, m: Move) -> usize {
        let code = self.pos.mover(m).max(1);
        (code as usize - 1) * self.game.squares + m.to()
    }

    fn reward_quiet(&mut self, m: Move, ply: usize, depth: i32, tried: &[Move]) {
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        let bonus = history_bonus(depth);
        let follows = self.follows(ply);
        self.reward(self.history_index(m), &follows, bonus);
        for &q in tried {
            self.reward(self.history_index(q), &follows, -bonus);
        }
        if ply > 0
            && let Some((pm, code)) = self.stack[ply - 1]
        {
            self.counter[(code as usize - 1) * self.game.squares + pm.to()] = Some(m);
        }
    }

    /// Moves the history of the quiet move of history index `idx`, and its entries in
    /// the continuation history's rows `follows`, by `bonus` (negative: a malus).
    fn reward(&mut self, idx: usize, follows: &[Option<usize>; 2], bonus: i32) {
        self.history[idx] = gravity(self.history[idx], bonus);
        for row in follows.iter().flatten() {
            let entry = &mut self.continuation[row + idx];
            *entry = gravity(*entry as i32, bonus) as i16;
        }
    }

    fn has_pieces(&self) -> bool {
        let us = self.pos.side;
        let mut others = self.pos.by_color[us].andnot(self.pos.royals(self.game, us));
        for t in 0..self.game.types {
            let pc = piece_index(t, us);
            if self.game.is_pawn[pc] {
                others = others.andnot(self.pos.by_piece[pc]);
            }
        }
        others.any()
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let next = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..next {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = next;
    }

    /// The static evaluation of the current position, from the cache when it was
    /// evaluated lately: each iteration revisits most nodes of the one before, and
    /// quiescence reaches the same positions by several lines, so a good share of the
    /// evaluations (the costliest part of a node) are repeats.
    fn cached_eval(&mut self) -> i32 {
        const TAG: u64 = !0xffff;
        let key = self.pos.key;
        let slot = key as usize & (EVAL_CACHE - 1);
        let entry = self.eval_cache[slot];
        if entry != 0 && entry & TAG == key & TAG {
            return entry as u16 as i16 as i32;
        }
        let score = self
            .eval
            .evaluate_cached(self.game, &self.pos, &mut self.pawn_cache);
        if let Ok(short) = i16::try_from(score) {
            self.eval_cache[slot] = key & TAG | short as u16 as u64;
        }
        score
    }

    fn search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let g = self.game;
        let pv_node = beta - alpha > 1;
        if g.royals_lost(&mut self.pos) {
            return -MATE + ply as i32;
        }
        if ply > 0 && g.can_take_last_royal(&self.pos) {
            return MATE - ply as i32 - 1;
        }
        if ply > 0 {
            if let Some(s) = self.rule_result(ply) {
                return s;
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 2 {
            return self.eval.evaluate(g, &self.pos);
        }
        let in_check = g.in_check(&self.pos);
        let mut depth = if in_check && g.uses_check() {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            return self.quiesce(alpha, beta, ply, 0, None);
        }
        let key = self.pos.key;
        let excluded = self.singular_excluded[ply];
        // A search that leaves out the table move (singular extension) must not take the
        // table's word for the node, which counts that move.
        let hit = self.shared.tt.probe(key).filter(|_| excluded.is_none());
        let tt_move = hit.and_then(|h| h.mv);
        if let Some(h) = hit
            && !pv_node
            && h.depth >= depth
        {
            let s = from_tt(h.score, ply);
            match h.bound {
                Bound::Exact => return s,
                Bound::Lower if s >= beta => return s,
                Bound::Upper if s <= alpha => return s,
                _ => {}
            }
        }
        let static_eval = if in_check {
            NO_EVAL
        } else {
            self.cached_eval()
        };
        self.evals[ply] = static_eval;
        // The table's score, where its bound says it is nearer the truth, is a better
        // guess than the static evaluation for the pruning below.
        let static_eval = match hit {
            Some(h) if !in_check && self.pruning.tt_eval && h.score.abs() < MATE_BOUND => {
                match h.bound {
                    Bound::Lower if h.score > static_eval => h.score,
                    Bound::Upper if h.score < static_eval => h.score,
                    Bound::Exact => h.score,
                    _ => static_eval,
                }
            }
            _ => static_eval,
        };
        // Improving: the side to move stands better than two plies ago (its previous
        // turn), so pruning may be bolder when it does not. Turns of several actions
        // break the alternation, so there it is never claimed.
        let improving = !in_check
            && !g.multi_action
            && ply >= 2
            && self.evals[ply - 2] != NO_EVAL
            && static_eval > self.evals[ply - 2];
        let quiet_node = !pv_node && !in_check && beta.abs() < MATE_BOUND;
        let p = self.pruning;
        // Reverse futility: far enough above beta that a quiet move will not lose it.
        if quiet_node
            && depth <= p.rfp_depth
            && static_eval - p.rfp_margin * (depth - improving as i32) >= beta
        {
            return (static_eval + beta) / 2;
        }
        if quiet_node
            && null_ok
            && !g.turn_in_progress(&self.pos)
            && depth >= 3
            && static_eval >= beta
            && self.has_pieces()
        {
            let by_eval = if p.null_by_eval {
                ((static_eval - beta) / 200).min(3)
            } else {
                0
            };
            let r = p.null_base + depth / p.null_div + by_eval;
            let u = self.pos.make_null(g);
            self.stack[ply] = None;
            let s = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
            self.pos.unmake_null(u);
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return if s >= MATE_BOUND { beta } else { s };
            }
        }
        // Internal iterative reduction: without a table move the ordering is poor, and a
        // shallower search first fills the table for the next visit.
        if p.iir && tt_move.is_none() && depth >= 4 && !in_check {
            depth -= 1;
        }
        // Singular extension: when every other move falls well short of the table move's
        // score in a shallower search, the table move is searched a ply deeper; when
        // even without it the node holds beta, it is cut at once (multi-cut).
        let mut singular = false;
        if let Some(h) = hit
            && ply > 0
            && p.singular_depth > 0
            && depth >= p.singular_depth
            && h.depth >= depth - 3
            && matches!(h.bound, Bound::Lower | Bound::Exact)
            && h.score.abs() < MATE_BOUND
            && let Some(m) = h.mv
        {
            let s_beta = h.score - 2 * depth;
            self.singular_excluded[ply] = Some(m);
            let s = self.search((depth - 1) / 2, s_beta - 1, s_beta, ply, false);
            self.singular_excluded[ply] = None;
            if self.stopped {
                return 0;
            }
            if s < s_beta {
                singular = true;
            } else if s_beta >= beta {
                return s_beta;
            }
        }
        let table_first = tt_move.is_some_and(|m| g.surely_legal(&mut self.pos, m));
        let mut picker = Picker::new(std::mem::take(&mut self.keys[ply]), tt_move, table_first);
        let repetition_illegal = g.spec.repetition_rule.forbids(in_check);
        let mut best = -INF;
        let mut best_move = None;
        let mut legal = 0;
        let mut quiets_seen = 0;
        let mut tried: ArrayVec<Move, 64> = ArrayVec::new();
        let original_alpha = alpha;
        let lmp_limit = (3 + depth * depth) / if improving { 1 } else { 2 };
        while let Some((m, key_of_move)) = self.next_move(&mut picker, ply) {
            if (ply == 0 && self.left_out(m)) || Some(m) == excluded {
                continue;
            }
            let quiet = !self.is_capture(m) && m.promotes_to().is_none();
            // Pruning of moves that are unlikely to matter, never before a move has
            // scored above a mate against us.
            if ply > 0 && !in_check && best > -MATE_BOUND && legal > 0 {
                if quiet {
                    let late = depth <= p.lmp_depth && quiets_seen >= lmp_limit;
                    let futile = || {
                        depth <= p.futility_depth
                            && !pv_node
                            && static_eval + p.futility_base + p.futility_margin * depth <= alpha
                            && key_of_move < KILLER_KEY
                    };
                    let losing = || {
                        depth <= p.see_depth
                            && see::see(g, self.eval, &self.pos, m) < -p.see_quiet * depth * depth
                    };
                    if (late || futile() || losing())
                        && !(p.spare_checks && g.gives_check(&mut self.pos, m))
                    {
                        quiets_seen += 1;
                        continue;
                    }
                } else if depth <= p.see_depth
                    && Some(m) != tt_move
                    && see::see(g, self.eval, &self.pos, m) < -p.see_capture * depth
                {
                    continue;
                }
            }
            let moved = self.pos.mover(m);
            let moved_side = self.pos.side;
            let u = self.pos.make(g, m);
            if repetition_illegal && self.pos.repetitions(g) > 0 {
                self.pos.unmake(self.game, m, u);
                continue;
            }
            legal += 1;
            if quiet {
                quiets_seen += 1;
            }
            if ply == 0 {
                self.current = (depth, Some(m), legal);
            }
            self.stack[ply] = Some((m, moved.max(1)));
            let new_depth = depth - 1 + (singular && Some(m) == tt_move) as i32;
            // In a game whose turns have several actions the mover may still be to move.
            let same_side = self.pos.side == moved_side;
            let mut score;
            if legal == 1 {
                score = self.child(same_side, new_depth, alpha, beta, ply);
            } else {
                let reducible = if p.lmr_refined {
                    depth >= 3 && legal > 1 + pv_node as usize && (quiet || key_of_move < 0)
                } else {
                    depth >= 3 && quiet && !in_check && legal > 3
                };
                let mut r = 0;
                if reducible {
                    r = self.lmr[(depth as usize).min(63)][legal.min(63)] - pv_node as i32;
                    if p.lmr_refined {
                        r += !improving as i32;
                        if quiet {
                            r -= if key_of_move >= KILLER_KEY {
                                1
                            } else {
                                key_of_move / HISTORY_PER_REDUCTION
                            };
                        }
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = self.child(same_side, new_depth - r, alpha, alpha + 1, ply);
                if score > alpha && r > 0 {
                    score = self.child(same_side, new_depth, alpha, alpha + 1, ply);
                }
                if score > alpha && score < beta {
                    score = self.child(same_side, new_depth, alpha, beta, ply);
                }
            }
            self.pos.unmake(self.game, m, u);
            if self.stopped {
                self.keys[ply] = picker.keys;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(m, ply, depth, &tried);
                        }
                        break;
                    }
                }
            }
            if quiet && !tried.is_full() {
                tried.push(m);
            }
        }
        self.keys[ply] = picker.keys;
        if legal == 0 {
            // Without the excluded move there may be nothing left: that says nothing of
            // the node.
            if excluded.is_some() {
                return alpha;
            }
            return self.no_moves(in_check, ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_none()
            && (ply > 0 || (self.excluded.is_empty() && self.limits.searchmoves.is_empty()))
        {
            self.shared
                .tt
                .store(key, best_move, to_tt(best, ply), depth, bound);
        }
        best
    }

    /// The score of the position after a move, for the side that made it, searched in the
    /// window `alpha..beta` of that side: negated for the opponent, as it is, when the
    /// same side moves again (a turn of several actions).
    #[inline]
    fn child(&mut self, same_side: bool, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if same_side {
            self.search(depth, alpha, beta, ply + 1, true)
        } else {
            -self.search(depth, -beta, -alpha, ply + 1, true)
        }
    }

    /// Quiescence search. `qply` counts its plies; past `FULL_QUIESCENCE` plies only
    /// recaptures on `last_to` (the square the previous move went to) are searched, which
    /// bounds it where both sides have many independent captures: a Sho position with a
    /// dozen promoting pawn captures for each side took 18.7M nodes at depth 1.
    fn quiesce(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
        last_to: Option<usize>,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let g = self.game;
        if g.royals_lost(&mut self.pos) {
            return -MATE + ply as i32;
        }
        if g.can_take_last_royal(&self.pos) {
            return MATE - ply as i32 - 1;
        }
        if ply >= MAX_PLY - 2 {
            return self.eval.evaluate(g, &self.pos);
        }
        // A royal under attack forbids standing pat in every game: where royals may be
        // captured (Chu) there is no check rule, but a side that stands pat with its King
        // en prise only seems to keep its lead (kirin at +26 walked into a Lion's mate in
        // one against HaChu). All moves are then searched, as in check.
        let in_check = g.in_check(&self.pos);
        let mut best = -INF;
        if !in_check {
            best = self.cached_eval();
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut list = MoveList::new();
        if in_check {
            g.legal_moves(&mut self.pos, &mut list);
        } else {
            g.legal_captures(&mut self.pos, &mut list);
        }
        if list.is_empty() {
            return if in_check {
                self.no_moves(true, ply)
            } else {
                best
            };
        }
        if !in_check {
            // Captures and promotions, and the moves the game's rules call tactical;
            // deep in quiescence only recaptures.
            let recaptures_only = qply >= FULL_QUIESCENCE;
            list.retain(|m| {
                let tactical = match m.kind() {
                    MoveKind::Rule => g.rule_move_tactical(&self.pos, *m),
                    _ => self.is_capture(*m) || m.promotes_to().is_some(),
                };
                tactical && (!recaptures_only || Some(m.to()) == last_to)
            });
        }
        let mut keys = std::mem::take(&mut self.keys[ply]);
        keys.clear();
        keys.extend(
            list.iter()
                .map(|&m| capture_key(self.gain(m), self.eval.value_of(self.pos.mover(m)))),
        );
        for i in 0..list.len() {
            let j = (i..list.len())
                .max_by_key(|&j| keys[j])
                .expect("non-empty range");
            list.swap(i, j);
            keys.swap(i, j);
            let m = list[i];
            if !in_check && see::see(g, self.eval, &self.pos, m) < 0 {
                continue;
            }
            let mover = self.pos.side;
            let u = self.pos.make(g, m);
            let score = if self.pos.side == mover {
                self.quiesce(alpha, beta, ply + 1, qply + 1, Some(m.to()))
            } else {
                -self.quiesce(-beta, -alpha, ply + 1, qply + 1, Some(m.to()))
            };
            self.pos.unmake(self.game, m, u);
            if self.stopped {
                self.keys[ply] = keys;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.keys[ply] = keys;
        best
    }
}

/// What a quiet move that cuts a node off at `depth` adds to its history (and takes from
/// the quiet moves tried before it): Stockfish's shape, a quadratic in the depth, large
/// enough against `HISTORY_MAX` that the gravity makes the history a moving average of the
/// recent cut-offs (a deep one moves an entry by a quarter of its range). It was
/// `depth^2`, at most 400: a deep cut-off moved an entry by a fortieth of that, so the
/// history summed a game's cut-offs and followed the position slowly, and it hardly ever
/// reached the `HISTORY_PER_REDUCTION` that moves a late move's reduction by a ply.
/// The change gained in Courier and Sho self-play (docs/search.md).
fn history_bonus(depth: i32) -> i32 {
    (32 * depth * depth + 128 * depth - 128).clamp(0, 4000)
}

/// A history entry `v` moved by `bonus` (negative: a malus) towards +-`HISTORY_MAX`, the
/// less the nearer it stands (gravity), so that it never leaves that range.
#[inline]
fn gravity(v: i32, bonus: i32) -> i32 {
    v + bonus - v * bonus.abs() / HISTORY_MAX
}

/// The size of a thread's move-ordering statistics in `game`: its (piece, square) pairs.
fn heuristics_size<const W: usize>(game: &Game<W>) -> usize {
    2 * game.types * game.squares
}

/// The order of captures and promotions among themselves: by what they gain, then by the
/// cheaper piece making them.
#[inline]
fn capture_key(gain: i32, attacker: i32) -> i32 {
    gain * 8 - attacker / 8
}

/// The late move reduction table: 0.75 + ln(depth) ln(moves) / `divisor` plies.
fn reductions(divisor: f64) -> Box<[[i32; 64]; 64]> {
    let mut t = Box::new([[0; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (n as f64).ln() / divisor) as i32;
        }
    }
    t
}

/// A score of the node at `ply` as the table keeps it: a win or a loss (by mate or by a
/// rule) counted in plies from the node, not from the root, so that the entry is true
/// wherever the node is met again. Rule wins were once stored as found, and a bared King
/// met nearer the root than where it was first found read as further off than it was.
fn to_tt(score: i32, ply: usize) -> i32 {
    shift_win(score, ply as i32)
}

/// The table's `score` for the node at `ply`, counted from the root again (`to_tt`).
fn from_tt(score: i32, ply: usize) -> i32 {
    shift_win(score, -(ply as i32))
}

/// `score` with a win (or loss) at a known distance moved `plies` further from the
/// winner's view of zero: other scores unchanged.
fn shift_win(score: i32, plies: i32) -> i32 {
    if score >= WIN_BOUND {
        score + plies
    } else if score <= -WIN_BOUND {
        score - plies
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::AnyGame;

    #[test]
    fn the_table_counts_wins_from_the_node() {
        // A mate and a bare-King win found 10 plies from the root, stored at ply 4 and
        // met again at ply 2: both are 8 plies away there.
        for win in [MATE, RULE_WIN] {
            let stored = to_tt(win - 10, 4);
            assert_eq!(stored, win - 6, "stored as 6 plies from the node");
            assert_eq!(from_tt(stored, 2), win - 8);
            assert_eq!(from_tt(to_tt(-(win - 10), 4), 2), -(win - 8));
        }
        // Scores of the evaluation's range pass unchanged.
        for s in [0, 250, -3000, WIN_BOUND - 1] {
            assert_eq!(to_tt(s, 7), s);
            assert_eq!(from_tt(s, 7), s);
        }
    }

    fn panicked() -> Panicked {
        Panicked {
            message: "a bug".to_string(),
            location: None,
        }
    }

    /// The answers of a search whose main thread panicked: the last completed line, else
    /// the first legal move (of `searchmoves` when one is legal), else none.
    fn rescues<const W: usize>(game: &Game<W>) {
        let mut pos = Position::from_fen(game, &game.spec.start).unwrap();
        let mut root = MoveList::new();
        game.game_moves(&mut pos, &mut root);
        let limits = Limits::default();

        let first = rescue(game, &pos, &limits, None, panicked());
        assert_eq!(first.best, Some(root[0]));
        assert_eq!(first.turn, vec![root[0]]);
        let fault = first.fault.unwrap();
        assert_eq!(fault.recovery, Recovery::FirstLegal);
        assert_eq!(
            fault.to_string(),
            "internal error in the search: a bug; the move is the first legal one"
        );

        let e4 = game.parse_move(&mut pos, "e2e4").unwrap();
        let listed = Limits {
            searchmoves: vec![e4],
            ..Limits::default()
        };
        assert_eq!(rescue(game, &pos, &listed, None, panicked()).best, Some(e4));

        let e5 = {
            let mut after = pos.clone();
            after.make(game, e4);
            game.parse_move(&mut after, "e7e5").unwrap()
        };
        let info = Info {
            multipv: 1,
            depth: 3,
            seldepth: 5,
            score: 20,
            nodes: 900,
            time: Duration::from_millis(4),
            hashfull: 0,
            pv: vec![e4, e5],
            turns: vec![vec![e4], vec![e5]],
        };
        let last = rescue(game, &pos, &limits, Some(&info), panicked());
        assert_eq!((last.best, last.ponder), (Some(e4), Some(e5)));
        assert_eq!((last.turn, last.ponder_turn), (vec![e4], Some(vec![e5])));
        assert_eq!((last.depth, last.score), (3, 20));
        assert_eq!(last.fault.unwrap().recovery, Recovery::LastIteration(3));

        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        let mated = Position::from_fen(game, mated).unwrap();
        let none = rescue(game, &mated, &limits, None, panicked());
        assert_eq!(none.best, None);
        assert_eq!(none.fault.unwrap().recovery, Recovery::NoMove);
    }

    /// A search given a memory leaves each thread's statistics in it for the next, and
    /// takes them back from it; one without a memory keeps nothing.
    fn remembers<const W: usize>(game: &Game<W>) {
        let pos = Position::from_fen(game, &game.spec.start).unwrap();
        let (eval, memory) = (Eval::new(game), Memory::new());
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let n = heuristics_size(game);
        // A fresh table and stop flag each time, so that every search searches.
        let run = |memory| {
            let (tt, stop) = (Table::new(1), AtomicBool::new(false));
            let ctx = Context {
                game,
                eval: &eval,
                tt: &tt,
                stop: &stop,
                memory,
            };
            search(&ctx, &pos, &limits, 2, &mut |_| {})
        };
        run(None);
        assert!(memory.take(0, n).history.iter().all(|&h| h == 0));
        // Each thread is seeded with a mark: the helper may not search at all before the
        // main thread completes the depth (a loaded machine), but each must take its own
        // and hand it back, the main thread with what it learnt beside it.
        for id in 0..2 {
            let mut seeded = Heuristics::new(n);
            seeded.history[0] = 1234;
            memory.keep(id, seeded);
        }
        run(Some(&memory));
        let learnt: Vec<Heuristics> = (0..2).map(|id| memory.take(id, n)).collect();
        assert!(
            learnt[0].history[1..].iter().any(|&v| v != 0),
            "history kept"
        );
        assert!(
            learnt[0].counter.iter().any(Option::is_some),
            "counters kept"
        );
        // Kept where it fits, and then learnt from.
        let kept = memory::continuation_size(n) > 0;
        assert_eq!(learnt[0].continuation.len(), memory::continuation_size(n));
        assert_eq!(
            learnt[0].continuation.iter().any(|&v| v != 0),
            kept,
            "continuation history kept where it fits"
        );
        assert_ne!(
            learnt[1].history[0], 0,
            "the helper took its own and kept it"
        );
        assert_ne!(learnt[0].history[0], 0, "the next search went on from them");
    }

    #[test]
    fn the_continuation_history_is_kept_where_it_fits() {
        let kept = [
            "chess",
            "courier",
            "sho",
            "duodecimal",
            "hiashatar",
            "littlegreat",
        ];
        let without = ["chu", "tamerlane", "flee", "shofidegi"];
        for name in kept.into_iter().chain(without) {
            let any = AnyGame::builtin(name).unwrap();
            let size = crate::with_width!(&any, g => memory::continuation_size(heuristics_size(g)));
            assert_eq!(size > 0, kept.contains(&name), "{name}: {size} entries");
        }
        let courier = AnyGame::builtin("courier").unwrap();
        let size = crate::with_width!(&courier, g => memory::continuation_size(heuristics_size(g)));
        assert_eq!(size, 864 * 1728, "nine piece types on 96 squares");
    }

    #[test]
    fn a_search_with_a_memory_leaves_its_statistics_to_the_next() {
        let any = AnyGame::builtin("courier").unwrap();
        crate::with_width!(&any, g => remembers(g));
    }

    #[test]
    fn a_search_whose_main_thread_panicked_still_answers() {
        let any = AnyGame::builtin("chess").unwrap();
        crate::with_width!(&any, g => rescues(g));
    }
}
