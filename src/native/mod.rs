//! A level in native memory (issue 24): the terrain as one byte a cell (a
//! `Grid`), the things standing on it as a list in row order, which cells
//! are occupied as a bitset, and the ids of their occupants (issue 36) as a
//! sparse map. No Lua here: the binding wraps it in a
//! userdata, and the toolkit's methods will read `terrain()` and
//! `occupancy()` directly, so a turn pays for its work, not for the map.
//!
//! Why its own folder and not `toolkit/`: the toolkit is functions of a
//! grid; this is state a game keeps between calls, with its save format
//! (`save.rs`), and it calls both the pipeline (`level`) and the toolkit.

pub mod field;
pub mod save;
pub mod steps;

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::grid::{ByteSet, Grid, Pos, FLOOR, PLAYER};
use crate::level::Level;

/// Each byte of `chars` once, in the order of its first place: at most
/// 256 bytes.
pub fn distinct(chars: &[u8]) -> Vec<u8> {
    let mut seen = [false; 256];
    let mut out = Vec::new();
    for &c in chars {
        if !std::mem::replace(&mut seen[c as usize], true) {
            out.push(c);
        }
    }
    out
}

/// Left under a thing moved out at `up`: the up staircase `arrive` makes.
pub const UP: u8 = b'<';

/// A character standing on a cell, apart from the terrain under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thing {
    pub char: u8,
    /// The cell's row-major index (`MAX_CELLS` fits in 32 bits).
    pub index: u32,
}

/// One bit a cell: 1/8 byte, so that a 4,000,000-cell level stays within
/// its 2 bytes a cell with the terrain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    pub fn new(cells: usize) -> Bits {
        Bits {
            words: vec![0; cells.div_ceil(64)],
        }
    }

    /// The bits of `flags`, in order.
    pub fn from_flags(flags: &[bool]) -> Bits {
        Bits {
            words: flags.chunks(64).map(Bits::word).collect(),
        }
    }

    /// The word of up to 64 `flags`, the first on its lowest bit.
    pub fn word(flags: &[bool]) -> u64 {
        // Eight flags (bytes 0 or 1) gathered into a byte by one multiply:
        // byte i lands on bit 56 + i, and no two products share a bit.
        let byte = |eight: &[bool]| {
            let mut b = [0u8; 8];
            b.iter_mut().zip(eight).for_each(|(b, &f)| *b = u8::from(f));
            (u64::from_le_bytes(b).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
        };
        let mut w = [0u8; 8];
        w.iter_mut()
            .zip(flags.chunks(8))
            .for_each(|(w, c)| *w = byte(c));
        u64::from_le_bytes(w)
    }

    pub fn get(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    pub fn set(&mut self, i: usize, on: bool) {
        let bit = 1u64 << (i % 64);
        if on {
            self.words[i / 64] |= bit;
        } else {
            self.words[i / 64] &= !bit;
        }
    }

    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// The words, for LuaJIT's FFI (they never move).
    pub fn words_ptr(&mut self) -> *mut u64 {
        self.words.as_mut_ptr()
    }
}

/// The largest id an occupant may have (`lvl:occupy(x, y, id)`): ids are
/// integers from 1 to 2^53, which both interpreters' numbers hold exactly.
pub const MAX_ID: i64 = 1 << 53;

/// The heap bytes one id may hold in `Ids` at most: a B-tree's entry (12
/// bytes) in leaves of 144 bytes that hold 5 to 11 entries (29 bytes an
/// entry at worst) and the inner nodes' share; `tests/memory.rs` measures
/// 19 to 27 on 160,000 ids put in row order, backwards and scattered.
pub const ID_BYTES: usize = 48;

/// The ids of occupied cells, by cell index: sparse, so that a level
/// without ids holds no heap for them, and one with `n` ids at most
/// `n * ID_BYTES`. Every cell with an id is occupied (`NativeLevel` keeps
/// it so).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ids {
    /// How many cells have an id, read in place by LuaJIT's route (its
    /// `vacate` leaves a level that has ids to the C method).
    count: u64,
    by_cell: BTreeMap<u32, i64>,
}

