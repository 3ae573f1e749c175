//! The JSON form of a level: its rows as strings plus all its metadata.

use serde_json::{json, Value};

use crate::generate::Level;
use crate::grid::Pos;

fn pos(p: Pos) -> Value {
    json!({ "x": p.x, "y": p.y })
}

/// `{"width", "height", "seed", "algorithm", "rooms", "doors", "player", "stairs",
/// "items", "rows"}`, with positions 1-based as in the Lua API.
pub fn level(level: &Level) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, Params};
    use crate::options::Arg;

    #[test]
    fn json_carries_rows_and_metadata() {
        let params = Params {
            width: Arg::Int(60),
            height: Arg::Int(20),
            seed: Arg::Int(-(1 << 53)),
            ..Params::default()
        };
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
