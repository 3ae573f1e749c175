//! Names for what the player meets (`map.names`): a Markov chain over the
//! characters of example words, of order `order` (the characters before
//! the next one that choose it), backing off to shorter contexts as
//! Witten and Bell's estimate says (a context seen often with few
//! followers is kept, a rare one often left for a shorter one: names
//! that are not the examples), and whenever a context allows no character
//! the rules let come next: the length bounds (the name may end only once
//! `min` long, and must end at `max`), a separator (`'`, `-`, space)
//! neither first nor last nor beside another.
//! A name equal to an example is drawn again when `novel`. Counts are
//! integers and every table is sorted, so the same examples and draws give
//! the same name everywhere.

use super::random::Random;

/// The longest order: a context of 8 symbols of 16 bits is one `u128`.
pub const MAX_ORDER: usize = 8;
/// The longest name asked for.
pub const MAX_LENGTH: usize = 1024;
/// The most characters the examples may hold in all.
pub const MAX_TEXT: usize = 1_000_000;
/// The most distinct characters.
const MAX_SYMBOLS: usize = 65_534;
/// Draws of a name before giving up on a novel one.
pub const ATTEMPTS: usize = 1000;

/// The start of a word (its padding) and its end, as a symbol.
const EDGE: u16 = 0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    pub order: usize,
    pub min: Option<usize>,
    pub max: Option<usize>,
    pub novel: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            order: 3,
            min: None,
            max: None,
            novel: true,
        }
    }
}

/// A context's counts of the symbols that followed it.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u32,
    end: u32,
}

/// The contexts of one length, sorted, with their spans of `next`.
#[derive(Clone, Debug, Default)]
struct Table {
    contexts: Vec<u128>,
    spans: Vec<Span>,
}

#[derive(Clone, Debug)]
pub struct Names {
    order: usize,
    min: usize,
    max: usize,
    novel: bool,
    /// Symbol `i` (from 1) is `chars[i - 1]`.
    chars: Vec<char>,
    /// Whether each symbol (from 1) is a separator.
    separator: Vec<bool>,
    /// By context length, 0 to `order`.
    tables: Vec<Table>,
    /// (symbol, count), by the tables' spans.
    next: Vec<(u16, u32)>,
    /// The examples as symbols, sorted, for `novel`.
    examples: Vec<Vec<u16>>,
    /// How many times each of `examples` was given: with them and the
    /// options, training again makes the same model (`training`).
    counts: Vec<u32>,
}

fn is_separator(c: char) -> bool {
    matches!(c, '\'' | '-' | ' ')
}

impl Names {
    /// The bytes training on `chars` characters in `count` examples takes,
    /// at most.
    fn training_bytes(chars: usize, count: usize, order: usize) -> usize {
        // While one length is sorted (32 bytes an entry), the tables made
        // (a context 24, a follower 8); the characters, words and examples.
        (chars + count) * 32 * (order + 2) + chars * 8 + count * 48 + (1 << 16)
    }

