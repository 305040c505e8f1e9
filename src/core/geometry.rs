//! Board geometry: size, holes, square names and coordinates.
//!
//! A square is `rank * width + file` (both from 0). Boards run from 1x1 to 17x17; holes
//! (squares that do not exist, such as the frame around Tamerlane's citadels) are part of
//! the geometry, so that attack tables never reach them.

use std::fmt;

/// Largest board side kirin supports.
pub const MAX_SIDE: usize = 17;
/// Largest number of squares on a board.
pub const MAX_SQUARES: usize = MAX_SIDE * MAX_SIDE;

/// The shape of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub width: usize,
    pub height: usize,
    /// `true` for squares that do not exist.
    pub holes: Vec<bool>,
}

/// An error in a board description or a square name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeometryError(pub String);

impl std::error::Error for GeometryError {}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Geometry {
    /// A board of `width` files and `height` ranks without holes.
    pub fn new(width: usize, height: usize) -> Result<Self, GeometryError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(GeometryError(format!(
                "board {width}x{height} is outside 1x1..{MAX_SIDE}x{MAX_SIDE}"
            )));
        }
        Ok(Geometry {
            width,
            height,
            holes: vec![false; width * height],
        })
    }

    /// Parses `"12x8"`.
    pub fn parse_size(text: &str) -> Result<(usize, usize), GeometryError> {
        let bad = || GeometryError(format!("board size '{text}' is not WIDTHxHEIGHT"));
        let (w, h) = text.split_once('x').ok_or_else(bad)?;
        Ok((
            w.trim().parse().map_err(|_| bad())?,
            h.trim().parse().map_err(|_| bad())?,
        ))
    }

    /// Number of squares, holes included.
    #[inline(always)]
    pub fn squares(&self) -> usize {
        self.width * self.height
    }

    /// Lanes of 64 bits a bitboard of this board needs.
    pub fn lanes(&self) -> usize {
        self.squares().div_ceil(64)
    }

    #[inline(always)]
    pub fn file(&self, sq: usize) -> usize {
        sq % self.width
    }

    #[inline(always)]
    pub fn rank(&self, sq: usize) -> usize {
        sq / self.width
    }

    /// The square at (file, rank), if it is on the board and not a hole.
    #[inline]
    pub fn square(&self, file: i32, rank: i32) -> Option<usize> {
        if file < 0 || rank < 0 || file >= self.width as i32 || rank >= self.height as i32 {
            return None;
        }
        let sq = rank as usize * self.width + file as usize;
        (!self.holes[sq]).then_some(sq)
    }

    /// The square reached from `sq` by the step (dx, dy), if it exists.
    #[inline]
    pub fn offset(&self, sq: usize, dx: i32, dy: i32) -> Option<usize> {
        self.square(self.file(sq) as i32 + dx, self.rank(sq) as i32 + dy)
    }

    /// Name of a square: file letter from `a`, rank number from 1 (`a1`, `q17`).
    pub fn name(&self, sq: usize) -> String {
        format!(
            "{}{}",
            (b'a' + self.file(sq) as u8) as char,
            self.rank(sq) + 1
        )
    }

    /// Parses a square name such as `e4` or `l12`; holes are rejected.
    pub fn parse_square(&self, text: &str) -> Result<usize, GeometryError> {
        let bytes = text.as_bytes();
        let bad = |why: &str| GeometryError(format!("'{text}' is not a square: {why}"));
        if bytes.len() < 2 || !bytes[0].is_ascii_lowercase() {
            return Err(bad("expected a file letter and a rank number"));
        }
        let file = (bytes[0] - b'a') as i32;
        let rank: i32 = text[1..]
            .parse()
            .map_err(|_| bad("the rank is not a number"))?;
        if file >= self.width as i32 || rank < 1 || rank > self.height as i32 {
            return Err(bad(&format!(
                "outside the {}x{} board",
                self.width, self.height
            )));
        }
        self.square(file, rank - 1)
            .ok_or_else(|| bad("that square is a hole"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_up_to_17x17() {
        let g = Geometry::new(17, 17).unwrap();
        for sq in 0..g.squares() {
            assert_eq!(g.parse_square(&g.name(sq)).unwrap(), sq);
        }
        assert_eq!(g.name(288), "q17");
        assert!(g.parse_square("r1").is_err());
        assert!(g.parse_square("a18").is_err());
        assert!(g.parse_square("a0").is_err());
        assert!(g.parse_square("").is_err());
        assert!(g.parse_square("9").is_err());
    }

    #[test]
    fn holes_are_not_squares() {
        let mut g = Geometry::new(13, 10).unwrap();
        g.holes[0] = true;
        assert_eq!(g.square(0, 0), None);
        assert!(g.parse_square("a1").is_err());
        assert_eq!(g.offset(1, -1, 0), None);
        assert_eq!(g.offset(0, 1, 0), Some(1));
        assert_eq!(g.lanes(), 3);
    }
}
