//! `analyze` against brute force: every 4x4 map of walls and floor (with
//! `@` and `>` on varying floor cells, 4 and 8 neighbours) and random 8x8
//! maps (a second blocked character, cells `@` cannot be on, no `@`). The
//! oracle closes each cell and searches again (a chokepoint is a cell whose
//! closing leaves the rest of its region unreachable from one of its
//! cells; its cut is what the root, `@` or its region's first cell, then
//! no longer reaches), counts each cell's legal
//! steps, and for the room graph removes each link and counts components.

use map::grid::{Grid, Pos, FLOOR, PLAYER, STAIRS, WALL};
use map::rng::Rng;
use map::toolkit::analyze::{analyze, Analysis, Chokepoint, Region, RoomGraph};
use map::toolkit::board::Walk;

#[path = "support/oracle.rs"]
mod oracle;

use oracle::{around, legal};

/// The steps from `from` to each cell by legal steps (`None`: unreached).
fn search(g: &Grid, walk: &Walk, from: Pos) -> Vec<Option<u32>> {
    let mut d = vec![None; g.cells().len()];
    d[g.index(from)] = Some(0);
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        let here = d[g.index(p)].unwrap();
        for q in around(g, p, walk.diagonal) {
            if d[g.index(q)].is_none() && legal(g, walk, p, q, None) {
                d[g.index(q)] = Some(here + 1);
                queue.push_back(q);
            }
        }
    }
    d
}

fn open(g: &Grid, walk: &Walk, p: Pos) -> bool {
    !walk.blocked[g.get(p) as usize]
}

/// The regions in row order of their first cells.
fn regions(g: &Grid, walk: &Walk) -> Vec<(Pos, Vec<Option<u32>>)> {
    let mut seen = vec![false; g.cells().len()];
    let mut out = Vec::new();
    for i in 0..g.cells().len() {
        let p = g.pos(i);
        if !seen[i] && open(g, walk, p) {
            let d = search(g, walk, p);
            d.iter()
                .enumerate()
                .for_each(|(j, s)| seen[j] |= s.is_some());
            out.push((p, d));
        }
    }
    out
}

fn reached(d: &[Option<u32>]) -> usize {
    d.iter().filter(|s| s.is_some()).count()
}

fn oracle(g: &Grid, walk: &Walk, links: Option<&[Vec<u32>]>) -> Analysis {
    let player = g
        .cells()
        .iter()
        .position(|&c| c == PLAYER)
        .map(|i| g.pos(i))
        .filter(|&p| open(g, walk, p));
    let found = regions(g, walk);
    let region_of = |p: Pos| found.iter().position(|(_, d)| d[g.index(p)].is_some());
    let player_region = player.and_then(region_of);
    let mut chokepoints = Vec::new();
    for i in 0..g.cells().len() {
        let c = g.pos(i);
        if !open(g, walk, c) {
            continue;
        }
        let r = region_of(c).unwrap();
        let size = reached(&found[r].1);
        let root = player
            .filter(|_| Some(r) == player_region)
            .unwrap_or(found[r].0);
        let Some(other) = (0..found[r].1.len())
            .map(|j| g.pos(j))
            .find(|&q| q != c && found[r].1[g.index(q)].is_some())
        else {
            continue;
        };
        let mut closed = g.clone();
        closed.set(c, WALL);
        let from = if root == c { other } else { root };
        let after = reached(&search(&closed, walk, from));
        if after == size - 1 {
            continue;
        }
        let cut = if root == c { 0 } else { size - 1 - after };
        chokepoints.push(Chokepoint { pos: c, cut });
    }
    let dead_ends = (0..g.cells().len())
        .map(|i| g.pos(i))
        .filter(|&p| open(g, walk, p))
        .filter(|&p| {
            around(g, p, walk.diagonal)
                .into_iter()
                .filter(|&q| legal(g, walk, p, q, None))
                .count()
                == 1
        })
        .collect();
    let from_player = player.map(|p| search(g, walk, p));
    let stairs = from_player.as_ref().and_then(|d| {
        (0..d.len())
            .filter(|&i| g.cells()[i] == STAIRS)
            .filter_map(|i| d[i])
            .min()
    });
    let farthest = from_player.as_ref().map(|d| {
        let most = d.iter().flatten().max().copied().unwrap();
        let i = d.iter().position(|&s| s == Some(most)).unwrap();
        (g.pos(i), most)
    });
    Analysis {
        regions: found
            .iter()
            .map(|(first, d)| Region {
                first: *first,
                size: reached(d),
            })
            .collect(),
        player_region,
        chokepoints,
        dead_ends,
        stairs,
        farthest,
        rooms: links.map(room_oracle),
    }
}

