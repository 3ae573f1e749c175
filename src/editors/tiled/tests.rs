use super::*;
use std::io::Write;

fn how(format: Format) -> Writing<'static> {
    Writing {
        tiles: None,
        format,
        tile_width: 16,
        tile_height: 16,
        image: "cp437.png",
    }
}

#[test]
fn json_goes_there_and_back() {
    let grid = Grid::from_rows(&["#####", "#@.>#", "#####"]);
    let text = write(&grid, &how(Format::Json)).unwrap();
    assert_eq!(read(&text, None, b' ').unwrap(), grid);
    let mine = Writing {
        tiles: Some(b"#.@>"),
        ..how(Format::Json)
    };
    let text = write(&grid, &mine).unwrap();
    assert!(text.windows(12).any(|w| w == b"\"data\":[1,1,"));
    assert_eq!(read(&text, None, b' ').unwrap(), grid);
    assert_eq!(
        write(&Grid::from_rows(&["$"]), &mine).unwrap_err(),
        "the map's character '$' is not in tiles"
    );
}

#[test]
fn every_byte_is_a_tile() {
    let grid = Grid::from_cells(16, 16, (0..=255).collect());
    let text = write(&grid, &how(Format::Json)).unwrap();
    assert_eq!(read(&text, None, b' ').unwrap(), grid);
}

fn with_data(data: &str, encoding: &str, compression: &str) -> Vec<u8> {
    format!(
        "{{\"width\":2,\"height\":1,\"layers\":[{{\"type\":\"tilelayer\",\"data\":{data},\
         \"encoding\":\"{encoding}\",\"compression\":\"{compression}\"}}],\
         \"tilesets\":[{{\"firstgid\":1,\"tilecount\":256,\"tiles\":[\
         {{\"id\":35,\"properties\":[{{\"name\":\"char\",\"value\":\"#\"}}]}},\
         {{\"id\":46,\"properties\":[{{\"name\":\"char\",\"value\":\".\"}}]}}]}}]}}"
    )
    .into_bytes()
}

fn encoded(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn reads_base64_plain_zlib_and_gzip() {
    let raw: Vec<u8> = [36u32, 47 | 0x8000_0000]
        .iter()
        .flat_map(|g| g.to_le_bytes())
        .collect();
    let want = Grid::from_rows(&["#."]);
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(&raw).unwrap();
    let zlib = format!("\"{}\"", encoded(&z.finish().unwrap()));
    let mut g = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    g.write_all(&raw).unwrap();
    let gzip = format!("\"{}\"", encoded(&g.finish().unwrap()));
    let plain = format!("\"{}\"", encoded(&raw));
    for (data, compression) in [(&plain, ""), (&zlib, "zlib"), (&gzip, "gzip")] {
        let layer = with_data(data, "base64", compression);
        assert_eq!(read(&layer, None, b' ').unwrap(), want, "{compression}");
    }
    // The wrong compression, or a bomb: an error, and never more than the map's bytes inflated.
    assert!(read(&with_data(&zlib, "base64", "gzip"), None, b' ')
        .unwrap_err()
        .contains("gzip data is corrupt"));
    let mut bomb = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    bomb.write_all(&vec![0; 1 << 24]).unwrap();
    let bomb = format!("\"{}\"", encoded(&bomb.finish().unwrap()));
    assert_eq!(
        read(&with_data(&bomb, "base64", "zlib"), None, b' ').unwrap_err(),
        "the tile layer's data holds more than 8 bytes, the map needs 8 (4 a cell)"
    );
}

#[test]
fn refuses_what_is_not_a_map() {
    let err = |text: &str| read(text.as_bytes(), None, b' ').unwrap_err();
    assert!(err("{").starts_with("the text is not JSON: "));
    assert_eq!(
        err("[]"),
        "the text is not a Tiled map (its JSON is not an object)"
    );
    assert_eq!(
        err("{\"infinite\":true}"),
        "infinite Tiled maps are not read: save it as a fixed-size map"
    );
    assert_eq!(
        err("{\"width\":0,\"height\":1}"),
        "the map's width must be an integer from 1 to 4000000"
    );
    assert_eq!(
        err("{\"width\":4000,\"height\":4000}"),
        "the map has more than 4000000 cells (4000x4000)"
    );
    assert_eq!(
        err(std::str::from_utf8(&with_data("[36]", "csv", "")).unwrap()),
        "the tile layer holds 1 cells, the map 2"
    );
    assert_eq!(
        err(std::str::from_utf8(&with_data("[36,99]", "csv", "")).unwrap()),
        "cell (2,1): tile 98 of tileset \"1\" has no char property, and options.tiles names no character for it"
    );
    assert_eq!(
        err(std::str::from_utf8(&with_data("[36,999]", "csv", "")).unwrap()),
        "cell (2,1): gid 999 is past the tiles of tileset \"1\""
    );
    let with_tiles = read(&with_data("[36,0]", "csv", ""), Some(b"x"), b'~').unwrap();
    assert_eq!(with_tiles, Grid::from_rows(&["#~"]));
}
