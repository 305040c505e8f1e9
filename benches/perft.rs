//! Perft from each variant's start position (bulk counting), single-threaded.

use criterion::{Criterion, criterion_group, criterion_main};
use kirin::rules::{Game, Position};
use kirin::variants::{self, AnyGame};
use kirin::with_width;
use std::hint::black_box;

fn bench_game<const W: usize>(c: &mut Criterion, g: &Game<W>, depth: u32) {
    let pos = Position::from_fen(g, &g.spec.start).expect("start positions parse");
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function(format!("{}/d{depth}", g.spec.name), |b| {
        b.iter(|| g.perft(&mut black_box(pos.clone()), depth, true))
    });
    group.finish();
}

fn perft(c: &mut Criterion) {
    for spec in variants::builtin() {
        let any = AnyGame::new(spec).expect("built-in variants compile");
        // Depth 4 of a 17x17 start is 212 million leaves: depth 3 there.
        with_width!(&any, g => bench_game(c, g, if g.squares > 256 { 3 } else { 4 }));
    }
}

criterion_group!(benches, perft);
criterion_main!(benches);
