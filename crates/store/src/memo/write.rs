//! Writing a [`Node`]: its canonical JSON into a hasher (the seal), and its artifact form (the
//! canonical JSON indented) into a sink.

use sha2::{Digest, Sha256};

use super::node::Node;
use super::*;

/// An object's members, as the writers take them.
fn members(fields: &[(String, Node)]) -> Vec<(&str, &Node)> {
    fields
        .iter()
        .map(|(key, node)| (key.as_str(), node))
        .collect()
}

/// The members of a sealed struct: the seal's fields except the ones it left out, which come
/// from `fresh`.
pub(super) fn sealed_members<'a>(
    split: &'a SealedSplit,
    fresh: &'a [(String, Node)],
) -> Vec<(&'a str, &'a Node)> {
    split
        .fields
        .iter()
        .filter(|(key, _)| !split.excluded.contains(key))
        .chain(fresh)
        .map(|(key, node)| (key.as_str(), node))
        .collect()
}

pub(super) fn write_canonical(node: &Node, hasher: &mut Sha256) -> Result<(), String> {
    match node {
        Node::Leaf(value) => {
            hasher.update(canonical_json(value).map_err(|e| e.to_string())?);
        }
        Node::Array(items) => {
            hasher.update(b"[");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    hasher.update(b",");
                }
                hasher.update(&item.canonical);
            }
            hasher.update(b"]");
        }
        Node::Object(fields) => {
            write_canonical_object(&mut members(fields), hasher)?;
        }
        Node::Whole(item) => hasher.update(&item.canonical),
        Node::Sealed { split, fresh } => {
            write_canonical_object(&mut sealed_members(split, fresh), hasher)?;
        }
    }
    Ok(())
}

/// RFC 8785: members sorted by their names' UTF-16 code units.
pub(super) fn write_canonical_object(
    fields: &mut [(&str, &Node)],
    hasher: &mut Sha256,
) -> Result<(), String> {
    fields.sort_by(|a, b| doc_bridge_model::sorted_json::key_order(a.0, b.0));
    hasher.update(b"{");
    for (i, (key, value)) in fields.iter().enumerate() {
        if i > 0 {
            hasher.update(b",");
        }
        hasher.update(canonical_json(key).map_err(|e| e.to_string())?);
        hasher.update(b":");
        write_canonical(value, hasher)?;
    }
    hasher.update(b"}");
    Ok(())
}

/// Artifact text on its way to a sink (a buffer or a file), in pieces of a few hundred KB, so
/// a whole artifact is never held in memory twice.
pub(super) struct PrettyOut<'w> {
    buf: Vec<u8>,
    sink: &'w mut dyn std::io::Write,
    /// Keep each element's indented form in the memo (a long-running memo: the same element is
    /// written again next refresh); a single-use memo indents straight into the buffer.
    cached: bool,
    /// Bytes handed to `sink` so far.
    flushed: u64,
    /// Top-level members whose values' positions in the output are wanted, with the position
    /// once written.
    marked: Vec<(String, Option<u64>)>,
}

impl<'w> PrettyOut<'w> {
    const CHUNK: usize = 1 << 18;

    pub(super) fn new(sink: &'w mut dyn std::io::Write, cached: bool) -> Self {
        Self {
            buf: Vec::with_capacity(Self::CHUNK + (1 << 16)),
            sink,
            cached,
            flushed: 0,
            marked: Vec::new(),
        }
    }

    /// Records where the values of the top-level members `keys` start in the output (see
    /// [`PrettyOut::mark`]).
    pub(super) fn marking(mut self, keys: impl IntoIterator<Item = String>) -> Self {
        self.marked = keys.into_iter().map(|key| (key, None)).collect();
        self
    }

    /// Where the marked member `key`'s value started, once written.
    pub(super) fn mark(&self, key: &str) -> Option<u64> {
        self.marked
            .iter()
            .find(|(marked, _)| marked == key)
            .and_then(|(_, at)| *at)
    }

    fn position(&self) -> u64 {
        self.flushed + self.buf.len() as u64
    }

