//! The original tool's forms of `query`, beside `query <ID|ALIAS|PATH>`:
//!
//! - `query package NAME`: a package by name or id;
//! - `query ownership KEY`: an ownership key of `lookup.ownership` (a configured
//!   `routing.options.ownership` key, or a package name), to the package or area at its path;
//! - `query intent PHRASE...`: an intent route whose phrase this is (declared in
//!   `routing.options.intents` or accepted from the overlay), else the entity the top search hit
//!   stands for (an accepted alias names its entity exactly there, so it comes first).
//!
//! The first word names a form only when more words follow: `query package` alone resolves an
//! entity named `package`, as it always did. Each form resolves to one entity id on the search
//! collection (the search cache, usually: no index parse), then hands that id to
//! [`query::run`], which prints its handoff exactly as for `query ID`. Unknown or ambiguous:
//! exit 1 with the candidates, like `query`.

use std::collections::BTreeSet;

use doc_bridge_retrieve::collection::{Collection, normalize_name};
use doc_bridge_retrieve::rank::{self, Scoring, SearchOptions, search};

use crate::args::QueryArgs;
use crate::commands::query;
use crate::commands::search::result_texts;
use crate::exit::{CommandResult, UserError};
use crate::pipeline::load_for_search;
use crate::repo::Repo;

/// How many known names an unknown package or ownership key lists.
const CANDIDATES: usize = 10;

/// A form of `query`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Form {
    Package(String),
    Ownership(String),
    Intent(String),
}

impl Form {
    /// The form `args` ask for; `None` for `query TARGET` (no words after the target). Words
    /// after anything but a form's name are a usage error (exit 2).
    fn of(args: &QueryArgs) -> Result<Option<Form>, UserError> {
        if args.words.is_empty() {
            return Ok(None);
        }
        let rest = args.words.join(" ");
        match args.target.as_str() {
            "package" => Ok(Some(Form::Package(rest))),
            "ownership" => Ok(Some(Form::Ownership(rest))),
            "intent" => Ok(Some(Form::Intent(rest))),
            other => Err(UserError::error(format!(
                "unexpected words after `{other}`: a target is one argument (quote it), or use a form: `query package NAME`, `query ownership KEY`, `query intent PHRASE...`"
            ))),
        }
    }
}

/// Runs `query`, in whichever form `args` ask for.
pub fn run(args: &QueryArgs) -> CommandResult {
    let Some(form) = Form::of(args)? else {
        return query::run(args);
    };
    let repo = Repo::open(args.common.root.as_deref())?;
    let loaded = load_for_search(&repo, args.allow_stale)?;
    let collection = &loaded.collection;
    let resolved = match &form {
        Form::Package(name) => package(collection, name),
        Form::Ownership(key) => ownership(collection, key),
        Form::Intent(phrase) => intent(&repo, collection, &loaded.retrieval, phrase),
    };
    // The stale warning, when allowed, comes from `query::run`, which checks again.
    drop(loaded);
    match resolved {
        Resolved::Found { id, how } => {
            if !args.common.quiet && !args.output.json {
                crate::errln!("{how}: {id}");
            }
            let adapted = QueryArgs {
                target: id,
                words: Vec::new(),
                ..args.clone()
            };
            query::run(&adapted)
        }
        Resolved::Unknown {
            message,
            candidates,
        } => super::query::not_found(args, message, candidates),
    }
}

/// A form resolved: the entity and how it was found, or why not and what comes close.
enum Resolved {
    Found {
        id: String,
        how: String,
    },
    Unknown {
        message: String,
        candidates: Vec<String>,
    },
}

/// `package NAME`: the entry `package:NAME` (or NAME itself, given as an id).
fn package(collection: &Collection, name: &str) -> Resolved {
    let id = if name.starts_with("package:") {
        name.to_owned()
    } else {
        format!("package:{name}")
    };
    if collection
        .entries()
        .any(|e| e.kind() == "package" && e.id() == id)
    {
        return Resolved::Found {
            how: format!("package `{name}`"),
            id,
        };
    }
    let packages: Vec<String> = collection
        .entries()
        .filter(|e| e.kind() == "package")
        .map(|e| e.id().to_owned())
        .collect();
    Resolved::Unknown {
        message: format!("no package named `{name}`"),
        candidates: closest(packages, name),
    }
}

