//! How many moves a position can have. A move list has a fixed capacity (`MAX_MOVES`), so
//! every position kirin accepts must be one whose moves, and those of every position play
//! can reach from it, fit: a crowded FEN (a Chu board of sixty Lions) once overflowed it
//! and aborted the engine. The bound is per piece: the most moves one piece of its kind
//! can have from any square of an empty board (every target, every promotion choice,
//! every two-leg move), taken over the kinds it may later become, since promotion is the
//! only way play changes a piece. Positions only lose pieces in play, so a position within
//! the bound keeps every later one within it. In a game with reserves, captured pieces
//! return by drops and change sides, so there every piece of either colour, on the board
//! or in a reserve, counts for both sides, as does every drop.

use crate::core::{Color, piece_index};
use crate::rules::extension::RuleExtension;
use crate::rules::fen::FenError;
use crate::rules::game::Game;
use crate::rules::movegen::MAX_MOVES;
use crate::rules::position::{MAX_EP_SQUARES, Position};

impl<const W: usize> Game<W> {
    /// Per piece index: the most moves one such piece, or any piece it may become, can
    /// have in one position.
    pub(crate) fn piece_move_bounds(&self) -> Vec<usize> {
        let own: Vec<usize> = (0..2 * self.types)
            .map(|pc| self.own_move_bound(pc))
            .collect();
        (0..2 * self.types)
            .map(|pc| {
                self.may_become(pc)
                    .into_iter()
                    .map(|q| own[q])
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    /// The piece indices `pc` is or may become by promotion or a rule's move, in any
    /// number of steps.
    fn may_become(&self, pc: usize) -> Vec<usize> {
        let mut seen = vec![pc];
        let mut i = 0;
        while i < seen.len() {
            let p = seen[i];
            let next = self.promotions[p]
                .iter()
                .flat_map(|pr| pr.choices.iter().copied())
                .chain(self.rules.list.iter().filter_map(|r| r.becomes(p)));
            for q in next {
                if !seen.contains(&q) {
                    seen.push(q);
                }
            }
            i += 1;
        }
        seen
    }

    /// The most moves one piece of index `pc` has from any square, on an otherwise
    /// empty board, each target counted with every promotion it may make.
    pub(crate) fn own_move_bound(&self, pc: usize) -> usize {
        let tab = &self.tables[pc];
        let reach = |dir: u8, from: usize, max: u8| {
            let n = self.rays[dir as usize * self.squares + from].count() as usize;
            if max == 0 { n } else { n.min(max as usize) }
        };
        let per_target = 1 + self.promotions[pc].as_ref().map_or(0, |p| p.choices.len());
        (0..self.squares)
            .map(|from| {
                let leaps = (tab.leap_move[from] | tab.leap_capture[from]).count() as usize;
                let slides: usize = tab.slides.iter().map(|s| reach(s.dir, from, s.max)).sum();
                let two_legs: usize = tab.two_legs[from]
                    .iter()
                    .map(|l| reach(l.second.dir, l.via as usize, l.second.max))
                    .sum();
                let routes: usize = tab.routes[from]
                    .iter()
                    .map(|r| reach(r.last.dir, r.last_from as usize, r.last.max))
                    .sum();
                (leaps + slides + tab.specials[from].len() + two_legs + routes) * per_target
            })
            .max()
            .unwrap_or(0)
    }

    /// An upper bound of the moves `color` can have in `pos` or any position play reaches
    /// from it.
    pub fn move_bound(&self, pos: &Position<W>, color: Color) -> usize {
        let mut bound = 0;
        let mut pieces = 0;
        if self.reserves.exist() {
            // Captured pieces change sides and come back by drops: any piece of either
            // colour, on the board or in a reserve, may one day be one of `color`'s.
            bound += self.drop_bound(color);
            for t in 0..self.types {
                let (own, other) = (piece_index(t, color), piece_index(t, color.opposite()));
                let worst = self.move_bounds[own].max(self.move_bounds[other]);
                let on_board = (pos.by_piece[own] | pos.by_piece[other]).count() as usize
                    + pos.riding(own)
                    + pos.riding(other);
                let held: usize = (0..self.reserves.count)
                    .map(|r| pos.in_reserve(self, r, t) as usize)
                    .sum();
                pieces += on_board + held;
                bound += (on_board + held) * worst;
            }
        } else {
            for t in 0..self.types {
                let pc = piece_index(t, color);
                let n = pos.by_piece[pc].count() as usize + pos.riding(pc);
                pieces += n;
                bound += n * self.move_bounds[pc];
            }
        }
        // En passant (two pawns at most take on each e.p. square), castling with two
        // rooks, the pass, and the moves the game's rules add.
        bound += 2 * MAX_EP_SQUARES + 2 + 1;
        for r in &self.rules.list {
            bound += r.move_bound(self, pos, color, pieces);
        }
        bound
    }

    /// Refuses a position whose moves might not fit a move list.
    pub fn check_capacity(&self, pos: &Position<W>) -> Result<(), FenError> {
        for color in Color::ALL {
            let bound = self.move_bound(pos, color);
            if bound > MAX_MOVES {
                return Err(FenError::Capacity {
                    side: color.name(),
                    bound,
                    max: MAX_MOVES,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Position;
    use crate::rules::movegen::MAX_MOVES;
    use crate::variants::{AnyGame, builtin};

    #[test]
    fn every_start_fits_and_the_bound_holds_for_real_move_counts() {
        for spec in builtin() {
            let any = AnyGame::new(spec).unwrap();
            crate::with_width!(&any, g => {
                let mut pos = Position::from_fen(g, &spec.start).unwrap();
                let bound = g.move_bound(&pos, pos.side);
                assert!(bound <= MAX_MOVES, "{}: {bound}", spec.name);
                let mut list = crate::rules::MoveList::new();
                g.legal_moves(&mut pos, &mut list);
                assert!(list.len() <= bound, "{}: {} > {bound}", spec.name, list.len());
            });
        }
    }

    #[test]
    fn a_board_of_lions_is_refused() {
        let any = AnyGame::builtin("chu").unwrap();
        crate::with_width!(&any, g => {
            let lions = "NNNNNNNNNNNN/".repeat(11);
            let fen = format!("{lions}5K4k1 w - - 0 1");
            let err = Position::from_fen(g, &fen).unwrap_err();
            assert!(err.to_string().contains("too many pieces"), "{err}");
        });
    }
}
