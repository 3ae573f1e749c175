//! The golden renders in spec/golden/ guard determinism across releases; the
//! busted specs check the same files through Lua on both interpreters.

use std::fs;

use map::input::Arg;
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

/// The golden renders of levels made with the options that direct them
/// (`vaults`, `arrive`, `place`, `loops`, doors): `spec/golden_directed/`,
/// each named in `cases.json` with its options (spec/design_spec.lua checks
/// the same files on both interpreters).
#[test]
fn directed_golden_maps_are_unchanged() {
    use map::level::place::Placement;
    use map::level::vaults::Template;
    use serde_json::Value;

    let arg = |v: &Value| -> Arg<'static> {
        match v {
            Value::Bool(b) => Arg::Bool(*b),
            Value::Number(n) if n.is_i64() => Arg::Int(n.as_i64().unwrap()),
            Value::Number(n) => Arg::Float(n.as_f64().unwrap()),
            Value::String(s) => Arg::Str(s.clone().leak().as_bytes()),
            Value::Null => Arg::Missing,
            _ => Arg::Other("table"),
        }
    };
    let text = fs::read_to_string("spec/golden_directed/cases.json").expect("cases.json");
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let mut params = Params::default();
        for (key, value) in case["options"].as_object().unwrap() {
            params.set(key.clone().leak().as_bytes(), arg(value));
        }
        let options = &case["options"];
        if let Some(vaults) = options["vaults"].as_array() {
            for (i, v) in vaults.iter().enumerate() {
                let rows: Vec<&[u8]> = v["rows"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap().as_bytes())
                    .collect();
                let t = Template::new(
                    i + 1,
                    &rows,
                    arg(&v["count"]),
                    arg(&v["rotate"]),
                    arg(&v["required"]),
                );
                params.design.vaults.push(t.unwrap());
            }
        }
        if let Some(places) = options["place"].as_array() {
            for (i, p) in places.iter().enumerate() {
                let pair = |v: &serde_json::Value| (arg(&v[0]), arg(&v[1]));
                let name = format!("place[{}]", i + 1);
                let per_room = p["per_room"].as_array().map(|_| {
                    let (least, most) = pair(&p["per_room"]);
                    map::level::place::per_room(&name, least, most).unwrap()
                });
                let choose = p["choose"].as_array().map(|list| {
                    let each = list.iter().enumerate().map(|(j, c)| {
                        let (char, weight) = pair(c);
                        map::level::place::choice(&name, j + 1, char, weight).unwrap()
                    });
                    each.collect()
                });
                let fields = ["char", "count", "min", "hidden"].map(|f| arg(&p[f]));
                let entry = Placement::designed(i + 1, fields, per_room, choose);
                params.design.place.push(entry.unwrap());
            }
        }
        if let Some(a) = options.get("arrive") {
            params.design.arrive = Some((a["x"].as_i64().unwrap(), a["y"].as_i64().unwrap()));
        }
        let level = generate(&params).unwrap_or_else(|e| panic!("{name}: {e}"));
        let path = format!("spec/golden_directed/{name}.txt");
        assert_eq!(
            String::from_utf8(level.grid.render()).unwrap(),
            fs::read_to_string(&path).expect(&path),
            "{name}"
        );
    }
    assert!(
        cases.len() >= 8,
        "only {} directed golden files",
        cases.len()
    );
}

/// The golden levels made with `locks`: `spec/golden_locks/`, each named
/// in `cases.json` with its options (all of them numbers and booleans), its
/// render then a line per lock, `A x,y a x,y` (spec/locks_spec.lua checks
/// the same files on both interpreters).
#[test]
fn locked_golden_maps_are_unchanged() {
    use serde_json::Value;

    let text = fs::read_to_string("spec/golden_locks/cases.json").expect("cases.json");
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let mut params = Params::default();
        for (key, value) in case["options"].as_object().unwrap() {
            let arg = match value {
                Value::Bool(b) => Arg::Bool(*b),
                Value::String(s) => Arg::Str(s.clone().leak().as_bytes()),
                v => Arg::Int(v.as_i64().expect("an integer")),
            };
            params.set(key.clone().leak().as_bytes(), arg);
        }
        let level = generate(&params).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut got = String::from_utf8(level.grid.render()).unwrap() + "\n\n";
        for l in level.locks.as_deref().unwrap_or(&[]) {
            let (d, k) = (l.door, l.key);
            got += &format!(
                "{} {},{} {} {},{}\n",
                l.door_char as char, d.x, d.y, l.key_char as char, k.x, k.y
            );
        }
        let path = format!("spec/golden_locks/{name}.txt");
        assert_eq!(got, fs::read_to_string(&path).expect(&path), "{name}");
    }
    assert!(cases.len() >= 6, "only {} locked golden files", cases.len());
}

/// The golden values of `map.noise` in `spec/golden_noise/values.txt`:
/// each line a noise's settings, a point and its value, printed with 17
/// significant digits (which give back the double exactly).
/// `spec/noise_spec.lua` checks the same file on both interpreters.
#[test]
fn golden_noise_values_are_unchanged() {
    use map::toolkit::noise::{Kind, Noise, Settings};

    let text = fs::read_to_string("spec/golden_noise/values.txt").expect("values.txt");
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split(' ').collect();
        let number = |i: usize| f[i].parse::<f64>().unwrap();
        let settings = Settings {
            kind: match f[0] {
                "perlin" => Kind::Perlin,
                _ => Kind::Simplex,
            },
            seed: f[1].parse().unwrap(),
            octaves: f[2].parse().unwrap(),
            frequency: number(3),
            persistence: number(4),
            lacunarity: number(5),
        };
        let got = Noise::new(settings).get(number(6), number(7));
        assert_eq!(got.to_bits(), number(8).to_bits(), "{line}");
        checked += 1;
    }
    assert!(checked >= 200, "only {checked} golden noise values");
}
