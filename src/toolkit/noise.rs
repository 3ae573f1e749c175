//! Coherent noise in two dimensions: Perlin's improved noise and simplex
//! noise, summed over octaves (fractal Brownian motion). The numbers are
//! pinned: every step is a fixed sequence of IEEE double operations (no
//! fused multiply-add, no library function but `floor`), and the
//! permutations come from `rng.rs`'s draws, so a seed gives the same
//! values bit for bit on every interpreter and every release
//! (`spec/golden_noise/`, `tests/golden.rs`).
//!
//! - `Kind::Perlin`: Ken Perlin, "Improving Noise", SIGGRAPH 2002 (the
//!   reference `ImprovedNoise`: the quintic fade 6t^5 - 15t^4 + 10t^3, a
//!   permutation of 256 entries, the 12 cube-edge gradients chosen by the
//!   hash's low 4 bits), evaluated in the plane z = 0: in that plane the
//!   gradients are the diagonals (+-1, +-1) and the axes, so every value is
//!   in [-1, 1] (1 at a cell's centre when its four corners' diagonals all
//!   point at it).
//! - `Kind::Simplex`: 2-D simplex noise as Stefan Gustavson gives it in
//!   "Simplex noise demystified" (2005; after Perlin, "Noise hardware",
//!   2001): the skewed triangular lattice, a radial falloff (0.5 - r^2)^4 at
//!   each of a cell's three corners, the 12 gradients' (x, y) parts and the
//!   final scale 70. Patent-free: the simplex patent (US 6,867,776) claimed
//!   3-D and higher implementations and expired in 2022. Its values reach
//!   +-0.998 (measured, 10 million samples: docs/api.md); the result is
//!   clamped to [-1, 1], so the contract holds whatever the sum.
//!
//! With octaves, octave `k` (from 0) samples its own permutation at
//! `(x * f_k + dx_k, y * f_k + dy_k)`, `f_k = frequency * lacunarity^k`,
//! weighted `persistence^k`, and the sum is divided by the sum of the
//! weights, so it stays in the range of one octave. Octave 0 has no offset
//! (one octave is the plain algorithm); the others' offsets, drawn from the
//! seed in [0, 256), keep their lattices apart (else every octave is 0 at
//! octave 0's lattice points). The draws, in order: octave 0's
//! permutation, then for each further octave its two offsets and its
//! permutation, so that more octaves of a seed add detail to the same base.

use crate::rng::Rng;

/// The noise algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Simplex,
    Perlin,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Simplex => "simplex",
            Kind::Perlin => "perlin",
        }
    }
}

/// What a noise is made from: `map.noise`'s options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub seed: i64,
    pub kind: Kind,
    pub octaves: usize,
    pub frequency: f64,
    pub persistence: f64,
    pub lacunarity: f64,
}

impl Settings {
    /// The defaults: one octave of simplex noise, a feature every 16 cells.
    pub const DEFAULT: Settings = Settings {
        seed: 0,
        kind: Kind::Simplex,
        octaves: 1,
        frequency: 1.0 / 16.0,
        persistence: 0.5,
        lacunarity: 2.0,
    };
}

/// The bounds of the settings (the binding's messages quote them).
pub const MAX_OCTAVES: usize = 16;
/// Frequency in (0, MAX_FREQUENCY].
pub const MAX_FREQUENCY: f64 = 1_048_576.0;
/// Persistence in [0, 1].
pub const MAX_PERSISTENCE: f64 = 1.0;
/// Lacunarity in [1, MAX_LACUNARITY].
pub const MAX_LACUNARITY: f64 = 16.0;
/// Coordinates in [-MAX_COORDINATE, MAX_COORDINATE]: 2^53, past which
/// doubles no longer tell neighbouring integers apart. Scaled by the
/// largest frequency and lacunarity at the most octaves, a coordinate
/// stays finite (2^53 * 2^20 * 16^15 = 2^133), so no sample is NaN.
pub const MAX_COORDINATE: f64 = 9_007_199_254_740_992.0;

