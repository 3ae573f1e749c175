//! The JSON form of a level: its rows as strings plus all its metadata.
//!
//! Written straight into one buffer, keys in byte order as `serde_json`'s
//! own map writes them: building a `serde_json::Value` tree first cost
//! about 1.4 KB a listed item (14 MB for 10,000 items), more than the
//! level itself. Strings are escaped by `serde_json`.

use crate::grid::Pos;
use crate::level::Level;

/// `{"algorithm", "doors", "height", "items", "player", "rooms", "rows",
/// "seed", "stairs", "width"}`, with positions 1-based as in the Lua API.
pub fn level(level: &Level) -> String {
    let grid = &level.grid;
    let lists = level.rooms.len() + level.doors.len() + level.items.len();
    let mut out = Vec::with_capacity(grid.cells().len() + 3 * grid.height() + 48 * lists + 256);
    out.extend_from_slice(b"{\"algorithm\":");
    string(&mut out, level.algorithm);
    out.extend_from_slice(b",\"doors\":");
    list(&mut out, &level.doors, |out, &d| pos(out, d));
    field(&mut out, "height", grid.height() as i64);
    out.extend_from_slice(b",\"items\":");
    list(&mut out, &level.items, |out, item| {
        out.extend_from_slice(b"{\"kind\":");
        string(out, &(item.kind as char).to_string());
        field(out, "x", item.pos.x as i64);
        field(out, "y", item.pos.y as i64);
        out.push(b'}');
    });
    out.extend_from_slice(b",\"player\":");
    pos(&mut out, level.player);
    out.extend_from_slice(b",\"rooms\":");
    list(&mut out, &level.rooms, |out, r| {
        out.extend_from_slice(format!("{{\"h\":{},\"w\":{}", r.h, r.w).as_bytes());
        field(out, "x", r.x as i64);
        field(out, "y", r.y as i64);
        out.push(b'}');
    });
    out.extend_from_slice(b",\"rows\":");
    let rows: Vec<&[u8]> = grid.rows().collect();
    list(&mut out, &rows, |out, row| {
        string(out, &String::from_utf8_lossy(row))
    });
    field(&mut out, "seed", level.seed);
    out.extend_from_slice(b",\"stairs\":");
    pos(&mut out, level.stairs);
    field(&mut out, "width", grid.width() as i64);
    out.push(b'}');
    String::from_utf8(out).expect("JSON of valid strings is UTF-8")
}

/// `,"name":value`.
fn field(out: &mut Vec<u8>, name: &str, value: i64) {
    out.extend_from_slice(format!(",\"{name}\":{value}").as_bytes());
}

fn pos(out: &mut Vec<u8>, p: Pos) {
    out.extend_from_slice(format!("{{\"x\":{},\"y\":{}}}", p.x, p.y).as_bytes());
}

fn string(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(out, s).expect("writing to a Vec cannot fail");
}

/// `[item,item,...]`.
fn list<T>(out: &mut Vec<u8>, items: &[T], mut each: impl FnMut(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        each(out, item);
    }
    out.push(b']');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Arg;
    use crate::level::{generate, Params};
    use serde_json::{json, Value};

    /// The JSON as the first release built it, through a `Value` tree.
    fn tree(level: &Level) -> String {
        let pos = |p: Pos| json!({ "x": p.x, "y": p.y });
        let rows: Vec<String> = level
            .grid
            .rows()
            .map(|row| String::from_utf8_lossy(row).into_owned())
            .collect();
        let rooms: Vec<Value> = level
            .rooms
            .iter()
            .map(|r| json!({ "x": r.x, "y": r.y, "w": r.w, "h": r.h }))
            .collect();
        let items: Vec<Value> = level
            .items
            .iter()
            .map(|i| json!({ "x": i.pos.x, "y": i.pos.y, "kind": (i.kind as char).to_string() }))
            .collect();
        json!({
            "width": level.grid.width(),
            "height": level.grid.height(),
            "seed": level.seed,
            "algorithm": level.algorithm,
            "rooms": rooms,
            "doors": level.doors.iter().map(|&d| pos(d)).collect::<Vec<Value>>(),
            "player": pos(level.player),
            "stairs": pos(level.stairs),
            "items": items,
            "rows": rows,
        })
        .to_string()
    }

    #[test]
    fn json_is_byte_for_byte_the_tree_built_one() {
        for algorithm in crate::generators::LIST {
            for seed in [-(1i64 << 53), -1, 0, 7, 1 << 53] {
                let params = Params {
                    algorithm: Arg::Str(algorithm.name.as_bytes()),
                    ..Params::new(Arg::Int(61), Arg::Int(23), Arg::Int(seed))
                }
                .with(b"items", Arg::Int(40));
                let params = match algorithm.options.iter().any(|o| o.name == "doors") {
                    true => params.with(b"doors", Arg::Bool(true)),
                    false => params,
                };
                let level = generate(&params).unwrap();
                assert_eq!(
                    super::level(&level),
                    tree(&level),
                    "{} {seed}",
                    algorithm.name
                );
            }
        }
        // Cells that need escaping, or are not UTF-8, as in a hand-made grid.
        let mut level = generate(&Params::new(Arg::Int(8), Arg::Int(6), Arg::Int(1))).unwrap();
        level.grid = crate::grid::Grid::from_cells(4, 2, b"\"\\\n\x01\xff\xfe#.".to_vec());
        assert_eq!(super::level(&level), tree(&level));
    }

    #[test]
    fn json_carries_rows_and_metadata() {
        let params = Params::new(Arg::Int(60), Arg::Int(20), Arg::Int(-(1 << 53)));
        let level = generate(&params).unwrap();
        let v: Value = serde_json::from_str(&super::level(&level)).unwrap();
        assert_eq!(v["seed"], json!(-(1i64 << 53)));
        assert_eq!(v["algorithm"], "rooms");
        assert_eq!(
            (v["width"].as_u64(), v["height"].as_u64()),
            (Some(60), Some(20))
        );
        let rows: Vec<&str> = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert_eq!(rows.join("\n").into_bytes(), level.grid.render());
        assert_eq!(
            v["player"],
            json!({ "x": level.player.x, "y": level.player.y })
        );
        assert_eq!(v["rooms"].as_array().unwrap().len(), level.rooms.len());
        assert_eq!(
            v["items"][0]["kind"],
            (level.items[0].kind as char).to_string()
        );
    }
}
