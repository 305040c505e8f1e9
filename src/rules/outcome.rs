//! The end of a game as the variant's rule flags define it: mate, stalemate, loss of the
//! last royal, bare king, the move rule and repetition.

use crate::core::Color;
use crate::rules::game::Game;
use crate::rules::movegen::MoveList;
use crate::rules::position::Position;
use crate::rules::spec::{BareKing, RepetitionRule, Verdict};

/// A finished game, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub verdict: Verdict,
    pub reason: &'static str,
}

impl<const W: usize> Game<W> {
    /// The result of the position for the side to move, or `None` while play goes on.
    pub fn outcome(&self, pos: &mut Position<W>) -> Option<Outcome> {
        let end = |verdict, reason| Some(Outcome { verdict, reason });
        let us = pos.side;
        if self.royals_lost(pos) {
            return end(Verdict::Loss, "royal captured");
        }
        if let Some(o) = self.rule_outcome(pos) {
            return Some(o);
        }
        let mut list = MoveList::new();
        self.game_moves(pos, &mut list);
        if list.is_empty() {
            // Without a check rule (royals are captured) a side with no move is stalemated
            // even if its royal is attacked.
            return if self.uses_check() && self.in_check(pos) {
                end(Verdict::Loss, "checkmate")
            } else {
                end(self.spec.stalemate, "stalemate")
            };
        }
        if let Some(o) = self.bare_king(self.spec.bare_king, pos, us, &list) {
            return Some(o);
        }
        if self.spec.move_rule > 0 && pos.halfmove >= self.spec.move_rule {
            return end(Verdict::Draw, "move rule");
        }
        if self.spec.repetition_rule == RepetitionRule::Draw
            && self.spec.repetitions > 0
            && pos.repetitions(self) + 1 >= self.spec.repetitions as usize
        {
            return end(Verdict::Draw, "repetition");
        }
        None
    }

    /// True when `color` has nothing but royal pieces.
    pub fn is_bare(&self, pos: &Position<W>, color: Color) -> bool {
        pos.by_color[color] == pos.royals(self, color)
    }

    /// The result of the bare-king rule `rule` for the side to move, whichever rule the
    /// game itself plays by: a CECP session that plays on past a bare King (as XBoard
    /// does) still asks what the real rule says.
    pub fn bare_king_result(&self, rule: BareKing, pos: &mut Position<W>) -> Option<Outcome> {
        let mut list = MoveList::new();
        self.game_moves(pos, &mut list);
        self.bare_king(rule, pos, pos.side, &list)
    }

