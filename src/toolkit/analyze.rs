//! What a level is made of, by its walking rule (`Walk`'s `blocked` and
//! `diagonal`; costs do not matter): its connected regions, its
//! chokepoints (the cells whose closing splits their region) with how many
//! cells each cuts off, its dead ends, the walk from `@` to `>` and the
//! farthest cell from `@`; and, given the rooms' links, the room graph's
//! degrees, bridges and independent loops.
//!
//! Two walkable cells are neighbours when one step of the walk joins them:
//! edge-on, or corner to corner with `diagonal` when both cells it passes
//! between are walkable too. Closing a cell also closes the diagonal steps
//! that pass it, but never disconnects them (their other corner joins the
//! two cells), so the chokepoints are the graph's articulation points,
//! found by one iterative depth-first search (Tarjan's lowpoints, no
//! recursion) per region, rooted at `@` in `@`'s region and at the first
//! cell in row order in the others. A chokepoint cuts off the cells that
//! closing it leaves out of the root's reach: the sizes of its subtrees
//! whose lowpoint does not climb above it; the root itself cuts off none.
//! `@` is the first `@` in row order; on a blocked character it counts as
//! absent.

use super::board::{padded, Walk, DIRECTIONS};
use crate::grid::{Grid, Pos, PLAYER, STAIRS};

/// A connected region: its first cell in row order and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub first: Pos,
    pub size: usize,
}

/// A chokepoint and how many cells closing it cuts off from its region's
/// root (`@`, or the region's first cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chokepoint {
    pub pos: Pos,
    pub cut: usize,
}

/// The room graph: each room's degree (how many rooms it links to), its
/// bridges (links whose removal splits it, as ascending 0-based pairs, in
/// order) and its number of independent loops, `E - V + components`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoomGraph {
    pub degrees: Vec<usize>,
    pub bridges: Vec<(u32, u32)>,
    pub loops: usize,
}

/// Everything `analyze` finds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// In row order of their first cells.
    pub regions: Vec<Region>,
    /// The index in `regions` of `@`'s.
    pub player_region: Option<usize>,
    /// In row order.
    pub chokepoints: Vec<Chokepoint>,
    /// In row order.
    pub dead_ends: Vec<Pos>,
    /// The steps from `@` to the nearest `>` it reaches.
    pub stairs: Option<u32>,
    /// The farthest cell from `@` (the first in row order on a tie) and its
    /// steps.
    pub farthest: Option<(Pos, u32)>,
    pub rooms: Option<RoomGraph>,
}

/// A graph for `lowpoints`: vertex `v`'s neighbour in slot `k`, `None`
/// past its last slot, `Some(None)` for an empty slot.
trait Graph {
    fn neighbour(&self, v: usize, k: usize) -> Option<Option<usize>>;
}

/// An iterative depth-first search (Tarjan's lowpoints) over a `Graph`:
/// per vertex its discovery time (0: unseen), its lowpoint and the size of
/// its subtree.
struct Dfs {
    disc: Vec<u32>,
    low: Vec<u32>,
    size: Vec<u32>,
    stack: Vec<(u32, u32)>,
    time: u32,
    /// A vertex whose tree path from the root `path` keeps when it is
    /// entered (`usize::MAX`: none).
    target: usize,
    path: Vec<u32>,
}

impl Dfs {
    fn new(n: usize) -> Dfs {
        Dfs {
            disc: vec![0; n],
            low: vec![0; n],
            size: vec![0; n],
            stack: Vec::new(),
            time: 0,
            target: usize::MAX,
            path: Vec::new(),
        }
    }

    fn enter(&mut self, v: usize) {
        self.time += 1;
        self.disc[v] = self.time;
        self.low[v] = self.time;
        self.size[v] = 1;
        self.stack.push((v as u32, 0));
        if v == self.target {
            self.path = self.stack.iter().map(|e| e.0).collect();
        }
    }

