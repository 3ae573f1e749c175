//! Straight lines between two cells (for thrown things, bolts, aiming), on
//! any integer coordinates, no map needed.

/// The cells of the line from `a` to `b`, both included: `n + 1` cells for
/// `n = max(|dx|, |dy|)`, the major coordinate (x when `|dx| >= |dy|`, else
/// y) moving by one at each step. At step `i` the exact line is at minor
/// coordinate `v = a + i * d / n` (`d` the minor difference); the cell
/// taken is the nearest, within 1/2 of `v`, and at an exact half the lower
/// of the two (towards minus infinity, on absolute coordinates). So each
/// cell is an 8-neighbour of the one before, and `line(b, a)` is
/// `line(a, b)` reversed: both meet the same exact values at the same
/// major coordinates, and round them alike. Exact integer arithmetic; the
/// caller bounds `n`, which is the length less one.
pub fn line(a: (i64, i64), b: (i64, i64)) -> Vec<(i64, i64)> {
    let cells = cells(a, b);
    let mut out = Vec::with_capacity(cells.len());
    out.extend(cells);
    out
}

/// The cells of `line(a, b)`, one at a time: nothing is allocated.
pub fn cells(a: (i64, i64), b: (i64, i64)) -> impl ExactSizeIterator<Item = (i64, i64)> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let x_major = dx.abs() >= dy.abs();
    let (major, minor, d_major, d_minor) = if x_major {
        (a.0, a.1, dx, dy)
    } else {
        (a.1, a.0, dy, dx)
    };
    let n = d_major.abs();
    // `n + 1` steps: a range of `usize` knows its length (`n` is bounded by
    // the caller, so it fits).
    (0..n as usize + 1).map(move |i| {
        let i = i as i64;
        let along = major + i * d_major.signum();
        let across = if n == 0 {
            minor
        } else {
            minor + nearest_below_ties(i128::from(i) * i128::from(d_minor), i128::from(n))
        };
        if x_major {
            (along, across)
        } else {
            (across, along)
        }
    })
}

/// The integer nearest `p / q` (`q > 0`), the lower one at an exact half:
/// `ceil(p / q - 1/2) = ceil((2p - q) / 2q)`.
fn nearest_below_ties(p: i128, q: i128) -> i64 {
    let (num, den) = (2 * p - q, 2 * q);
    -((-num).div_euclid(den)) as i64
}

/// The memory a line of `cells` cells takes: two `i64` each.
pub fn bound(cells: usize) -> usize {
    16 * cells + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_and_straight_and_diagonal_lines() {
        assert_eq!(line((3, -4), (3, -4)), [(3, -4)]);
        assert_eq!(line((1, 1), (4, 1)), [(1, 1), (2, 1), (3, 1), (4, 1)]);
        assert_eq!(line((0, 2), (0, -1)), [(0, 2), (0, 1), (0, 0), (0, -1)]);
        assert_eq!(line((0, 0), (-2, 2)), [(0, 0), (-1, 1), (-2, 2)]);
    }

    #[test]
    fn rounds_to_the_nearest_and_halves_down() {
        // Exact minor values 0, 1/3, 2/3, 1.
        assert_eq!(line((0, 0), (3, 1)), [(0, 0), (1, 0), (2, 1), (3, 1)]);
        // 0, 1/2, 1: the half goes to the lower y, both ways.
        assert_eq!(line((0, 0), (2, 1)), [(0, 0), (1, 0), (2, 1)]);
        assert_eq!(line((2, 1), (0, 0)), [(2, 1), (1, 0), (0, 0)]);
        assert_eq!(line((0, 1), (2, 0)), [(0, 1), (1, 0), (2, 0)]);
        // A steep line: x is the minor coordinate.
        assert_eq!(line((0, 0), (1, 2)), [(0, 0), (0, 1), (1, 2)]);
    }

    #[test]
    fn huge_coordinates_stay_exact() {
        let far = 1 << 53;
        let cells = line((far - 3, -far), (far, -far + 2));
        assert_eq!(cells.len(), 4);
        assert_eq!(cells[0], (far - 3, -far));
        assert_eq!(cells[3], (far, -far + 2));
    }
}
