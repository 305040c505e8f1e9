//! A lock-free transposition table shared by all search threads.
//!
//! Each entry is two `AtomicU64`: `check = key ^ data` and `data`. A reader accepts an
//! entry only if `check ^ data` equals its key, so a torn entry (written half by one
//! thread, half by another) is simply a miss. `Relaxed` ordering suffices: an entry is
//! never trusted beyond that check, and the move it holds is validated against the legal
//! moves before use. The index is Lemire's multiply-shift, `(key * len) >> 64`.

use crate::core::Move;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Bound type of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

pub struct Table {
    entries: Vec<Entry>,
    age: AtomicU64,
}

const ENTRY_BYTES: usize = 16;
/// The table size every front end starts with, in mebibytes (UCI's `Hash` default).
pub const DEFAULT_MB: usize = 16;
/// The largest table the protocols offer, in mebibytes.
pub const MAX_MB: usize = 65536;

/// Memory the system has available, in mebibytes (Linux's `MemAvailable`), if it says.
fn available_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

impl Table {
    /// A table of up to `mb` mebibytes (at least one entry). When that much memory cannot
    /// be had (more than a quarter of what the machine has available, or the allocation
    /// fails), the size is halved until it can: a GUI's large `Hash` must never abort the
    /// engine. `mb()` tells the size obtained.
    pub fn new(mb: usize) -> Table {
        let wanted = mb.clamp(1, MAX_MB);
        let mut mb = match available_mb() {
            // Leave most of the machine to the rest of it: the table is written in full
            // when made, and another engine (or a second kirin) may be asking as well.
            Some(free) => wanted.min((free / 4).max(1)),
            None => wanted,
        };
        loop {
            let n = (mb * 1024 * 1024 / ENTRY_BYTES).max(1);
            let mut entries: Vec<Entry> = Vec::new();
            if entries.try_reserve_exact(n).is_ok() {
                entries.resize_with(n, Entry::default);
                return Table {
                    entries,
                    age: AtomicU64::new(0),
                };
            }
            mb /= 2;
            if mb == 0 {
                // Not even one mebibyte: a single entry still lets the search run.
                return Table {
                    entries: vec![Entry::default()],
                    age: AtomicU64::new(0),
                };
            }
        }
    }

    /// Replaces the table by an empty one of `mb` mebibytes (between searches).
    pub fn resize(&mut self, mb: usize) {
        *self = Table::new(mb);
    }

    /// Size in mebibytes.
    pub fn mb(&self) -> usize {
        self.entries.len() * ENTRY_BYTES / (1024 * 1024)
    }

    /// Empties the table.
    pub fn clear(&self) {
        for e in &self.entries {
            e.check.store(0, Relaxed);
            e.data.store(0, Relaxed);
        }
    }

    /// Marks the start of a new search, so that old entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let e = &self.entries[self.index(key)];
        let data = e.data.load(Relaxed);
        let check = e.check.load(Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let bound = match data >> 56 & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        Some(Hit {
            mv: Move::from_bits(data as u32),
            score: (data >> 32) as u16 as i16 as i32,
            depth: (data >> 48 & 0xff) as i32 - 1,
            bound,
        })
    }

    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let e = &self.entries[self.index(key)];
        let age = self.age.load(Relaxed) & 63;
        let old = e.data.load(Relaxed);
        let old_key = e.check.load(Relaxed) ^ old;
        let old_depth = (old >> 48 & 0xff) as i32 - 1;
        let old_age = old >> 58;
        if old != 0 && old_key == key && old_age == age && depth + 2 < old_depth {
            return;
        }
        let mv = mv.or_else(|| {
            if old_key == key {
                Move::from_bits(old as u32)
            } else {
                None
            }
        });
        let data = mv.map_or(0, |m| m.bits() as u64)
            | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 32)
            | (((depth + 1).clamp(0, 255) as u64) << 48)
            | ((bound as u64) << 56)
            | (age << 58);
        e.check.store(key ^ data, Relaxed);
        e.data.store(data, Relaxed);
    }

    /// Permille of the first thousand entries written in this search.
    pub fn hashfull(&self) -> usize {
        let age = self.age.load(Relaxed) & 63;
        self.entries
            .iter()
            .take(1000)
            .filter(|e| {
                let d = e.data.load(Relaxed);
                d != 0 && d >> 58 == age
            })
            .count()
            * 1000
            / self.entries.len().min(1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::MoveKind;

    #[test]
    fn stores_and_probes() {
        let t = Table::new(1);
        let m = Move::new(12, 28, MoveKind::Normal);
        t.store(0xdead_beef_1234, Some(m), -321, 7, Bound::Lower);
        let h = t.probe(0xdead_beef_1234).unwrap();
        assert_eq!(
            (h.mv, h.score, h.depth, h.bound),
            (Some(m), -321, 7, Bound::Lower)
        );
        assert!(t.probe(0xdead_beef_1235).is_none());
        t.clear();
        assert!(t.probe(0xdead_beef_1234).is_none());
    }
}
