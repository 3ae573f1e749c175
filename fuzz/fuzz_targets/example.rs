//! The example generator (`algorithm = "example"`: wave function collapse,
//! the overlapping model; issue 37) under libFuzzer, meant to run under
//! AddressSanitizer. Each input is one request through `level::generate`,
//! as the binding makes it:
//!
//! - the sample: a built-in one by name; a drawn map (3x3 to 14x12, now
//!   and then up to 64x64 or one past, a border of one character, its
//!   inside from a small alphabet of 2 to 5 characters); a built-in's text
//!   damaged (a byte changed, cut, a row shortened); or any bytes. Now and
//!   then it is given as its rows (a table, as `lua/shared/rows.rs` reads
//!   one: `rows::join` of the entries, some of them damaged: a number, a
//!   nil, a row with a newline);
//! - `n` (mostly 2 to 4, now and then 1, 5 or a fraction), `symmetry`
//!   (none, rotations, all, or junk), `wraps`, `blocking` (left out, the
//!   border's character, more characters, junk), `fixed` (a block of up to
//!   5x5 of the sample's characters and `?`, now and then one that is not
//!   the sample's, at any position of the map or past it), the size (12x9
//!   to 32x24; now and then to 56x40, under the minimum, or past the
//!   solver's bound)
//!   and the seed; `items` left out or 0.
//!
//! Checks: never a panic (libFuzzer's crash); a request the harness knows
//! is invalid (`n` out of range, an unknown symmetry, a size under the
//! minimum) refused with the option's message; every refusal a message
//! that names what failed (its first word one of the request's or the
//! generator's: never empty, never "internal"). A level:
//! - is the size asked for, its border all round the sample's edge
//!   character (an edge of one blocking character) or else the first of
//!   its blocking characters the sample has;
//! - has every n x n window (its terrain: `@ > $ !` read as floor) among
//!   the sample's windows under the symmetries asked for, the sample
//!   wrapped when it wraps, enumerated here by brute force (for a sample
//!   whose edge is not its border, the windows inside the border may be
//!   all that hold: its inside made alone);
//! - keeps every fixed cell (`?` free);
//! - has `@` and `>` where the level says, and every cell that does not
//!   block walking (the sample's blocking characters) reachable from `@` by
//!   a plain breadth-first search in four directions;
//! - is the same when made again (one time in eight), and the same as the
//!   level of the sample's text when the sample was given as rows;
//! - was made within `level::bound` plus the generator's own bound
//!   (`example::bound`, the solver's `wfc::bound` inside) for the
//!   patterns counted here (a counting allocator).
//!
//! `EXAMPLE_FUZZ_SHOW=1` prints each input's outcome (made, or the
//! refusal) to stderr, `=2` the request too: `cargo +nightly fuzz run example corpus/example --
//! -runs=0` with it shows the corpus's spread.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use map::generators::example::{self, SAMPLES};
use map::input::Arg;
use map::level::{self, rows, Level, Params};

#[path = "../../tests/support/counting.rs"]
#[allow(dead_code)]
mod counting;
#[path = "shared/windows.rs"]
mod windows;
use windows::{check_connected, windows};

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});

/// True one time in `n`, and false when the input's bytes have run out
/// (`Unstructured::ratio` is then true), so that a short input takes the
/// usual path.
fn rarely(u: &mut Unstructured, n: u8) -> Result<bool> {
    Ok(!u.ratio(n - 1, n)?)
}

/// A request, as the harness knows it.
struct Request {
    /// The sample as given (a built-in's name or map text).
    sample: Vec<u8>,
    /// Given as rows: the table's entries.
    rows: Option<Vec<Entry>>,
    n: Arg<'static>,
    symmetry: &'static [u8],
    wraps: bool,
    blocking: Option<&'static [u8]>,
    fixed: Option<(Vec<u8>, i64, i64)>,
    width: i64,
    height: i64,
    seed: i64,
    items: Option<i64>,
}

/// One entry of a table of rows.
#[derive(Clone)]
enum Entry {
    Row(Vec<u8>),
    Number,
    Nil,
}

const ALPHABET: &[u8] = b".#~^x\"+=";
const SYMMETRIES: [&[u8]; 5] = [b"none", b"rotations", b"all", b"All", b""];
const BLOCKINGS: [&[u8]; 5] = [b"#", b"#~", b"#~^", b"x#", b"\t"];