    /// Trains on `examples` (each a word: letters, `'`, `-`, space).
    pub fn new(examples: &[&str], options: Options) -> Result<Names, String> {
        if examples.is_empty() {
            return Err("examples is empty: give at least one word".into());
        }
        if !(1..=MAX_ORDER).contains(&options.order) {
            return Err(format!(
                "order must be an integer from 1 to {MAX_ORDER}, got {}",
                options.order
            ));
        }
        let mut chars: Vec<char> = Vec::new();
        for (i, word) in examples.iter().enumerate() {
            if word.is_empty() {
                return Err(format!("examples[{}] is empty", i + 1));
            }
            if let Some(c) = word
                .chars()
                .find(|&c| !c.is_alphabetic() && !is_separator(c))
            {
                return Err(format!(
                    "examples[{}] has {:?}: words are of letters, ', - and spaces",
                    i + 1,
                    c.to_string()
                ));
            }
            if !word.chars().any(char::is_alphabetic) {
                return Err(format!("examples[{}] has no letter", i + 1));
            }
            chars.extend(word.chars());
        }
        chars.sort_unstable();
        chars.dedup();
        if chars.len() > MAX_SYMBOLS {
            return Err(format!(
                "examples have more than {MAX_SYMBOLS} distinct characters"
            ));
        }
        let symbol = |c: char| chars.binary_search(&c).unwrap() as u16 + 1;
        let mut words: Vec<Vec<u16>> = examples
            .iter()
            .map(|w| w.chars().map(symbol).collect())
            .collect();
        let lengths = words.iter().map(Vec::len);
        let (shortest, longest) = (lengths.clone().min().unwrap(), lengths.max().unwrap());
        // By default as long as the examples (at most MAX_LENGTH).
        let max = options
            .max
            .unwrap_or(longest.max(options.min.unwrap_or(1)).min(MAX_LENGTH));
        let min = options.min.unwrap_or(shortest.min(max));
        if !(1..=MAX_LENGTH).contains(&min) || !(1..=MAX_LENGTH).contains(&max) {
            return Err(format!(
                "min and max must be integers from 1 to {MAX_LENGTH}, got {min} and {max}"
            ));
        }
        if min > max {
            return Err(format!("min ({min}) is above max ({max}): no name fits"));
        }
        let order = options.order;
        let mut tables = Vec::with_capacity(order + 1);
        let mut next: Vec<(u16, u32)> = Vec::new();
        // The empty context, the last resort, counts the characters that
        // follow another (a capital that only starts a word does not come
        // mid-word), and every one if no letter ever follows another.
        let inside = words
            .iter()
            .any(|w| w[1..].iter().any(|&s| !is_separator(chars[s as usize - 1])));
        // Every vector is made at its size: the peak is what `bound` says.
        let entries: usize = words.iter().map(|w| w.len() + 1).sum();
        let mut seen: Vec<(u128, u16)> = Vec::with_capacity(entries);
        for length in 0..=order {
            seen.clear();
            for word in &words {
                let mut context = 0u128;
                for (i, &s) in word.iter().chain([&EDGE]).enumerate() {
                    if length > 0 || i > 0 || !inside {
                        seen.push((context & mask(length), s));
                    }
                    context = context << 16 | u128::from(s);
                }
            }
            seen.sort_unstable();
            let contexts = seen.chunk_by(|a, b| a.0 == b.0).count();
            let pairs = seen.chunk_by(|a, b| a == b).count();
            let mut table = Table {
                contexts: Vec::with_capacity(contexts),
                spans: Vec::with_capacity(contexts),
            };
            next.reserve_exact(pairs);
            for run in seen.chunk_by(|a, b| a.0 == b.0) {
                let start = next.len() as u32;
                for same in run.chunk_by(|a, b| a.1 == b.1) {
                    next.push((same[0].1, same.len() as u32));
                }
                table.contexts.push(run[0].0);
                table.spans.push(Span {
                    start,
                    end: next.len() as u32,
                });
            }
            tables.push(table);
        }
        drop(seen);
        words.sort_unstable();
        let counts = words
            .chunk_by(|a, b| a == b)
            .map(|r| r.len() as u32)
            .collect();
        words.dedup();
        let separator = chars.iter().map(|&c| is_separator(c)).collect();
        let names = Names {
            order,
            min,
            max,
            novel: options.novel,
            chars,
            separator,
            tables,
            next,
            examples: words,
            counts,
        };
        // Too little to learn from: no novel name from a fixed source.
        names.name(&mut Random::new(0)).map_err(|_| {
            format!(
                "too little training data: no name that is not an example in {ATTEMPTS} tries \
                 (give more examples, a lower order, other bounds or novel = false)"
            )
        })?;
        Ok(names)
    }

    /// The bytes the model holds.
    pub fn bytes(&self) -> usize {
        let tables: usize = self.tables.iter().map(|t| t.contexts.len() * 24).sum();
        let examples: usize = self.examples.iter().map(|e| e.len() * 2 + 28).sum();
        tables + self.next.len() * 8 + self.chars.len() * 5 + examples
    }

    /// What it was trained on: its options (the length bounds in effect)
    /// and each distinct example, in order, with how many times it was
    /// given. Training is on the examples' multiset, so `new` on these
    /// gives the same model (a saved game keeps a generator so).
    pub fn training(&self) -> (Options, Vec<(String, u32)>) {
        let options = Options {
            order: self.order,
            min: Some(self.min),
            max: Some(self.max),
            novel: self.novel,
        };
        let word = |w: &Vec<u16>| w.iter().map(|&s| self.chars[s as usize - 1]).collect();
        let examples = self
            .examples
            .iter()
            .map(word)
            .zip(self.counts.iter().copied());
        (options, examples.collect())
    }

    /// The length bounds in effect (the defaults filled in).
    pub fn bounds(&self) -> (usize, usize) {
        (self.min, self.max)
    }

