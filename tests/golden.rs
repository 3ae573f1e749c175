//! The golden renders in spec/golden/ guard determinism across releases; the
//! busted specs check the same files through Lua on both interpreters.

use std::fs;

use map::args::Arg;
use map::level::{generate, Params};

#[test]
fn golden_maps_are_unchanged() {
    let mut checked = 0;
    for entry in fs::read_dir("spec/golden").expect("spec/golden") {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        // rooms-<width>x<height>-<seed>
        let (algorithm, rest) = name.split_once('-').unwrap();
        let (size, seed) = rest.split_once('-').unwrap();
        let (width, height) = size.split_once('x').unwrap();
        let params = Params {
            algorithm: Arg::Str(algorithm.as_bytes()),
            ..Params::new(
                Arg::Int(width.parse().unwrap()),
                Arg::Int(height.parse().unwrap()),
                Arg::Int(seed.parse().unwrap()),
            )
        };
        let level = generate(&params).unwrap();
        assert_eq!(
            String::from_utf8(level.grid.render()).unwrap(),
            fs::read_to_string(&path).unwrap(),
            "{name}"
        );
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} golden files");
}