impl Ids {
    pub fn get(&self, i: usize) -> Option<i64> {
        self.by_cell.get(&(i as u32)).copied()
    }

    /// The cell `i`'s id becomes `id` (`None`: it has none).
    pub fn set(&mut self, i: usize, id: Option<i64>) {
        match id {
            Some(id) => self.by_cell.insert(i as u32, id),
            None => self.by_cell.remove(&(i as u32)),
        };
        self.count = self.by_cell.len() as u64;
    }

    pub fn len(&self) -> usize {
        self.by_cell.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_cell.is_empty()
    }

    /// Each cell's index and its id, in row order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, i64)> + '_ {
        self.by_cell.iter().map(|(&i, &id)| (i as usize, id))
    }

    /// The ids of `pairs`, each cell's index once, in row order.
    pub fn from_sorted(pairs: impl Iterator<Item = (u32, i64)>) -> Ids {
        let by_cell: BTreeMap<u32, i64> = pairs.collect();
        Ids {
            count: by_cell.len() as u64,
            by_cell,
        }
    }

    /// The count, for LuaJIT's FFI (it never moves while the level lives).
    fn count_ptr(&self) -> *const u64 {
        &self.count
    }
}

/// Who stands on a cell: nobody, or an occupant with an id or without.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occupant {
    Free,
    Anonymous,
    Id(i64),
}

/// A level kept natively: terrain, things, occupancy and, for a generated
/// one, `generate`'s metadata (a `Level` whose grid is empty: the terrain
/// is here, the things laid over it on demand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NativeLevel {
    terrain: Grid,
    /// Shared, never changed once made: a reply can hold them while it
    /// pushes them (`lvl:things()`), without a copy.
    things: Rc<[Thing]>,
    occupied: Bits,
    /// The occupants' ids, on occupied cells only.
    ids: Ids,
    /// Shared as the things are (`lvl.rooms`).
    meta: Option<Rc<Level>>,
    /// The characters that block walking on it, where not `#` alone: a
    /// table's `blocked`, or its generator's (the overworld's `#~^`); each
    /// character once, in the order given.
    blocked: Option<Vec<u8>>,
}

impl NativeLevel {
    /// `grid` as it is, no things: `map.level(m)`.
    pub fn from_grid(grid: Grid) -> NativeLevel {
        let occupied = Bits::new(grid.cells().len());
        NativeLevel {
            terrain: grid,
            things: Rc::from([]),
            occupied,
            ids: Ids::default(),
            meta: None,
            blocked: None,
        }
    }

    /// The same level, walking blocked by `chars` (`None`: by `#`).
    pub fn with_blocked(mut self, chars: Option<&[u8]>) -> NativeLevel {
        self.blocked = chars.map(distinct);
        self
    }

    /// The same level with `generate`'s metadata `meta` (its grid unused:
    /// the terrain and things are the level's), read back from a map table.
    pub fn with_meta(mut self, meta: Option<Level>) -> NativeLevel {
        self.meta = meta.map(Rc::new);
        self
    }

    /// The characters that block walking on it, where not `#` alone.
    pub fn blocked(&self) -> Option<&[u8]> {
        self.blocked.as_deref()
    }

    /// `grid` with the characters of `things` moved out, floor left under
    /// each (`map.level(m, {things = ...})`).
    pub fn with_things(grid: Grid, things: &ByteSet) -> NativeLevel {
        let mut level = NativeLevel::from_grid(grid);
        level.things = level.split(things, None);
        level
    }