fn run(u: &mut Unstructured) -> Result<()> {
    let request = request(u)?;
    let again = rarely(u, 8)?;
    let (result, peak) = counting::peak_of(|| level::generate(&params(&request)));
    let (w, h) = (request.width, request.height);
    if std::env::var_os("EXAMPLE_FUZZ_SHOW").is_some() {
        // What the inputs ask for and get (for the README's spread).
        if std::env::var_os("EXAMPLE_FUZZ_SHOW").is_some_and(|v| v == "2") {
            eprintln!("{}", shown(&request));
        }
        match &result {
            Ok(_) => eprintln!(
                "made {w}x{h} n={:?} rows={}",
                request.n,
                request.rows.is_some()
            ),
            Err(message) => eprintln!("refused {message}"),
        }
    }
    match &result {
        Err(message) => check_refusal(&request, message),
        Ok(level) => {
            check_level(&request, level);
            let bound = memory_bound(&request, (w as usize, h as usize));
            assert!(peak <= bound, "{peak} bytes of heap > {bound}");
        }
    }
    if again {
        let twice = level::generate(&params(&request));
        assert!(same(&result, &twice), "not the same level twice");
    }
    if request.rows.is_some() {
        if let Some(text) = joined_rows(&request) {
            let plain = Request {
                sample: text,
                rows: None,
                ..request
            };
            let as_text = level::generate(&params(&plain));
            assert!(
                same(&result, &as_text),
                "rows and their text made different levels"
            );
        }
    }
    Ok(())
}

/// The request in words (`EXAMPLE_FUZZ_SHOW=2`).
fn shown(r: &Request) -> String {
    let text = |t: &[u8]| String::from_utf8_lossy(t).into_owned();
    format!(
        "sample {:?} rows {} n {:?} symmetry {:?} wraps {} blocking {:?} fixed {:?} size {}x{} seed {} items {:?}",
        text(&r.sample),
        r.rows.is_some(),
        r.n,
        text(r.symmetry),
        r.wraps,
        r.blocking.map(text),
        r.fixed.as_ref().map(|(f, x, y)| (text(f), x, y)),
        r.width,
        r.height,
        r.seed,
        r.items
    )
}

fn same(a: &std::result::Result<Level, String>, b: &std::result::Result<Level, String>) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => a.grid.cells() == b.grid.cells() && a.player == b.player,
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

fn request(u: &mut Unstructured) -> Result<Request> {
    let sample = sample(u)?;
    let rows = if rarely(u, 3)? {
        Some(entries(u, &sample)?)
    } else {
        None
    };
    // The usual value first: a short input, its bytes run out, draws 0s.
    let n = match u.int_in_range(0..=15)? {
        0..=4 => Arg::Int(3),
        5..=10 => Arg::Int(2),
        11..=12 => Arg::Int(4),
        13 => Arg::Int(1),
        14 => Arg::Int(5),
        _ => Arg::Float(2.5),
    };
    let symmetry = SYMMETRIES[match u.int_in_range(0..=20)? {
        0..=8 => 2,
        9..=13 => 0,
        14..=18 => 1,
        19 => 3,
        _ => 4,
    }];
    let blocking = if rarely(u, 3)? {
        Some(*u.choose(&BLOCKINGS)?)
    } else {
        None
    };
    // Mostly small, so that a sample that cannot tile (every attempt
    // failing, up to the work cap) stays quick under the sanitizer.
    let (width, height) = match u.int_in_range(0..=15)? {
        0..=12 => (u.int_in_range(12..=32)?, u.int_in_range(9..=24)?),
        13 => (u.int_in_range(12..=56)?, u.int_in_range(9..=40)?),
        14 => (u.int_in_range(1..=11)?, u.int_in_range(1..=8)?),
        _ => (u.int_in_range(1000..=2000)?, u.int_in_range(1000..=2000)?),
    };
    let fixed = if rarely(u, 3)? {
        Some(fixed(u, &sample, (width, height))?)
    } else {
        None
    };
    Ok(Request {
        sample,
        rows,
        n,
        symmetry,
        wraps: u.arbitrary()?,
        blocking,
        fixed,
        width,
        height,
        seed: u.int_in_range(0..=100_000)?,
        items: if u.arbitrary()? { Some(0) } else { None },
    })
}

