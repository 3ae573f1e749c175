//! `generate`: from the caller's parameters to a finished level.

use crate::cave;
use crate::grid::{Grid, Pos, FLOOR, PLAYER, STAIRS, WALL};
use crate::options::{self, Arg, MAX_CELLS, MAX_ROOMS};
use crate::place::{self, Item};
use crate::reach;
use crate::rng::Rng;
use crate::rooms::{self, Room};

/// The smallest map that holds one room inside its wall border.
pub const MIN_WIDTH: i64 = rooms::MIN_ROOM_WIDTH as i64 + 2;
pub const MIN_HEIGHT: i64 = rooms::MIN_ROOM_HEIGHT as i64 + 2;

/// The smallest cave map: one interior row or column inside the border.
pub const MIN_CAVE_SIDE: i64 = 3;
pub const DEFAULT_FILL: f64 = 0.5;

pub const DEFAULT_ROOMS: i64 = 10;
pub const DEFAULT_ITEMS: i64 = 5;

/// The parameters as given; `Missing` where the caller left one out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Params<'a> {
    pub width: Arg<'a>,
    pub height: Arg<'a>,
    pub seed: Arg<'a>,
    pub algorithm: Arg<'a>,
    pub rooms: Arg<'a>,
    pub items: Arg<'a>,
    pub fill: Arg<'a>,
    pub max_frontier: Arg<'a>,
}

impl<'a> Params<'a> {
    /// Sets one named option, as from `generate{key = value}`.
    pub fn set(&mut self, key: &[u8], value: Arg<'a>) -> Result<(), String> {
        let slot = match key {
            b"width" => &mut self.width,
            b"height" => &mut self.height,
            b"seed" => &mut self.seed,
            b"algorithm" => &mut self.algorithm,
            b"rooms" => &mut self.rooms,
            b"items" => &mut self.items,
            b"fill" => &mut self.fill,
            b"max_frontier" => &mut self.max_frontier,
            _ => {
                return Err(format!(
                    "unknown option {:?} (options: width, height, seed, algorithm, rooms, items, \
                     fill, max_frontier)",
                    String::from_utf8_lossy(key)
                ))
            }
        };
        *slot = value;
        Ok(())
    }
}

/// A generated map and everything placed on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub grid: Grid,
    pub seed: i64,
    pub algorithm: &'static str,
    pub rooms: Vec<Room>,
    pub player: Pos,
    pub stairs: Pos,
    pub items: Vec<Item>,
}

pub fn generate(params: &Params) -> Result<Level, String> {
    match params.algorithm {
        Arg::Missing | Arg::Str(b"rooms") => rooms_level(params),
        Arg::Str(b"cave") => cave_level(params),
        other => Err(format!(
            "algorithm must be \"rooms\" or \"cave\", got {other}"
        )),
    }
}

fn rooms_level(params: &Params) -> Result<Level, String> {
    only_for("cave", "fill", params.fill)?;
    only_for("cave", "max_frontier", params.max_frontier)?;
    let (width, height) = options::size(params.width, params.height, MIN_WIDTH, MIN_HEIGHT)?;
    let seed = options::seed(params.seed)?;
    let wanted = optional_int("rooms", params.rooms, DEFAULT_ROOMS, 1, MAX_ROOMS)?;
    let item_count = optional_int("items", params.items, DEFAULT_ITEMS, 0, MAX_CELLS as i64)?;

    let mut rng = Rng::new(seed);
    let mut grid = Grid::new(width, height, WALL);
    let rooms = rooms::carve(&mut grid, wanted, &mut rng);
    let (player, stairs) = player_and_stairs(&mut grid, &rooms, &mut rng);
    let items = place::items(&mut grid, item_count, &mut rng)?;
    Ok(Level {
        grid,
        seed,
        algorithm: "rooms",
        rooms,
        player,
        stairs,
        items,
    })
}

/// A cave carving `round(fill * interior cells)` cells (halves round up), `@`
/// at the centre where it starts, `>` on the floor cell farthest from `@`.
fn cave_level(params: &Params) -> Result<Level, String> {
    only_for("rooms", "rooms", params.rooms)?;
    let (width, height) = options::size(params.width, params.height, MIN_CAVE_SIDE, MIN_CAVE_SIDE)?;
    let seed = options::seed(params.seed)?;
    let fill = match params.fill {
        Arg::Missing => DEFAULT_FILL,
        Arg::Int(1) => 1.0,
        Arg::Float(f) if f > 0.0 && f <= 1.0 => f,
        other => return Err(format!("fill must be a number in (0, 1], got {other}")),
    };
    let default_frontier = width.min(height) as i64;
    let max_frontier = optional_int(
        "max_frontier",
        params.max_frontier,
        default_frontier,
        1,
        MAX_CELLS as i64,
    )?;
    let item_count = optional_int("items", params.items, DEFAULT_ITEMS, 0, MAX_CELLS as i64)?;
    let interior = (width - 2) * (height - 2);
    let target = (fill * interior as f64).round() as usize;
    if target < 2 {
        return Err(format!(
            "fill {fill} of the {interior} interior cells of a {width}x{height} cave carves \
             {target}; @ and > need at least 2"
        ));
    }

    let mut rng = Rng::new(seed);
    let mut grid = Grid::new(width, height, WALL);
    let player = cave::carve(&mut grid, target, max_frontier, &mut rng).start;
    let stairs = farthest_floor(&grid, player);
    grid.set(player, PLAYER);
    grid.set(stairs, STAIRS);
    let items = place::items(&mut grid, item_count, &mut rng)?;
    Ok(Level {
        grid,
        seed,
        algorithm: "cave",
        rooms: Vec::new(),
        player,
        stairs,
        items,
    })
}