    /// Whether the subtree of `c`, a child of `p`, stays cut off from
    /// above `p` once `p` is closed (`p` is then a cut vertex for it).
    fn separated(&self, p: usize, c: usize) -> bool {
        self.low[c] >= self.disc[p]
    }

    /// The search from `root`, unseen: `child(self, parent, child)` for
    /// each tree edge once its child is done. Returns the smallest vertex
    /// reached.
    fn search(
        &mut self,
        graph: &impl Graph,
        root: usize,
        mut child: impl FnMut(&Dfs, usize, usize),
    ) -> usize {
        let mut first = root;
        self.enter(root);
        while let Some(top) = self.stack.last_mut() {
            let (v, k) = (top.0 as usize, top.1 as usize);
            top.1 += 1;
            match graph.neighbour(v, k) {
                None => {
                    self.stack.pop();
                    if let Some(&(p, _)) = self.stack.last() {
                        let p = p as usize;
                        self.low[p] = self.low[p].min(self.low[v]);
                        self.size[p] += self.size[v];
                        child(self, p, v);
                    }
                }
                Some(Some(u)) if self.disc[u] == 0 => {
                    first = first.min(u);
                    self.enter(u);
                }
                Some(Some(u)) if !self.is_parent(u) => {
                    self.low[v] = self.low[v].min(self.disc[u]);
                }
                Some(_) => {}
            }
        }
        first
    }

    /// Whether `u` is the parent of the vertex on top of the stack (the
    /// graphs here are simple: the one edge back to it is the tree edge).
    fn is_parent(&self, u: usize) -> bool {
        let n = self.stack.len();
        n >= 2 && self.stack[n - 2].0 as usize == u
    }
}

/// The grid padded with a ring of closed cells, as a `Graph`: slots in
/// `DIRECTIONS` order, a diagonal one open when both cells it passes
/// between are.
struct Cells {
    open: Vec<bool>,
    offsets: [isize; 8],
    slots: usize,
    width: usize,
}

impl Graph for Cells {
    fn neighbour(&self, v: usize, k: usize) -> Option<Option<usize>> {
        if k >= self.slots {
            return None;
        }
        let at = |k: usize| v.wrapping_add_signed(self.offsets[k]);
        let open =
            self.open[at(k)] && (k < 4 || (self.open[at(k % 4)] && self.open[at((k + 1) % 4)]));
        Some(open.then(|| at(k)))
    }
}

impl Cells {
    /// The cells of `grid` open to `walk`, but those `closed` marks (by
    /// row-major index; empty for none).
    fn new(grid: &Grid, walk: &Walk, closed: &[bool]) -> Cells {
        let stride = grid.width() + 2;
        let mut open = vec![false; padded((grid.width(), grid.height()))];
        for (y, row) in grid.rows().enumerate() {
            let base = (y + 1) * stride + 1;
            for (x, (o, &c)) in open[base..base + row.len()].iter_mut().zip(row).enumerate() {
                let shut = closed.get(y * grid.width() + x).copied().unwrap_or(false);
                *o = !walk.blocked[c as usize] && !shut;
            }
        }
        Cells {
            open,
            offsets: DIRECTIONS.map(|(dx, dy)| dy * stride as isize + dx),
            slots: if walk.diagonal { 8 } else { 4 },
            width: grid.width(),
        }
    }

    fn stride(&self) -> usize {
        self.width + 2
    }

    /// The 1-based cell of padded index `i`.
    fn pos(&self, i: usize) -> Pos {
        Pos {
            x: i % self.stride(),
            y: i / self.stride(),
        }
    }

    /// The padded index of the grid's index `i`.
    fn padded(&self, i: usize) -> usize {
        (i / self.width + 1) * self.stride() + i % self.width + 1
    }

    /// The grid's index of padded index `i`.
    fn unpadded(&self, i: usize) -> usize {
        (i / self.stride() - 1) * self.width + i % self.stride() - 1
    }