    /// A generated level, split: the things are `@`, `$`, `!`, every
    /// `place` character and `extra` (the option `things`); the cell under
    /// each is floor, or `<` at `up` (`arrive`).
    pub fn from_level(mut level: Level, extra: &ByteSet) -> NativeLevel {
        let mut chars = *extra;
        for c in [PLAYER, b'$', b'!'] {
            chars[c as usize] = true;
        }
        level
            .placed
            .iter()
            .for_each(|p| chars[p.char as usize] = true);
        let grid = std::mem::replace(&mut level.grid, Grid::new(0, 0, FLOOR));
        let mut native = NativeLevel::from_grid(grid);
        native.things = native.split(&chars, level.up);
        native.blocked = level.blocked().map(|b| b.as_bytes().to_vec());
        native.meta = Some(Rc::new(level));
        native
    }

    /// Moves every cell of `chars` out into things, in row order.
    fn split(&mut self, chars: &ByteSet, up: Option<Pos>) -> Rc<[Thing]> {
        let up = up.map(|p| self.terrain.index(p));
        // Counted first, then made in place: a list grown by doubling, or
        // copied into its `Rc`, would peak at twice its size.
        let count = self
            .terrain
            .cells()
            .iter()
            .filter(|&&c| chars[c as usize])
            .count();
        let mut things = Rc::<[Thing]>::new_uninit_slice(count);
        let slots = Rc::get_mut(&mut things).expect("a new Rc is unique");
        let mut slot = slots.iter_mut();
        for i in 0..self.terrain.cells().len() {
            let c = self.terrain.cells()[i];
            if chars[c as usize] {
                let thing = Thing {
                    char: c,
                    index: i as u32,
                };
                slot.next().expect("counted").write(thing);
                let under = if up == Some(i) { UP } else { FLOOR };
                self.terrain.set_at(i, under);
            }
        }
        // SAFETY: every one of the `count` slots was written, as counted.
        unsafe { things.assume_init() }
    }

    /// Its things, shared (a reply pushing them holds them so).
    pub fn shared_things(&self) -> Rc<[Thing]> {
        Rc::clone(&self.things)
    }

    /// `generate`'s metadata, shared, for a generated level.
    pub fn shared_meta(&self) -> Option<Rc<Level>> {
        self.meta.clone()
    }

    pub fn width(&self) -> usize {
        self.terrain.width()
    }

    pub fn height(&self) -> usize {
        self.terrain.height()
    }

    pub fn terrain(&self) -> &Grid {
        &self.terrain
    }

    pub fn things(&self) -> &[Thing] {
        &self.things
    }

    pub fn occupancy(&self) -> &Bits {
        &self.occupied
    }

    pub fn ids(&self) -> &Ids {
        &self.ids
    }

    /// The terrain's cells, the occupancy's words and the count of ids, in
    /// place, for LuaJIT's FFI: each keeps its address for the level's
    /// life (the level is boxed in its userdata).
    pub fn raw_parts(&mut self) -> (*mut u8, *mut u64, *const u64) {
        let ids = self.ids.count_ptr();
        (self.terrain.cells_ptr(), self.occupied.words_ptr(), ids)
    }

    /// `generate`'s metadata, for a generated level.
    pub fn meta(&self) -> Option<&Level> {
        self.meta.as_deref()
    }

    /// The cell at `p`, which must be inside (the binding checks).
    pub fn get(&self, p: Pos) -> u8 {
        self.terrain.get(p)
    }

    pub fn set(&mut self, p: Pos, c: u8) {
        self.terrain.set(p, c);
    }

    pub fn occupied(&self, p: Pos) -> bool {
        self.occupied.get(self.terrain.index(p))
    }

    /// `on`: the cell becomes occupied, keeping its id if it has one;
    /// else it is vacated, its id gone.
    pub fn occupy(&mut self, p: Pos, on: bool) {
        let i = self.terrain.index(p);
        self.occupied.set(i, on);
        if !on && !self.ids.is_empty() {
            self.ids.set(i, None);
        }
    }

    /// The cell becomes occupied by `id` (1 to `MAX_ID`, which the
    /// binding checks), in place of any id it had.
    pub fn occupy_by(&mut self, p: Pos, id: i64) {
        let i = self.terrain.index(p);
        self.occupied.set(i, true);
        self.ids.set(i, Some(id));
    }

