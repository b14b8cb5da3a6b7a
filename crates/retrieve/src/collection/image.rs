//! The collection's byte image: one buffer, the same in memory and in the search cache, read in
//! place. Loading a cached collection is reading a file and checking this layout; nothing is
//! decoded until a query asks for it.
//!
//! ```text
//! magic        8 bytes   b"dbcoll\0\x01"
//! entries      u32
//! sections     u32       (SECTIONS)
//! lengths      SECTIONS × u64, one per section
//! the sections, in `Section` order, back to back
//! ```
//!
//! Integers are little-endian. Every read is bounds-checked; [`Layout::read`] checks that the
//! per-entry columns have exactly the size the entry count implies, so column reads within the
//! entry range cannot miss, and anything else (strings, neighbour lists, postings) degrades to an
//! empty value on corruption instead of panicking.

use std::ops::Range;

use super::FIELD_COUNT;
pub(super) use crate::table::{read_u32, read_u64};

const MAGIC: &[u8; 8] = b"dbcoll\0\x01";
const HEADER: usize = 8 + 4 + 4 + SECTIONS * 8;

/// Strings kept per entry, in this order.
pub(super) const STRINGS: usize = 8;
pub(super) const ID: usize = 0;
pub(super) const KIND: usize = 1;
pub(super) const PATH: usize = 2;
pub(super) const TITLE: usize = 3;
pub(super) const CONTENT_HASH: usize = 4;
pub(super) const PROVENANCE: usize = 5;
pub(super) const LANGUAGE: usize = 6;
pub(super) const TARGET: usize = 7;

/// Entry flags (one byte per entry).
pub(super) const AGENT_DOC: u8 = 1;
pub(super) const FOR_AGENTS: u8 = 2;
pub(super) const HAS_LANGUAGE: u8 = 4;
pub(super) const HAS_TARGET: u8 = 8;
/// Bits 4..=6 of the flags: the file role's code (`FileRole::code`, 0 for none).
pub(super) const ROLE_SHIFT: u8 = 4;
pub(super) const ROLE_MASK: u8 = 0b0111_0000;

/// The sections, in image order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Section {
    /// `FIELD_COUNT` × f64: average field lengths; then one f64: how many entries are scored
    /// (every entry but `file` entries, which only exact names find).
    Averages,
    /// Per entry, `FIELD_COUNT` × u32: field lengths in tokens.
    Lengths,
    /// Per entry, two f64: accepted signal, PageRank.
    Numbers,
    /// Per entry, one byte of flags.
    Flags,
    /// Per entry, `STRINGS` × u32: where each of its strings ends in `Strings` (each starts where
    /// the previous one ended).
    StringEnds,
    /// UTF-8, every entry's strings back to back.
    Strings,
    /// Per entry, u32: where its neighbour list ends in `Neighbours`.
    NeighbourEnds,
    /// u32 entry indexes.
    Neighbours,
    /// The postings table.
    PostingKeys,
    PostingRecords,
    PostingValues,
    /// The exact-name table.
    ExactKeys,
    ExactRecords,
    ExactValues,
}

pub(super) const SECTIONS: usize = 14;

impl Section {
    const ALL: [Section; SECTIONS] = [
        Section::Averages,
        Section::Lengths,
        Section::Numbers,
        Section::Flags,
        Section::StringEnds,
        Section::Strings,
        Section::NeighbourEnds,
        Section::Neighbours,
        Section::PostingKeys,
        Section::PostingRecords,
        Section::PostingValues,
        Section::ExactKeys,
        Section::ExactRecords,
        Section::ExactValues,
    ];

