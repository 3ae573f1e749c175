//! A rectangular grid of one-byte cells, addressed 1-based like the Lua API.

pub const WALL: u8 = b'#';
pub const FLOOR: u8 = b'.';
pub const PLAYER: u8 = b'@';
pub const STAIRS: u8 = b'>';
pub const GOLD: u8 = b'$';
pub const POTION: u8 = b'!';
pub const DOOR: u8 = b'+';

/// A set of cell characters (which block sight, which cannot be entered),
/// indexed by byte.
pub type ByteSet = [bool; 256];

/// The set of the bytes in `chars`.
pub fn byte_set(chars: &[u8]) -> ByteSet {
    let mut set = [false; 256];
    for &c in chars {
        set[c as usize] = true;
    }
    set
}

/// The 4 neighbours of a cell as `(dx, dy)`: north, west, east, south. Every
/// search of the level pipeline steps in this order, which is row order:
/// the order its ties are broken in.
pub const NEIGHBOURS: [(isize, isize); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];

/// The 8 neighbours of a cell as `(dx, dy)`, in row order.
pub const NEIGHBOURS_8: [(isize, isize); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// `NEIGHBOURS` as offsets of row-major indices in rows of `stride` cells.
pub fn steps(stride: usize) -> [isize; 4] {
    NEIGHBOURS.map(|(dx, dy)| dy * stride as isize + dx)
}

/// A cell position, 1-based: `x` is the column, `y` the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos {
    pub x: usize,
    pub y: usize,
}

/// A rectangle of cells, such as a room's floor: its top-left cell
/// (1-based) and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x: usize,
    pub y: usize,
    pub w: usize,
    pub h: usize,
}

impl Rect {
    pub const fn new(x: usize, y: usize, w: usize, h: usize) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn centre(&self) -> Pos {
        Pos {
            x: self.x + (self.w - 1) / 2,
            y: self.y + (self.h - 1) / 2,
        }
    }

    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (self.y..self.y + self.h)
            .flat_map(move |y| (self.x..self.x + self.w).map(move |x| Pos { x, y }))
    }

    /// The ring: the cells just outside the rectangle that touch it edge-on
    /// (its corners left out: no step leads from the rectangle into them),
    /// in row order: the row above, then each row's left and right
    /// neighbours, then the row below. A rectangle at the map's edge has
    /// ring cells off the map (`x` or `y` 0, or past the last).
    pub fn ring(&self) -> impl Iterator<Item = Pos> + '_ {
        let row = move |y: usize| (self.x..self.x + self.w).map(move |x| Pos { x, y });
        let sides = (self.y..self.y + self.h).flat_map(move |y| {
            [
                Pos { x: self.x - 1, y },
                Pos {
                    x: self.x + self.w,
                    y,
                },
            ]
        });
        row(self.y - 1).chain(sides).chain(row(self.y + self.h))
    }

    /// Whether `p`, a cell of the rectangle, is on its outermost line.
    pub fn on_edge(&self, p: Pos) -> bool {
        p.x == self.x || p.y == self.y || p.x + 1 == self.x + self.w || p.y + 1 == self.y + self.h
    }

    /// True when the rectangles share a cell or touch: rooms need a wall between.
    /// (`&`, not `&&`: the four tests run without branches, which the
    /// placement loop's unpredictable outcomes make cheaper.)
    pub fn crowds(&self, other: &Rect) -> bool {
        (self.x <= other.x + other.w)
            & (other.x <= self.x + self.w)
            & (self.y <= other.y + other.h)
            & (other.y <= self.y + self.h)
    }
}

/// Rectangles as the windows of a map that a call reads.
impl Rect {
    /// The whole of a `width` x `height` map.
    pub fn whole((width, height): (usize, usize)) -> Rect {
        Rect {
            x: 1,
            y: 1,
            w: width,
            h: height,
        }
    }

    /// The cells within `r` of `p` along each axis, clipped to a `width`
    /// x `height` map.
    pub fn around(p: Pos, r: usize, (width, height): (usize, usize)) -> Rect {
        let (x0, y0) = (p.x.saturating_sub(r).max(1), p.y.saturating_sub(r).max(1));
        let (x1, y1) = (
            p.x.saturating_add(r).min(width),
            p.y.saturating_add(r).min(height),
        );
        Rect {
            x: x0,
            y: y0,
            w: x1 - x0 + 1,
            h: y1 - y0 + 1,
        }
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        let (x0, y0) = (self.x.min(other.x), self.y.min(other.y));
        let x1 = (self.x + self.w).max(other.x + other.w);
        let y1 = (self.y + self.h).max(other.y + other.h);
        Rect {
            x: x0,
            y: y0,
            w: x1 - x0,
            h: y1 - y0,
        }
    }

    pub fn contains(&self, p: Pos) -> bool {
        (self.x..self.x + self.w).contains(&p.x) && (self.y..self.y + self.h).contains(&p.y)
    }

    /// `p`, a cell of the map inside the rectangle, as a cell of it.
    pub fn inside(&self, p: Pos) -> Pos {
        Pos {
            x: p.x - self.x + 1,
            y: p.y - self.y + 1,
        }
    }