/// One octave: its permutation (doubled, so that `p[i + 1]` never wraps),
/// the scale of its coordinates, its offsets and its weight.
#[derive(Clone, Debug, PartialEq)]
struct Octave {
    perm: [u8; 512],
    frequency: f64,
    dx: f64,
    dy: f64,
    weight: f64,
}

/// A noise source: `Settings`, with the tables drawn from the seed.
#[derive(Clone, Debug, PartialEq)]
pub struct Noise {
    settings: Settings,
    octaves: Vec<Octave>,
    /// 1 over the sum of the weights.
    norm: f64,
}

/// A permutation of 0..=255 by Fisher-Yates from the top, drawn from `rng`.
fn permutation(rng: &mut Rng) -> [u8; 512] {
    let mut p = [0u8; 512];
    for (i, v) in p.iter_mut().take(256).enumerate() {
        *v = i as u8;
    }
    for i in (1..256).rev() {
        let j = rng.below(i + 1);
        p.swap(i, j);
    }
    let (low, high) = p.split_at_mut(256);
    high.copy_from_slice(low);
    p
}

impl Noise {
    /// The noise of `settings`, which the caller checked against the bounds.
    pub fn new(settings: Settings) -> Noise {
        let mut rng = Rng::new(settings.seed);
        let mut octaves = Vec::with_capacity(settings.octaves);
        let (mut frequency, mut weight, mut total) = (settings.frequency, 1.0, 0.0);
        for k in 0..settings.octaves {
            let (dx, dy) = match k {
                0 => (0.0, 0.0),
                _ => {
                    // Multiples of 1/256 in [0, 256): exact in a double.
                    let dx = rng.below(1 << 16) as f64 / 256.0;
                    let dy = rng.below(1 << 16) as f64 / 256.0;
                    (dx, dy)
                }
            };
            let perm = permutation(&mut rng);
            octaves.push(Octave {
                perm,
                frequency,
                dx,
                dy,
                weight,
            });
            total += weight;
            frequency *= settings.lacunarity;
            weight *= settings.persistence;
        }
        Noise {
            settings,
            octaves,
            norm: 1.0 / total,
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The memory a noise holds (its octaves' tables).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Noise>() + self.octaves.len() * std::mem::size_of::<Octave>()
    }

    /// The value at `(x, y)`, in [-1, 1]. Both must be finite, within
    /// `MAX_COORDINATE` (the binding checks).
    pub fn get(&self, x: f64, y: f64) -> f64 {
        let mut sum = 0.0;
        for o in &self.octaves {
            let (u, v) = (x * o.frequency + o.dx, y * o.frequency + o.dy);
            let n = match self.settings.kind {
                Kind::Perlin => perlin(&o.perm, u, v),
                Kind::Simplex => simplex(&o.perm, u, v),
            };
            sum += o.weight * n;
        }
        (sum * self.norm).clamp(-1.0, 1.0)
    }

    /// `get` over a `width` x `height` block whose first cell is at `(x0,
    /// y0)`, row-major: cell `(x, y)` (from 1) is `get(at(x0, x), at(y0,
    /// y))`, where `at(c0, c)` is the coordinate a Lua caller computes as
    /// `c0 + c - 1` (`Origin`).
    pub fn grid(&self, width: usize, height: usize, x0: Origin, y0: Origin) -> Vec<f64> {
        let mut out = vec![0.0; width * height];
        self.grid_into(width, x0, y0, &mut out);
        out
    }

    /// `grid` into `out`, `width` cells a row, as many rows as it holds:
    /// nothing allocated (LuaJIT's route hands it a buffer of its own).
    pub fn grid_into(&self, width: usize, x0: Origin, y0: Origin, out: &mut [f64]) {
        for (y, row) in out.chunks_exact_mut(width.max(1)).enumerate() {
            let yc = y0.at(y + 1);
            for (x, v) in row.iter_mut().enumerate() {
                *v = self.get(x0.at(x + 1), yc);
            }
        }
    }
}

/// Where a block starts, as given: an integer or a float. `c0 + c - 1` is
/// computed as Lua computes it, integers exactly, floats left to right.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Origin {
    Int(i64),
    Float(f64),
}

impl Origin {
    /// A finite `c0` with `|c0| <= MAX_COORDINATE`: an integer when it is
    /// integral, whatever the interpreter made of it (LuaJIT's numbers are
    /// all floats), so that both add to it alike.
    pub fn of(c0: f64) -> Origin {
        match c0.fract() == 0.0 {
            true => Origin::Int(c0 as i64),
            false => Origin::Float(c0),
        }
    }

