//! Search limits for every protocol, and the time bounds derived from them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The largest contempt the protocols take (`Limits::contempt`), in centipawns.
pub const MAX_CONTEMPT: i32 = 500;

/// What bounds a search. Every field is optional; with none the search runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Time left on the mover's clock, its increment, and moves to the next time control.
    pub time: Option<Duration>,
    pub inc: Duration,
    pub movestogo: Option<u32>,
    /// Search until told to stop (analysis, pondering).
    pub infinite: bool,
    /// Principal variations to report (0 or 1: one).
    pub multipv: usize,
    /// While this flag is set the clock is ignored (pondering); clearing it (a ponder
    /// hit) lets the time bounds, counted from the start of the search, apply.
    pub pondering: Option<Arc<AtomicBool>>,
    /// Search only these root moves (UCI's `searchmoves`); empty: all of them.
    pub searchmoves: Vec<crate::core::Move>,
    /// Stop once a mate in at most this many moves is found (UCI's `go mate N`); the
    /// search then goes no deeper than such a mate needs, with a margin for extensions.
    pub mate: Option<u32>,
    /// How much worse than even a draw counts for the side the search is for, in
    /// centipawns (`Contempt`): above 0 the engine steers away from repetitions, the
    /// move rule and drawn endings in positions it judges about level, as against an
    /// opponent it expects to outplay; below 0 it welcomes them. 0: a draw is 0.
    pub contempt: i32,
}

impl Limits {
    /// True while the search ponders.
    pub fn is_pondering(&self) -> bool {
        self.pondering
            .as_ref()
            .is_some_and(|p| p.load(Ordering::Relaxed))
    }
}

/// Soft and hard time bounds: the soft one is checked between iterations (and stretched
/// or shrunk by how stable the best move is), the hard one during the search.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
    /// The bound that stops even a first iteration that has not finished (the hard one
    /// waits for it, so that a move is never the first one generated): half the clock.
    pub panic: Option<Duration>,
}

/// Time kept back on every move for the GUI and process scheduling.
const OVERHEAD: Duration = Duration::from_millis(15);
/// Time on the clock that is never planned for: once only this much is left, the engine
/// moves as fast as it can (a few hundred microseconds) and lives on its increment. Without
/// it, a sudden-death clock shrank geometrically until a move's own overhead flagged it.
const RESERVE: Duration = Duration::from_millis(100);

/// Increments kept on the clock for the endgame (see `Clock::new`).
const BANKED_INCREMENTS: u32 = 10;

/// How many more moves the side to move should plan its time for, from the number of
/// pieces on the board: forty for a board of chess or Courier size (in Courier at 10+0.1
/// planning for more lost 5-14-26 to the forty-move plan, the same build winning 14-6-20
/// at a fixed time a move), more on a crowded board (a Chu game lasts well over a hundred
/// moves: with forty kirin spent its clock down to a second while HaChu kept thirty), never
/// fewer than thirty.
pub fn moves_to_plan_for(pieces: usize) -> u32 {
    (pieces as u32).saturating_sub(8).clamp(30, 80)
}

impl Clock {
    /// The bounds for a search under `limits` with `pieces` on the board.
    pub fn new(limits: &Limits, pieces: usize) -> Clock {
        let start = Instant::now();
        let unbounded = Clock {
            start,
            soft: None,
            hard: None,
            panic: None,
        };
        if limits.infinite {
            return unbounded;
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(OVERHEAD.min(mt / 4));
            // A fixed time per move is used in full: no soft bound.
            return Clock {
                start,
                soft: None,
                hard: Some(t),
                panic: Some(t),
            };
        }
        let Some(left) = limits.time else {
            return unbounded;
        };
        // Never more than half of what is left after the overhead, whatever the increment.
        let ceiling = left.saturating_sub(OVERHEAD) / 2;
        if left <= RESERVE {
            // Down to the reserve: rebuild it from the increment (spend a third of it) and
            // let even an unfinished first iteration stop early, at a twentieth of what is
            // left, so that a long sudden-death game does not flag.
            let spend = (limits.inc / 3).min(ceiling);
            return Clock {
                start,
                soft: Some(spend),
                hard: Some(spend),
                panic: Some((left / 20).max(limits.inc / 2).min(ceiling)),
            };
        }
        // Besides the reserve, ten increments (at most half the clock) stay in the bank:
        // the endgame, where a won position is converted, keeps time of its own instead
        // of only the increment.
        let bank = RESERVE.max((limits.inc * BANKED_INCREMENTS).min(left / 2));
        let usable = left.saturating_sub(bank);
        let moves = limits
            .movestogo
            .map_or_else(|| moves_to_plan_for(pieces), |m| m.clamp(1, 100));
        let soft = (usable / moves + limits.inc.mul_f32(0.75)).min(ceiling);
        // Room to think longer when the best move keeps changing, bounded by a fifth of the
        // usable time (or, with moves to go, a share of it) plus the increment.
        let hard_cap = (usable / 5).min(usable * 2 / moves.max(2)) + limits.inc / 2;
        let hard = (soft * 3).min(hard_cap).max(soft).min(ceiling);
        Clock {
            start,
            soft: Some(soft),
            hard: Some(hard),
            panic: Some(ceiling.max(hard)),
        }
    }