    fn flush_buffer(&mut self) -> Result<(), String> {
        self.sink.write_all(&self.buf).map_err(|e| e.to_string())?;
        self.flushed += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    fn indent(&mut self, depth: usize) {
        self.buf.resize(self.buf.len() + depth * 2, b' ');
    }

    fn item(&mut self, item: &Encoded, depth: usize) -> Result<(), String> {
        if self.cached {
            self.buf.extend_from_slice(&item.pretty_at(depth));
        } else {
            doc_bridge_model::sorted_json::indent(&item.canonical, depth, &mut self.buf);
        }
        if self.buf.len() >= Self::CHUNK {
            self.flush_buffer()?;
        }
        Ok(())
    }

    /// Writes what is buffered, then `piece` (already indented) straight to the sink.
    fn piece(&mut self, piece: &[u8]) -> Result<(), String> {
        self.flush_buffer()?;
        self.sink.write_all(piece).map_err(|e| e.to_string())?;
        self.flushed += piece.len() as u64;
        Ok(())
    }

    pub(super) fn finish(mut self) -> Result<(), String> {
        self.buf.push(b'\n');
        self.flush_buffer()
    }
}

/// The artifact form: the canonical JSON, indented (see [`doc_bridge_model::sorted_json::indent`]).
pub(super) fn write_pretty(
    node: &Node,
    depth: usize,
    out: &mut PrettyOut<'_>,
) -> Result<(), String> {
    match node {
        Node::Leaf(value) => {
            let bytes = canonical_json(value).map_err(|e| e.to_string())?;
            doc_bridge_model::sorted_json::indent(&bytes, depth, &mut out.buf);
        }
        Node::Array(items) if items.is_empty() => out.bytes(b"[]"),
        Node::Array(items) if !out.cached => {
            // A single-use memo's pieces hold many elements each: indented on all cores, a
            // window at a time (bounded memory), and written in order.
            use rayon::prelude::*;
            const WINDOW: usize = 16;
            out.bytes(b"[");
            for (w, window) in items.chunks(WINDOW).enumerate() {
                let pieces: Vec<Vec<u8>> = window
                    .par_iter()
                    .map(|item| {
                        let mut piece = Vec::with_capacity(item.canonical.len() * 5 / 4);
                        doc_bridge_model::sorted_json::indent(
                            &item.canonical,
                            depth + 1,
                            &mut piece,
                        );
                        piece
                    })
                    .collect();
                for (i, piece) in pieces.iter().enumerate() {
                    out.bytes(if w == 0 && i == 0 { b"\n" } else { b",\n" });
                    out.indent(depth + 1);
                    out.piece(piece)?;
                }
            }
            out.bytes(b"\n");
            out.indent(depth);
            out.bytes(b"]");
        }
        Node::Array(items) => {
            out.bytes(b"[");
            for (i, item) in items.iter().enumerate() {
                out.bytes(if i == 0 { b"\n" } else { b",\n" });
                out.indent(depth + 1);
                out.item(item, depth + 1)?;
            }
            out.bytes(b"\n");
            out.indent(depth);
            out.bytes(b"]");
        }
        Node::Object(fields) => write_pretty_object(&mut members(fields), depth, out)?,
        Node::Whole(item) => out.item(item, depth)?,
        Node::Sealed { split, fresh } => {
            write_pretty_object(&mut sealed_members(split, fresh), depth, out)?;
        }
    }
    Ok(())
}

/// An object in the artifact form, its members in canonical (UTF-16) order.
pub(super) fn write_pretty_object(
    fields: &mut [(&str, &Node)],
    depth: usize,
    out: &mut PrettyOut<'_>,
) -> Result<(), String> {
    if fields.is_empty() {
        out.bytes(b"{}");
        return Ok(());
    }
    fields.sort_by(|a, b| doc_bridge_model::sorted_json::key_order(a.0, b.0));
    out.bytes(b"{");
    for (i, (key, value)) in fields.iter().enumerate() {
        out.bytes(if i == 0 { b"\n" } else { b",\n" });
        out.indent(depth + 1);
        out.bytes(&canonical_json(key).map_err(|e| e.to_string())?);
        out.bytes(b": ");
        if depth == 0 {
            let here = out.position();
            if let Some((_, at)) = out.marked.iter_mut().find(|(marked, _)| marked == key) {
                *at = Some(here);
            }
        }
        write_pretty(value, depth + 1, out)?;
    }
    out.bytes(b"\n");
    out.indent(depth);
    out.bytes(b"}");
    Ok(())
}