    fn bare_king(
        &self,
        rule: BareKing,
        pos: &Position<W>,
        us: Color,
        moves: &MoveList,
    ) -> Option<Outcome> {
        let (we_bare, they_bare) = (self.is_bare(pos, us), self.is_bare(pos, us.opposite()));
        let end = |verdict, reason| Some(Outcome { verdict, reason });
        match rule {
            BareKing::Play => None,
            BareKing::Draw if we_bare || they_bare => end(Verdict::Draw, "bare king"),
            BareKing::Draw => None,
            BareKing::LossUnlessRebare => {
                if we_bare && they_bare {
                    return end(Verdict::Draw, "both kings bare");
                }
                if they_bare {
                    // They were bared and did not bare us back on their move.
                    return end(Verdict::Win, "bare king");
                }
                if !we_bare {
                    return None;
                }
                // The bared side may still bare the opponent on this move: it can if the
                // opponent has one non-royal piece left and we can take it.
                let others = pos.by_color[us.opposite()].andnot(pos.royals(self, us.opposite()));
                let rebare = others.count() == 1
                    && moves.iter().any(|m| {
                        others.has(m.to())
                            || self
                                .captures_on_the_way(*m)
                                .iter()
                                .any(|&sq| others.has(sq as usize))
                    });
                if rebare {
                    None
                } else {
                    end(Verdict::Loss, "bare king")
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Position;
    use crate::rules::spec::Verdict;
    use crate::variants::AnyGame;

    fn outcome(variant: &str, fen: &str) -> Option<(Verdict, &'static str)> {
        let any = AnyGame::builtin(variant).unwrap();
        crate::with_width!(&any, g => {
            let mut pos = Position::from_fen(g, fen).unwrap();
            g.outcome(&mut pos).map(|o| (o.verdict, o.reason))
        })
    }

    #[test]
    fn mate_and_stalemate_follow_the_flags() {
        let fools_mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(
            outcome("chess", fools_mate),
            Some((Verdict::Loss, "checkmate"))
        );
        let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
        assert_eq!(
            outcome("chess", stalemate),
            Some((Verdict::Draw, "stalemate"))
        );
        // Courier: stalemate loses; Black's king and blocked pawn have no move.
        let courier = "k1W9/p11/P1K9/12/12/12/12/12 b - - 0 1";
        assert_eq!(
            outcome("courier", courier),
            Some((Verdict::Loss, "stalemate"))
        );
        assert_eq!(outcome("chess", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"), None);
    }

    #[test]
    fn courier_bare_king_loses_unless_it_bares_back() {
        // Black is bare and cannot take White's last piece: a loss.
        assert_eq!(
            outcome("courier", "k11/12/12/12/12/5R6/12/11K b - - 0 1"),
            Some((Verdict::Loss, "bare king"))
        );
        // Black is bare but can take the Fers next to its king: play goes on.
        assert_eq!(
            outcome("courier", "kF10/12/12/12/12/12/12/11K b - - 0 1"),
            None
        );
        assert_eq!(
            outcome("courier", "k11/12/12/12/12/12/12/11K b - - 0 1"),
            Some((Verdict::Draw, "both kings bare"))
        );
    }

    #[test]
    fn move_rule_and_repetition() {
        let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 100 80";
        assert_eq!(outcome("chess", fen), Some((Verdict::Draw, "move rule")));
        let any = AnyGame::builtin("chess").unwrap();
        crate::with_width!(&any, g => {
            let mut pos = Position::from_fen(g, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
            for _ in 0..2 {
                for text in ["a1a2", "e8d8", "a2a1", "d8e8"] {
                    let m = g.parse_move(&mut pos, text).unwrap();
                    pos.make(g, m);
                }
            }
            assert_eq!(g.outcome(&mut pos).map(|o| o.reason), Some("repetition"));
        });
    }

    #[test]
    fn chu_forbids_recreating_a_position_unless_in_check() {
        let any = AnyGame::builtin("chu").unwrap();
        crate::with_width!(&any, g => {
            let mut pos = Position::from_fen(g, &g.spec.start).unwrap();
            for text in ["d5d6", "i8i7", "d6d5"] {
                let m = g.parse_move(&mut pos, text).unwrap();
                pos.make(g, m);
            }
            // Black's return i7i8 would recreate the start position.
            let mut list = crate::rules::MoveList::new();
            g.game_moves(&mut pos, &mut list);
            assert!(!list.iter().any(|&m| g.move_text(m) == "i7i8"));
            g.legal_moves(&mut pos, &mut list);
            assert!(list.iter().any(|&m| g.move_text(m) == "i7i8"));
            // Two passes in a row recreate the position: the second is not allowed.
            let mut pos = Position::from_fen(g, "6k5/12/12/12/12/12/12/12/12/5N6/12/6K5 w 0 1").unwrap();
            let pass = g.parse_move(&mut pos, "@@@@").unwrap();
            pos.make(g, pass);
            let m = g.parse_move(&mut pos, "g12f12").unwrap();
            pos.make(g, m);
            let pass = g.parse_move(&mut pos, "f3f4,f4f3").unwrap();
            pos.make(g, pass);
            let m = g.parse_move(&mut pos, "f12g12").unwrap();
            pos.make(g, m);
            g.game_moves(&mut pos, &mut list);
            assert!(!list.iter().any(|&m| g.move_text(m) == "@@@@"));
        });
    }

    #[test]
    fn sho_has_no_moves_without_royals_and_stalemate_loses() {
        assert_eq!(
            outcome("sho", "k8/2G6/1G7/9/9/9/9/9/8K b - - 0 1"),
            Some((Verdict::Loss, "stalemate"))
        );
    }
}
