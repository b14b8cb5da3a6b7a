//! The names an alias must not collide with, indexed so that deciding `n` aliases is not `n²`
//! Jaro-Winkler comparisons.
//!
//! A collision is a case-insensitive exact match of the normalized forms, or Jaro-Winkler ≥ 0.95
//! on them ([`collides`], the definition). [`NameIndex::first_collision`] answers "the first
//! name, in insertion order, that collides" exactly as a scan with [`collides`] would, looking
//! at far fewer names:
//!
//! 1. **Exact matches** come from a hash map.
//! 2. **Jaro-Winkler candidates** come from a *prefix filter* on the names' characters.
//!    - *The bound.* Write `a`, `b` for the lengths (in characters), `m` for the characters Jaro
//!      matches, `t` for its transpositions, `ℓ ≤ 4` for the common prefix. Jaro is
//!      `j = (m/a + m/b + (m−t)/m) / 3 ≤ (m/a + m/b + 1) / 3`, and Jaro-Winkler is
//!      `j + 0.1·ℓ·(1−j) ≤ 0.6·j + 0.4` (or `j` itself, when strsim skips the bonus). So
//!      Jaro-Winkler ≥ 0.95 needs `j ≥ 11/12`, hence `m/a + m/b ≥ 7/4`, hence
//!      `m ≥ 7ab / (4(a+b))`. Jaro pairs each matched character of one string with an equal,
//!      distinct character of the other, so `m` is at most the size of the intersection of the
//!      two character multisets: colliding names share at least
//!      [`min_common`]`(a, b) = ⌈7ab / (4(a+b))⌉` characters, which also needs `3b ≤ 4a` and
//!      `3a ≤ 4b` (the length ratio bound; `m ≤ min(a, b)`). Floating point cannot break this:
//!      the computed score is within a few ulps of the exact one and `4m(a+b) ≥ 7ab` compares
//!      integers, so an error below `1/(4ab)` cannot flip it; the filter only ever sees lengths
//!      up to [`INDEXED_MAX_CHARS`] · 4/3.
//!    - *The prefix.* A name's multiset is a set of tokens `(character, occurrence)` — the
//!      second `e` of a name is `(e, 2)` — sorted in one fixed order per index, rarest first (by
//!      how often the token occurs among the names and aliases the index was made for, then by
//!      the token). If two token sets share `k ≥ 2` tokens, their two smallest shared tokens lie
//!      among the first `a − k + 2` tokens of one and the first `b − k + 2` of the other (each is
//!      followed by at least `k − 2` shared tokens in both): the ℓ-prefix lemma of set
//!      similarity joins, with ℓ = 2. For lengths `a, b ≥ 2` that can collide, `min_common ≥ 2`.
//!    - *The lookups.* Each name of 2 to [`INDEXED_MAX_CHARS`] characters is listed, under
//!      `(token, its length)`, for the tokens of its longest prefix (the one its shortest
//!      possible partner needs). A query of length `a` looks up its own longest prefix against
//!      every partner length `b` that can collide, and counts a hit only when the token lies
//!      within both prefixes for that pair's `k`; a name with two hits is a candidate. Every name
//!      that can collide is a candidate; the shared token count is then checked exactly, and only
//!      the survivors are compared with Jaro-Winkler. Names of one character (which collide only
//!      exactly) and names longer than [`INDEXED_MAX_CHARS`] are compared directly, by the
//!      queries whose length could collide with them.
//!
//! The exact semantics are held by a property test against the definition. The work is counted,
//! not timed: for 5,000 distinct alias-like phrases the index looks at about an eighth of the
//! `n²/2` pairs' postings (cheap integer reads), counts shared tokens for under 1% of the pairs,
//! and makes a few hundred Jaro-Winkler comparisons instead of 12.5 million. The posting walk is
//! still quadratic in the worst case (names drawn from a small alphabet share their rare
//! characters), with a small constant.

use std::cell::Cell;
use std::collections::HashMap;

use super::Name;
use crate::rules::ALIAS_JARO_WINKLER_THRESHOLD;

/// Longest name (characters) kept in the prefix filter; longer names (no alias is this long:
/// `payload.alias` has at most 64 characters) and one-character names are compared directly by
/// the queries whose length they could collide with.
pub(crate) const INDEXED_MAX_CHARS: usize = 96;