/// The sample as given: a name, a drawn map, a built-in damaged, or bytes.
fn sample(u: &mut Unstructured) -> Result<Vec<u8>> {
    Ok(match u.int_in_range(0..=9)? {
        0..=2 => u.choose(SAMPLES)?.0.as_bytes().to_vec(),
        3..=7 => drawn(u)?,
        8 => {
            let mut text = u.choose(SAMPLES)?.2.as_bytes().to_vec();
            let at = u.choose_index(text.len())?;
            match u.int_in_range(0..=2)? {
                0 => text[at] = u.arbitrary()?,
                1 => text.truncate(at),
                _ => {
                    text.remove(at);
                }
            }
            text
        }
        _ => {
            let len = u.int_in_range(0..=200)?;
            u.bytes(len)?.to_vec()
        }
    })
}

/// A map of a border character round a small alphabet's cells.
fn drawn(u: &mut Unstructured) -> Result<Vec<u8>> {
    let (w, h) = if rarely(u, 20)? {
        (u.int_in_range(60..=65)?, u.int_in_range(60..=65)?)
    } else {
        (u.int_in_range(3..=14)?, u.int_in_range(3..=12)?)
    };
    let mut alphabet = vec![b'.', b'#'];
    for _ in 0..u.int_in_range(0..=3)? {
        alphabet.push(*u.choose(ALPHABET)?);
    }
    let border = if rarely(u, 8)? {
        *u.choose(ALPHABET)?
    } else {
        b'#'
    };
    let mut text = Vec::with_capacity((w + 1) * h);
    for y in 0..h {
        for x in 0..w {
            let edge = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
            let c = if edge && !rarely(u, 200)? {
                border
            } else if rarely(u, 2)? {
                b'.'
            } else {
                *u.choose(&alphabet)?
            };
            text.push(c);
        }
        if y + 1 < h {
            text.push(b'\n');
        }
    }
    Ok(text)
}

/// The sample's rows as a table's entries, now and then one damaged.
fn entries(u: &mut Unstructured, sample: &[u8]) -> Result<Vec<Entry>> {
    let mut entries: Vec<Entry> = sample
        .split(|&c| c == b'\n')
        .map(|r| Entry::Row(r.to_vec()))
        .collect();
    if rarely(u, 8)? {
        let at = u.choose_index(entries.len())?;
        entries[at] = match u.int_in_range(0..=2)? {
            0 => Entry::Number,
            1 => Entry::Nil,
            _ => Entry::Row(b"#\n#".to_vec()),
        };
    }
    Ok(entries)
}

/// Fixed rows of the sample's characters (or another) at a position.
fn fixed(u: &mut Unstructured, sample: &[u8], (w, h): (i64, i64)) -> Result<(Vec<u8>, i64, i64)> {
    let text = sample_text(sample, None).0;
    let mut chars: Vec<u8> = text.iter().copied().filter(|&c| c != b'\n').collect();
    chars.push(b'?');
    if rarely(u, 10)? || chars.len() == 1 {
        chars.push(b'z');
    }
    let (fw, fh) = (u.int_in_range(1..=5)?, u.int_in_range(1..=5)?);
    let mut rows = Vec::new();
    for y in 0..fh {
        for _ in 0..fw {
            rows.push(*u.choose(&chars)?);
        }
        if y + 1 < fh {
            rows.push(b'\n');
        }
    }
    let x = u.int_in_range(1..=w.max(1) + 1)?;
    let y = u.int_in_range(1..=h.max(1) + 1)?;
    Ok((rows, x, y))
}

/// The generator's parameters for the request, as the binding sets them.
fn params(r: &Request) -> Params<'_> {
    let mut p = Params::new(Arg::Int(r.width), Arg::Int(r.height), Arg::Int(r.seed));
    p.set(b"algorithm", Arg::Str(b"example"));
    match &r.rows {
        Some(entries) => {
            p.set(b"sample", Arg::Other("table"));
            let joined = rows::join(
                "sample",
                example::MAX_TEXT,
                entries.len(),
                |i| match &entries[i - 1] {
                    Entry::Row(row) => Arg::Str(row),
                    Entry::Number => Arg::Int(7),
                    Entry::Nil => Arg::Missing,
                },
            );
            p.joined.push(("sample", joined));
        }
        None => p.set(b"sample", Arg::Str(&r.sample)),
    }
    p.set(b"n", r.n);
    p.set(b"symmetry", Arg::Str(r.symmetry));
    p.set(b"wraps", Arg::Bool(r.wraps));
    if let Some(blocking) = r.blocking {
        p.set(b"blocking", Arg::Str(blocking));
    }
    if let Some((rows, x, y)) = &r.fixed {
        p.set(b"fixed", Arg::Str(rows));
        p.set(b"fixed_x", Arg::Int(*x));
        p.set(b"fixed_y", Arg::Int(*y));
    }
    if let Some(items) = r.items {
        p.set(b"items", Arg::Int(items));
    }
    p
}

