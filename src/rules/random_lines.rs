//! Seeded random lines of play, for tests that want many positions of a game.

use crate::rules::{Game, MoveList, Position};
use rand::{Rng, SeedableRng};

/// The positions along a random line from the game's start (seeded by `seed`), each after
/// one more move, at most `count` of them and none after the game has ended.
pub(crate) fn random_positions<const W: usize>(
    game: &Game<W>,
    count: usize,
    seed: u64,
) -> Vec<Position<W>> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::from_fen(game, &game.spec.start).unwrap();
    let mut out = Vec::new();
    for _ in 0..count {
        if game.outcome(&mut pos).is_some() {
            break;
        }
        let mut list = MoveList::new();
        game.game_moves(&mut pos, &mut list);
        pos.make(game, list[rng.gen_range(0..list.len())]);
        out.push(pos.clone());
    }
    out
}
