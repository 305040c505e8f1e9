//! Perft: the number of leaf nodes of the legal-move tree to a given depth, the standard
//! test of a move generator. Bulk counting (counting the last ply's moves without making
//! them) is for speed; `full` mode makes and unmakes every leaf so that make/unmake and
//! the incremental key are exercised too.
//!
//! Depth counts whole turns: in a game whose turns have several actions (a Regent's
//! ascension before the move, the choices that follow it in Little Great Chess), the
//! actions of one turn make one ply, and each leaf is one distinct sequence of complete
//! turns.

use crate::core::Move;
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

impl<const W: usize> Game<W> {
    /// Leaf count of the legal-move tree of depth `depth`.
    pub fn perft(&self, pos: &mut Position<W>, depth: u32, bulk: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        self.legal_moves(pos, &mut list);
        if depth == 1 && bulk && !self.multi_action {
            return list.len() as u64;
        }
        let mut nodes = 0;
        for &m in &list {
            let side = pos.side;
            let u = pos.make(self, m);
            debug_assert_eq!(
                pos.key,
                pos.compute_key(self),
                "incremental key after {m:?}"
            );
            nodes += self.perft(pos, Self::depth_after(pos, side, depth), bulk);
            pos.unmake(self, m, u);
        }
        nodes
    }

    /// The depth left after an action of `side` that led to `pos`: one turn less once the
    /// turn has passed to the other side.
    #[inline(always)]
    fn depth_after(pos: &Position<W>, side: crate::core::Color, depth: u32) -> u32 {
        if pos.side == side { depth } else { depth - 1 }
    }

    /// Per-root-move counts, the root moves split over `threads` threads.
    pub fn divide(
        &self,
        pos: &Position<W>,
        depth: u32,
        bulk: bool,
        threads: usize,
    ) -> Vec<(Move, u64)> {
        self.divide_until(pos, depth, bulk, threads, &AtomicBool::new(false))
            .expect("never stopped")
    }

    /// `divide` that gives up (`None`) once `stop` is set, so that a protocol's `go
    /// perft` can be stopped at any depth. The flag is checked at every node more than
    /// two plies from the leaves; below them the plain `perft` counts.
    pub fn divide_until(
        &self,
        pos: &Position<W>,
        depth: u32,
        bulk: bool,
        threads: usize,
        stop: &AtomicBool,
    ) -> Option<Vec<(Move, u64)>> {
        let mut root = pos.clone();
        let mut list = MoveList::new();
        self.legal_moves(&mut root, &mut list);
        if depth == 0 {
            return Some(Vec::new());
        }
        let count = |m: &Move| {
            let mut p = pos.clone();
            p.make(self, *m);
            let left = Self::depth_after(&p, pos.side, depth);
            self.perft_until(&mut p, left, bulk, stop).map(|n| (*m, n))
        };
        if threads <= 1 {
            return list.iter().map(count).collect();
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build();
        match pool {
            Ok(pool) => pool.install(|| list.par_iter().map(count).collect()),
            Err(_) => list.iter().map(count).collect(),
        }
    }

    fn perft_until(
        &self,
        pos: &mut Position<W>,
        depth: u32,
        bulk: bool,
        stop: &AtomicBool,
    ) -> Option<u64> {
        if depth <= 2 {
            return Some(self.perft(pos, depth, bulk));
        }
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut list = MoveList::new();
        self.legal_moves(pos, &mut list);
        let mut nodes = 0;
        for &m in &list {
            let side = pos.side;
            let u = pos.make(self, m);
            let n = self.perft_until(pos, Self::depth_after(pos, side, depth), bulk, stop);
            pos.unmake(self, m, u);
            nodes += n?;
        }
        Some(nodes)
    }
}