    fn open_cells(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.open.len()).filter(|&i| self.open[i])
    }

    fn degree(&self, v: usize) -> usize {
        (0..self.slots)
            .filter(|&k| matches!(self.neighbour(v, k), Some(Some(_))))
            .count()
    }
}

/// The room graph of `links` (each room's linked rooms, 0-based, symmetric).
struct Links<'a>(&'a [Vec<u32>]);

impl Graph for Links<'_> {
    fn neighbour(&self, v: usize, k: usize) -> Option<Option<usize>> {
        self.0[v].get(k).map(|&u| Some(u as usize))
    }
}

/// The analysis of `grid` by `walk`, with the cells `closed` marks
/// (row-major, empty for none) closed too but `@`'s, and with the room
/// graph of `links` when given.
pub fn analyze(grid: &Grid, walk: &Walk, closed: &[bool], links: Option<&[Vec<u32>]>) -> Analysis {
    let mut cells = Cells::new(grid, walk, closed);
    let player = grid
        .cells()
        .iter()
        .position(|&c| c == PLAYER)
        .filter(|&i| !walk.blocked[grid.cells()[i] as usize])
        .map(|i| cells.padded(i));
    if let Some(p) = player {
        cells.open[p] = true;
    }
    let (regions, player_region, chokepoints) = regions(&cells, player);
    let (stairs, farthest) = player.map_or((None, None), |p| walk_from(grid, &cells, p));
    Analysis {
        regions: regions
            .iter()
            .map(|&(first, size, _)| Region {
                first: cells.pos(first),
                size,
            })
            .collect(),
        player_region,
        chokepoints: chokepoints
            .into_iter()
            .map(|(i, cut)| Chokepoint {
                pos: cells.pos(i),
                cut,
            })
            .collect(),
        dead_ends: cells
            .open_cells()
            .filter(|&i| cells.degree(i) == 1)
            .map(|i| cells.pos(i))
            .collect(),
        stairs,
        farthest: farthest.map(|(i, d)| (cells.pos(i), d)),
        rooms: links.map(room_graph),
    }
}

/// The regions (first padded cell, size, whether the player's) in row
/// order, the index of the player's, and the chokepoints (padded cell,
/// cut) in row order.
type Found = (
    Vec<(usize, usize, bool)>,
    Option<usize>,
    Vec<(usize, usize)>,
);

/// Searches each region from its root: the player's first, then each
/// unseen open cell in row order.
fn regions(cells: &Cells, player: Option<usize>) -> Found {
    let mut dfs = Dfs::new(cells.open.len());
    let (mut regions, mut cuts) = (Vec::new(), Vec::new());
    for root in player.into_iter().chain(cells.open_cells()) {
        if dfs.disc[root] != 0 {
            continue;
        }
        let mut children = 0;
        let first = dfs.search(cells, root, |dfs, p, c| {
            if p == root {
                children += 1;
            } else if dfs.separated(p, c) {
                cuts.push((p, dfs.size[c] as usize));
            }
        });
        if children >= 2 {
            cuts.push((root, 0));
        }
        regions.push((first, dfs.size[root] as usize, Some(root) == player));
    }
    regions.sort_unstable();
    cuts.sort_unstable_by_key(|c| c.0);
    let mut chokepoints: Vec<(usize, usize)> = Vec::with_capacity(cuts.len());
    for (i, cut) in cuts {
        match chokepoints.last_mut() {
            Some(last) if last.0 == i => last.1 += cut,
            _ => chokepoints.push((i, cut)),
        }
    }
    let player_region = regions.iter().position(|r| r.2);
    (regions, player_region, chokepoints)
}

