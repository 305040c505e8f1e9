//! Search limits for every protocol, and the time bounds derived from them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
}

/// Time kept back for the GUI and process scheduling.
const OVERHEAD: Duration = Duration::from_millis(15);

impl Clock {
    pub fn new(limits: &Limits) -> Clock {
        let start = Instant::now();
        if limits.infinite {
            return Clock {
                start,
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(OVERHEAD.min(mt / 4));
            // A fixed time per move is used in full: no soft bound.
            return Clock {
                start,
                soft: None,
                hard: Some(t),
            };
        }
        if let Some(left) = limits.time {
            // Keep back a margin for the GUI and the scheduler, and never plan to spend
            // more than a quarter of what is left on one move.
            let usable = left.saturating_sub(OVERHEAD.min(left / 2));
            let moves = limits.movestogo.unwrap_or(40).clamp(1, 50);
            let soft = (usable / moves + limits.inc.mul_f32(0.6)).min(usable / 3);
            let hard = (soft * 3).min(usable / 4).max(soft);
            return Clock {
                start,
                soft: Some(soft.max(Duration::from_millis(1))),
                hard: Some(hard.max(Duration::from_millis(1))),
            };
        }
        Clock {
            start,
            soft: None,
            hard: None,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True when the hard bound has passed.
    pub fn hard_passed(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
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
        let c = Clock::new(&l);
        assert!(c.soft.unwrap() < Duration::from_millis(100));
        assert!(c.hard.unwrap() <= Duration::from_millis(330));
        let l = Limits {
            time: Some(Duration::from_millis(20)),
            ..Default::default()
        };
        let c = Clock::new(&l);
        assert!(c.hard.unwrap() <= Duration::from_millis(10));
        assert!(
            Clock::new(&Limits {
                infinite: true,
                ..Default::default()
            })
            .hard
            .is_none()
        );
    }
}
