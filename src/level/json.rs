//! The JSON form of a level: its rows as strings plus all its metadata.
//!
//! Written straight into one buffer, keys in byte order as `serde_json`'s
//! own map writes them: building a `serde_json::Value` tree first cost
//! about 1.4 KB a listed item (14 MB for 10,000 items), more than the
//! level itself. Strings are escaped by `serde_json`.

use crate::grid::Pos;
use crate::level::Level;

/// `{"algorithm", "blocked", "doors", "height", "items", "locks", "placed",
/// "player", "rooms", "rows", "seed", "stairs", "up", "vaults", "width"}`,
/// with positions and indices 1-based as in the Lua API; `"up"` only after
/// `arrive`, `"blocked"` only where more than `#` blocks walking (the
/// overworld), `"locks"` only when `locks` asked for some.
pub fn level(level: &Level) -> String {
    let grid = &level.grid;
    let exits: usize = level.exits.exits.iter().map(Vec::len).sum();
    let links: usize = level.exits.links.iter().map(Vec::len).sum();
    let lists = level.rooms.len()
        + level.doors.len()
        + level.items.len()
        + level.placed.len()
        + level.vaults.len()
        + 2 * level.locks.as_ref().map_or(0, Vec::len)
        + exits / 2
        + links / 6;
    let mut out = Vec::with_capacity(grid.cells().len() + 3 * grid.height() + 48 * lists + 256);
    out.extend_from_slice(b"{\"algorithm\":");
    string(&mut out, level.algorithm);
    if let Some(blocked) = level.blocked() {
        out.extend_from_slice(b",\"blocked\":");
        string(&mut out, blocked);
    }
    out.extend_from_slice(b",\"doors\":");
    list(&mut out, &level.doors, |out, &d| pos(out, d));
    field(&mut out, "height", grid.height());
    out.extend_from_slice(b",\"items\":");
    list(&mut out, &level.items, |out, item| {
        glyph(out, "kind", item.kind, item.pos)
    });
    if let Some(locks) = &level.locks {
        out.extend_from_slice(b",\"locks\":");
        list(&mut out, locks, |out, l| {
            out.extend_from_slice(b"{\"door\":");
            glyph(out, "char", l.door_char, l.door);
            out.extend_from_slice(b",\"key\":");
            glyph(out, "char", l.key_char, l.key);
            out.push(b'}');
        });
    }
    out.extend_from_slice(b",\"placed\":");
    list(&mut out, &level.placed, |out, p| {
        glyph(out, "char", p.char, p.pos)
    });
    out.extend_from_slice(b",\"player\":");
    pos(&mut out, level.player);
    out.extend_from_slice(b",\"rooms\":");
    let rooms: Vec<usize> = (0..level.rooms.len()).collect();
    list(&mut out, &rooms, |out, &i| {
        let r = &level.rooms[i];
        // A level the pipeline made has both for every room.
        let (exits, links) = (level.exits.exits.get(i), level.exits.links.get(i));
        out.extend_from_slice(b"{\"exits\":");
        list(out, exits.map_or(&[][..], Vec::as_slice), |out, &e| {
            pos(out, e)
        });
        field(out, "h", r.h);
        out.extend_from_slice(b",\"links\":");
        list(out, links.map_or(&[][..], Vec::as_slice), |out, &k| {
            out.extend_from_slice((u64::from(k) + 1).to_string().as_bytes())
        });
        field(out, "w", r.w);
        field(out, "x", r.x);
        field(out, "y", r.y);
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
    if let Some(up) = level.up {
        out.extend_from_slice(b",\"up\":");
        pos(&mut out, up);
    }
    out.extend_from_slice(b",\"vaults\":");
    list(&mut out, &level.vaults, |out, v| {
        out.extend_from_slice(format!("{{\"h\":{}", v.rect.h).as_bytes());
        field(out, "index", v.index as u128 + 1);
        field(out, "rotation", v.rotation);
        field(out, "w", v.rect.w);
        field(out, "x", v.rect.x);
        field(out, "y", v.rect.y);
        out.push(b'}');
    });
    field(&mut out, "width", grid.width());
    out.push(b'}');
    String::from_utf8(out).expect("JSON of valid strings is UTF-8")
}

/// `,"name":value`.
fn field(out: &mut Vec<u8>, name: &str, value: impl std::fmt::Display) {
    out.extend_from_slice(format!(",\"{name}\":{value}").as_bytes());
}

/// `{"key":"c","x":x,"y":y}`: an item or a placed cell.
fn glyph(out: &mut Vec<u8>, key: &str, c: u8, p: Pos) {
    out.extend_from_slice(format!("{{\"{key}\":").as_bytes());
    string(out, &(c as char).to_string());
    field(out, "x", p.x);
    field(out, "y", p.y);
    out.push(b'}');
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
    use crate::input::Arg;
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
            .enumerate()
            .map(|(i, r)| {
                let exits: Vec<Value> = level.exits.exits[i].iter().map(|&e| pos(e)).collect();
                let links: Vec<u32> = level.exits.links[i].iter().map(|k| k + 1).collect();
                json!({ "x": r.x, "y": r.y, "w": r.w, "h": r.h, "exits": exits, "links": links })
            })
            .collect();
        let placed: Vec<Value> = level
            .placed
            .iter()
            .map(|p| json!({ "x": p.pos.x, "y": p.pos.y, "char": (p.char as char).to_string() }))
            .collect();
        let vaults: Vec<Value> = level
            .vaults
            .iter()
            .map(|v| {
                let r = v.rect;
                json!({ "index": v.index + 1, "x": r.x, "y": r.y, "w": r.w, "h": r.h, "rotation": v.rotation })
            })
            .collect();
        let items: Vec<Value> = level
            .items
            .iter()
            .map(|i| json!({ "x": i.pos.x, "y": i.pos.y, "kind": (i.kind as char).to_string() }))
            .collect();
        let mut tree = json!({
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
            "placed": placed,
            "vaults": vaults,
        });
        if let Some(up) = level.up {
            tree["up"] = pos(up);
        }
        if let Some(blocked) = level.blocked() {
            tree["blocked"] = json!(blocked);
        }
        if let Some(locks) = &level.locks {
            let cell =
                |p: Pos, c: u8| json!({ "x": p.x, "y": p.y, "char": (c as char).to_string() });
            let locks: Vec<Value> = locks
                .iter()
                .map(|l| json!({ "door": cell(l.door, l.door_char), "key": cell(l.key, l.key_char) }))
                .collect();
            tree["locks"] = json!(locks);
        }
        tree.to_string()
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
                let params = match algorithm.carves_rock() {
                    true => params.with(b"locks", Arg::Int(3)),
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
        // With vaults, arrive and place.
        let rows: [&[u8]; 3] = [b"#+#", b".M.", b"#.#"];
        let vault = crate::level::vaults::Template::new(
            1,
            &rows,
            Arg::Int(3),
            Arg::Bool(true),
            Arg::Missing,
        );
        let placement = crate::level::place::Placement::new(
            1,
            Arg::Str(b"k"),
            Arg::Int(4),
            Arg::Int(3),
            Arg::Missing,
        );
        let mut params =
            Params::new(Arg::Int(61), Arg::Int(23), Arg::Int(5)).with(b"doors", Arg::Bool(true));
        params.design.vaults = vec![vault.unwrap()];
        params.design.place = vec![placement.unwrap()];
        params.design.arrive = Some((30, 11));
        let level = generate(&params).unwrap();
        assert_eq!((level.vaults.len(), level.placed.len()), (3, 4));
        assert_eq!(super::level(&level), tree(&level));
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