/// The steps from `player` to the nearest `>`, and the farthest cell (the
/// first in row order on a tie) with its steps, by breadth-first search.
fn walk_from(grid: &Grid, cells: &Cells, player: usize) -> (Option<u32>, Option<(usize, u32)>) {
    let mut steps = vec![u32::MAX; cells.open.len()];
    let mut queue = vec![player as u32];
    steps[player] = 0;
    let (mut stairs, mut farthest) = (None, (player, 0));
    let mut head = 0;
    while let Some(&v) = queue.get(head) {
        head += 1;
        let v = v as usize;
        let d = steps[v];
        if stairs.is_none() && grid.cells()[cells.unpadded(v)] == STAIRS {
            stairs = Some(d);
        }
        if (d, usize::MAX - v) > (farthest.1, usize::MAX - farthest.0) {
            farthest = (v, d);
        }
        for k in 0..cells.slots {
            if let Some(Some(u)) = cells.neighbour(v, k) {
                if steps[u] == u32::MAX {
                    steps[u] = d + 1;
                    queue.push(u as u32);
                }
            }
        }
    }
    (stairs, Some(farthest))
}

/// The cells every walk from `from` to `to` passes (the chokepoints that
/// cut `to` off from `from`), in the order a walk meets them, by `walk`
/// with the cells `closed` marks closed but `from` and `to`; empty when
/// `to` is not reached. They are the vertices of the search tree's path to
/// `to` whose child on that path is `separated` from above them: the same
/// search as `analyze`'s chokepoints, rooted at `from`.
pub fn separators(grid: &Grid, walk: &Walk, closed: &[bool], from: Pos, to: Pos) -> Vec<Pos> {
    let mut cells = Cells::new(grid, walk, closed);
    let (from, to) = (cells.padded(grid.index(from)), cells.padded(grid.index(to)));
    cells.open[from] = true;
    cells.open[to] = true;
    let mut dfs = Dfs::new(cells.open.len());
    dfs.target = to;
    dfs.search(&cells, from, |_, _, _| {});
    let path = std::mem::take(&mut dfs.path);
    let cut = |pair: &[u32]| {
        let (p, c) = (pair[0] as usize, pair[1] as usize);
        (p != from && dfs.separated(p, c)).then(|| cells.pos(p))
    };
    path.windows(2).filter_map(cut).collect()
}

/// The room graph's degrees, bridges and loops.
fn room_graph(links: &[Vec<u32>]) -> RoomGraph {
    let graph = Links(links);
    let mut dfs = Dfs::new(links.len());
    let mut bridges = Vec::new();
    let mut components = 0;
    for root in 0..links.len() {
        if dfs.disc[root] != 0 {
            continue;
        }
        components += 1;
        dfs.search(&graph, root, |dfs, p, c| {
            if dfs.low[c] > dfs.disc[p] {
                bridges.push((p.min(c) as u32, p.max(c) as u32));
            }
        });
    }
    bridges.sort_unstable();
    let degrees: Vec<usize> = links.iter().map(Vec::len).collect();
    let edges = degrees.iter().sum::<usize>() / 2;
    RoomGraph {
        degrees,
        bridges,
        loops: edges + components - links.len(),
    }
}

