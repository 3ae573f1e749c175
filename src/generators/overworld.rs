//! The overworld: a heightmap of fractal simplex noise (`toolkit::noise`)
//! turned into terrain, its land masses joined.
//!
//! 1. Heights: noise of `octaves` octaves, a feature every `scale` cells,
//!    at each cell of the interior. The border is water: the world's edge
//!    is the sea, and a ring that blocks walking keeps every walk on the
//!    map.
//! 2. Water `~` and mountains `^` by rank: the lowest cells are water until
//!    `round(water * cells)` cells are (the border counted), the highest
//!    `round(mountains * land)` of the `land` cells left are mountains (ties
//!    by row order), so the fractions are exact before the joins; on the
//!    smallest maps both give way (mountains first) to keep two cells of
//!    land.
//! 3. Forest `"` on the share `forest` of the land with the most moisture
//!    (a second noise, 3 octaves at most, twice the frequency), plains `.`
//!    on the rest.
//! 4. Joins: the land masses (4-neighbour steps over `.`, `"` and `=`) are
//!    joined by the fewest cells of water or mountain to cross, a minimum
//!    spanning tree: a breadth-first search from every mass at once through
//!    the interior's water and mountains gives each cell its nearest mass
//!    and its distance; each pair of neighbouring cells of two masses is a
//!    crossing as long as their two distances, and Kruskal's algorithm
//!    takes the shortest (then by cell, in row order) that join two masses
//!    not yet joined. A crossing's water becomes a bridge `=`, its
//!    mountains a pass `.`.
//! 5. `@` on the plains cell nearest the map's centre (the first in row
//!    order on a tie; where there are no plains, the land cell nearest it is
//!    cleared to plains); `>` on the land cell (`.` or `"`) farthest from
//!    `@` by walking, the first in row order on a tie.
//!
//! So every cell but water, mountains and `#` is reachable from `@`: the
//! level's `blocked` is `#~^`.

use super::{Default, Generator, Kind, Layout, OptionSpec, Options, Terrain};
use crate::grid::{steps, Grid, Pos, FLOOR};
use crate::rng::Rng;
use crate::toolkit::flood::{self, walk, Flood, Step};
use crate::toolkit::noise::{self, Noise, Settings};

pub const WATER: u8 = b'~';
pub const FOREST: u8 = b'"';
pub const MOUNTAIN: u8 = b'^';
pub const BRIDGE: u8 = b'=';

/// What the overworld's cells are, and which block walking.
pub const TERRAIN: Terrain = Terrain {
    chars: b"~.\"^=",
    blocked: "#~^",
    border: WATER,
};

pub const GENERATOR: Generator = Generator {
    name: "overworld",
    doc: "an overworld from a heightmap of fractal noise: water, plains, forest and mountains, its land masses joined by bridges",
    // Two interior cells, for @ and >.
    min_width: 4,
    min_height: 3,
    options: &[SCALE, OCTAVES, WATER_SHARE, MOUNTAINS, FOREST_SHARE],
    terrain: &TERRAIN,
    // Nothing on it blocks the sight `place` uses (`#` and `+`).
    hides: false,
    carve,
    bound: super::no_bound,
};

const SCALE: OptionSpec = OptionSpec {
    name: "scale",
    kind: Kind::Number {
        min: 1.0,
        max: 1_000_000.0,
        open_min: false,
    },
    default: Default::Number(32.0),
    doc: "the size of the largest features, in cells (the noise's frequency is 1 / scale)",
};

/// The most octaves: the work is a noise sample an octave a cell, and
/// past 8 octaves (at the default scale, a feature of a quarter of a cell)
/// the detail is finer than a cell.
const MAX_OCTAVES: i64 = 8;

const OCTAVES: OptionSpec = OptionSpec {
    name: "octaves",
    kind: Kind::Int {
        min: 1,
        max: MAX_OCTAVES,
    },
    default: Default::Int(4),
    doc: "octaves of the height noise: each adds detail at half the size",
};

const WATER_SHARE: OptionSpec = OptionSpec {
    name: "water",
    kind: Kind::Number {
        min: 0.0,
        max: 0.9,
        open_min: false,
    },
    default: Default::Number(0.3),
    doc: "the fraction of the cells under water (the border is water whatever it is)",
};

const MOUNTAINS: OptionSpec = OptionSpec {
    name: "mountains",
    kind: Kind::Number {
        min: 0.0,
        max: 0.9,
        open_min: false,
    },
    default: Default::Number(0.15),
    doc: "the fraction of the land (the cells above water) over the snow line",
};