    /// A name drawn with `r`; an error if `ATTEMPTS` draws gave only
    /// examples (with `novel`).
    pub fn name(&self, r: &mut Random) -> Result<String, String> {
        let mut word: Vec<u16> = Vec::with_capacity(self.max);
        for _ in 0..ATTEMPTS {
            self.draw(r, &mut word);
            if !self.novel || self.examples.binary_search(&word).is_err() {
                return Ok(word.iter().map(|&s| self.chars[s as usize - 1]).collect());
            }
        }
        Err(format!(
            "no name that is not an example in {ATTEMPTS} tries (novel = true): the examples \
             allow few others"
        ))
    }

    /// One word, into `word`, under the rules.
    fn draw(&self, r: &mut Random, word: &mut Vec<u16>) {
        word.clear();
        let mut context = 0u128;
        loop {
            let len = word.len();
            let after_separator = word.last().is_some_and(|&s| self.is_separator(s));
            let allowed = |s: u16| {
                if s == EDGE {
                    return len >= self.min && !after_separator;
                }
                if len >= self.max {
                    return false;
                }
                if self.is_separator(s) {
                    // Not first, not after another, with room for a letter after.
                    return len > 0 && !after_separator && len + 2 <= self.max;
                }
                true
            };
            let s = self.choose(r, context, allowed);
            if s == EDGE {
                return;
            }
            word.push(s);
            context = context << 16 | u128::from(s);
        }
    }

    fn is_separator(&self, s: u16) -> bool {
        self.separator[s as usize - 1]
    }

    /// The next symbol after `context`, by Witten-Bell backoff: from the
    /// longest context seen, a context followed `n` times by `u` distinct
    /// symbols (of those `allowed` takes) draws among them by their counts
    /// with probability `n / (n + u)`, else backs off to the context one
    /// shorter; the context of one symbol always draws, and the empty one
    /// only when no longer one has an allowed follower. Counts and draws
    /// are integers.
    fn choose(&self, r: &mut Random, context: u128, allowed: impl Fn(u16) -> bool) -> u16 {
        for length in (0..=self.order).rev() {
            let table = &self.tables[length];
            let Ok(i) = table.contexts.binary_search(&(context & mask(length))) else {
                continue;
            };
            let span = table.spans[i];
            let options = &self.next[span.start as usize..span.end as usize];
            let (mut n, mut u) = (0u64, 0u64);
            for o in options.iter().filter(|o| allowed(o.0)) {
                n += u64::from(o.1);
                u += 1;
            }
            if n == 0 {
                continue;
            }
            let mut pick = match length {
                0 | 1 => r.below(n),
                _ => r.below(n + u),
            };
            if pick >= n {
                continue;
            }
            for &(s, count) in options.iter().filter(|o| allowed(o.0)) {
                if pick < u64::from(count) {
                    return s;
                }
                pick -= u64::from(count);
            }
        }
        // The empty context holds every letter and the end: the rules
        // always allow one of them.
        unreachable!("no symbol allowed after any context")
    }
}

/// The low `length` symbols of a context.
fn mask(length: usize) -> u128 {
    if length >= MAX_ORDER {
        u128::MAX
    } else {
        (1u128 << (16 * length)) - 1
    }
}

