//! A lock-free transposition table shared by all search threads.
//!
//! Each entry is two `AtomicU64`: `check = key ^ data` and `data`. A reader accepts an
//! entry only if `check ^ data` equals its key, so a torn entry (written half by one
//! thread, half by another) is simply a miss. `Relaxed` ordering suffices: an entry is
//! never trusted beyond that check, and the move it holds is validated against the legal
//! moves before use.
//!
//! Entries come in buckets of `BUCKET` (64 bytes: one cache line, or two where the
//! allocation is not aligned to one; nothing here asks it to be); a key may stand in any entry of its bucket, chosen by
//! Lemire's multiply-shift, `(key * buckets) >> 64`. A new key replaces the entry of the
//! bucket worth least: the shallowest, where an entry from an earlier search counts
//! `AGE_PLIES` plies shallower per search since. With one entry per index the many
//! shallow nodes of a search overwrote the deep ones it would meet again.

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
/// Entries per bucket.
const BUCKET: usize = 4;
/// What an entry loses in the replacement's eyes per search it has outlived, in plies.
const AGE_PLIES: i32 = 8;
/// The ages kept in an entry (six bits) wrap at this.
const AGES: u64 = 64;
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

    /// The entries a key may stand in (fewer than `BUCKET` only in a table that small).
    #[inline(always)]
    fn bucket(&self, key: u64) -> &[Entry] {
        let buckets = (self.entries.len() / BUCKET).max(1);
        let first = ((key as u128 * buckets as u128) >> 64) as usize * BUCKET;
        &self.entries[first..(first + BUCKET).min(self.entries.len())]
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        holding(self.bucket(key), key).and_then(|(_, data)| decode(data))
    }

    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Relaxed) % AGES;
        let bucket = self.bucket(key);
        let (e, old) = match holding(bucket, key) {
            Some(same) => same,
            None => {
                let worth = |e: &Entry| {
                    let data = e.data.load(Relaxed);
                    if data == 0 {
                        return i32::MIN;
                    }
                    let since = (age + AGES - (data >> 58)) % AGES;
                    stored_depth(data) - AGE_PLIES * since as i32
                };
                let e = bucket.iter().min_by_key(|e| worth(e)).expect("a bucket");
                (e, 0)
            }
        };
        if old != 0 && old >> 58 == age && depth + 2 < stored_depth(old) {
            return;
        }
        // The same key's move is kept when the new result has none.
        let mv = mv.or_else(|| Move::from_bits(old as u32).filter(|_| old != 0));
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
        let age = self.age.load(Relaxed) % AGES;
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

/// The entry of `bucket` that holds `key`, and the data it was read with.
#[inline(always)]
fn holding(bucket: &[Entry], key: u64) -> Option<(&Entry, u64)> {
    bucket.iter().find_map(|e| {
        let data = e.data.load(Relaxed);
        (data != 0 && e.check.load(Relaxed) ^ data == key).then_some((e, data))
    })
}

/// The depth an entry's data holds.
#[inline(always)]
fn stored_depth(data: u64) -> i32 {
    (data >> 48 & 0xff) as i32 - 1
}

/// An entry's data as a hit (`None`: no bound, not a stored entry).
#[inline(always)]
fn decode(data: u64) -> Option<Hit> {
    let bound = match data >> 56 & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Hit {
        mv: Move::from_bits(data as u32),
        score: (data >> 32) as u16 as i16 as i32,
        depth: stored_depth(data),
        bound,
    })
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

    /// Keys that fall in the same bucket of `t`, from `from` on.
    fn same_bucket(t: &Table, from: u64, n: usize) -> Vec<u64> {
        let first = t.bucket(from).as_ptr();
        (from..)
            .step_by(7919)
            .filter(|&k| std::ptr::eq(t.bucket(k).as_ptr(), first))
            .take(n)
            .collect()
    }

    #[test]
    fn a_bucket_keeps_its_deep_entries_and_replaces_the_shallowest() {
        let t = Table::new(1);
        let keys = same_bucket(&t, 1 << 40, BUCKET + 1);
        for (i, &k) in keys[..BUCKET].iter().enumerate() {
            t.store(k, None, i as i32, 10 - i as i32, Bound::Exact);
        }
        assert!(keys[..BUCKET].iter().all(|&k| t.probe(k).is_some()));
        // A shallow entry of a fifth key takes the place of the shallowest.
        t.store(keys[BUCKET], None, 99, 0, Bound::Lower);
        assert_eq!(t.probe(keys[BUCKET]).map(|h| h.score), Some(99));
        assert!(t.probe(keys[BUCKET - 1]).is_none(), "the shallowest went");
        assert!(keys[..BUCKET - 1].iter().all(|&k| t.probe(k).is_some()));
        // In the next search the depth-8 entry counts as depth 0, below a depth-1 entry
        // of the new search.
        t.new_search();
        t.store(keys[BUCKET], None, 98, 1, Bound::Lower);
        t.store(keys[BUCKET - 1], None, 5, 1, Bound::Upper);
        assert!(t.probe(keys[BUCKET - 1]).is_some());
        assert_eq!(t.probe(keys[BUCKET]).map(|h| h.score), Some(98));
        assert!(
            t.probe(keys[2]).is_none(),
            "the depth-8 entry of the search before went"
        );
    }
}
