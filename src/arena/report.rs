//! The standings of a match as games finish: scores per engine and, with two engines,
//! the first engine's W/D/L, its game pairs (pentanomial), Elo, LOS and the SPRT, printed
//! in cutechess-cli's words (so that scripts that read cutechess's output read these)
//! with fastchess's pentanomial line added.

use super::stats::{Penta, Sprt, SprtVerdict, Wdl, elo_penta, elo_wdl};
use super::tournament::Job;
use std::collections::HashMap;

pub struct Standings {
    names: Vec<String>,
    /// Each engine's results against the field.
    per_engine: Vec<Wdl>,
    /// Engine 0's results against engine 1 (the two-engine match).
    first: Wdl,
    /// Games of a pair seen so far: (games, engine 0's points doubled).
    open_pairs: HashMap<u64, (u32, usize)>,
    penta: Penta,
    sprt: Option<Sprt>,
    games: u64,
    /// Results by colour: white wins, black wins, draws.
    colours: [u64; 3],
}

impl Standings {
    pub fn new(names: Vec<String>, sprt: Option<Sprt>) -> Standings {
        Standings {
            per_engine: vec![Wdl::default(); names.len()],
            names,
            first: Wdl::default(),
            open_pairs: HashMap::new(),
            penta: Penta::default(),
            sprt,
            games: 0,
            colours: [0; 3],
        }
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    pub fn first(&self) -> Wdl {
        self.first
    }

    pub fn penta(&self) -> Penta {
        self.penta
    }

    /// Counts a game's result (`1-0`, `0-1`, `1/2-1/2`).
    pub fn add(&mut self, job: &Job, result: &str) {
        let white_points2 = match result {
            "1-0" => 2,
            "0-1" => 0,
            _ => 1,
        };
        self.games += 1;
        self.colours[match white_points2 {
            2 => 0,
            0 => 1,
            _ => 2,
        }] += 1;
        for (engine, points2) in [(job.white, white_points2), (job.black, 2 - white_points2)] {
            add_points(&mut self.per_engine[engine], points2);
        }
        // The first engine's view of the two-engine match.
        let first_points2 = match (job.white, job.black) {
            (0, 1) => Some(white_points2),
            (1, 0) => Some(2 - white_points2),
            _ => None,
        };
        if let Some(p) = first_points2 {
            add_points(&mut self.first, p);
            let entry = self.open_pairs.entry(job.pair).or_insert((0, 0));
            entry.0 += 1;
            entry.1 += p;
            if entry.0 == 2 {
                self.penta.add_pair(entry.1);
                self.open_pairs.remove(&job.pair);
            }
        }
    }

    /// The LLR of the SPRT: from game pairs when the games come in pairs, else from W/D/L.
    fn llr(&self, sprt: &Sprt) -> f64 {
        if self.penta.pairs() > 0 {
            sprt.llr_penta(&self.penta)
        } else {
            sprt.llr_wdl(&self.first)
        }
    }

    pub fn sprt_verdict(&self) -> Option<SprtVerdict> {
        self.sprt.map(|s| s.verdict(self.llr(&s)))
    }

    /// The hypothesis the SPRT accepted, if it has decided.
    pub fn sprt_accepted(&self) -> Option<&'static str> {
        self.sprt_verdict().and_then(SprtVerdict::accepted)
    }

    /// The first engine's score in a two-engine match (cutechess's `Score of` line).
    pub fn score_line(&self) -> Option<String> {
        (self.names.len() == 2).then(|| self.lines().swap_remove(0))
    }

    /// The score lines.
    pub fn print(&self) {
        for line in self.lines() {
            say!("{line}");
        }
    }

    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.names.len() == 2 {
            let w = self.first;
            let n = w.games().max(1) as f64;
            out.push(format!(
                "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
                self.names[0],
                self.names[1],
                w.wins,
                w.losses,
                w.draws,
                w.points() / n,
                w.games()
            ));
            out.push(format!(
                "White wins {}, Black wins {}, draws {}",
                self.colours[0], self.colours[1], self.colours[2]
            ));
            if let Some(e) = elo_wdl(&w) {
                out.push(format!(
                    "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %",
                    elo_text(e.elo),
                    elo_text(e.error95),
                    e.los * 100.0,
                    e.draw_ratio * 100.0
                ));
            }
            if self.penta.pairs() > 0 {
                let c = self.penta.counts;
                let elo = elo_penta(&self.penta).map_or(String::new(), |e| {
                    format!(
                        ", Elo (pairs): {} +/- {}",
                        elo_text(e.elo),
                        elo_text(e.error95)
                    )
                });
                out.push(format!(
                    "Ptnml(0-2): [{}, {}, {}, {}, {}]{elo}",
                    c[0], c[1], c[2], c[3], c[4]
                ));
            }
            if let Some(s) = &self.sprt {
                let llr = self.llr(s);
                let (lower, upper) = s.bounds();
                let verdict = s
                    .verdict(llr)
                    .accepted()
                    .map(|h| format!(" - {h} was accepted"))
                    .unwrap_or_default();
                out.push(format!(
                    "SPRT: llr {llr:.3} ({:.1}%), lbound {lower:.2}, ubound {upper:.2}{verdict} ({}; elo0 {}, elo1 {})",
                    100.0 * llr / upper,
                    if self.penta.pairs() > 0 { "pentanomial" } else { "trinomial" },
                    s.elo0,
                    s.elo1
                ));
            }
        } else {
            out.push(format!(
                "{:>4} {:<24} {:>8} {:>8} {:>6} {:>7} {:>6}",
                "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
            ));
            let mut order: Vec<usize> = (0..self.names.len()).collect();
            order.sort_by(|a, b| {
                let s = |i: usize| {
                    self.per_engine[i].points() / self.per_engine[i].games().max(1) as f64
                };
                s(*b).total_cmp(&s(*a))
            });
            for (rank, i) in order.into_iter().enumerate() {
                let w = self.per_engine[i];
                let n = w.games().max(1) as f64;
                let (elo, err) = elo_wdl(&w).map_or((0.0, 0.0), |e| (e.elo, e.error95));
                out.push(format!(
                    "{:>4} {:<24} {:>8} {:>8} {:>6} {:>6.1}% {:>5.1}%",
                    rank + 1,
                    self.names[i],
                    elo_text(elo),
                    elo_text(err),
                    w.games(),
                    100.0 * w.points() / n,
                    100.0 * w.draws as f64 / n
                ));
            }
        }
        out
    }
}

fn add_points(w: &mut Wdl, points2: usize) {
    match points2 {
        2 => w.wins += 1,
        0 => w.losses += 1,
        _ => w.draws += 1,
    }
}

/// An Elo figure with one decimal, or `inf` / `-inf` / `nan` as they are.
fn elo_text(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.1}")
    } else if v.is_nan() {
        "nan".into()
    } else if v > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}
