//! What the rooms of a carved map touch: each room's exits (the walkable
//! cells of its ring, `Rect::ring`) and the corridors and rooms they lie in.
//! `loops` asks it which rooms are linked while carving; the level pipeline
//! turns it into the rooms' exits and links (`level/exits.rs`, whose doc
//! says what a corridor and a link are).
//!
//! It runs on every level `generate` makes, so it allocates little: one
//! label a cell, one queue, the exits, and each room's corridors and rooms
//! in one shared list (`Lists`) rather than a vector each.

use crate::grid::{Grid, Pos, Rect, WALL};

/// Lists of `u32`, one a room, kept end to end in one vector.
#[derive(Default)]
pub struct Lists {
    items: Vec<u32>,
    /// Where each list ends in `items`.
    ends: Vec<u32>,
}

impl Lists {
    pub fn with_capacity(lists: usize, items: usize) -> Lists {
        Lists {
            items: Vec::with_capacity(items),
            ends: Vec::with_capacity(lists),
        }
    }

    /// List `i`.
    pub fn get(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.items[start..self.ends[i] as usize]
    }

    /// Adds `item` to the list being built (the one after the last ended).
    pub fn push(&mut self, item: u32) {
        self.items.push(item);
    }

    /// Ends the list being built, its items sorted and each kept once.
    pub fn end_sorted(&mut self) {
        let start = self.ends.last().map_or(0, |&e| e as usize);
        if self.items.len() - start > 1 {
            sort_short(&mut self.items[start..]);
            let mut kept = start + 1;
            for i in start + 1..self.items.len() {
                if self.items[i] != self.items[kept - 1] {
                    self.items[kept] = self.items[i];
                    kept += 1;
                }
            }
            self.items.truncate(kept);
        }
        self.ends.push(self.items.len() as u32);
    }

    /// The lists the other way round, `targets` of them: list `t` holds,
    /// ascending, each `i` whose list `i` holds `offset + t`.
    pub fn transposed(&self, targets: usize, offset: u32) -> Lists {
        // Each target's count, then where its list starts, then (after the
        // items are placed) where it ends.
        let mut at = vec![0u32; targets];
        for &v in &self.items {
            at[(v - offset) as usize] += 1;
        }
        let mut start = 0;
        for a in &mut at {
            (*a, start) = (start, start + *a);
        }
        let mut items = vec![0u32; self.items.len()];
        for i in 0..self.ends.len() {
            for &v in self.get(i) {
                let t = (v - offset) as usize;
                items[at[t] as usize] = i as u32;
                at[t] += 1;
            }
        }
        Lists { items, ends: at }
    }
}

/// What each room touches: the corridors its exits lie in, and the rooms
/// its exits belong to, each ascending.
pub struct Touches {
    pub corridors: Lists,
    pub rooms: Lists,
    pub exits: Vec<Vec<Pos>>,
    pub centres: Vec<Pos>,
    /// Whether the rooms spread further down than across.
    pub tall: bool,
    /// The labels above the rooms' that name corridors: `rooms + 1..next`.
    pub next: u32,
}