/// Whether two names collide: the definition (exact, or Jaro-Winkler ≥ 0.95 on the normalized
/// forms). The length check is the filter's bound, which the definition implies.
pub(crate) fn collides(a: &Name, b: &Name) -> bool {
    if a.normalized == b.normalized {
        return true;
    }
    if !lengths_can_collide(a.chars, b.chars) {
        return false;
    }
    strsim::jaro_winkler(&a.normalized, &b.normalized) >= ALIAS_JARO_WINKLER_THRESHOLD
}

/// `3b ≤ 4a` and `3a ≤ 4b`: the lengths two colliding names can have (see the module docs).
fn lengths_can_collide(a: usize, b: usize) -> bool {
    3 * b <= 4 * a && 3 * a <= 4 * b
}

/// The fewest characters two names of lengths `a` and `b` share when their Jaro-Winkler is at
/// least 0.95: `⌈7ab / (4(a+b))⌉` (see the module docs).
pub(crate) fn min_common(a: usize, b: usize) -> usize {
    let (a, b) = (a as u128, b as u128);
    let denominator = 4 * (a + b);
    if denominator == 0 {
        return 0;
    }
    usize::try_from((7 * a * b).div_ceil(denominator)).unwrap_or(usize::MAX)
}

/// A token: how rare it is (lower first), the character, its occurrence.
type Token = (u32, char, u32);

/// One indexed name: the name, the proposal it comes from (accepted aliases), its tokens.
struct Entry {
    name: Name,
    proposal: Option<String>,
    tokens: Vec<Token>,
}

/// A name holding a token within its longest prefix: the name, the token's position in it.
type Posting = (u32, u8);

/// Names, in insertion order, with the lookups of the module docs.
pub(crate) struct NameIndex {
    entries: Vec<Entry>,
    exact: HashMap<String, Vec<usize>>,
    /// `(token, length)` → the names of that length holding the token within their longest
    /// prefix.
    postings: HashMap<(Token, u8), Vec<Posting>>,
    /// Names outside the filter (one character, or longer than [`INDEXED_MAX_CHARS`]).
    direct: Vec<usize>,
    /// How often each `(character, occurrence)` occurs among the names the order was taken
    /// from: fixed for the index's life, so every name is ordered the same way.
    frequency: HashMap<(char, u32), u32>,
    /// Postings looked at, names whose shared tokens were counted, Jaro-Winkler comparisons.
    visited: Cell<usize>,
    verified: Cell<usize>,
    compared: Cell<usize>,
}

impl NameIndex {
    /// An index of `names`, its token order taken from them.
    pub fn new(names: Vec<Name>) -> Self {
        let mut index =
            NameIndex::empty(HashMap::new()).counting(names.iter().map(|n| n.normalized.as_str()));
        for name in names {
            index.push(name, None);
        }
        index
    }

