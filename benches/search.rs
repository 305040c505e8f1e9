//! Search speed per variant: the bench positions of `kirin bench`, each searched to a
//! fixed depth (two plies less than the bench) on one thread with a fresh table.

use criterion::{Criterion, criterion_group, criterion_main};
use kirin::cli_search::BENCH;
use kirin::eval::Eval;
use kirin::rules::{Game, Position};
use kirin::search::{self, limits::Limits, tt::Table};
use kirin::variants::AnyGame;
use kirin::with_width;
use std::hint::black_box;
use std::sync::atomic::AtomicBool;

fn bench_game<const W: usize>(c: &mut Criterion, g: &Game<W>, fen: &str, depth: i32, i: usize) {
    let pos = Position::from_fen(g, fen).expect("bench FENs parse");
    let eval = Eval::new(g);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function(format!("{}/{i}/d{depth}", g.spec.name), |b| {
        b.iter(|| {
            let tt = Table::new(16);
            let stop = AtomicBool::new(false);
            let r = search::search(
                &search::Context {
                    game: g,
                    eval: &eval,
                    tt: &tt,
                    stop: &stop,
                    memory: None,
                },
                black_box(&pos),
                &limits,
                1,
                &mut |_| {},
            );
            black_box(r.nodes)
        })
    });
    group.finish();
}

fn searches(c: &mut Criterion) {
    for (i, b) in BENCH.iter().enumerate() {
        let any = AnyGame::builtin(b.variant).expect("bench variants exist");
        with_width!(&any, g => bench_game(c, g, b.fen, (b.depth - 2).max(1), i));
    }
}

criterion_group!(benches, searches);
criterion_main!(benches);