/// The memory `map.names` on `count` examples of `chars` characters in
/// all, at `order`, may use: the examples' strings as read (16 bytes each)
/// and the training (the model's tables and, while one length is sorted,
/// its entries).
pub fn bound(chars: usize, count: usize, order: usize) -> usize {
    Names::training_bytes(chars, count, order) + 16 * count + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;

    const ELVES: &[&str] = &[
        "Aerandir",
        "Amroth",
        "Aranwe",
        "Beleg",
        "Celeborn",
        "Cirdan",
        "Daeron",
        "Earwen",
        "Ecthelion",
        "Elrond",
        "Elwing",
        "Feanor",
        "Finrod",
        "Galadriel",
        "Gildor",
        "Glorfindel",
        "Haldir",
        "Idril",
        "Ingwe",
        "Legolas",
        "Luthien",
        "Mablung",
        "Nimrodel",
        "Orodreth",
        "Rumil",
        "Saeros",
        "Thingol",
        "Turgon",
    ];

    #[test]
    fn names_are_novel_in_bounds_and_deterministic() {
        let g = Names::new(ELVES, Options::default()).unwrap();
        assert_eq!(g.bounds(), (5, 10));
        let mut r = Random::new(1);
        let first: Vec<String> = (0..200).map(|_| g.name(&mut r).unwrap()).collect();
        let mut r = Random::new(1);
        let again: Vec<String> = (0..200).map(|_| g.name(&mut r).unwrap()).collect();
        assert_eq!(first, again);
        for name in &first {
            let n = name.chars().count();
            assert!((5..=10).contains(&n), "{name}");
            assert!(!ELVES.contains(&name.as_str()), "{name}");
        }
        let distinct: std::collections::BTreeSet<_> = first.iter().collect();
        assert!(distinct.len() > 100, "{}", distinct.len());
    }

    #[test]
    fn separators_stay_inside_and_apart() {
        let words = [
            "Jean-Luc",
            "Van Helsing",
            "D'Artagnan",
            "Mary-Kate",
            "Le Fay",
            "O'Neil",
            "Anne-Marie",
        ];
        for order in 1..=4 {
            let options = Options {
                order,
                ..Options::default()
            };
            let g = Names::new(&words, options).unwrap();
            let mut r = Random::new(7);
            for _ in 0..2000 {
                let name = g.name(&mut r).unwrap();
                let chars: Vec<char> = name.chars().collect();
                assert!(
                    !is_separator(chars[0]) && !is_separator(*chars.last().unwrap()),
                    "{name}"
                );
                assert!(
                    chars
                        .windows(2)
                        .all(|w| !(is_separator(w[0]) && is_separator(w[1]))),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn bounds_are_kept_by_backing_off() {
        let g = Names::new(
            ELVES,
            Options {
                min: Some(12),
                max: Some(14),
                ..Options::default()
            },
        )
        .unwrap();
        let mut r = Random::new(3);
        for _ in 0..500 {
            let n = g.name(&mut r).unwrap().chars().count();
            assert!((12..=14).contains(&n));
        }
        let g = Names::new(
            ELVES,
            Options {
                min: Some(2),
                max: Some(3),
                ..Options::default()
            },
        )
        .unwrap();
        for _ in 0..500 {
            let n = g.name(&mut r).unwrap().chars().count();
            assert!((2..=3).contains(&n));
        }
    }

    #[test]
    fn errors_say_why() {
        let err = |words: &[&str], o: Options| Names::new(words, o).unwrap_err();
        let d = Options::default();
        assert_eq!(err(&[], d), "examples is empty: give at least one word");
        assert_eq!(err(&["ab", ""], d), "examples[2] is empty");
        assert_eq!(
            err(&["R2D2"], d),
            "examples[1] has \"2\": words are of letters, ', - and spaces"
        );
        assert_eq!(err(&["--"], d), "examples[1] has no letter");
        assert!(err(&["Bob"], d).starts_with("too little training data"));
        assert_eq!(
            err(
                &["Bob", "Alice"],
                Options {
                    min: Some(6),
                    max: Some(4),
                    ..d
                }
            ),
            "min (6) is above max (4): no name fits"
        );
        assert_eq!(
            err(&["Bob"], Options { order: 9, ..d }),
            "order must be an integer from 1 to 8, got 9"
        );
        assert!(Names::new(&["Bob"], Options { novel: false, ..d }).is_ok());
    }

    #[test]
    fn single_letters_still_make_longer_names() {
        let options = Options {
            min: Some(3),
            max: Some(4),
            novel: false,
            ..Options::default()
        };
        let g = Names::new(&["A", "B", "C-D"], options).unwrap();
        let mut r = Random::new(5);
        for _ in 0..200 {
            let n = g.name(&mut r).unwrap().chars().count();
            assert!((3..=4).contains(&n));
        }
        let g = Names::new(&["A", "B"], options).unwrap();
        assert_eq!(g.name(&mut r).unwrap().chars().count(), 3);
    }

    #[test]
    fn a_capital_that_only_starts_words_stays_first() {
        let g = Names::new(ELVES, Options::default()).unwrap();
        let mut r = Random::new(9);
        for _ in 0..2000 {
            let name = g.name(&mut r).unwrap();
            assert!(name.chars().skip(1).all(char::is_lowercase), "{name}");
        }
    }

    #[test]
    fn letters_beyond_ascii() {
        let g = Names::new(
            &["Zoë", "Élodie", "Ðórr", "Ærin", "Søren", "Ångström"],
            Options::default(),
        )
        .unwrap();
        let mut r = Random::new(2);
        for _ in 0..100 {
            let name = g.name(&mut r).unwrap();
            assert!(name.chars().all(char::is_alphabetic), "{name}");
        }
    }
}