    /// Who stands at `p`.
    pub fn occupant(&self, p: Pos) -> Occupant {
        let i = self.terrain.index(p);
        match (self.occupied.get(i), self.ids.get(i)) {
            (false, _) => Occupant::Free,
            (true, None) => Occupant::Anonymous,
            (true, Some(id)) => Occupant::Id(id),
        }
    }

    /// A mover's move (`steps` with `occupied`): `from` is vacated and `to`
    /// occupied, by `from`'s id if it had one (and then by no other).
    pub fn move_occupant(&mut self, from: Pos, to: Pos) {
        let (i, j) = (self.terrain.index(from), self.terrain.index(to));
        self.occupied.set(i, false);
        self.occupied.set(j, true);
        if !self.ids.is_empty() {
            let id = self.ids.get(i);
            self.ids.set(i, None);
            self.ids.set(j, id);
        }
    }

    pub fn thing_pos(&self, t: Thing) -> Pos {
        self.terrain.pos(t.index as usize)
    }

    /// The things laid back over the terrain: the map `generate_text` draws.
    pub fn laid(&self) -> Grid {
        let mut grid = self.terrain.clone();
        self.things
            .iter()
            .for_each(|t| grid.set_at(t.index as usize, t.char));
        grid
    }

    /// The table `generate` would return (`None`: not generated, rows only).
    pub fn table(&self) -> Option<Level> {
        self.meta.as_ref().map(|meta| Level {
            grid: self.laid(),
            ..(**meta).clone()
        })
    }
}