    /// An empty index whose token order counts `texts` as well as what `self`'s order counted:
    /// a batch passes the aliases it is about to decide, so the order is the rarity among the
    /// very names the index will hold.
    pub fn empty_counting<'t>(&self, texts: impl Iterator<Item = &'t str>) -> Self {
        NameIndex::empty(self.frequency.clone()).counting(texts)
    }

    fn empty(frequency: HashMap<(char, u32), u32>) -> Self {
        NameIndex {
            entries: Vec::new(),
            exact: HashMap::new(),
            postings: HashMap::new(),
            direct: Vec::new(),
            frequency,
            visited: Cell::new(0),
            verified: Cell::new(0),
            compared: Cell::new(0),
        }
    }

    /// Counts `texts` (normalized first) into the token order; only before the first `push`.
    fn counting<'t>(mut self, texts: impl Iterator<Item = &'t str>) -> Self {
        for text in texts {
            for token in occurrences(&super::normalize(text)) {
                *self.frequency.entry(token).or_default() += 1;
            }
        }
        self
    }

    fn tokens(&self, text: &str) -> Vec<Token> {
        let mut tokens: Vec<Token> = occurrences(text)
            .map(|(c, n)| (self.frequency.get(&(c, n)).copied().unwrap_or(0), c, n))
            .collect();
        tokens.sort_unstable();
        tokens
    }

    /// Adds `name` (from proposal `proposal`, for accepted aliases) after every name so far.
    pub fn push(&mut self, name: Name, proposal: Option<String>) {
        let at = self.entries.len();
        let tokens = self.tokens(&name.normalized);
        let b = tokens.len();
        match (u32::try_from(at), u8::try_from(b)) {
            (Ok(id), Ok(length)) if (2..=INDEXED_MAX_CHARS).contains(&b) => {
                // The longest prefix any partner can need: the one of the shortest length that
                // can collide needs the fewest shared tokens.
                let indexed = prefix_len(b, min_common((3 * b).div_ceil(4), b));
                for (position, token) in tokens.iter().take(indexed).enumerate() {
                    if let Ok(position) = u8::try_from(position) {
                        self.postings
                            .entry((*token, length))
                            .or_default()
                            .push((id, position));
                    }
                }
            }
            _ => self.direct.push(at),
        }
        self.exact
            .entry(name.normalized.clone())
            .or_default()
            .push(at);
        self.entries.push(Entry {
            name,
            proposal,
            tokens,
        });
    }

    /// The first name in insertion order that collides with `candidate`, skipping the names that
    /// come from proposal `skip`: what `names.iter().find(|n| collides(candidate, n))` finds.
    pub fn first_collision(&self, candidate: &Name, skip: &str) -> Option<&Name> {
        let skipped = |entry: &Entry| entry.proposal.as_deref() == Some(skip);
        let mut best = self.exact.get(&candidate.normalized).and_then(|at| {
            at.iter()
                .copied()
                .find(|&i| self.entries.get(i).is_some_and(|e| !skipped(e)))
        });
        let tokens = self.tokens(&candidate.normalized);
        let a = tokens.len();
        let mut candidates: Vec<usize> = Vec::new();
        // Names outside the filter, of a length that can collide.
        for &at in &self.direct {
            if let Some(entry) = self.entries.get(at)
                && lengths_can_collide(a, entry.tokens.len())
            {
                candidates.push(at);
            }
        }
        // Names in the filter: partners of length 3a/4 ≤ b ≤ 4a/3 share at least
        // `min_common(a, b)` ≥ 2 tokens (one-character names are direct), so their two smallest
        // shared tokens lie within both prefixes of `prefix_len`. The shortest partner needs the
        // fewest, so the longest prefix is probed; each posting is held to the pair's own bounds.
        if a >= 2 && 3 * a <= 4 * INDEXED_MAX_CHARS {
            let shortest = (3 * a).div_ceil(4);
            let longest = (4 * a / 3).min(INDEXED_MAX_CHARS);
            let probe = prefix_len(a, min_common(a, shortest));
            let mut hits: Vec<usize> = Vec::new();
            for (i, token) in tokens.iter().take(probe).enumerate() {
                for b in shortest..=longest {
                    let k = min_common(a, b);
                    let Ok(length) = u8::try_from(b) else {
                        continue;
                    };
                    if i >= prefix_len(a, k) {
                        continue;
                    }
                    let Some(postings) = self.postings.get(&(*token, length)) else {
                        continue;
                    };
                    self.visited.set(self.visited.get() + postings.len());
                    for &(at, position) in postings {
                        let at = at as usize;
                        if usize::from(position) < prefix_len(b, k)
                            && best.is_none_or(|best| at < best)
                        {
                            hits.push(at);
                        }
                    }
                }
            }
            // Two hits: the two smallest shared tokens, each within both prefixes.
            hits.sort_unstable();
            candidates.extend(
                hits.chunk_by(|x, y| x == y)
                    .filter(|run| run.len() >= 2)
                    .filter_map(|run| run.first().copied()),
            );
        }
        candidates.sort_unstable();
        candidates.dedup();
        for at in candidates {
            if best.is_some_and(|b| at >= b) {
                break;
            }
            let Some(entry) = self.entries.get(at) else {
                continue;
            };
            if skipped(entry) {
                continue;
            }
            self.verified.set(self.verified.get() + 1);
            let b = entry.tokens.len();
            if b <= INDEXED_MAX_CHARS && shared(&tokens, &entry.tokens) < min_common(a, b) {
                continue;
            }
            if self.compare(candidate, &entry.name) {
                best = Some(at);
                break;
            }
        }
        best.and_then(|i| self.entries.get(i)).map(|e| &e.name)
    }

    fn compare(&self, a: &Name, b: &Name) -> bool {
        self.compared.set(self.compared.get() + 1);
        collides(a, b)
    }

    /// Postings looked at, names whose shared tokens were counted, and Jaro-Winkler
    /// comparisons, so far.
    #[cfg(test)]
    pub fn work(&self) -> (usize, usize, usize) {
        (self.visited.get(), self.verified.get(), self.compared.get())
    }
}