/// The memory `analyze` may use on a map of `size` with `rooms` rooms of
/// `links` links in all: the map's copy, per padded cell its open flag,
/// the search's three `u32`s and the walk's steps, and per cell the
/// search's stack, the walk's queue and the lists it returns; per room the
/// room graph's search.
pub fn bound(size: (usize, usize), rooms: usize, links: usize) -> usize {
    let (cells, padded) = (size.0 * size.1, padded(size));
    cells + 17 * padded + 48 * cells + 40 * rooms + 16 * links + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let cells = rows.iter().flat_map(|r| r.bytes()).collect();
        Grid::from_cells(rows[0].len(), rows.len(), cells)
    }

    #[test]
    fn a_corridor_with_a_loop() {
        let g = grid(&[
            "#########",
            "#@..#...#",
            "###.#.#>#",
            "#.......#",
            "#########",
        ]);
        let a = analyze(&g, &Walk::new(), &[], None);
        assert_eq!(
            a.regions,
            [Region {
                first: Pos { x: 2, y: 2 },
                size: 16
            }]
        );
        assert_eq!(a.player_region, Some(0));
        let cuts: Vec<usize> = a.chokepoints.iter().map(|c| c.cut).collect();
        assert_eq!(cuts, [14, 13, 12, 1, 11, 8, 7]);
        assert_eq!(a.dead_ends, [Pos { x: 2, y: 2 }, Pos { x: 2, y: 4 }]);
        assert_eq!(a.stairs, Some(9));
        assert_eq!(a.farthest, Some((Pos { x: 8, y: 2 }, 10)));
    }

    /// Whether `to` is reached from `from` by 4-neighbour steps through
    /// the cells `open` marks: the brute force for `separators`.
    fn joined(g: &Grid, open: &[bool], from: usize, to: usize) -> bool {
        let mut seen = vec![false; open.len()];
        let mut stack = vec![from];
        seen[from] = true;
        while let Some(i) = stack.pop() {
            let p = g.pos(i);
            for (dx, dy) in crate::grid::NEIGHBOURS {
                let (x, y) = (p.x as isize + dx, p.y as isize + dy);
                if x < 1 || y < 1 || x > g.width() as isize || y > g.height() as isize {
                    continue;
                }
                let j = g.index(Pos {
                    x: x as usize,
                    y: y as usize,
                });
                if open[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        seen[to]
    }

    #[test]
    fn separators_are_the_cells_whose_closing_parts_the_two() {
        let mut rng = crate::rng::Rng::new(5);
        for case in 0..3000 {
            let (w, h) = (2 + case % 7, 2 + case / 7 % 7);
            let cells: Vec<u8> = (0..w * h)
                .map(|_| if rng.below(10) < 3 { b'#' } else { b'.' })
                .collect();
            let g = Grid::from_cells(w, h, cells);
            let closed: Vec<bool> = (0..w * h).map(|_| rng.below(20) == 0).collect();
            let (from, to) = (rng.below(w * h), rng.below(w * h));
            let mut open: Vec<bool> = (0..w * h)
                .map(|i| g.cells()[i] != b'#' && !closed[i])
                .collect();
            open[from] = true;
            open[to] = true;
            let found = separators(&g, &Walk::new(), &closed, g.pos(from), g.pos(to));
            let mut want = Vec::new();
            if from != to && joined(&g, &open, from, to) {
                for c in 0..w * h {
                    if !open[c] || c == from || c == to {
                        continue;
                    }
                    open[c] = false;
                    if !joined(&g, &open, from, to) {
                        want.push(g.pos(c));
                    }
                    open[c] = true;
                }
            }
            let mut sorted = found.clone();
            sorted.sort_by_key(|&p| g.index(p));
            want.sort_by_key(|&p| g.index(p));
            assert_eq!(
                sorted,
                want,
                "case {case}: {:?}",
                g.rows().collect::<Vec<_>>()
            );
            // In the order a walk meets them: each cuts the next off.
            for pair in found.windows(2) {
                let (a, b) = (g.index(pair[0]), g.index(pair[1]));
                open[a] = false;
                assert!(!joined(&g, &open, from, b), "case {case}: order");
                open[a] = true;
            }
        }
    }

    #[test]
    fn closed_cells_but_the_players_are_walls() {
        let g = grid(&["@.>"]);
        let a = analyze(&g, &Walk::new(), &[true, true, false], None);
        assert_eq!(a.regions.len(), 2);
        assert_eq!(a.stairs, None);
    }

    #[test]
    fn a_room_cycle_has_one_loop_and_a_tail_a_bridge() {
        let links = [vec![1, 2], vec![0, 2], vec![0, 1, 3], vec![2]];
        let g = analyze(&grid(&["@"]), &Walk::new(), &[], Some(&links))
            .rooms
            .unwrap();
        assert_eq!(g.degrees, [2, 2, 3, 1]);
        assert_eq!(g.bridges, [(2, 3)]);
        assert_eq!(g.loops, 1);
    }
}
