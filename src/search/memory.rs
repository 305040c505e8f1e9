//! What the search learns of move order that outlives one search: each thread's history,
//! counter moves and continuation history. A game's next move is searched from where the
//! last search left them (Stockfish keeps them the same way), instead of from nothing:
//! at a tenth of a second a move, the first iterations of every search otherwise order
//! their quiet moves blind. A new game forgets them, as it empties the table.

use crate::core::Move;
use std::sync::{Mutex, PoisonError};

/// The move-ordering statistics of one search thread.
pub(super) struct Heuristics {
    /// By moving piece and target square (`Worker::history_index`).
    pub history: Vec<i32>,
    /// The reply that refuted each move (by piece and target square), if one did.
    pub counter: Vec<Option<Move>>,
    /// Continuation history: how a quiet move (by piece and target square) fared after
    /// the move one or two plies before it (by piece type and target square), one
    /// table for both distances (`Worker::follows`). Empty where it would
    /// outgrow `CONTINUATION_LIMIT` (the big boards of many piece types).
    pub continuation: Vec<i16>,
}

/// The most entries a thread's continuation history may have (8 MiB): Courier needs
/// 1.5 million (nine piece types on 96 squares), Sho and the duodecimal game 3.4
/// million; Chu, Tamerlane, Flee! and ShoFIDEgi, with many piece types or a big board,
/// would need 6.4 million (Flee!) to 63 million (Chu) and go without.
const CONTINUATION_LIMIT: usize = 1 << 22;

/// The continuation history's size for `n` (piece, square) pairs: the previous move is
/// counted by piece type (its colour is the opponent's but for the actions of one turn
/// in a game of several), so `n / 2` rows of `n`.
pub(super) fn continuation_size(n: usize) -> usize {
    let size = n / 2 * n;
    if size <= CONTINUATION_LIMIT { size } else { 0 }
}

impl Heuristics {
    /// Empty statistics for a game of `n` (piece, square) pairs.
    pub fn new(n: usize) -> Heuristics {
        Heuristics {
            history: vec![0; n],
            counter: vec![None; n],
            continuation: vec![0; continuation_size(n)],
        }
    }
}

/// Each search thread's statistics between searches, by thread number.
#[derive(Default)]
pub struct Memory {
    threads: Mutex<Vec<Option<Heuristics>>>,
}

impl Memory {
    /// A memory that remembers nothing yet.
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// Thread `id`'s statistics from the last search, if they are of this size; empty
    /// ones otherwise.
    pub(super) fn take(&self, id: usize, n: usize) -> Heuristics {
        self.lock()
            .get_mut(id)
            .and_then(Option::take)
            .filter(|h| h.history.len() == n)
            .unwrap_or_else(|| Heuristics::new(n))
    }

    /// Keeps thread `id`'s statistics for the next search.
    pub(super) fn keep(&self, id: usize, heuristics: Heuristics) {
        let mut threads = self.lock();
        if threads.len() <= id {
            threads.resize_with(id + 1, || None);
        }
        threads[id] = Some(heuristics);
    }

    /// The statistics, also after a search thread panicked holding the lock (they are
    /// only ever replaced whole, so they are never half-written).
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Option<Heuristics>>> {
        self.threads.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_are_kept_per_thread_and_forgotten_by_a_new_game() {
        let memory = Memory::new();
        let mut h = memory.take(1, 4);
        assert_eq!(h.history, vec![0; 4]);
        h.history[2] = 77;
        memory.keep(1, h);
        assert_eq!(
            memory.take(0, 4).history,
            vec![0; 4],
            "thread 0 learnt nothing"
        );
        assert_eq!(memory.take(1, 4).history[2], 77);
        memory.keep(1, Heuristics::new(4));
        assert!(
            memory.take(1, 5).history.iter().all(|&v| v == 0),
            "another shape"
        );
        let mut h = memory.take(1, 4);
        h.history[0] = 5;
        memory.keep(1, h);
        memory.clear();
        assert_eq!(memory.take(1, 4).history[0], 0);
    }
}