const FOREST_SHARE: OptionSpec = OptionSpec {
    name: "forest",
    kind: Kind::Number {
        min: 0.0,
        max: 1.0,
        open_min: false,
    },
    default: Default::Number(0.4),
    doc: "the fraction of the land under forest, where the moisture noise is highest",
};

/// Whether `c` can be walked on: land or a bridge.
fn walkable(c: u8) -> bool {
    matches!(c, FLOOR | FOREST | BRIDGE)
}

fn carve(grid: &mut Grid, opts: &Options, rng: &mut Rng) -> Result<Layout, String> {
    let (water, mountains) = (opts.number(&WATER_SHARE), opts.number(&MOUNTAINS));
    let settings = Settings {
        seed: rng.below(1 << 53) as i64,
        kind: noise::Kind::Simplex,
        octaves: opts.count(&OCTAVES),
        frequency: 1.0 / opts.number(&SCALE),
        persistence: 0.5,
        lacunarity: 2.0,
    };
    let moisture = Settings {
        seed: rng.below(1 << 53) as i64,
        octaves: settings.octaves.min(3),
        frequency: 2.0 * settings.frequency,
        ..settings
    };
    terrain(grid, &Noise::new(settings), (water, mountains));
    forest(grid, &Noise::new(moisture), opts.number(&FOREST_SHARE));
    join_masses(grid);
    let player = start(grid);
    let stairs = Flood::new(grid, |c| match c {
        FLOOR | FOREST => flood::WANTED,
        BRIDGE => flood::OPEN,
        _ => flood::CLOSED,
    })
    .farthest(player);
    Ok(Layout {
        rooms: Vec::new(),
        player,
        stairs: Some(stairs),
        blocked: None,
    })
}

/// The cells of the interior (inside the border), row-major, as grid indices.
fn interior(grid: &Grid) -> impl Iterator<Item = usize> + '_ {
    let (w, h) = (grid.width(), grid.height());
    (1..h - 1).flat_map(move |y| (1..w - 1).map(move |x| y * w + x))
}

/// The `k` smallest of `ranks` by `key` (ties by index) moved to its front.
fn lowest(ranks: &mut [u32], k: usize, key: &[f64]) {
    if k > 0 && k < ranks.len() {
        ranks.select_nth_unstable_by(k, |&a, &b| {
            key[a as usize].total_cmp(&key[b as usize]).then(a.cmp(&b))
        });
    }
}

/// Water, mountains and plains by the heights' ranks.
fn terrain(grid: &mut Grid, height: &Noise, (water, mountains): (f64, f64)) {
    let (w, h) = (grid.width(), grid.height());
    let cells = w * h;
    let inner = (w - 2) * (h - 2);
    let room = inner - 2;
    let wet = ((water * cells as f64).round() as usize).saturating_sub(cells - inner);
    let wet = wet.min(room);
    let land = inner - wet;
    let high = ((mountains * land as f64).round() as usize).min(room - wet);
    // Heights by interior rank (row-major over the interior), and the ranks.
    let heights: Vec<f64> = interior(grid)
        .map(|i| height.get((i % w + 1) as f64, (i / w + 1) as f64))
        .collect();
    let mut ranks: Vec<u32> = (0..inner as u32).collect();
    lowest(&mut ranks, wet, &heights);
    let above = &mut ranks[wet..];
    let n = above.len();
    lowest(above, n - high, &heights);
    let mut class = vec![FLOOR; inner];
    ranks[..wet].iter().for_each(|&r| class[r as usize] = WATER);
    ranks[inner - high..]
        .iter()
        .for_each(|&r| class[r as usize] = MOUNTAIN);
    grid.fill(Pos { x: 1, y: 1 }, w, h, WATER);
    let mut k = 0;
    for y in 2..h {
        let start = grid.index(Pos { x: 2, y });
        for c in 0..w - 2 {
            grid.set_at(start + c, class[k]);
            k += 1;
        }
    }
}

/// Forest on the share `share` of the plains with the most moisture.
fn forest(grid: &mut Grid, moisture: &Noise, share: f64) {
    let w = grid.width();
    let land: Vec<usize> = interior(grid)
        .filter(|&i| grid.cells()[i] == FLOOR)
        .collect();
    let trees = (share * land.len() as f64).round() as usize;
    if trees == 0 {
        return;
    }
    let wet: Vec<f64> = land
        .iter()
        .map(|&i| -moisture.get((i % w + 1) as f64, (i / w + 1) as f64))
        .collect();
    let mut ranks: Vec<u32> = (0..land.len() as u32).collect();
    lowest(&mut ranks, trees, &wet);
    ranks[..trees]
        .iter()
        .for_each(|&r| grid.set_at(land[r as usize], FOREST));
}

