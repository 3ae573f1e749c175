//! The example target's oracles (`example.rs`): a sample's windows by
//! brute force, and a level's walkable cells reached from `@`.

use std::collections::{HashSet, VecDeque};

/// Every n x n window of the sample, under the symmetries (each of the 8
/// transforms written out: (x, y) read from the window turned and flipped).
pub fn windows(sample: &[Vec<u8>], n: usize, symmetry: &[u8], wraps: bool) -> HashSet<Vec<u8>> {
    let (sh, sw) = (sample.len(), sample[0].len());
    let transforms = match symmetry {
        b"none" => 1,
        b"rotations" => 4,
        _ => 8,
    };
    let mut set = HashSet::new();
    let (ys, xs) = if wraps {
        (sh, sw)
    } else {
        (sh + 1 - n, sw + 1 - n)
    };
    for y in 0..ys {
        for x in 0..xs {
            let cell = |dx: usize, dy: usize| sample[(y + dy) % sh][(x + dx) % sw];
            for t in 0..transforms {
                let mut window = Vec::with_capacity(n * n);
                for wy in 0..n {
                    for wx in 0..n {
                        let m = n - 1;
                        // Rotations by a quarter turn t % 4 times, then a
                        // mirror for t >= 4.
                        let (sx, sy) = match t % 4 {
                            0 => (wx, wy),
                            1 => (wy, m - wx),
                            2 => (m - wx, m - wy),
                            _ => (m - wy, wx),
                        };
                        let sx = if t >= 4 { m - sx } else { sx };
                        window.push(cell(sx, sy));
                    }
                }
                set.insert(window);
            }
        }
    }
    set
}

pub fn check_connected(
    terrain: &[u8],
    (w, h): (usize, usize),
    blocking: &[u8],
    from: map::grid::Pos,
) {
    let open = |i: usize| !blocking.contains(&terrain[i]);
    let start = (from.y - 1) * w + from.x - 1;
    assert!(open(start), "@ on a blocking cell");
    let mut seen = vec![false; w * h];
    let mut queue = VecDeque::from([start]);
    seen[start] = true;
    while let Some(i) = queue.pop_front() {
        let (x, y) = (i % w, i / w);
        let around = [
            (x > 0).then(|| i - 1),
            (x + 1 < w).then_some(i + 1),
            (y > 0).then(|| i - w),
            (y + 1 < h).then_some(i + w),
        ];
        for j in around.into_iter().flatten() {
            if open(j) && !seen[j] {
                seen[j] = true;
                queue.push_back(j);
            }
        }
    }
    if let Some(i) = (0..w * h).find(|&i| open(i) && !seen[i]) {
        panic!("({}, {}) cut off from @", i % w + 1, i / w + 1);
    }
}
