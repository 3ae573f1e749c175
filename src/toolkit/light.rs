//! Light maps: each light lights the cells its field of view holds
//! (`fov::visible`, its radius, the opaque characters), by
//! `intensity * (1 - d / (radius + 1))` where `d` is the Euclidean distance
//! from the light's cell (the light's own cell gets the whole intensity);
//! a cell's value is the ambient level plus the sum over the lights,
//! clamped to 1. With colours, each of the three channels is summed apart,
//! a light's share times its colour's channel (a light without a colour is
//! white: 1, 1, 1).
//!
//! Every share is one fixed sequence of double operations, added in the
//! lights' order, so the values are the same bit for bit on every
//! interpreter, and a pure-Lua version on `map.fov` that adds in the same
//! order gives the same numbers (`spec/reference/light.lua`).

use super::fov;
use crate::grid::{ByteSet, Grid, Pos, Rect};

/// One light, on the map's cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    pub pos: Pos,
    /// As given; the field of view stops at the map's far side.
    pub radius: u64,
    pub intensity: f64,
    /// Red, green and blue, each in [0, 1]; `None`: white.
    pub color: Option<[f64; 3]>,
}

/// The level every cell starts from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ambient {
    Grey(f64),
    Color([f64; 3]),
}

impl Light {
    /// The cells its field of view may reach on a map of `size`.
    pub fn window(&self, size: (usize, usize)) -> Rect {
        Rect::around(self.pos, self.reach(size), size)
    }

    /// Its radius, cut to the map's width plus height (past that it is no
    /// limit, as `fov` cuts it).
    fn reach(&self, (width, height): (usize, usize)) -> usize {
        self.radius.min((width + height) as u64) as usize
    }

    /// Its share at `d` cells away.
    pub fn share(&self, d: f64) -> f64 {
        self.intensity * (1.0 - d / (self.radius as f64 + 1.0))
    }
}

/// Whether the result has three channels: some light or the ambient level
/// has a colour.
pub fn colored(lights: &[Light], ambient: Ambient) -> bool {
    matches!(ambient, Ambient::Color(_)) || lights.iter().any(|l| l.color.is_some())
}

/// The light map of a `size` map whose cells in the rectangle `area` are
/// `cells` (every light's window inside it): one channel of `size`'s cells
/// row-major, or three (red, green, blue) when `colored`.
pub fn light(
    size: (usize, usize),
    cells: &Grid,
    area: Rect,
    lights: &[Light],
    opaque: &ByteSet,
    ambient: Ambient,
) -> Vec<Vec<f64>> {
    let n = size.0 * size.1;
    let mut channels: Vec<Vec<f64>> = match (colored(lights, ambient), ambient) {
        (false, Ambient::Grey(a)) => vec![vec![a; n]],
        (true, Ambient::Grey(a)) => vec![vec![a; n]; 3],
        (_, Ambient::Color(c)) => c.iter().map(|&a| vec![a; n]).collect(),
    };
    let mut window = Grid::new(0, 0, 0);
    for light in lights {
        let w = light.window(size);
        copy_window(cells, area, w, &mut window);
        let origin = w.inside(light.pos);
        let seen = fov::visible(&window, origin, Some(light.reach(size)), opaque);
        for (i, _) in seen.iter().enumerate().filter(|&(_, &s)| s) {
            let p = w.outside(window.pos(i));
            let (dx, dy) = (p.x.abs_diff(light.pos.x), p.y.abs_diff(light.pos.y));
            let d = ((dx * dx + dy * dy) as f64).sqrt();
            let share = light.share(d);
            let at = (p.y - 1) * size.0 + p.x - 1;
            match (channels.len(), light.color) {
                (1, _) => channels[0][at] += share,
                (_, None) => channels.iter_mut().for_each(|c| c[at] += share),
                (_, Some(color)) => {
                    for (c, k) in channels.iter_mut().zip(color) {
                        c[at] += share * k;
                    }
                }
            }
        }
    }
    for c in &mut channels {
        c.iter_mut().for_each(|v| *v = v.min(1.0));
    }
    channels
}

/// The cells of `w` (inside `area`, whose cells `cells` holds) into `out`.
fn copy_window(cells: &Grid, area: Rect, w: Rect, out: &mut Grid) {
    let mut bytes = std::mem::replace(out, Grid::new(0, 0, 0)).into_cells();
    bytes.clear();
    for y in w.y..w.y + w.h {
        let start = cells.index(area.inside(Pos { x: w.x, y }));
        bytes.extend_from_slice(&cells.cells()[start..start + w.w]);
    }
    *out = Grid::from_cells(w.w, w.h, bytes);
}

/// The memory `light`'s lights take as read: 48 bytes each (a `Light` and
/// its slot).
pub fn bound_lights(lights: usize) -> usize {
    48 * lights + crate::memory::FIXED
}