/// The ℓ-prefix (ℓ = 2) of a name of `n` tokens that shares at least `k ≥ 2` with another: its
/// first `n − k + 2` tokens hold the two smallest shared tokens, since each is followed by at
/// least `k − 2` more.
fn prefix_len(n: usize, k: usize) -> usize {
    (n + 2).saturating_sub(k).min(n)
}

/// `(character, occurrence)` for every character of `text`.
fn occurrences(text: &str) -> impl Iterator<Item = (char, u32)> + '_ {
    let mut seen: HashMap<char, u32> = HashMap::new();
    text.chars().map(move |c| {
        let n = seen.entry(c).or_default();
        *n += 1;
        (c, *n)
    })
}

/// How many tokens two sorted token lists share.
fn shared(a: &[Token], b: &[Token]) -> usize {
    let (mut i, mut j, mut count) = (0, 0, 0);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                count += 1;
                i += 1;
                j += 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use proptest::prelude::*;

    fn name(text: &str, owner: &str) -> Name {
        Name::new(text, owner, "alias").unwrap()
    }

    /// The definition: the first name, in order, not from `skip`, that collides.
    fn brute_force<'n>(
        names: &'n [(Name, Option<String>)],
        candidate: &Name,
        skip: &str,
    ) -> Option<&'n Name> {
        names
            .iter()
            .filter(|(_, p)| p.as_deref() != Some(skip))
            .map(|(n, _)| n)
            .find(|n| collides(candidate, n))
    }

    /// A deterministic stream of pseudo-random numbers.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self, bound: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 33) as usize) % bound
        }
    }

    /// `n` alias-like phrases: one to three words of 3 to 9 letters, weighted like English.
    fn phrases(n: usize, seed: u64) -> Vec<String> {
        const LETTERS: &str = "eeeeeeeeeeeetttttttttaaaaaaaaooooooooiiiiiiinnnnnnnsssssshhhhhhrrrrrrddddllllcccuuummmwwffggyyppbbvkjxqz";
        let letters: Vec<char> = LETTERS.chars().collect();
        let mut rng = Lcg(seed);
        (0..n)
            .map(|_| {
                let words = 1 + rng.next(3);
                (0..words)
                    .map(|_| {
                        let len = 3 + rng.next(7);
                        (0..len)
                            .map(|_| letters[rng.next(letters.len())])
                            .collect::<String>()
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    fn arb_text() -> impl Strategy<Value = String> {
        prop_oneof![
            "[ab ]{1,12}",
            "[a-e]{1,16}",
            "[a-z ]{1,24}",
            "(login|docs|auth|guide|setup|flow)( (login|docs|auth|guide|setup|flow)){0,2}",
        ]
    }

    /// `base` with a few single-character edits.
    fn edit(base: &str, edits: &[(u8, usize, char)]) -> String {
        let mut chars: Vec<char> = base.chars().collect();
        for &(op, at, c) in edits {
            let at = at % (chars.len() + 1);
            match op % 4 {
                0 => chars.insert(at, c),
                1 if at < chars.len() => {
                    chars.remove(at);
                }
                2 if at < chars.len() => chars[at] = c,
                _ if at + 1 < chars.len() => chars.swap(at, at + 1),
                _ => {}
            }
        }
        chars.into_iter().collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The bound the filter rests on: a Jaro-Winkler of 0.95 or more needs the length ratio
        /// and at least `min_common` shared characters.
        #[test]
        fn a_collision_always_shares_min_common_characters(
            a in arb_text(),
            edits in prop::collection::vec((any::<u8>(), any::<usize>(), prop::char::range('a', 'f')), 0..4),
        ) {
            let b = edit(&a, &edits);
            let (x, y) = (Name::new(&a, "", "alias"), Name::new(&b, "", "alias"));
            let (Some(x), Some(y)) = (x, y) else { return Ok(()) };
            if strsim::jaro_winkler(&x.normalized, &y.normalized) >= ALIAS_JARO_WINKLER_THRESHOLD {
                let index = NameIndex::new(Vec::new());
                let shared = shared(&index.tokens(&x.normalized), &index.tokens(&y.normalized));
                prop_assert!(lengths_can_collide(x.chars, y.chars));
                prop_assert!(shared >= min_common(x.chars, y.chars), "{:?} {:?}", x.normalized, y.normalized);
            }
        }

        /// The index finds exactly what the definition finds, skipped proposals included.
        #[test]
        fn the_index_finds_what_a_scan_finds(
            base in prop::collection::vec(arb_text(), 0..24),
            accepted in prop::collection::vec((arb_text(), 0..4usize), 0..24),
            queries in prop::collection::vec((any::<prop::sample::Index>(), prop::collection::vec((any::<u8>(), any::<usize>(), prop::char::range('a', 'f')), 0..3), 0..4usize), 1..12),
        ) {
            let base: Vec<Name> = base.iter().enumerate().filter_map(|(i, t)| Name::new(t, &format!("e{i}"), "name")).collect();
            let index = NameIndex::new(base.iter().map(|n| Name::new(&n.normalized, &n.owner, n.what).unwrap()).collect());
            let mut batch = index.empty_counting(accepted.iter().map(|(t, _)| t.as_str()));
            let mut listed: Vec<(Name, Option<String>)> = Vec::new();
            for (i, (text, proposal)) in accepted.iter().enumerate() {
                if let Some(n) = Name::new(text, &format!("a{i}"), "alias") {
                    batch.push(Name::new(text, &format!("a{i}"), "alias").unwrap(), Some(format!("p{proposal}")));
                    listed.push((n, Some(format!("p{proposal}"))));
                }
            }
            let all: Vec<String> = base.iter().map(|n| n.normalized.clone()).chain(listed.iter().map(|(n, _)| n.normalized.clone())).collect();
            let base: Vec<(Name, Option<String>)> = base.into_iter().map(|n| (n, None)).collect();
            for (which, edits, skip) in queries {
                let text = if all.is_empty() { "login".to_owned() } else { edit(which.get(&all[..]).as_str(), &edits) };
                let Some(candidate) = Name::new(&text, "", "alias") else { continue };
                let skip = format!("p{skip}");
                let expected = brute_force(&base, &candidate, &skip).or_else(|| brute_force(&listed, &candidate, &skip));
                let found = index.first_collision(&candidate, &skip).or_else(|| batch.first_collision(&candidate, &skip));
                prop_assert_eq!(
                    found.map(|n| (&n.owner, &n.normalized)),
                    expected.map(|n| (&n.owner, &n.normalized)),
                    "{:?}", candidate.normalized
                );
            }
        }
    }

    #[test]
    fn min_common_is_the_ceiling_of_7ab_over_4_a_plus_b() {
        assert_eq!(min_common(10, 10), 9); // 8.75
        assert_eq!(min_common(20, 20), 18); // 17.5
        assert_eq!(min_common(3, 4), 3); // 3
        assert_eq!(min_common(1, 1), 1);
        assert!(lengths_can_collide(3, 4) && !lengths_can_collide(3, 5));
    }

    /// Counts the work instead of timing it. A scan compares every alias with every accepted one
    /// before it (about n²/2 Jaro-Winkler comparisons); the index looks at a small share of the
    /// postings, counts shared tokens for far fewer names and compares a handful.
    #[test]
    fn deciding_many_distinct_aliases_compares_each_with_a_few_names_not_all() {
        let n = 5_000;
        let texts = phrases(n, 7);
        let base = NameIndex::new(Vec::new());
        let mut index = base.empty_counting(texts.iter().map(String::as_str));
        let mut brute: Vec<(Name, Option<String>)> = Vec::new();
        let mut collisions = 0;
        for (i, text) in texts.iter().enumerate() {
            let candidate = name(text, &format!("e{i}"));
            let found = index
                .first_collision(&candidate, "")
                .map(|n| n.owner.clone());
            if i < 400 {
                // Spot-check against the definition while the brute-force list is small.
                let expected = brute_force(&brute, &candidate, "").map(|n| n.owner.clone());
                assert_eq!(found, expected, "{text}");
            }
            if found.is_some() {
                collisions += 1;
                continue;
            }
            if i < 400 {
                brute.push((name(text, &format!("e{i}")), None));
            }
            index.push(candidate, Some(format!("p{i}")));
        }
        let (visited, verified, compared) = index.work();
        let scan = n * (n - 1) / 2;
        assert!(collisions < n / 100, "{collisions}");
        assert!(
            visited < scan / 5,
            "{visited} postings for {n} aliases (a scan: {scan})"
        );
        assert!(
            verified < scan / 50,
            "{verified} token counts (a scan: {scan})"
        );
        assert!(compared < n / 2, "{compared} comparisons (a scan: {scan})");
    }
}