/// No mass yet: the border, never entered.
const NONE: u32 = u32::MAX;
const BORDER: u32 = u32::MAX - 1;

/// Joins the land masses by the shortest crossings (module doc, step 4).
fn join_masses(grid: &mut Grid) {
    let (w, n) = (grid.width(), grid.cells().len());
    let step = steps(w);
    let mut owner = vec![NONE; n];
    for (i, o) in owner.iter_mut().enumerate() {
        let (x, y) = (i % w, i / w);
        if x == 0 || y == 0 || x == w - 1 || y == grid.height() - 1 {
            *o = BORDER;
        }
    }
    // The masses, labelled in row order of their first cell.
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    let mut masses = 0u32;
    for i in 0..n {
        if owner[i] != NONE || !walkable(grid.cells()[i]) {
            continue;
        }
        owner[i] = masses;
        queue.clear();
        queue.push(i as u32);
        let cells = grid.cells();
        walk(&mut queue, step, |_, j, _| {
            if owner[j] == NONE && walkable(cells[j]) {
                owner[j] = masses;
                Step::Enter
            } else {
                Step::Skip
            }
        });
        masses += 1;
    }
    if masses < 2 {
        return;
    }
    // Every mass at once, through the interior's water and mountains.
    let mut dist = vec![0u32; n];
    queue.clear();
    queue.extend((0..n as u32).filter(|&i| owner[i as usize] < masses));
    walk(&mut queue, step, |from, j, _| {
        if owner[j] == NONE {
            owner[j] = owner[from];
            dist[j] = dist[from] + 1;
            Step::Enter
        } else {
            Step::Skip
        }
    });
    drop(queue);
    // Crossings: a neighbour to the east or south of another mass, keyed
    // by their length, then the cell and the direction.
    let crossing = |i: usize, j: usize| owner[j] < masses && owner[j] != owner[i];
    let pairs = |i: usize| [(i + 1, 0u64), (i + w, 1u64)];
    let inside = |i: usize| owner[i] < masses;
    let count: usize = (0..n)
        .filter(|&i| inside(i))
        .map(|i| pairs(i).iter().filter(|&&(j, _)| crossing(i, j)).count())
        .sum();
    let mut keys = Vec::with_capacity(count);
    for i in (0..n).filter(|&i| inside(i)) {
        for (j, d) in pairs(i) {
            if crossing(i, j) {
                let length = u64::from(dist[i] + dist[j]);
                keys.push(length << 33 | (i as u64) << 1 | d);
            }
        }
    }
    keys.sort_unstable();
    let mut parent: Vec<u32> = (0..masses).collect();
    let mut joins = 1;
    for key in keys {
        let i = (key >> 1 & 0xffff_ffff) as usize;
        let j = if key & 1 == 0 { i + 1 } else { i + w };
        let (a, b) = (root(&mut parent, owner[i]), root(&mut parent, owner[j]));
        if a == b {
            continue;
        }
        parent[a as usize] = b;
        for end in [i, j] {
            cross(grid, &owner, &dist, step, end);
        }
        joins += 1;
        if joins == masses {
            break;
        }
    }
}

/// The mass `m` belongs to, its path halved on the way.
fn root(parent: &mut [u32], mut m: u32) -> u32 {
    while parent[m as usize] != m {
        let up = parent[parent[m as usize] as usize];
        parent[m as usize] = up;
        m = up;
    }
    m
}

/// Carves from `i` back to its mass: down the distances, each step to the
/// first neighbour (north, west, east, south) of the same mass one nearer;
/// water becomes a bridge, a mountain a pass.
fn cross(grid: &mut Grid, owner: &[u32], dist: &[u32], step: [isize; 4], mut i: usize) {
    while dist[i] > 0 {
        match grid.cells()[i] {
            WATER => grid.set_at(i, BRIDGE),
            MOUNTAIN => grid.set_at(i, FLOOR),
            _ => {}
        }
        i = step
            .iter()
            .map(|&s| i.wrapping_add_signed(s))
            .find(|&j| owner[j] == owner[i] && dist[j] + 1 == dist[i])
            .expect("a breadth-first search enters each cell from one a step nearer");
    }
}

