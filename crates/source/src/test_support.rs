//! Helpers shared by the per-language test modules: analyse a source and flatten the facts.

use crate::{ImportKind, Language, MemberKind, SymbolKind, analyze};

/// (name, kind, line, reexport, from) of every exported symbol.
pub fn symbols(
    language: Language,
    src: &str,
) -> Vec<(String, SymbolKind, u32, bool, Option<String>)> {
    analyze(language, src.as_bytes())
        .symbols
        .into_iter()
        .map(|s| (s.name, s.kind, s.line, s.reexport, s.from))
        .collect()
}

/// The exported names, in order.
pub fn names(language: Language, src: &str) -> Vec<String> {
    symbols(language, src).into_iter().map(|s| s.0).collect()
}

/// (specifier, kind, names, line) of every import.
pub fn imports(language: Language, src: &str) -> Vec<(String, ImportKind, Vec<String>, u32)> {
    analyze(language, src.as_bytes())
        .imports
        .into_iter()
        .map(|i| (i.specifier, i.kind, i.names, i.line))
        .collect()
}

/// ("owner.name", kind, line) of every member.
pub fn members(language: Language, src: &str) -> Vec<(String, MemberKind, u32)> {
    analyze(language, src.as_bytes())
        .members
        .into_iter()
        .map(|m| (format!("{}.{}", m.owner, m.name), m.kind, m.line))
        .collect()
}

/// (name, kind, line) of every exported symbol.
pub fn symbol_lines(language: Language, src: &str) -> Vec<(String, SymbolKind, u32)> {
    symbols(language, src)
        .into_iter()
        .map(|s| (s.0, s.1, s.2))
        .collect()
}

/// (owner, name, kind, line) of every member.
pub fn member_rows(language: Language, src: &str) -> Vec<(String, String, MemberKind, u32)> {
    analyze(language, src.as_bytes())
        .members
        .into_iter()
        .map(|m| (m.owner, m.name, m.kind, m.line))
        .collect()
}

/// An owned string.
pub fn s(v: &str) -> String {
    v.to_owned()
}

/// Owned strings.
pub fn v(items: &[&str]) -> Vec<String> {
    items.iter().map(|i| s(i)).collect()
}
