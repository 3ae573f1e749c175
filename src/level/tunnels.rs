//! Tunnels: the shortest ways through rock that join what vaults and
//! `arrive` add to a carved level, and the pass that joins anything a
//! vault's walls cut off.
//!
//! Every search is the pipeline's breadth-first walk (`toolkit::flood::walk`:
//! 4-neighbour steps, north, west, east, south), from its sources in the
//! order given; it ends at
//! the first goal cell met, which is a nearest one, and carves (`.`) the rock
//! on the way there. Rock that may be carved is `#` off the border and off
//! every vault's fixed cells (a vault's spaces may be carved by the last
//! pass only). The searches reuse one mark a cell and one queue.

use super::vaults::{Owners, Stamped};
use crate::grid::{self, Grid, Pos, FLOOR, WALL};
use crate::toolkit::flood::{walk, Flood, Step, CLOSED, OPEN};

/// A cell's mark: not seen, a source, or seen by a step in direction `d`
/// (`d + 1`).
const UNSEEN: u8 = 0;
const SOURCE: u8 = 5;

pub struct Digger<'a> {
    grid: &'a mut Grid,
    owners: Option<&'a Owners>,
    marks: Vec<u8>,
    queue: Vec<u32>,
}

impl<'a> Digger<'a> {
    pub fn new(grid: &'a mut Grid, owners: Option<&'a Owners>) -> Digger<'a> {
        let cells = grid.cells().len();
        Digger {
            grid,
            owners,
            marks: vec![UNSEEN; cells],
            queue: Vec::new(),
        }
    }

    fn steps(&self) -> [isize; 4] {
        grid::steps(self.grid.width())
    }

    fn walkable(&self, i: usize) -> bool {
        self.grid.cells()[i] != WALL
    }

    fn owner(&self, i: usize) -> u8 {
        self.owners.map_or(0, |o| o.of(i))
    }

    /// Rock off the border; off every vault, or with `spaces` off their
    /// fixed cells only.
    fn carvable(&self, i: usize, spaces: bool) -> bool {
        let p = self.grid.pos(i);
        let (w, h) = (self.grid.width(), self.grid.height());
        let inside = p.x > 1 && p.y > 1 && p.x < w && p.y < h;
        let free = match self.owners {
            None => true,
            Some(o) if spaces => !o.fixed(i),
            Some(o) => o.of(i) == 0,
        };
        inside && free && self.grid.cells()[i] == WALL
    }

    /// Breadth-first from the sources already queued (marked `SOURCE`),
    /// into carvable rock (`spaces` as `carvable`) or cells `pass` lets
    /// through, to the first cell `goal` accepts; carves the rock on the way
    /// (sources included). Returns whether a goal was met; clears the marks.
    fn search(
        &mut self,
        spaces: bool,
        pass: impl Fn(&Digger, usize) -> bool,
        goal: impl Fn(&Digger, usize) -> bool,
    ) -> bool {
        let steps = self.steps();
        let mut queue = std::mem::take(&mut self.queue);
        let found = walk(&mut queue, steps, |_, j, d| {
            if self.marks[j] != UNSEEN {
                Step::Skip
            } else if goal(self, j) {
                Step::Stop
            } else if self.carvable(j, spaces) || pass(self, j) {
                self.marks[j] = d as u8 + 1;
                Step::Enter
            } else {
                Step::Skip
            }
        });
        self.queue = queue;
        if let Some(mut i) = found {
            loop {
                if self.grid.cells()[i] == WALL {
                    self.grid.set_at(i, FLOOR);
                }
                match self.marks[i] {
                    SOURCE => break,
                    d => i = i.wrapping_add_signed(-steps[d as usize - 1]),
                }
            }
        }
        for &k in &self.queue {
            self.marks[k as usize] = UNSEEN;
        }
        self.queue.clear();
        found.is_some()
    }

    fn push_source(&mut self, i: usize) {
        if self.marks[i] == UNSEEN {
            self.marks[i] = SOURCE;
            self.queue.push(i as u32);
        }
    }

    /// Joins each entrance of each vault, vault by vault in placement order
    /// and entrance by entrance in row order: unless a cell outside it is
    /// walkable already, the shortest tunnel from the cells outside it
    /// through rock off the vaults, to the nearest walkable cell off the
    /// vaults. So each tunnel ends on the generator's cells or an earlier
    /// tunnel: when the vaults went onto rock (`Stamped::on_rock`), that
    /// keeps everything joined, and `join_all` is not needed.
    pub fn join_entrances(&mut self, stamped: &Stamped) {
        let steps = self.steps();
        for entrances in &stamped.entrances {
            for &e in entrances {
                let outside: Vec<usize> = steps
                    .iter()
                    .map(|&s| e.wrapping_add_signed(s))
                    .filter(|&j| self.owner(j) == 0)
                    .collect();
                if outside.iter().any(|&j| self.walkable(j)) {
                    continue;
                }
                for &j in &outside {
                    if self.carvable(j, false) {
                        self.push_source(j);
                    }
                }
                self.search(false, |_, _| false, |d, j| d.walkable(j) && d.owner(j) == 0);
            }
        }
    }

    /// Joins `p` when it is rock: the shortest tunnel from it through rock
    /// off the vaults to the nearest walkable cell.
    pub fn join_cell(&mut self, p: Pos) {
        let i = self.grid.index(p);
        if self.walkable(i) {
            return;
        }
        self.push_source(i);
        self.search(false, |_, _| false, |d, j| d.walkable(j));
    }

    /// Makes every walkable cell reachable from `start`: the walkable cells
    /// it cannot reach are taken in row order, and each one's region (with
    /// everything it then reaches) is joined by the shortest tunnel from it
    /// to a reached cell, through rock (vaults' spaces included) and other
    /// unreached regions. Returns false if some region cannot be joined
    /// (not possible for vaults placed by `vaults::stamp`).
    pub fn join_all(&mut self, start: Pos) -> bool {
        let n = self.grid.cells().len();
        // Most levels have nothing cut off: the toolkit's flood (branch-free)
        // says so at less cost than the region by region pass below.
        let walkable = n - super::items::count(self.grid.cells(), WALL);
        let mut whole = Flood::new(self.grid, |c| if c == WALL { CLOSED } else { OPEN });
        whole.farthest(start);
        if whole.reached_count() == walkable {
            return true;
        }
        drop(whole);
        let mut reached = vec![false; n];
        let first = self.grid.index(start);
        self.flood(first, &mut reached);
        for i in 0..n {
            if !self.walkable(i) || reached[i] {
                continue;
            }
            // The region's cells are the sources, in the order met.
            self.push_source(i);
            let mut queue = std::mem::take(&mut self.queue);
            walk(&mut queue, self.steps(), |_, j, _| {
                if self.marks[j] == UNSEEN && self.walkable(j) && !reached[j] {
                    self.marks[j] = SOURCE;
                    Step::Enter
                } else {
                    Step::Skip
                }
            });
            self.queue = queue;
            let joined = self.search(
                true,
                |d, j| d.walkable(j) && !reached[j],
                |d, j| d.walkable(j) && reached[j],
            );
            if !joined {
                return false;
            }
            self.flood(i, &mut reached);
        }
        true
    }

    /// Marks as reached every walkable cell not yet reached that `from`
    /// reaches through such cells.
    fn flood(&mut self, from: usize, reached: &mut [bool]) {
        let mut queue = std::mem::take(&mut self.queue);
        let cells = self.grid.cells();
        reached[from] = true;
        queue.push(from as u32);
        walk(&mut queue, self.steps(), |_, j, _| {
            if !reached[j] && cells[j] != WALL {
                reached[j] = true;
                Step::Enter
            } else {
                Step::Skip
            }
        });
        queue.clear();
        self.queue = queue;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    fn rows(g: &Grid) -> Vec<String> {
        g.rows()
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect()
    }

    #[test]
    fn a_cell_in_rock_gets_the_shortest_tunnel_to_the_nearest_floor() {
        let mut g = Grid::from_rows(&[
            "#########",
            "#.......#",
            "#########",
            "#########",
            "#########",
            "#...#####",
            "#########",
        ]);
        Digger::new(&mut g, None).join_cell(at(6, 4));
        assert_eq!(
            rows(&g),
            [
                "#########",
                "#.......#",
                "#####.###",
                "#####.###",
                "#########",
                "#...#####",
                "#########",
            ]
        );
        // Already floor: nothing.
        let before = g.clone();
        Digger::new(&mut g, None).join_cell(at(2, 2));
        assert_eq!(g, before);
    }

    #[test]
    fn cut_off_regions_are_joined_in_row_order() {
        let mut g = Grid::from_rows(&[
            "##########",
            "#..#######",
            "##########",
            "#######..#",
            "##########",
            "#.########",
            "##########",
        ]);
        assert!(Digger::new(&mut g, None).join_all(at(2, 2)));
        assert_eq!(
            crate::toolkit::reach::check(&{
                let mut p = g.clone();
                p.set(at(2, 2), b'@');
                p.set(at(9, 4), b'>');
                p.set(at(2, 6), b'$');
                p
            }),
            Ok(())
        );
        // Each region's tunnel is a shortest one: 6 cells from (8,4) to
        // (3,2), then 3 from (2,6) to what is reached by then.
        let carved = rows(&g).concat().bytes().filter(|&c| c == FLOOR).count();
        assert_eq!(carved, 5 + 9);
    }
}
