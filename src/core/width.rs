//! Values of any bitboard width. A game compiled for boards of `W` lanes is a `Game<W>`,
//! and everything that runs per node is generic over `W`, so that it is compiled once per
//! width. What holds a game of any size holds a `Wide`, an enum over the five widths, and
//! opens it once, at the top of a command, with `with_width!`: inside, the code runs
//! monomorphised and nothing dispatches dynamically.

/// The most 64-bit lanes a board needs (17x17 squares fit five).
pub const MAX_LANES: usize = 5;

/// A family of types with one member per width: `At<W>` is the member for boards of `W`
/// lanes (for compiled games, `Box<Game<W>>`). Families are empty enums that only name a
/// type, such as `variants::Games`.
pub trait PerWidth {
    type At<const W: usize>;
}

/// A member of the family `F` at the width its board needs.
pub enum Wide<F: PerWidth> {
    W1(F::At<1>),
    W2(F::At<2>),
    W3(F::At<3>),
    W4(F::At<4>),
    W5(F::At<5>),
}

/// The one dispatch over widths, in three forms:
/// - `with_width!(wide, x => body)` runs `body` with `x` bound to the member inside
///   `wide` (a `Wide`, or a reference to one), whatever its width;
/// - `with_width!(map wide, x => body)` is the `Wide` of the same width holding `body`
///   (another family's member, built from `x`: a compiled game becomes a session);
/// - `with_width!(lanes n => body)` is the `Wide` for boards of `n` lanes (`MAX_LANES`
///   for anything wider) holding `body`, whose width is inferred from the `Wide` wanted.
#[macro_export]
macro_rules! with_width {
    (map $wide:expr, $x:ident => $body:expr) => {
        match $wide {
            $crate::core::width::Wide::W1($x) => $crate::core::width::Wide::W1($body),
            $crate::core::width::Wide::W2($x) => $crate::core::width::Wide::W2($body),
            $crate::core::width::Wide::W3($x) => $crate::core::width::Wide::W3($body),
            $crate::core::width::Wide::W4($x) => $crate::core::width::Wide::W4($body),
            $crate::core::width::Wide::W5($x) => $crate::core::width::Wide::W5($body),
        }
    };
    (lanes $lanes:expr => $body:expr) => {
        match $lanes {
            1 => $crate::core::width::Wide::W1($body),
            2 => $crate::core::width::Wide::W2($body),
            3 => $crate::core::width::Wide::W3($body),
            4 => $crate::core::width::Wide::W4($body),
            _ => $crate::core::width::Wide::W5($body),
        }
    };
    ($wide:expr, $x:ident => $body:expr) => {
        match $wide {
            $crate::core::width::Wide::W1($x) => $body,
            $crate::core::width::Wide::W2($x) => $body,
            $crate::core::width::Wide::W3($x) => $body,
            $crate::core::width::Wide::W4($x) => $body,
            $crate::core::width::Wide::W5($x) => $body,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arrays of `W` numbers, standing in for a game of `W` lanes.
    enum Lanes {}
    impl PerWidth for Lanes {
        type At<const W: usize> = [u64; W];
    }
    /// Their lengths, another family.
    enum Lengths {}
    impl PerWidth for Lengths {
        type At<const W: usize> = usize;
    }

    #[test]
    fn one_macro_builds_opens_and_maps() {
        for lanes in 1..=7 {
            let wide: Wide<Lanes> = crate::with_width!(lanes lanes => std::array::from_fn(|_| 7));
            let sum: u64 = crate::with_width!(&wide, a => a.iter().sum());
            let expected = lanes.min(MAX_LANES);
            assert_eq!(sum, 7 * expected as u64);
            let lengths: Wide<Lengths> = crate::with_width!(map wide, a => a.len());
            assert_eq!(crate::with_width!(lengths, n => n), expected);
        }
    }
}
