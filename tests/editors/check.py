"""tests/editors/run.sh, step 2, with third-party readers and writers.

check.py read DIR COUNT: pytiled-parser reads every N.tmj and python-tcod
every N.xp the module wrote, and each must give N.txt exactly (tiles
through their `char` property, glyphs through CP437's bytes); the
module's CP437 (bytes.tmj's chars) must be tcod's CHARMAP_CP437.

check.py write DIR: python-tcod's save_xp writes images (one layer, and
two with REXPaint's transparent key colour), and Python's json, base64,
zlib and gzip write Tiled maps in each layer encoding (checked valid by
pytiled-parser first), each beside the N.txt it must read as.
"""
import base64
import gzip
import json
import sys
import zlib
from pathlib import Path

import numpy as np
import pytiled_parser
import tcod.console
import tcod.tileset

CP437 = list(tcod.tileset.CHARMAP_CP437)


def tiled_text(path):
    """The map a Tiled map draws, by pytiled-parser: each gid's char property."""
    tiled = pytiled_parser.parse_map(path)
    tileset = tiled.tilesets[1]
    chars = {tileset.firstgid + tid: tile.properties["char"] for tid, tile in tileset.tiles.items()}
    rows = []
    for row in tiled.layers[0].data:
        rows.append(bytes(CP437.index(ord(chars[gid])) for gid in row))
    return b"\n".join(rows)


def xp_text(path):
    """The map a REXPaint image draws, by python-tcod: each cell's CP437 byte."""
    consoles = tcod.console.load_xp(path, order="C")
    console = consoles[0]
    ch = console.ch.copy()
    for layer in consoles[1:]:
        opaque = ~(layer.rgb["bg"] == (255, 0, 255)).all(axis=-1)
        ch[opaque] = layer.ch[opaque]
    return b"\n".join(bytes(int(c) for c in row) for row in ch)


def read(folder, count):
    folder = Path(folder)
    names = [str(i) for i in range(1, count + 1)] + ["bytes"]
    for name in names:
        want = (folder / f"{name}.txt").read_bytes()
        for ext, reader in (("tmj", tiled_text), ("xp", xp_text)):
            got = reader(folder / f"{name}.{ext}")
            if got != want:
                sys.exit(f"{name}.{ext}: {reader.__name__} reads another map")
    tiled = pytiled_parser.parse_map(folder / "bytes.tmj")
    chars = [ord(t.properties["char"]) for _, t in sorted(tiled.tilesets[1].tiles.items())]
    if chars != CP437:
        sys.exit("the module's CP437 is not tcod's CHARMAP_CP437")
    print(len(names))


def maps():
    """The maps the writers draw: a vault, every byte, a wide room."""
    vault = [b"#######", b"#..@..#", b"#.###.#", b"#..>..#", b"#######"]
    every = [bytes(range(y * 16, y * 16 + 16)) for y in range(16)]
    room = [b"#" * 40] + [b"#" + b"." * 38 + b"#"] * 8 + [b"#" * 40]
    return {"vault": vault, "bytes": every, "room": room}


def write_xp(folder):
    for name, rows in maps().items():
        h, w = len(rows), len(rows[0])
        console = tcod.console.Console(w, h, order="C")
        console.ch[:] = np.array([list(r) for r in rows])
        console.fg[:] = (255, 255, 255)
        tcod.console.save_xp(folder / f"tcod-{name}.xp", [console])
        (folder / f"tcod-{name}.txt").write_bytes(b"\n".join(rows))
    # Two layers: the second paints '@' at (2,2) and is transparent elsewhere.
    rows = maps()["room"]
    h, w = len(rows), len(rows[0])
    base = tcod.console.Console(w, h, order="C")
    base.ch[:] = np.array([list(r) for r in rows])
    top = tcod.console.Console(w, h, order="C")
    top.bg[:] = (255, 0, 255)
    top.ch[1, 1] = ord("@")
    top.bg[1, 1] = (0, 0, 0)
    tcod.console.save_xp(folder / "tcod-layers.xp", [base, top])
    painted = [bytearray(r) for r in rows]
    painted[1][1] = ord("@")
    (folder / "tcod-layers.txt").write_bytes(b"\n".join(bytes(r) for r in painted))


def tiled_map(rows, data, extra):
    h, w = len(rows), len(rows[0])
    used = sorted({b for r in rows for b in r})
    tiles = [{"id": b, "properties": [{"name": "char", "type": "string", "value": chr(CP437[b])}]} for b in used]
    layer = {"type": "tilelayer", "id": 1, "name": "drawn", "x": 0, "y": 0, "width": w, "height": h,
             "opacity": 1, "visible": True, "data": data, **extra}
    return {"type": "map", "version": "1.10", "tiledversion": "1.10.2", "orientation": "orthogonal",
            "renderorder": "right-down", "infinite": False, "width": w, "height": h, "tilewidth": 8,
            "tileheight": 8, "nextlayerid": 2, "nextobjectid": 1, "layers": [layer],
            "tilesets": [{"firstgid": 1, "name": "drawn", "tilewidth": 8, "tileheight": 8, "tilecount": 256,
                          "columns": 16, "image": "sheet.png", "imagewidth": 128, "imageheight": 128,
                          "margin": 0, "spacing": 0, "tiles": tiles}]}


def write_tiled(folder):
    for name, rows in maps().items():
        gids = [b + 1 for r in rows for b in r]
        raw = b"".join(g.to_bytes(4, "little") for g in gids)
        encodings = {
            "array": (gids, {}),
            "base64": (base64.b64encode(raw).decode(), {"encoding": "base64", "compression": ""}),
            "zlib": (base64.b64encode(zlib.compress(raw)).decode(), {"encoding": "base64", "compression": "zlib"}),
            "gzip": (base64.b64encode(gzip.compress(raw)).decode(), {"encoding": "base64", "compression": "gzip"}),
        }
        for encoding, (data, extra) in encodings.items():
            path = folder / f"python-{name}-{encoding}.tmj"
            path.write_text(json.dumps(tiled_map(rows, data, extra)))
            if tiled_text(path) != b"\n".join(rows):  # a valid Tiled map, as pytiled-parser reads it
                sys.exit(f"{path.name}: pytiled-parser reads another map")
            (folder / f"python-{name}-{encoding}.txt").write_bytes(b"\n".join(rows))


if __name__ == "__main__":
    if sys.argv[1] == "read":
        read(sys.argv[2], int(sys.argv[3]))
    else:
        out = Path(sys.argv[2])
        write_xp(out)
        write_tiled(out)