/// `@`'s cell: the plains nearest the centre, or the land nearest it
/// cleared to plains.
fn start(grid: &mut Grid) -> Pos {
    let (w, h) = (grid.width() as i64, grid.height() as i64);
    let nearest = |grid: &Grid, wanted: &dyn Fn(u8) -> bool| {
        let far = |i: usize| {
            let (x, y) = ((i as i64 % w) + 1, (i as i64 / w) + 1);
            (2 * x - (w + 1)).pow(2) + (2 * y - (h + 1)).pow(2)
        };
        let cells = grid.cells();
        (0..cells.len())
            .filter(|&i| wanted(cells[i]))
            .min_by_key(|&i| (far(i), i))
    };
    let i = nearest(grid, &|c| c == FLOOR)
        .or_else(|| nearest(grid, &|c| c == FOREST))
        .expect("terrain keeps two cells of land");
    grid.set_at(i, FLOOR);
    grid.pos(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::testing::{check_terrain_contract as check_contract, run};
    use crate::generators::Value;

    fn count(g: &Grid, c: u8) -> usize {
        g.cells().iter().filter(|&&x| x == c).count()
    }

    /// The defaults, but `overrides`.
    fn with(overrides: &[(&'static str, f64)], size: (usize, usize)) -> Options {
        let values = GENERATOR.options.iter().map(|o| {
            let given = overrides.iter().find(|(n, _)| *n == o.name);
            let v = given.map(|&(_, v)| Value::Number(v));
            (o.name, v.unwrap_or_else(|| o.default.value(size.0.min(size.1))))
        });
        Options::new(values.collect())
    }

    /// The fractions are exact before the joins, which only turn some
    /// water into bridges and some mountain into passes.
    #[test]
    fn water_and_mountains_take_their_fractions() {
        for (water, mountains) in [(0.3, 0.1), (0.6, 0.05), (0.1, 0.4), (0.0, 0.0), (0.9, 0.9)] {
            for seed in 0..10 {
                let size = (120, 80);
                let opts = with(&[("water", water), ("mountains", mountains)], size);
                let (g, layout) = run(carve, size, seed, &opts);
                check_contract(&g, &layout, &TERRAIN);
                let cells = (size.0 * size.1) as f64;
                let border = (2 * size.0 + 2 * size.1 - 4) as f64;
                let wet = (count(&g, WATER) + count(&g, BRIDGE)) as f64;
                let all_wet = (water * cells).round().max(border);
                assert_eq!(wet, all_wet, "{water} {seed}");
                // Passes take a few mountain cells.
                let want = (mountains * (cells - all_wet)).round();
                let peaks = count(&g, MOUNTAIN) as f64;
                // Where mountains are most of the land, passes join many
                // valleys; elsewhere they take few cells.
                let few = mountains >= 0.5 || peaks >= want - 0.01 * cells;
                assert!(peaks <= want && few, "{water} {mountains} {seed}: {peaks} of {want}");
            }
        }
    }

    #[test]
    fn forest_takes_its_share_of_the_land() {
        let size = (100, 60);
        for share in [0.0, 0.4, 1.0] {
            let (g, _) = run(carve, size, 3, &with(&[("forest", share)], size));
            let (trees, plains) = (count(&g, FOREST), count(&g, FLOOR));
            let got = trees as f64 / (trees + plains) as f64;
            assert!((got - share).abs() < 0.02, "{share}: {got}");
        }
    }

    #[test]
    fn separate_islands_are_joined_by_the_narrowest_water() {
        let mut g = Grid::from_rows(&[
            "~~~~~~~~~~~",
            "~..~~~~~~.~",
            "~..~~~~~~.~",
            "~~~~~~~~~~~",
            "~~.~~~~~~~~",
            "~~~~~~~~~~~",
        ]);
        join_masses(&mut g);
        let rows: Vec<String> = g
            .rows()
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect();
        assert_eq!(
            rows,
            [
                "~~~~~~~~~~~",
                "~..======.~",
                "~..~~~~~~.~",
                "~~=~~~~~~~~",
                "~~.~~~~~~~~",
                "~~~~~~~~~~~",
            ]
        );
    }

    #[test]
    fn a_valley_in_the_mountains_gets_a_pass() {
        let mut g = Grid::from_rows(&["~~~~~~~", "~..^^.~", "~..^^.~", "~~~~~~~"]);
        join_masses(&mut g);
        assert_eq!(g, Grid::from_rows(&["~~~~~~~", "~.....~", "~..^^.~", "~~~~~~~"]));
    }

    #[test]
    fn at_the_smallest_size_two_cells_of_land_remain() {
        for seed in 0..50 {
            let size = (4, 3);
            let opts = with(&[("water", 0.9), ("mountains", 0.0)], size);
            let (g, layout) = run(carve, size, seed, &opts);
            check_contract(&g, &layout, &TERRAIN);
        }
    }

}