/// `ownership KEY`: a configured ownership route's entity, else the package of that name.
fn ownership(collection: &Collection, key: &str) -> Resolved {
    let route = format!("ownership:{key}");
    if let Some(entry) = collection
        .entries()
        .find(|e| e.kind() == "ownership" && e.id() == route)
    {
        return match entry.target() {
            Some(target) => Resolved::Found {
                id: target.to_owned(),
                how: format!("ownership `{key}` ({})", entry.path()),
            },
            None => Resolved::Unknown {
                message: format!(
                    "ownership `{key}` covers {}, where the index has no package or area; query a file under it instead",
                    entry.path()
                ),
                candidates: Vec::new(),
            },
        };
    }
    let package = format!("package:{key}");
    if collection
        .entries()
        .any(|e| e.kind() == "package" && e.id() == package)
    {
        return Resolved::Found {
            id: package,
            how: format!("ownership `{key}` (its package)"),
        };
    }
    // `lookup.ownership`'s keys: the configured ones and the package names.
    let keys: Vec<String> = collection
        .entries()
        .filter_map(|e| match e.kind() {
            "ownership" => e.id().strip_prefix("ownership:").map(str::to_owned),
            "package" => e.id().strip_prefix("package:").map(str::to_owned),
            _ => None,
        })
        .collect();
    Resolved::Unknown {
        message: format!("no ownership key `{key}`"),
        candidates: closest(keys, key),
    }
}

/// `intent PHRASE`: the intent routes with this phrase; else the top search hit's entity.
fn intent(
    repo: &Repo,
    collection: &Collection,
    retrieval: &doc_bridge_model::index::RetrievalSettings,
    phrase: &str,
) -> Resolved {
    let key = normalize_name(phrase);
    let routed: BTreeSet<&str> = collection
        .entries()
        .filter(|e| e.kind() == "intent" && normalize_name(e.title()) == key)
        .filter_map(|e| e.target())
        .collect();
    match routed.len() {
        0 => {}
        1 => {
            if let Some(target) = routed.first() {
                return Resolved::Found {
                    id: (*target).to_owned(),
                    how: format!("intent `{phrase}`"),
                };
            }
        }
        n => {
            return Resolved::Unknown {
                message: format!("intent `{phrase}` routes to {n} entities; query one of them"),
                candidates: routed.into_iter().map(str::to_owned).collect(),
            };
        }
    }
    // Ranked as `search PHRASE` ranks, passages included, so the entity is the one `search`
    // shows first.
    let options = SearchOptions {
        limit: rank::PASSAGE_CANDIDATES,
        language: repo.config.retrieval.language().to_owned(),
        scoring: Scoring::from_settings(retrieval),
        ..SearchOptions::default()
    };
    let hits = search(collection, phrase, &options);
    let texts = result_texts(repo, collection, &hits);
    let hits = rank::rerank_by_passages(collection, phrase, hits, &texts, rank::PASSAGE_CANDIDATES);
    let top = hits.iter().find_map(|hit| {
        let entry = collection.entry(hit.entry);
        match entry.kind() {
            "intent" | "ownership" => entry.target().map(str::to_owned),
            _ => Some(entry.id().to_owned()),
        }
    });
    match top {
        Some(id) => Resolved::Found {
            id,
            how: format!("intent `{phrase}` (no intent route; the top search hit)"),
        },
        None => Resolved::Unknown {
            message: format!("no intent route and no search result for `{phrase}`"),
            candidates: Vec::new(),
        },
    }
}

/// Up to [`CANDIDATES`] of `names`, the closest to `text` first (Jaro-Winkler over the
/// normalized names, a package id compared by its name; ties by name).
fn closest(mut names: Vec<String>, text: &str) -> Vec<String> {
    let bare = |name: &str| normalize_name(name.strip_prefix("package:").unwrap_or(name));
    let key = bare(text);
    names.sort();
    names.dedup();
    let mut scored: Vec<(f64, String)> = names
        .into_iter()
        .map(|name| (strsim::jaro_winkler(&key, &bare(&name)), name))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored
        .into_iter()
        .take(CANDIDATES)
        .map(|(_, name)| name)
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use clap::Parser;

    fn form(words: &[&str]) -> Result<Option<Form>, UserError> {
        let mut argv = vec!["doc-bridge", "query"];
        argv.extend_from_slice(words);
        match crate::args::Cli::try_parse_from(argv).unwrap().command {
            crate::args::Command::Query(args) => Form::of(&args),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_form_needs_words_after_its_name() {
        assert_eq!(form(&["package"]).unwrap(), None);
        assert_eq!(form(&["intent"]).unwrap(), None);
        assert_eq!(
            form(&["package", "@fx/auth"]).unwrap(),
            Some(Form::Package("@fx/auth".into()))
        );
        assert_eq!(
            form(&["intent", "rotate", "the", "key", "--json"]).unwrap(),
            Some(Form::Intent("rotate the key".into()))
        );
        assert_eq!(
            form(&["ownership", "auth"]).unwrap(),
            Some(Form::Ownership("auth".into()))
        );
        assert!(form(&["auth", "extra"]).is_err());
    }
}