/// The text the rows join to, when every entry is one row.
fn joined_rows(r: &Request) -> Option<Vec<u8>> {
    let entries = r.rows.as_ref()?;
    let mut rows = Vec::new();
    for entry in entries {
        match entry {
            Entry::Row(row) if !row.contains(&b'\n') => rows.push(row.as_slice()),
            _ => return None,
        }
    }
    let text = rows.join(&b'\n');
    (text.len() <= example::MAX_TEXT).then_some(text)
}

/// Whether the option check takes the sample given (a text within the
/// bound, or rows that join), before the generator reads it.
fn sample_taken(r: &Request) -> bool {
    match r.rows {
        Some(_) => joined_rows(r).is_some(),
        None => r.sample.len() <= example::MAX_TEXT,
    }
}

/// The sample's text and blocking characters, as the generator reads them.
fn sample_text<'a>(given: &'a [u8], blocking: Option<&'a [u8]>) -> (&'a [u8], &'a [u8]) {
    let builtin = SAMPLES.iter().find(|s| s.0.as_bytes() == given);
    let (text, own) = builtin.map_or((given, &b"#"[..]), |s| (s.2.as_bytes(), s.1.as_bytes()));
    (text, blocking.filter(|b| !b.is_empty()).unwrap_or(own))
}

/// The level's border character, and whether it is the sample's edge all
/// round: the edge when that is one blocking character, else the first
/// of `blocking` the sample has.
fn border_of(sample: &[Vec<u8>], blocking: &[u8]) -> (u8, bool) {
    let (sh, sw) = (sample.len(), sample[0].len());
    let corner = sample[0][0];
    let edge = (0..sh).all(|y| {
        (0..sw).all(|x| !(x == 0 || y == 0 || x + 1 == sw || y + 1 == sh) || sample[y][x] == corner)
    });
    if edge && blocking.contains(&corner) {
        return (corner, true);
    }
    let first = blocking
        .iter()
        .copied()
        .find(|c| sample.iter().any(|row| row.contains(c)));
    (
        first.expect("a level from a sample without its blocking characters"),
        false,
    )
}

fn check_refusal(r: &Request, message: &str) {
    assert!(!message.is_empty(), "an empty refusal");
    assert!(!message.contains("internal"), "{message}");
    if r.width < 12 || r.height < 9 {
        assert!(
            message.starts_with("width") || message.starts_with("height"),
            "{}x{}: {message}",
            r.width,
            r.height
        );
    } else if !sample_taken(r) {
        // `sample` is checked first, in declaration order.
        assert!(message.starts_with("sample"), "{message}");
    } else if !matches!(r.n, Arg::Int(2..=4)) {
        assert!(message.starts_with("n must be"), "n {:?}: {message}", r.n);
    }
    let words = [
        "sample",
        "fixed",
        "symmetry",
        "blocking",
        "no level",
        "the sample",
        "a ",
        "n must",
        "width",
        "height",
        "cannot place",
        "not enough memory",
    ];
    assert!(
        words.iter().any(|w| message.starts_with(w)),
        "a refusal that names nothing: {message}"
    );
    if r.symmetry != b"none" && r.symmetry != b"rotations" && r.symmetry != b"all" {
        assert!(
            message.contains("must be") || message.starts_with("sample"),
            "symmetry {:?} accepted: {message}",
            String::from_utf8_lossy(r.symmetry)
        );
    }
}

