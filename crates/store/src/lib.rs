//! doc-bridge's artifact storage: the JSON artifacts and caches under `.doc-bridge/` encoded,
//! sealed, written atomically and read back.
//!
//! - `artifact`: atomic writes (a temporary file beside the target, synced, renamed), writes
//!   that leave an unchanged file alone, strict reads.
//! - `canonical`: the sealed artifacts' form, one line of RFC 8785 canonical JSON, and the
//!   top-level scan that checks a seal on a file's bytes.
//! - `sealed`: one encoding of an artifact serving both its seal and its write.
//!
//! Architecture invariant: every artifact is written through here, to a temporary file that is
//! synced and renamed into place, so a reader never sees a torn file; the bytes are a function
//! of the value alone. The hash definitions themselves are `doc-bridge-model`'s (`hash`,
//! `sorted_json`). The layout is decided in docs/storage.md.

pub mod artifact;
pub mod canonical;
pub mod sealed;
