//! A sorted, byte-encoded table from string keys to byte values: the storage of postings and
//! exact-name lists. It is three byte strings (keys, fixed-size records, values) read in place,
//! so a cached collection is used as it lies on disk; a list is decoded only when a query asks
//! for its key.
//!
//! Everything read from a table is bounds-checked: a corrupt cache yields missing keys or short
//! lists, never a panic.

use rayon::slice::ParallelSliceMut;

/// Bytes per record: key start, key length, value start, value length, value count (u32 LE).
pub const RECORD: usize = 20;

/// A table, borrowed from the bytes that hold it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Table<'a> {
    /// Every key, back to back.
    pub keys: &'a [u8],
    /// One [`RECORD`] per key, in key order.
    pub records: &'a [u8],
    /// Every value, back to back.
    pub values: &'a [u8],
}

/// A laid-out table: the three byte strings a [`Table`] reads.
#[derive(Debug, Default)]
pub struct TableBytes {
    /// Every key, back to back.
    pub keys: Vec<u8>,
    /// One [`RECORD`] per key, in key order.
    pub records: Vec<u8>,
    /// Every value, back to back.
    pub values: Vec<u8>,
}

/// Builds a table from keys (any string type, each key once) in any order.
pub struct TableBuilder<K = String> {
    items: Vec<(K, Vec<u8>, u32)>,
}

impl<K: AsRef<str> + Send> TableBuilder<K> {
    /// An empty builder.
    pub fn new() -> Self {
        TableBuilder { items: Vec::new() }
    }

    /// Adds a key with its encoded value and the number of items the value holds.
    pub fn push(&mut self, key: K, value: Vec<u8>, count: u32) {
        self.items.push((key, value, count));
    }

    /// Sorts by key and lays the table out.
    pub fn build(mut self) -> TableBytes {
        // Keys are distinct, so an unstable sort is as deterministic as a stable one.
        self.items
            .par_sort_unstable_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()));
        let mut table = TableBytes::default();
        for (key, value, count) in self.items {
            let fields = [
                table.keys.len(),
                key.as_ref().len(),
                table.values.len(),
                value.len(),
                count as usize,
            ];
            for field in fields {
                table
                    .records
                    .extend_from_slice(&u32::try_from(field).unwrap_or(u32::MAX).to_le_bytes());
            }
            table.keys.extend_from_slice(key.as_ref().as_bytes());
            table.values.extend_from_slice(&value);
        }
        table
    }
}

impl<K: AsRef<str> + Send> Default for TableBuilder<K> {
    fn default() -> Self {
        Self::new()
    }
}

/// The little-endian u32 at `at`.
pub fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let slice = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(slice.try_into().ok()?))
}

/// The little-endian u64 at `at`.
pub fn read_u64(bytes: &[u8], at: usize) -> Option<u64> {
    let slice = bytes.get(at..at.checked_add(8)?)?;
    Some(u64::from_le_bytes(slice.try_into().ok()?))
}

impl<'a> Table<'a> {
    /// Number of keys.
    pub fn len(&self) -> usize {
        self.records.len() / RECORD
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `index`-th (key, value, count), in key order.
    pub fn at(&self, index: usize) -> Option<(&'a [u8], &'a [u8], u32)> {
        self.record(index)
    }

    /// The position of `key` in key order, when the table holds it.
    pub fn find(&self, key: &str) -> Option<usize> {
        let at = self.lower_bound(key.as_bytes());
        (self.record(at)?.0 == key.as_bytes()).then_some(at)
    }

    /// The position of the first key not less than `key` (the number of keys when there is
    /// none): where the keys that start with a prefix begin.
    pub fn lower_bound(&self, key: &[u8]) -> usize {
        let (mut low, mut high) = (0usize, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            // An unreadable record sorts last: a corrupt table loses keys, it never loops.
            match self.record(middle) {
                Some((candidate, _, _)) if candidate < key => low = middle + 1,
                _ => high = middle,
            }
        }
        low
    }

    fn record(&self, index: usize) -> Option<(&'a [u8], &'a [u8], u32)> {
        let base = index.checked_mul(RECORD)?;
        let field = |at: usize| read_u32(self.records, base + at).map(|v| v as usize);
        let key_start = field(0)?;
        let key_len = field(4)?;
        let value_start = field(8)?;
        let value_len = field(12)?;
        let count = read_u32(self.records, base + 16)?;
        let key = self.keys.get(key_start..key_start.checked_add(key_len)?)?;
        let value = self
            .values
            .get(value_start..value_start.checked_add(value_len)?)?;
        Some((key, value, count))
    }

    /// The value bytes and item count stored for `key`.
    pub fn get(&self, key: &str) -> Option<(&'a [u8], u32)> {
        let (mut low, mut high) = (0usize, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            let (candidate, value, count) = self.record(middle)?;
            match candidate.cmp(key.as_bytes()) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some((value, count)),
            }
        }
        None
    }

    /// Every (key, value, count), in key order (skips unreadable records).
    pub fn iter(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8], u32)> + '_ {
        (0..self.len()).filter_map(|i| self.record(i))
    }
}

/// Appends an unsigned LEB128 varint.
pub fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Reads an unsigned LEB128 varint at `*at`, advancing it; `None` on truncation or overflow.
pub fn read_varint(bytes: &[u8], at: &mut usize) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        value |= u64::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lookup_finds_every_key_and_nothing_else() {
        let mut builder = TableBuilder::new();
        for key in ["beta", "alpha", "gamma"] {
            builder.push(key.to_owned(), key.as_bytes().to_vec(), 1);
        }
        let bytes = builder.build();
        let table = Table {
            keys: &bytes.keys,
            records: &bytes.records,
            values: &bytes.values,
        };
        assert_eq!(table.get("alpha"), Some((&b"alpha"[..], 1)));
        assert_eq!(table.get("gamma"), Some((&b"gamma"[..], 1)));
        assert_eq!(table.get("delta"), None);
        assert_eq!(table.iter().count(), 3);
        assert_eq!(table.find("beta"), Some(1));
        assert_eq!(table.find("bet"), None);
        assert_eq!(table.at(2).map(|(k, _, _)| k), Some(&b"gamma"[..]));
        assert_eq!(table.lower_bound(b"b"), 1);
        assert_eq!(table.lower_bound(b"a"), 0);
        assert_eq!(table.lower_bound(b"z"), 3);
    }

    proptest! {
        #[test]
        fn varints_round_trip(values in prop::collection::vec(any::<u64>(), 0..50)) {
            let mut bytes = Vec::new();
            for v in &values {
                write_varint(&mut bytes, *v);
            }
            let mut at = 0;
            for v in &values {
                prop_assert_eq!(read_varint(&bytes, &mut at), Some(*v));
            }
            prop_assert_eq!(at, bytes.len());
        }

        #[test]
        fn corrupt_tables_never_panic(keys in prop::collection::vec(any::<u8>(), 0..200), records in prop::collection::vec(any::<u8>(), 0..200), values in prop::collection::vec(any::<u8>(), 0..200), probe in ".{0,8}") {
            let table = Table { keys: &keys, records: &records, values: &values };
            let _ = table.get(&probe);
            let _ = table.find(&probe);
            let _ = table.lower_bound(probe.as_bytes());
            let _ = table.iter().count();
        }
    }
}
