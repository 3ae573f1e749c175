//! Reading a hand-made map: the inverse of `render`.

use crate::grid::{Grid, Pos, PLAYER, STAIRS};
use crate::input::MAX_CELLS;

/// A map read from its text, with its first `@` and `>` in row order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub grid: Grid,
    pub player: Option<Pos>,
    pub stairs: Option<Pos>,
}

/// The size of the map `text` holds, checked: rows split on `\n` (one
/// final `\n` is allowed and ends the last row), all as long as row 1 and
/// not empty, every byte printable ASCII (`' '` to `'~'`), at most
/// `MAX_CELLS` cells. The first problem, in row order, is the error, naming
/// its row. Reads nothing past the row that makes the map too large.
pub fn size(text: &[u8]) -> Result<(usize, usize), String> {
    let body = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Err("text is empty".into());
    }
    let mut width = 0;
    let mut height = 0;
    for (y, row) in body
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, r)| (i + 1, r))
    {
        if y == 1 {
            width = row.len();
        }
        if width.saturating_mul(y) > MAX_CELLS {
            return Err(format!(
                "text has more than {MAX_CELLS} cells (row {y} of {width} cells)"
            ));
        }
        if let Some(x) = row.iter().position(|&b| !(b' '..=b'~').contains(&b)) {
            return Err(format!(
                "row {y}, column {}: byte {} is not printable ASCII",
                x + 1,
                row[x]
            ));
        }
        if width == 0 {
            return Err("row 1 is empty".into());
        }
        if row.len() != width {
            return Err(format!(
                "row {y} has {} cells, row 1 has {width}",
                row.len()
            ));
        }
        height = y;
    }
    Ok((width, height))
}

/// The map `text` holds, of the size `size` found.
pub fn parse(text: &[u8], (width, height): (usize, usize)) -> Parsed {
    let mut cells = Vec::with_capacity(width * height);
    for row in text.split(|&b| b == b'\n').take(height) {
        cells.extend_from_slice(row);
    }
    of_grid(Grid::from_cells(width, height, cells))
}

/// A map read some other way (an editor's file), with its first `@` and
/// `>` in row order.
pub fn of_grid(grid: Grid) -> Parsed {
    let first = |c| {
        grid.cells()
            .iter()
            .position(|&b| b == c)
            .map(|i| grid.pos(i))
    };
    Parsed {
        player: first(PLAYER),
        stairs: first(STAIRS),
        grid,
    }
}

/// The memory `parse` of a map of `size` may use: its cells, copied once.
pub fn bound(size: (usize, usize)) -> usize {
    size.0 * size.1 + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Parsed, String> {
        let size = size(text.as_bytes())?;
        Ok(parse(text.as_bytes(), size))
    }

    #[test]
    fn reads_what_render_writes() {
        let g = Grid::from_rows(&["#####", "#@.>#", "#####"]);
        let p = read("#####\n#@.>#\n#####").unwrap();
        assert_eq!(p.grid, g);
        assert_eq!(p.player, Some(Pos { x: 2, y: 2 }));
        assert_eq!(p.stairs, Some(Pos { x: 4, y: 2 }));
        assert_eq!(read("#####\n#@.>#\n#####\n"), Ok(p));
        assert_eq!(
            String::from_utf8(g.render()).unwrap(),
            "#####\n#@.>#\n#####"
        );
        let p = read(" ~").unwrap();
        assert_eq!((p.player, p.stairs), (None, None));
    }

    #[test]
    fn names_the_row_that_is_wrong() {
        let err = |t: &str| read(t).unwrap_err();
        assert_eq!(err(""), "text is empty");
        assert_eq!(err("\n"), "row 1 is empty");
        assert_eq!(err("##\n#"), "row 2 has 1 cells, row 1 has 2");
        assert_eq!(err("##\n\n"), "row 2 has 0 cells, row 1 has 2");
        assert_eq!(
            err("##\n#\t"),
            "row 2, column 2: byte 9 is not printable ASCII"
        );
        assert_eq!(
            err("#\r\n#"),
            "row 1, column 2: byte 13 is not printable ASCII"
        );
        assert_eq!(err("é"), "row 1, column 1: byte 195 is not printable ASCII");
    }

    #[test]
    fn refuses_more_than_max_cells_without_reading_on() {
        let row = "#".repeat(2000);
        let mut text = vec![row.as_str(); 2000].join("\n");
        assert_eq!(size(text.as_bytes()), Ok((2000, 2000)));
        text.push_str("\n#\t");
        assert_eq!(
            size(text.as_bytes()).unwrap_err(),
            "text has more than 4000000 cells (row 2001 of 2000 cells)"
        );
    }
}