    /// `p`, a cell of the rectangle, as a cell of the map.
    pub fn outside(&self, p: Pos) -> Pos {
        Pos {
            x: p.x + self.x - 1,
            y: p.y + self.y - 1,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    width: usize,
    height: usize,
    cells: Vec<u8>,
}

impl Grid {
    /// A grid filled with `fill`. Callers bound the size first (`input::size`, `memory::check`).
    pub fn new(width: usize, height: usize, fill: u8) -> Grid {
        Grid {
            width,
            height,
            cells: vec![fill; width * height],
        }
    }

    /// Wraps row-major cells; `cells.len()` must be `width * height`.
    pub fn from_cells(width: usize, height: usize, cells: Vec<u8>) -> Grid {
        assert_eq!(
            cells.len(),
            width * height,
            "cell count does not match size"
        );
        Grid {
            width,
            height,
            cells,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Row-major cells.
    /// The cells, for a caller that hands them to LuaJIT's FFI in place
    /// (they never move: a grid is never resized).
    pub fn cells_ptr(&mut self) -> *mut u8 {
        self.cells.as_mut_ptr()
    }

    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The cells, taken (a buffer to use again).
    pub fn into_cells(self) -> Vec<u8> {
        self.cells
    }

    pub fn rows(&self) -> std::slice::ChunksExact<'_, u8> {
        self.cells.chunks_exact(self.width.max(1))
    }

    pub fn index(&self, p: Pos) -> usize {
        debug_assert!(
            self.contains(p),
            "{p:?} outside {}x{}",
            self.width,
            self.height
        );
        (p.y - 1) * self.width + (p.x - 1)
    }

    pub fn pos(&self, index: usize) -> Pos {
        Pos {
            x: index % self.width + 1,
            y: index / self.width + 1,
        }
    }

    pub fn contains(&self, p: Pos) -> bool {
        (1..=self.width).contains(&p.x) && (1..=self.height).contains(&p.y)
    }

    pub fn get(&self, p: Pos) -> u8 {
        self.cells[self.index(p)]
    }

    /// Sets the cell at row-major `index` (as from `index`).
    pub fn set_at(&mut self, index: usize, cell: u8) {
        self.cells[index] = cell;
    }

    /// Sets every cell of the `w` by `h` rectangle whose top-left is `p`,
    /// a row slice at a time.
    pub fn fill(&mut self, p: Pos, w: usize, h: usize, cell: u8) {
        for y in p.y..p.y + h {
            let start = self.index(Pos { x: p.x, y });
            self.cells[start..start + w].fill(cell);
        }
    }

    pub fn set(&mut self, p: Pos, cell: u8) {
        let i = self.index(p);
        self.cells[i] = cell;
    }

    /// Rows joined by `\n`, no trailing newline: the text form of a map.
    pub fn render(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.cells.len() + self.height);
        for (i, row) in self.rows().enumerate() {
            if i > 0 {
                out.push(b'\n');
            }
            out.extend_from_slice(row);
        }
        out
    }
}

/// The memory `new_map` of `cells` cells may use: the grid it fills.
pub fn bound_new(cells: usize) -> usize {
    cells + crate::memory::FIXED
}

/// The memory `render` of a map of `(width, height)` may use: the map's
/// copy and its text (a newline a row).
pub fn bound_render((width, height): (usize, usize)) -> usize {
    2 * width * height + height + crate::memory::FIXED
}

#[cfg(test)]
impl Grid {
    /// A grid from rows of text, one byte a cell: for the tests' hand-made maps.
    pub fn from_rows(rows: &[&str]) -> Grid {
        Grid::from_cells(rows[0].len(), rows.len(), rows.concat().into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_grid_is_filled() {
        let g = Grid::new(4, 3, WALL);
        assert_eq!((g.width(), g.height()), (4, 3));
        assert!(g.cells().iter().all(|&c| c == WALL));
    }

    #[test]
    fn set_and_get_are_one_based() {
        let mut g = Grid::new(4, 3, WALL);
        g.set(Pos { x: 4, y: 3 }, PLAYER);
        assert_eq!(g.cells()[11], PLAYER);
        assert_eq!(g.get(Pos { x: 4, y: 3 }), PLAYER);
        assert_eq!(g.pos(11), Pos { x: 4, y: 3 });
        assert!(!g.contains(Pos { x: 0, y: 1 }));
        assert!(!g.contains(Pos { x: 5, y: 1 }));
    }

    #[test]
    fn ring_is_the_edge_on_cells_outside_in_row_order() {
        let ring: Vec<(usize, usize)> = Rect::new(2, 2, 2, 1).ring().map(|p| (p.x, p.y)).collect();
        assert_eq!(ring, [(2, 1), (3, 1), (1, 2), (4, 2), (2, 3), (3, 3)]);
        let r = Rect::new(2, 2, 3, 3);
        let edge: Vec<Pos> = r.cells().filter(|&p| r.on_edge(p)).collect();
        assert_eq!(edge.len(), 8);
        assert!(!r.on_edge(Pos { x: 3, y: 3 }));
        assert_eq!(steps(10), [-10, -1, 1, 10]);
    }

    #[test]
    fn render_joins_rows_without_trailing_newline() {
        let g = Grid::from_cells(3, 2, b"#.#@>$".to_vec());
        assert_eq!(g.render(), b"#.#\n@>$");
        assert_eq!(Grid::new(2, 1, WALL).render(), b"##");
    }
}
