//! Legal move generation per variant: the start position and the first play position of
//! each suite in `positions/`.

use criterion::{Criterion, criterion_group, criterion_main};
use kirin::rules::{Game, MoveList, Position};
use kirin::variants::{self, AnyGame};
use kirin::with_width;
use std::hint::black_box;

/// The first two FENs of a variant's suite (start and a middlegame position).
fn positions(variant: &str) -> Vec<String> {
    let path = format!("{}/positions/{variant}.epd", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(2)
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

fn bench_game<const W: usize>(c: &mut Criterion, g: &Game<W>) {
    for (i, fen) in positions(&g.spec.name).iter().enumerate() {
        let mut pos = Position::from_fen(g, fen).expect("suite FENs parse");
        let mut list = MoveList::new();
        c.bench_function(&format!("movegen/{}/{}", g.spec.name, i), |b| {
            b.iter(|| {
                g.legal_moves(black_box(&mut pos), &mut list);
                black_box(list.len())
            })
        });
    }
}

fn movegen(c: &mut Criterion) {
    for spec in variants::builtin() {
        let any = AnyGame::new(spec).expect("built-in variants compile");
        with_width!(&any, g => bench_game(c, g));
    }
}

criterion_group!(benches, movegen);
criterion_main!(benches);