/// Components of the room graph without the link `skip`.
fn components(links: &[Vec<u32>], skip: Option<(u32, u32)>) -> usize {
    let mut label = vec![usize::MAX; links.len()];
    let mut count = 0;
    for s in 0..links.len() {
        if label[s] != usize::MAX {
            continue;
        }
        let mut todo = vec![s];
        label[s] = count;
        while let Some(a) = todo.pop() {
            for &b in &links[a] {
                let edge = (a.min(b as usize) as u32, a.max(b as usize) as u32);
                if Some(edge) != skip && label[b as usize] == usize::MAX {
                    label[b as usize] = count;
                    todo.push(b as usize);
                }
            }
        }
        count += 1;
    }
    count
}

fn room_oracle(links: &[Vec<u32>]) -> RoomGraph {
    let c = components(links, None);
    let edges: Vec<(u32, u32)> = (0..links.len())
        .flat_map(|a| {
            links[a]
                .iter()
                .filter(move |&&b| b as usize > a)
                .map(move |&b| (a as u32, b))
        })
        .collect();
    let mut bridges: Vec<(u32, u32)> = edges
        .iter()
        .copied()
        .filter(|&e| components(links, Some(e)) > c)
        .collect();
    bridges.sort_unstable();
    RoomGraph {
        degrees: links.iter().map(Vec::len).collect(),
        bridges,
        loops: edges.len() + c - links.len(),
    }
}

fn walks() -> [Walk; 2] {
    [Walk::new(), Walk::diagonal()]
}

#[test]
fn every_4x4_map_equals_the_oracle() {
    for bits in 0u32..1 << 16 {
        let mut g = Grid::new(4, 4, WALL);
        let mut floor = Vec::new();
        for i in 0..16 {
            if bits >> i & 1 == 1 {
                g.set_at(i, FLOOR);
                floor.push(i);
            }
        }
        if !floor.is_empty() {
            g.set_at(floor[bits as usize % floor.len()], PLAYER);
            let s = floor[(bits as usize / 7) % floor.len()];
            if g.cells()[s] == FLOOR {
                g.set_at(s, STAIRS);
            }
        }
        for walk in walks() {
            assert_eq!(
                analyze(&g, &walk, &[], None),
                oracle(&g, &walk, None),
                "{bits:#06x} {walk:?}"
            );
        }
    }
}

/// A random 8x8 map: floor, `#`, `~` (blocked in half the walks), `@`
/// (absent in a tenth of them, sometimes on `~`) and `>`s.
fn random_map(rng: &mut Rng) -> Grid {
    let wall = rng.below(60);
    let mut g = Grid::new(8, 8, FLOOR);
    for i in 0..64 {
        let roll = rng.below(100);
        if roll < wall {
            g.set_at(i, if roll.is_multiple_of(5) { b'~' } else { WALL });
        } else if roll.is_multiple_of(29) {
            g.set_at(i, STAIRS);
        }
    }
    if rng.below(10) != 0 {
        g.set_at(rng.below(64), PLAYER);
    }
    g
}

#[test]
fn random_8x8_maps_equal_the_oracle() {
    let mut rng = Rng::new(38);
    for case in 0..10_000 {
        let g = random_map(&mut rng);
        let mut walk = walks()[case % 2].clone();
        if case % 4 >= 2 {
            walk.blocked[b'~' as usize] = true;
        }
        assert_eq!(
            analyze(&g, &walk, &[], None),
            oracle(&g, &walk, None),
            "case {case}"
        );
    }
}

/// Random symmetric room graphs of up to 12 rooms.
#[test]
fn random_room_graphs_equal_the_oracle() {
    let mut rng = Rng::new(7);
    let g = Grid::new(1, 1, PLAYER);
    for case in 0..2000 {
        let n = rng.below(13);
        let p = rng.below(100);
        let mut links = vec![Vec::new(); n];
        for a in 0..n {
            for b in a + 1..n {
                if rng.below(100) < p / 3 {
                    links[a].push(b as u32);
                    links[b].push(a as u32);
                }
            }
        }
        links.iter_mut().for_each(|l| l.sort_unstable());
        let got = analyze(&g, &Walk::new(), &[], Some(&links)).rooms;
        assert_eq!(got, Some(room_oracle(&links)), "case {case}: {links:?}");
    }
}