    /// The size a section must have for `entries` entries, where it is fixed; for variable
    /// sections, the size its length must be a multiple of.
    fn size(self, entries: usize) -> Size {
        match self {
            Section::Averages => Size::Exactly((FIELD_COUNT + 1) * 8),
            Section::Lengths => Size::Exactly(entries.saturating_mul(FIELD_COUNT * 4)),
            Section::Numbers => Size::Exactly(entries.saturating_mul(16)),
            Section::Flags => Size::Exactly(entries),
            Section::StringEnds => Size::Exactly(entries.saturating_mul(STRINGS * 4)),
            Section::NeighbourEnds => Size::Exactly(entries.saturating_mul(4)),
            Section::Neighbours => Size::MultipleOf(4),
            Section::PostingRecords | Section::ExactRecords => {
                Size::MultipleOf(crate::table::RECORD)
            }
            Section::Strings
            | Section::PostingKeys
            | Section::PostingValues
            | Section::ExactKeys
            | Section::ExactValues => Size::MultipleOf(1),
        }
    }
}

enum Size {
    Exactly(usize),
    MultipleOf(usize),
}

/// Where each section lies in the buffer (absolute offsets), for a checked image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Layout {
    pub(super) entries: usize,
    ranges: [Range<usize>; SECTIONS],
}

impl Layout {
    /// Checks the image that starts at `base` and runs to the end of `bytes`: magic, section
    /// table, and every fixed-size column's size. `None` for anything else.
    pub(super) fn read(bytes: &[u8], base: usize) -> Option<Layout> {
        let image = bytes.get(base..)?;
        if image.get(..8)? != MAGIC {
            return None;
        }
        let entries = usize::try_from(read_u32(image, 8)?).ok()?;
        if usize::try_from(read_u32(image, 12)?).ok()? != SECTIONS {
            return None;
        }
        let mut at = base.checked_add(HEADER)?;
        let mut ranges: [Range<usize>; SECTIONS] = std::array::from_fn(|_| 0..0);
        for (i, section) in Section::ALL.iter().enumerate() {
            let length = usize::try_from(read_u64(image, 16 + i * 8)?).ok()?;
            let fits = match section.size(entries) {
                Size::Exactly(size) => length == size,
                Size::MultipleOf(unit) => length % unit == 0,
            };
            if !fits {
                return None;
            }
            let end = at.checked_add(length)?;
            ranges[i] = at..end;
            at = end;
        }
        (at == bytes.len()).then_some(Layout { entries, ranges })
    }

    /// The bytes of `section` in `bytes` (the buffer the layout was read from or written to).
    pub(super) fn section<'a>(&self, bytes: &'a [u8], section: Section) -> &'a [u8] {
        bytes
            .get(self.ranges[section as usize].clone())
            .unwrap_or_default()
    }
}

/// Lays out an image: the header, then the sections in order. Returns the bytes and their layout
/// (the same [`Layout::read`] would find).
pub(super) fn write(entries: usize, sections: [&[u8]; SECTIONS]) -> (Vec<u8>, Layout) {
    let total = HEADER + sections.iter().map(|s| s.len()).sum::<usize>();
    let mut bytes = Vec::with_capacity(total);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&u32::try_from(entries).unwrap_or(u32::MAX).to_le_bytes());
    bytes.extend_from_slice(&(SECTIONS as u32).to_le_bytes());
    for section in &sections {
        bytes.extend_from_slice(&(section.len() as u64).to_le_bytes());
    }
    let mut ranges: [Range<usize>; SECTIONS] = std::array::from_fn(|_| 0..0);
    for (range, section) in ranges.iter_mut().zip(&sections) {
        let start = bytes.len();
        bytes.extend_from_slice(section);
        *range = start..bytes.len();
    }
    (bytes, Layout { entries, ranges })
}

/// Item `index` of a list whose items are stored back to back, given a column of u32 end offsets
/// (each item starts where the previous one ended): its (start, end).
pub(super) fn span(ends: &[u8], index: usize) -> Option<(usize, usize)> {
    let end_of = |i: usize| read_u32(ends, i.checked_mul(4)?).map(|e| e as usize);
    let start = match index {
        0 => 0,
        i => end_of(i - 1)?,
    };
    Some((start, end_of(index)?))
}

/// The little-endian f64 at `at`.
pub(super) fn read_f64(bytes: &[u8], at: usize) -> Option<f64> {
    read_u64(bytes, at).map(f64::from_bits)
}