impl Touches {
    /// Labels the cells that matter (a `u32` each: 0 none, `1..=rooms` a
    /// room, above that a corridor: only those an exit lies in are flooded)
    /// and reads each room's ring. The border must be wall (as on every
    /// level made), so that no step from a walkable cell leaves the grid.
    pub fn of(grid: &Grid, rooms: &[Rect]) -> Touches {
        let (cells, n) = (grid.cells(), grid.cells().len());
        let mut label = vec![0u32; n];
        for (r, room) in rooms.iter().enumerate() {
            for y in room.y..room.y + room.h {
                let start = grid.index(Pos { x: room.x, y });
                label[start..start + room.w].fill(r as u32 + 1);
            }
        }
        let mut scratch = Vec::new();
        let exits: Vec<Vec<Pos>> = rooms
            .iter()
            .map(|room| ring_exits(grid, room, &mut scratch))
            .collect();
        let mut next = rooms.len() as u32 + 1;
        // A corridor's cells: each neighbour is written at the tail without
        // a branch and kept if open (open cells and walls alternate
        // unpredictably), as the toolkit's flood does; the queue grows
        // before a cell's four writes, so it holds what the corridors need.
        let mut queue = vec![0u32; 64];
        let w = grid.width();
        for &p in exits.iter().flatten() {
            let i = grid.index(p);
            if label[i] != 0 {
                continue;
            }
            label[i] = next;
            queue[0] = i as u32;
            let (mut head, mut tail) = (0, 1);
            while head < tail {
                if queue.len() < tail + 4 {
                    queue.resize(2 * (tail + 4), 0);
                }
                let i = queue[head] as usize;
                head += 1;
                for j in [i - w, i - 1, i + 1, i + w] {
                    let open = (label[j] == 0) & (cells[j] != WALL);
                    queue[tail] = j as u32;
                    tail += usize::from(open);
                    label[j] = if open { next } else { label[j] };
                }
            }
            next += 1;
        }
        let listed: usize = exits.iter().map(Vec::len).sum();
        let mut corridors = Lists::with_capacity(rooms.len(), listed);
        let mut others = Lists::with_capacity(rooms.len(), listed);
        for (r, exits) in exits.iter().enumerate() {
            for &p in exits {
                match label[grid.index(p)] {
                    l if l as usize > rooms.len() => corridors.push(l),
                    l if l as usize != r + 1 => others.push(l - 1),
                    _ => {}
                }
            }
            corridors.end_sorted();
            others.end_sorted();
        }
        let centres: Vec<Pos> = rooms.iter().map(Rect::centre).collect();
        let (xs, ys) = centres
            .iter()
            .fold((0, 0), |(x, y), c| (x.max(c.x), y.max(c.y)));
        Touches {
            corridors,
            rooms: others,
            exits,
            centres,
            tall: ys > xs,
            next,
        }
    }

    /// Whether rooms `a` and `b` are linked.
    pub fn linked(&self, a: usize, b: usize) -> bool {
        let shared = |x: &[u32], y: &[u32]| {
            let (mut i, mut j) = (0, 0);
            while i < x.len() && j < y.len() {
                match x[i].cmp(&y[j]) {
                    std::cmp::Ordering::Equal => return true,
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                }
            }
            false
        };
        let direct =
            |from: usize, to: usize| self.rooms.get(from).binary_search(&(to as u32)).is_ok();
        direct(a, b) || direct(b, a) || shared(self.corridors.get(a), self.corridors.get(b))
    }
}

/// The walkable cells of `room`'s ring in row order (`Rect::ring`'s cells
/// on the grid): the row above, then each row's left and right cells, then
/// the row below. Each cell is written to `scratch` and kept if walkable,
/// without a branch on what it holds (walls and exits alternate
/// unpredictably); only a side off the grid is left out by a branch.
fn ring_exits(grid: &Grid, room: &Rect, scratch: &mut Vec<Pos>) -> Vec<Pos> {
    let (width, height, cells) = (grid.width(), grid.height(), grid.cells());
    scratch.clear();
    scratch.resize(2 * (room.w + room.h), Pos { x: 0, y: 0 });
    let mut kept = 0;
    let mut offer = |x: usize, y: usize| {
        scratch[kept] = Pos { x, y };
        kept += usize::from(cells[(y - 1) * width + x - 1] != WALL);
    };
    // The room lies on the grid; its ring may not (`x1` and `y1` are the
    // column and row just past it).
    let (x0, x1, y0, y1) = (room.x, room.x + room.w, room.y, room.y + room.h);
    if y0 > 1 {
        (x0..x1).for_each(|x| offer(x, y0 - 1));
    }
    for y in y0..y1 {
        if x0 > 1 {
            offer(x0 - 1, y);
        }
        if x1 <= width {
            offer(x1, y);
        }
    }
    if y1 <= height {
        (x0..x1).for_each(|x| offer(x, y1));
    }
    scratch[..kept].to_vec()
}

/// Sorts `list`, by insertion while it is short (most lists here hold a
/// few items, where `sort_unstable`'s own set-up costs more).
fn sort_short(list: &mut [u32]) {
    if list.len() > 16 {
        list.sort_unstable();
        return;
    }
    for i in 1..list.len() {
        let v = list[i];
        let mut j = i;
        while j > 0 && list[j - 1] > v {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = v;
    }
}