/// An error if an option of another algorithm was given.
fn only_for(algorithm: &str, name: &str, arg: Arg) -> Result<(), String> {
    match arg {
        Arg::Missing => Ok(()),
        _ => Err(format!(
            "option {name} applies only to algorithm \"{algorithm}\""
        )),
    }
}

/// The floor cell with the longest walk from `from`; the first in row order
/// on a tie.
fn farthest_floor(grid: &Grid, from: Pos) -> Pos {
    let dist = reach::distances(grid, from);
    let best = (0..dist.len())
        .filter(|&i| grid.cells()[i] == FLOOR && dist[i] != reach::UNREACHED)
        .fold(grid.index(from), |best, i| {
            if dist[i] > dist[best] {
                i
            } else {
                best
            }
        });
    grid.pos(best)
}

fn optional_int(name: &str, arg: Arg, default: i64, min: i64, max: i64) -> Result<usize, String> {
    match arg {
        Arg::Missing => Ok(default as usize),
        _ => options::int_in(name, arg, min, max).map(|n| n as usize),
    }
}

/// `@` at the centre of the first room, `>` on a random other cell of the last.
fn player_and_stairs(grid: &mut Grid, rooms: &[Room], rng: &mut Rng) -> (Pos, Pos) {
    let (first, last) = (rooms[0], rooms[rooms.len() - 1]);
    let player = first.centre();
    let spots: Vec<Pos> = last.cells().filter(|&p| p != player).collect();
    let stairs = spots[rng.below(spots.len())];
    grid.set(player, PLAYER);
    grid.set(stairs, STAIRS);
    (player, stairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reach;

    fn params(width: i64, height: i64, seed: i64) -> Params<'static> {
        Params {
            width: Arg::Int(width),
            height: Arg::Int(height),
            seed: Arg::Int(seed),
            ..Params::default()
        }
    }

    #[test]
    fn same_seed_same_level() {
        let a = generate(&params(60, 20, 42)).unwrap();
        let b = generate(&params(60, 20, 42)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.grid, generate(&params(60, 20, 43)).unwrap().grid);
    }

    #[test]
    fn levels_are_whole_bordered_and_reachable() {
        for seed in 0..500 {
            for (w, h) in [(6, 5), (9, 7), (60, 20), (200, 60)] {
                let level = generate(&params(w, h, seed)).unwrap();
                let g = &level.grid;
                assert_eq!((g.width(), g.height()), (w as usize, h as usize));
                for p in (0..g.cells().len()).map(|i| g.pos(i)) {
                    let edge = p.x == 1 || p.y == 1 || p.x == g.width() || p.y == g.height();
                    assert!(
                        !edge || g.get(p) == WALL,
                        "border broken at {p:?}, seed {seed}"
                    );
                }
                assert_eq!(g.get(level.player), PLAYER);
                assert_eq!(g.get(level.stairs), STAIRS);
                assert_eq!(level.items.len(), DEFAULT_ITEMS as usize);
                for item in &level.items {
                    assert_eq!(g.get(item.pos), item.kind);
                }
                let count = |c: u8| g.cells().iter().filter(|&&x| x == c).count();
                assert_eq!((count(PLAYER), count(STAIRS)), (1, 1), "entities stacked");
                assert_eq!(reach::check(g), Ok(()), "seed {seed} {w}x{h}");
            }
        }
    }

    #[test]
    fn player_sits_at_the_first_room_centre_and_stairs_in_the_last() {
        let level = generate(&params(60, 20, 7)).unwrap();
        assert_eq!(level.player, level.rooms[0].centre());
        let last = level.rooms.last().unwrap();
        assert!(last.cells().any(|p| p == level.stairs));
    }

    #[test]
    fn options_are_checked() {
        let with = |key: &[u8], value| {
            let mut p = params(60, 20, 1);
            p.set(key, value).and_then(|_| generate(&p).map(|_| ()))
        };
        assert_eq!(
            generate(&params(5, 20, 1)).unwrap_err(),
            "width must be an integer >= 6, got 5"
        );
        assert!(with(b"rooms", Arg::Int(0))
            .unwrap_err()
            .starts_with("rooms must be"));
        assert!(with(b"items", Arg::Int(-1))
            .unwrap_err()
            .starts_with("items must be"));
        assert!(with(b"algorithm", Arg::Str(b"maze"))
            .unwrap_err()
            .contains("\"maze\""));
        assert!(with(b"colour", Arg::Int(1))
            .unwrap_err()
            .starts_with("unknown option \"colour\""));
        assert_eq!(
            with(b"items", Arg::Int(5000))
                .unwrap_err()
                .split(':')
                .next(),
            Some("cannot place 5000 items")
        );
    }

    #[test]
    fn one_room_maps_still_get_separate_player_and_stairs() {
        for seed in 0..200 {
            let mut p = params(6, 5, seed);
            p.items = Arg::Int(10);
            let level = generate(&p).unwrap();
            assert_eq!(level.rooms.len(), 1);
            assert_ne!(level.player, level.stairs);
        }
    }

    fn cave(width: i64, height: i64, seed: i64) -> Params<'static> {
        Params {
            algorithm: Arg::Str(b"cave"),
            ..params(width, height, seed)
        }
    }

    #[test]
    fn caves_are_reachable_with_stairs_farthest_from_the_player() {
        for seed in 0..200 {
            for (w, h) in [(3, 200), (6, 200), (80, 50), (9, 5)] {
                let level = generate(&cave(w, h, seed)).unwrap();
                let g = &level.grid;
                assert_eq!(level.algorithm, "cave");
                assert!(level.rooms.is_empty());
                assert_eq!(reach::check(g), Ok(()), "seed {seed} {w}x{h}");
                assert_eq!(
                    level.player,
                    Pos {
                        x: (w as usize).div_ceil(2),
                        y: (h as usize).div_ceil(2)
                    }
                );
                let dist = reach::distances(g, level.player);
                let stairs = dist[g.index(level.stairs)];
                let walkable = |i: usize| g.cells()[i] != WALL && dist[i] != reach::UNREACHED;
                assert!((0..dist.len())
                    .filter(|&i| walkable(i))
                    .all(|i| dist[i] <= stairs));
                let interior = (w - 2) * (h - 2);
                let floor = g.cells().iter().filter(|&&c| c != WALL).count() as i64;
                assert_eq!(
                    floor,
                    (interior as f64 * 0.5).round() as i64,
                    "carved count"
                );
            }
        }
    }

    #[test]
    fn cave_options_are_checked() {
        let with = |key: &[u8], value| {
            let mut p = cave(80, 50, 1);
            p.set(key, value).and_then(|_| generate(&p).map(|l| l.grid))
        };
        let fill_error = "fill must be a number in (0, 1], got";
        for bad in [
            Arg::Float(0.0),
            Arg::Float(1.5),
            Arg::Float(f64::NAN),
            Arg::Int(2),
            Arg::Str(b"x"),
        ] {
            assert!(
                with(b"fill", bad).unwrap_err().starts_with(fill_error),
                "{bad:?}"
            );
        }
        assert!(with(b"fill", Arg::Int(1)).is_ok());
        for bad in [Arg::Int(0), Arg::Float(2.5), Arg::Int(-3)] {
            let err = with(b"max_frontier", bad).unwrap_err();
            assert!(
                err.starts_with("max_frontier must be an integer from 1"),
                "{err}"
            );
        }
        assert_eq!(
            with(b"rooms", Arg::Int(3)).unwrap_err(),
            "option rooms applies only to algorithm \"rooms\""
        );
        let mut rooms = params(60, 20, 1);
        rooms.fill = Arg::Float(0.3);
        assert_eq!(
            generate(&rooms).unwrap_err(),
            "option fill applies only to algorithm \"cave\""
        );
        assert!(generate(&cave(3, 3, 1))
            .unwrap_err()
            .contains("@ and > need at least 2"));
        assert_eq!(
            generate(&cave(2, 9, 1)).unwrap_err(),
            "width must be an integer >= 3, got 2"
        );
    }

    #[test]
    fn max_frontier_and_fill_change_the_cave() {
        let base = generate(&cave(80, 50, 5)).unwrap().grid;
        let mut p = cave(80, 50, 5);
        p.max_frontier = Arg::Int(3);
        assert_ne!(generate(&p).unwrap().grid, base);
        let mut p = cave(80, 50, 5);
        p.fill = Arg::Float(0.9);
        let dense = generate(&p).unwrap().grid;
        assert_eq!(dense.cells().iter().filter(|&&c| c != WALL).count(), 3370);
    }
}