    pub fn at(self, c: usize) -> f64 {
        match self {
            Origin::Int(c0) => (c0 + c as i64 - 1) as f64,
            Origin::Float(c0) => (c0 + c as f64) - 1.0,
        }
    }
}

/// Perlin's fade curve, 6t^5 - 15t^4 + 10t^3, in the reference's order.
fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

fn lerp(t: f64, a: f64, b: f64) -> f64 {
    a + t * (b - a)
}

/// The reference's `grad(hash, x, y, z)` at z = 0, by the hash's low 4
/// bits: `u` and `v` picked from x, y and z = 0 and signed, as the
/// gradients (gx, gy) they make (the same sums: a product by 1, -1 or 0 is
/// exact; only the sign of a zero may differ), looked up rather than
/// branched on. Its first 12 are the simplex's (`GRAD`); the 4 after
/// repeat 4 of them.
const PERLIN_GRAD: [(f64, f64); 16] = {
    let mut g = [(0.0, 0.0); 16];
    let mut i = 0;
    while i < GRAD.len() {
        g[i] = GRAD[i];
        i += 1;
    }
    g[12] = (1.0, 1.0);
    g[13] = (0.0, -1.0);
    g[14] = (-1.0, 1.0);
    g[15] = (0.0, -1.0);
    g
};

fn grad(hash: u8, x: f64, y: f64) -> f64 {
    let (gx, gy) = PERLIN_GRAD[(hash & 15) as usize];
    gx * x + gy * y
}

/// `x.floor()`, without the library call: exactly it for every finite
/// `x` (-0.0 included), which is all this module passes.
fn floor(x: f64) -> f64 {
    // From 2^52 on every double is an integer.
    if x.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let f = x as i64 as f64;
    if f > x {
        f - 1.0
    } else if f == x {
        x
    } else {
        f
    }
}

/// `f.rem_euclid(256.0)` of an integral `f`, without the library call:
/// below 2^63 its low byte as an integer; from there on every double is a
/// multiple of 2^11, so 0.
fn wrap(f: f64) -> usize {
    if f.abs() < 9_223_372_036_854_775_808.0 {
        (f as i64 & 255) as usize
    } else {
        0
    }
}

/// The lattice cell of `c` (its floor, modulo 256) and the offset in it.
fn cell(c: f64) -> (usize, f64) {
    let f = floor(c);
    (wrap(f), c - f)
}

/// Perlin's improved noise at `(x, y, 0)`.
fn perlin(p: &[u8; 512], x: f64, y: f64) -> f64 {
    let (xi, x) = cell(x);
    let (yi, y) = cell(y);
    let (u, v) = (fade(x), fade(y));
    let a = p[xi] as usize + yi;
    let (aa, ab) = (p[a] as usize, p[a + 1] as usize);
    let b = p[xi + 1] as usize + yi;
    let (ba, bb) = (p[b] as usize, p[b + 1] as usize);
    lerp(
        v,
        lerp(u, grad(p[aa], x, y), grad(p[ba], x - 1.0, y)),
        lerp(u, grad(p[ab], x, y - 1.0), grad(p[bb], x - 1.0, y - 1.0)),
    )
}

/// The skew and unskew factors, (sqrt(3) - 1) / 2 and (3 - sqrt(3)) / 6,
/// as the doubles nearest them.
const F2: f64 = 0.366_025_403_784_438_6;
const G2: f64 = 0.211_324_865_405_187_1;

/// The (x, y) parts of the 12 gradients, in Gustavson's order.
const GRAD: [(f64, f64); 12] = [
    (1.0, 1.0),
    (-1.0, 1.0),
    (1.0, -1.0),
    (-1.0, -1.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
    (0.0, 1.0),
    (0.0, -1.0),
];

/// One corner's share: `(0.5 - r^2)^4` times the gradient's dot product,
/// 0 where `r^2 >= 0.5` (without a branch: which corners reach a point
/// is unpredictable).
fn corner(g: usize, x: f64, y: f64) -> f64 {
    let t = (0.5 - x * x - y * y).max(0.0);
    let t = t * t;
    let (gx, gy) = GRAD[g];
    t * t * (gx * x + gy * y)
}

/// Gustavson's 2-D simplex noise at `(x, y)`.
fn simplex(p: &[u8; 512], x: f64, y: f64) -> f64 {
    let s = (x + y) * F2;
    let (i, j) = (floor(x + s), floor(y + s));
    let t = (i + j) * G2;
    let (x0, y0) = (x - (i - t), y - (j - t));
    let (i1, j1) = if x0 > y0 { (1, 0) } else { (0, 1) };
    let x1 = x0 - i1 as f64 + G2;
    let y1 = y0 - j1 as f64 + G2;
    let x2 = x0 - 1.0 + 2.0 * G2;
    let y2 = y0 - 1.0 + 2.0 * G2;
    let (ii, jj) = (wrap(i), wrap(j));
    let g0 = p[ii + p[jj] as usize] as usize % 12;
    let g1 = p[ii + i1 + p[jj + j1] as usize] as usize % 12;
    let g2 = p[ii + 1 + p[jj + 1] as usize] as usize % 12;
    70.0 * (corner(g0, x0, y0) + corner(g1, x1, y1) + corner(g2, x2, y2))
}

/// The most samples one `grid` takes (a sample is one octave at one cell):
/// 16 octaves of 1,048,576 cells, or 4 octaves of every cell of a map,
/// within a second.
pub const MAX_SAMPLES: usize = 1 << 24;

impl Noise {
    /// An error unless a `grid` of `cells` cells samples at most
    /// `MAX_SAMPLES`.
    pub fn check_grid(&self, cells: usize) -> Result<(), String> {
        let samples = cells.saturating_mul(self.octaves.len());
        if samples > MAX_SAMPLES {
            return Err(format!(
                "width*height*octaves must be at most {MAX_SAMPLES}, got {samples}"
            ));
        }
        Ok(())
    }
}

/// The memory `noise:grid` of `cells` cells may use: the values (a double
/// each) and the coordinates of a row (at most as many).
pub fn bound_grid(cells: usize) -> usize {
    16 * cells + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noise(kind: Kind, seed: i64, octaves: usize) -> Noise {
        Noise::new(Settings {
            seed,
            kind,
            octaves,
            ..Settings::DEFAULT
        })
    }

    /// A few values pinned here too (the golden files pin more): a change
    /// to any step of either algorithm or to the draws fails this.
    #[test]
    fn values_are_pinned() {
        let p = noise(Kind::Perlin, 42, 1);
        let s = noise(Kind::Simplex, 42, 3);
        let got = [
            p.get(0.5, 0.5).to_bits(),
            p.get(17.25, -3.75).to_bits(),
            s.get(0.5, 0.5).to_bits(),
            s.get(17.25, -3.75).to_bits(),
        ];
        assert_eq!(got, PINNED, "{:?}", got.map(f64::from_bits));
    }

    const PINNED: [u64; 4] = [
        4558423467938775040,
        13812174671697506376,
        4590762630431217645,
        4598220799763004690,
    ];

    #[test]
    fn perlin_is_zero_on_the_lattice_and_symmetric_in_its_gradients() {
        let p = noise(Kind::Perlin, 7, 1);
        for x in -40..40 {
            for y in -40..40 {
                assert_eq!(p.get(x as f64 * 16.0, y as f64 * 16.0), 0.0);
            }
        }
    }

    /// The range over many samples, each octave count and kind: within
    /// [-1, 1], and reaching far enough that the scale is right.
    #[test]
    fn values_stay_in_range() {
        for kind in [Kind::Perlin, Kind::Simplex] {
            for octaves in [1, 4] {
                let n = noise(kind, 3, octaves);
                let (mut lo, mut hi) = (0f64, 0f64);
                for i in 0..200_000 {
                    let x = (i % 1000) as f64 * 0.37 - 150.0;
                    let y = (i / 1000) as f64 * 0.61 - 40.0;
                    let v = n.get(x, y);
                    assert!((-1.0..=1.0).contains(&v), "{kind:?} {v}");
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
                assert!(lo < -0.4 && hi > 0.4, "{kind:?} {octaves}: {lo} {hi}");
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_noise_and_another_seed_another() {
        for kind in [Kind::Perlin, Kind::Simplex] {
            let (a, b, c) = (noise(kind, 5, 3), noise(kind, 5, 3), noise(kind, 6, 3));
            let at = |n: &Noise| n.grid(30, 20, Origin::Int(1), Origin::Float(-2.5));
            assert_eq!(at(&a), at(&b));
            assert_ne!(at(&a), at(&c));
        }
    }

    #[test]
    fn more_octaves_extend_the_same_draws() {
        let (one, four) = (noise(Kind::Simplex, 9, 1), noise(Kind::Simplex, 9, 4));
        assert_eq!(one.octaves[0], four.octaves[0]);
        assert!(four.octaves[1..].iter().all(|o| o.dx != 0.0 || o.dy != 0.0));
    }

    /// The table is the reference's branches, value for value.
    #[test]
    fn the_gradient_table_is_the_reference_grad() {
        let reference = |hash: u8, x: f64, y: f64| {
            let h = hash & 15;
            let u = if h < 8 { x } else { y };
            let v = if h < 4 {
                y
            } else if h == 12 || h == 14 {
                x
            } else {
                0.0
            };
            (if h & 1 == 0 { u } else { -u }) + (if h & 2 == 0 { v } else { -v })
        };
        for hash in 0..=255u8 {
            for (x, y) in [(0.25, 0.75), (-0.5, 0.125), (0.9, -0.3), (0.0, 0.6)] {
                assert_eq!(grad(hash, x, y), reference(hash, x, y), "{hash}");
            }
        }
    }

    #[test]
    fn floor_and_wrap_are_the_library_functions() {
        let mut xs = vec![
            0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 255.5, -255.5, 256.0, -256.0,
        ];
        xs.extend([
            2f64.powi(52) - 0.5,
            -(2f64.powi(52)) + 0.5,
            2f64.powi(53) + 2.0,
        ]);
        xs.extend([
            2f64.powi(63),
            -(2f64.powi(63)),
            1e300,
            -1e300,
            2f64.powi(62) + 2048.0,
        ]);
        let mut r = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100_000 {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            let x = f64::from_bits(r);
            if x.is_finite() {
                xs.push(x);
            }
            xs.push((r % 2_000_000) as f64 / 7.0 - 140_000.0);
        }
        for x in xs {
            assert_eq!(floor(x).to_bits(), x.floor().to_bits(), "{x}");
            let f = x.floor();
            assert_eq!(wrap(f), f.rem_euclid(256.0) as usize, "{x}");
        }
    }

    #[test]
    fn huge_coordinates_stay_finite() {
        let n = Noise::new(Settings {
            octaves: MAX_OCTAVES,
            frequency: MAX_FREQUENCY,
            lacunarity: MAX_LACUNARITY,
            persistence: 1.0,
            ..Settings::DEFAULT
        });
        for kind in [Kind::Perlin, Kind::Simplex] {
            let n = Noise {
                settings: Settings { kind, ..n.settings },
                ..n.clone()
            };
            for c in [MAX_COORDINATE, -MAX_COORDINATE, 1e-300, 0.0] {
                assert!(n.get(c, -c).is_finite());
            }
        }
    }

    #[test]
    fn grid_cells_are_get_of_lua_coordinates() {
        let n = noise(Kind::Perlin, 1, 2);
        let g = n.grid(5, 4, Origin::Float(0.25), Origin::Int(-3));
        assert_eq!(g[0], n.get(0.25, -3.0));
        assert_eq!(g[3 * 5 + 4], n.get((0.25 + 5.0) - 1.0, 0.0));
        assert_eq!(Origin::Int(1 << 53).at(3), (((1i64 << 53) + 2) as f64));
    }
}