    /// True when the hard bound is short enough that the limits should be checked often.
    pub fn is_tight(&self) -> bool {
        self.hard.is_some_and(|h| h < Duration::from_millis(50))
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True when the hard bound has passed.
    pub fn hard_passed(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// True when the panic bound has passed.
    pub fn panic_passed(&self) -> bool {
        self.panic.is_some_and(|p| self.elapsed() >= p)
    }

    /// True when the soft bound, scaled by `factor`, has passed.
    pub fn soft_passed(&self, factor: f64) -> bool {
        self.soft
            .is_some_and(|s| self.elapsed().as_secs_f64() >= s.as_secs_f64() * factor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_stay_inside_the_clock() {
        let l = Limits {
            time: Some(Duration::from_millis(1000)),
            inc: Duration::from_millis(10),
            ..Default::default()
        };
        let c = Clock::new(&l, 32);
        assert!(c.soft.unwrap() < Duration::from_millis(100));
        assert!(c.hard.unwrap() <= Duration::from_millis(330));
        let l = Limits {
            time: Some(Duration::from_millis(20)),
            ..Default::default()
        };
        let c = Clock::new(&l, 32);
        assert!(c.hard.unwrap() <= Duration::from_millis(10));
        assert!(
            Clock::new(
                &Limits {
                    infinite: true,
                    ..Default::default()
                },
                32
            )
            .hard
            .is_none()
        );
    }

    #[test]
    fn the_reserve_is_never_planned_for() {
        for ms in [0, 1, 5, 50, 99] {
            let l = Limits {
                time: Some(Duration::from_millis(ms)),
                ..Default::default()
            };
            let c = Clock::new(&l, 32);
            assert_eq!(c.soft, Some(Duration::ZERO), "{ms} ms left");
            assert_eq!(c.hard, Some(Duration::ZERO), "{ms} ms left");
            assert!(
                c.panic.unwrap() <= Duration::from_millis(ms) / 20,
                "{ms} ms left"
            );
        }
        // With an increment the engine spends a third of it, rebuilding the reserve, and
        // never more than half its clock.
        let l = Limits {
            time: Some(Duration::from_millis(60)),
            inc: Duration::from_millis(30),
            ..Default::default()
        };
        let c = Clock::new(&l, 32);
        assert_eq!(c.hard, Some(Duration::from_millis(10)), "{c:?}");
        let l = Limits {
            time: Some(Duration::from_millis(60)),
            inc: Duration::from_millis(400),
            ..Default::default()
        };
        let c = Clock::new(&l, 32);
        assert!(c.panic.unwrap() <= Duration::from_millis(23), "{c:?}");
    }

    #[test]
    fn a_long_game_is_planned_for_on_a_full_board() {
        let l = Limits {
            time: Some(Duration::from_secs(40)),
            inc: Duration::from_millis(400),
            ..Default::default()
        };
        // Chu's start: 92 pieces, eighty moves to plan for, 4 s (10 increments) banked.
        let c = Clock::new(&l, 92);
        let soft = c.soft.unwrap();
        assert!(
            soft > Duration::from_millis(500) && soft < Duration::from_millis(800),
            "{soft:?}"
        );
        // Sudden death at 1 s: a chess start plans for thirty moves, 30 ms each.
        let l = Limits {
            time: Some(Duration::from_secs(1)),
            ..Default::default()
        };
        let soft = Clock::new(&l, 32).soft.unwrap();
        assert!(
            soft > Duration::from_millis(25) && soft < Duration::from_millis(35),
            "{soft:?}"
        );
        // Ten increments are banked, but never more than half the clock.
        let l = Limits {
            time: Some(Duration::from_secs(3)),
            inc: Duration::from_millis(400),
            ..Default::default()
        };
        let soft = Clock::new(&l, 40).soft.unwrap();
        assert!(
            soft > Duration::from_millis(340) && soft < Duration::from_millis(350),
            "{soft:?}"
        );
    }
}