fn check_level(r: &Request, level: &Level) {
    assert!(
        r.symmetry == b"none" || r.symmetry == b"rotations" || r.symmetry == b"all",
        "a level with symmetry {:?}",
        String::from_utf8_lossy(r.symmetry)
    );
    let Arg::Int(n) = r.n else {
        panic!("a level with n {:?}", r.n)
    };
    let n = n as usize;
    let given = r.rows.as_ref().map_or(r.sample.clone(), |_| {
        joined_rows(r).expect("a level from rows that do not join")
    });
    let (text, blocking) = sample_text(&given, r.blocking);
    let sample = sample_rows(text);
    let (w, h) = (r.width as usize, r.height as usize);
    let grid = &level.grid;
    assert_eq!((grid.width(), grid.height()), (w, h), "the size");
    let cells = grid.cells();
    let terrain: Vec<u8> = cells.iter().map(|&c| floor(c)).collect();
    let (border, bordered) = border_of(&sample, blocking);
    for y in 0..h {
        for x in 0..w {
            if x == 0 || y == 0 || x + 1 == w || y + 1 == h {
                assert_eq!(
                    terrain[y * w + x],
                    border,
                    "border at ({}, {})",
                    x + 1,
                    y + 1
                );
            }
        }
    }
    // A sample whose edge is not its border may have its level's inside
    // made alone (src/generators/example/inside.rs): then every window
    // inside the border is the sample's.
    let windows = windows(&sample, n, r.symmetry, r.wraps);
    let broken = |margin: usize| {
        let mut window = Vec::with_capacity(n * n);
        for y in margin..=h - n - margin {
            for x in margin..=w - n - margin {
                window.clear();
                for dy in 0..n {
                    window.extend_from_slice(&terrain[(y + dy) * w + x..][..n]);
                }
                if !windows.contains(&window) {
                    return Some(format!(
                        "window at ({}, {}) {:?} is not the sample's",
                        x + 1,
                        y + 1,
                        String::from_utf8_lossy(&window)
                    ));
                }
            }
        }
        None
    };
    let broken = match broken(0) {
        Some(_) if !bordered => broken(1),
        whole => whole,
    };
    assert!(broken.is_none(), "{}", broken.unwrap_or_default());
    if let Some((rows, x0, y0)) = &r.fixed {
        for (dy, row) in rows.split(|&c| c == b'\n').enumerate() {
            for (dx, &c) in row.iter().enumerate() {
                let (x, y) = (*x0 as usize - 1 + dx, *y0 as usize - 1 + dy);
                if c != b'?' {
                    assert_eq!(terrain[y * w + x], c, "fixed cell ({}, {})", x + 1, y + 1);
                }
            }
        }
    }
    let at = |p: map::grid::Pos| cells[(p.y - 1) * w + p.x - 1];
    assert_eq!(at(level.player), b'@', "@ at {:?}", level.player);
    assert_eq!(at(level.stairs), b'>', "> at {:?}", level.stairs);
    check_connected(&terrain, (w, h), blocking, level.player);
}

/// The sample's rows as the generator splits them (one newline at the end
/// ignored, `\r` before one dropped), `@ > < $ !` read as floor.
fn sample_rows(text: &[u8]) -> Vec<Vec<u8>> {
    text.strip_suffix(b"\n")
        .unwrap_or(text)
        .split(|&c| c == b'\n')
        .map(|row| {
            let row = row.strip_suffix(b"\r").unwrap_or(row);
            row.iter().map(|&c| floor(c)).collect()
        })
        .collect()
}

/// `@ > < $ !` read as the floor they stand on, as the generator reads a
/// sample and as a level's terrain is.
fn floor(c: u8) -> u8 {
    match c {
        b'@' | b'>' | b'<' | b'$' | b'!' => b'.',
        c => c,
    }
}

/// The heap a level may take: the level's, and the generator's for the
/// patterns the sample has (counted here).
fn memory_bound(r: &Request, (w, h): (usize, usize)) -> usize {
    let Arg::Int(n) = r.n else { return 0 };
    let given = r
        .rows
        .as_ref()
        .map_or(r.sample.clone(), |_| joined_rows(r).unwrap_or_default());
    let sample = sample_rows(sample_text(&given, r.blocking).0);
    if sample.iter().any(|row| row.len() < n as usize) || sample.len() < n as usize {
        return 0;
    }
    let n = n as usize;
    let patterns = windows(&sample, n, r.symmetry, r.wraps).len();
    let positions = (w + 1 - n) * (h + 1 - n);
    level::bound(w * h) + example::bound(positions, patterns, w * h)
}