/// The memory `light` may use on a map of `size` whose lights reach a
/// rectangle of `area` cells, with `channels` channels (1, or 3 with
/// colours): the result (a double a cell a channel), the area's cells, and
/// a light's window and its field of view (each at most the area, a byte a
/// cell).
pub fn bound(size: (usize, usize), area: usize, channels: usize) -> usize {
    8 * channels * size.0 * size.1 + 3 * area + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::byte_set;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    fn white(x: usize, y: usize, radius: u64) -> Light {
        Light {
            pos: at(x, y),
            radius,
            intensity: 1.0,
            color: None,
        }
    }

    fn lit(rows: &[&str], lights: &[Light], ambient: Ambient) -> Vec<Vec<f64>> {
        let g = Grid::from_rows(rows);
        let size = (g.width(), g.height());
        light(
            size,
            &g,
            Rect::whole(size),
            lights,
            &byte_set(b"#+"),
            ambient,
        )
    }

    #[test]
    fn the_rule_on_an_open_room() {
        let rows = ["#######", "#.....#", "#.....#", "#.....#", "#######"];
        let v = &lit(&rows, &[white(4, 3, 2)], Ambient::Grey(0.0))[0];
        let cell = |x: usize, y: usize| v[(y - 1) * 7 + x - 1];
        assert_eq!(cell(4, 3), 1.0);
        assert_eq!(cell(5, 3), 1.0 - 1.0 / 3.0);
        assert_eq!(cell(5, 4), 1.0 - 2f64.sqrt() / 3.0);
        // dx*dx + dy*dy <= r * (r + 1) = 6: (2, 1) is in, (2, 2) out.
        assert_eq!(cell(6, 4), 1.0 - 5f64.sqrt() / 3.0);
        assert_eq!(cell(6, 5), 0.0);
        // A wall in sight is lit; a cell past the radius is not.
        assert_eq!(cell(4, 1), 1.0 - 2.0 / 3.0);
        assert_eq!(cell(1, 3), 0.0);
    }

    #[test]
    fn sums_clamp_at_one_and_ambient_is_the_base() {
        let rows = [".....", "....."];
        let two = [white(2, 1, 3), white(3, 1, 3)];
        let v = &lit(&rows, &two, Ambient::Grey(0.25))[0];
        assert_eq!(v[1], 1.0);
        assert!(v.iter().all(|&x| (0.25..=1.0).contains(&x)));
        let far = &lit(&["#.#...."], &[white(1, 1, 1)], Ambient::Grey(0.25))[0];
        assert_eq!(far[6], 0.25);
    }

    #[test]
    fn colours_split_into_channels_and_white_lights_add_to_each() {
        let rows = ["....."];
        let red = Light {
            color: Some([1.0, 0.0, 0.5]),
            ..white(1, 1, 4)
        };
        let c = lit(&rows, &[red, white(5, 1, 0)], Ambient::Grey(0.0));
        assert_eq!(c.len(), 3);
        assert_eq!((c[0][1], c[1][1], c[2][1]), (0.8, 0.0, 0.8 * 0.5));
        assert_eq!((c[0][4], c[1][4], c[2][4]), (1.0, 1.0, 1.0));
        let ambient = lit(&rows, &[], Ambient::Color([0.1, 0.2, 0.3]));
        assert_eq!(
            ambient.iter().map(|c| c[2]).collect::<Vec<_>>(),
            [0.1, 0.2, 0.3]
        );
    }

    /// The rule is symmetric: between two floor cells, a light at one
    /// gives the other what the same light at the other gives it.
    #[test]
    fn the_rule_is_symmetric_between_floor_cells() {
        let rows = [
            "##########",
            "#....#...#",
            "#.##.....#",
            "#...#..#.#",
            "#.#......#",
            "##########",
        ];
        let g = Grid::from_rows(&rows);
        let floor: Vec<Pos> = (0..g.cells().len())
            .filter(|&i| g.cells()[i] == b'.')
            .map(|i| g.pos(i))
            .collect();
        let mut compared = 0;
        for &a in &floor {
            let from_a = &lit(&rows, &[white(a.x, a.y, 6)], Ambient::Grey(0.0))[0];
            for &b in &floor {
                let from_b = &lit(&rows, &[white(b.x, b.y, 6)], Ambient::Grey(0.0))[0];
                assert_eq!(from_a[g.index(b)], from_b[g.index(a)], "{a:?} {b:?}");
                compared += usize::from(from_a[g.index(b)] > 0.0);
            }
        }
        assert!(compared > 100, "{compared}");
    }

    #[test]
    fn a_window_of_the_map_gives_the_same_light() {
        let rows = ["#.....#..", "..#......", ".....##..", "........."];
        let g = Grid::from_rows(&rows);
        let size = (9, 4);
        let l = [white(4, 2, 2), white(5, 3, 1)];
        let opaque = byte_set(b"#");
        let whole = light(size, &g, Rect::whole(size), &l, &opaque, Ambient::Grey(0.0));
        let area = l[0].window(size).union(&l[1].window(size));
        let mut part = Grid::new(0, 0, 0);
        copy_window(&g, Rect::whole(size), area, &mut part);
        let windowed = light(size, &part, area, &l, &opaque, Ambient::Grey(0.0));
        assert_eq!(whole, windowed);
    }
}