/// The memory `map.level` of a table or text of `cells` cells may use: the
/// grid copied (a byte a cell, and the text's copy while it is read), its
/// occupancy (a bit) and its things (8 bytes each, at most every cell).
pub fn bound(cells: usize) -> usize {
    11 * cells + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::byte_set;
    use crate::input::Arg;
    use crate::level::{generate, generate_grid, Params};

    fn params(algorithm: &str, seed: i64) -> Params<'_> {
        Params::new(Arg::Int(60), Arg::Int(30), Arg::Int(seed))
            .with(b"algorithm", Arg::Str(algorithm.as_bytes()))
    }

    #[test]
    fn laying_the_things_back_gives_the_generated_map() {
        for g in crate::generators::LIST {
            for seed in 1..20 {
                let p = params(g.name, seed);
                let level = generate(&p).unwrap();
                let native = NativeLevel::from_level(level.clone(), &byte_set(b""));
                assert_eq!(
                    native.laid(),
                    generate_grid(&p).unwrap(),
                    "{} {seed}",
                    g.name
                );
                assert_eq!(native.table().unwrap(), level);
                let chars = native.things().iter().map(|t| t.char);
                assert!(chars.clone().all(|c| b"@$!".contains(&c)));
                assert_eq!(chars.filter(|&c| c == PLAYER).count(), 1);
                assert!(!native.terrain().cells().contains(&PLAYER));
            }
        }
    }

    /// Vaults holding their own creature `M` (the option `things`), `place`
    /// and `arrive` on every algorithm: the things laid back are the
    /// generated map, `<` is under `@`, and the level saves and loads back.
    #[test]
    fn designed_levels_split_and_lay_back() {
        use crate::level::place::Placement;
        use crate::level::vaults::Template;
        let rows: [&[u8]; 3] = [b".....", b".#M#.", b"....."];
        let vault = Template::new(1, &rows, Arg::Int(2), Arg::Bool(true), Arg::Bool(false));
        let mut vaults_placed = 0;
        for g in crate::generators::LIST.iter().filter(|g| g.carves_rock()) {
            let mut p = Params::new(Arg::Int(70), Arg::Int(40), Arg::Int(5))
                .with(b"algorithm", Arg::Str(g.name.as_bytes()));
            p.design.vaults = vec![vault.clone().unwrap()];
            p.design.arrive = Some((20, 20));
            p.design.place = vec![Placement {
                char: b'k',
                count: 3,
                min: 0,
                hidden: false,
                per_room: None,
                choose: Vec::new(),
            }];
            let level = generate(&p).unwrap();
            let native = NativeLevel::from_level(level.clone(), &byte_set(b"M"));
            assert_eq!(native.laid(), generate_grid(&p).unwrap(), "{}", g.name);
            assert_eq!(native.table().unwrap(), level);
            let up = level.up.unwrap();
            assert_eq!(native.get(up), UP);
            let chars: Vec<u8> = native.things().iter().map(|t| t.char).collect();
            assert_eq!(
                chars.iter().filter(|&&c| c == b'k').count(),
                level.placed.len()
            );
            let in_vaults = level.vaults.len();
            vaults_placed += in_vaults;
            assert_eq!(
                chars.iter().filter(|&&c| c == b'M').count(),
                in_vaults,
                "{}",
                g.name
            );
            let bytes = save::save(&native);
            assert_eq!(save::load(&bytes).unwrap(), native);
        }
        assert!(vaults_placed > 0, "no vault was placed: the test saw no M");
    }

    #[test]
    fn bits_from_flags_keep_every_flag() {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        for len in [0usize, 1, 7, 8, 9, 63, 64, 65, 200] {
            let flags: Vec<bool> = (0..len)
                .map(|_| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    rng & 1 == 1
                })
                .collect();
            let bits = Bits::from_flags(&flags);
            assert_eq!(bits.words().len(), len.div_ceil(64));
            assert!((0..len).all(|i| bits.get(i) == flags[i]), "{len}");
        }
    }

    #[test]
    fn get_set_and_occupancy_are_in_place() {
        let mut n = NativeLevel::from_grid(Grid::from_rows(&["#.#", ".$."]));
        let p = Pos { x: 2, y: 2 };
        assert_eq!(n.get(p), b'$');
        n.set(p, b'+');
        assert_eq!(n.get(p), b'+');
        assert!(!n.occupied(p));
        n.occupy(p, true);
        assert!(n.occupied(p) && !n.occupied(Pos { x: 1, y: 2 }));
        n.occupy(p, false);
        assert!(!n.occupied(p));
        let t = NativeLevel::with_things(Grid::from_rows(&["#$#", "@.!"]), &byte_set(b"$!@"));
        assert_eq!(t.terrain(), &Grid::from_rows(&["#.#", "..."]));
        let at: Vec<_> = t
            .things()
            .iter()
            .map(|&x| (x.char, t.thing_pos(x)))
            .collect();
        assert_eq!(at[0], (b'$', Pos { x: 2, y: 1 }));
        assert_eq!(at[2], (b'!', Pos { x: 3, y: 2 }));
    }

    /// Ids: `occupy` without one keeps the cell's, `occupy_by` replaces
    /// it, vacating drops it, a move carries it, and an occupied cell with
    /// no id is `Anonymous`.
    #[test]
    fn occupants_keep_their_ids() {
        let mut n = NativeLevel::from_grid(Grid::from_rows(&["....", "...."]));
        let (a, b) = (Pos { x: 1, y: 1 }, Pos { x: 2, y: 2 });
        assert_eq!(n.occupant(a), Occupant::Free);
        n.occupy(a, true);
        assert_eq!(n.occupant(a), Occupant::Anonymous);
        n.occupy_by(a, 3);
        n.occupy(a, true);
        assert_eq!(n.occupant(a), Occupant::Id(3));
        n.occupy_by(a, 4);
        assert_eq!(n.occupant(a), Occupant::Id(4));
        n.move_occupant(a, b);
        assert_eq!(
            (n.occupant(a), n.occupant(b)),
            (Occupant::Free, Occupant::Id(4))
        );
        assert_eq!(n.ids().len(), 1);
        n.occupy(b, false);
        assert_eq!(n.occupant(b), Occupant::Free);
        n.occupy(b, true);
        assert_eq!(n.occupant(b), Occupant::Anonymous, "its id left with it");
        assert!(n.ids().is_empty() && n.ids().count == 0);
    }
}
