//! Who may decide a proposal (enrichment-overlay-v1, "Approvals": people approve, agents never
//! do; an author never decides its own proposal).
//!
//! Names are compared by an identity key, not byte for byte, so `Test-Agent`, `TEST-AGENT`,
//! `test‑agent` (a non-breaking hyphen), `pоlicy` (a Cyrillic `о`) and `pol\u{200B}icy` (a
//! zero-width space) are the identities they look like. The key is the name after Unicode
//! compatibility normalisation (NFKC), lower-casing, and the confusable skeleton of UTS #39
//! (which also drops default-ignorable characters: zero-width spaces and joiners, bidirectional
//! controls, variation selectors), with runs of white space made one space and the ends trimmed.
//! The key errs on the side of refusing: two names a reader could take for one another are one
//! identity.
//!
//! A name with a control character (C0, DEL, C1: an escape sequence, a newline) is refused
//! outright; it could not be printed back faithfully.

use std::collections::BTreeSet;

use unicode_normalization::UnicodeNormalization;

use doc_bridge_model::enrichment::ACCEPTED_BY_POLICY;

/// Why a name cannot decide a proposal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeciderRefusal {
    /// Empty once normalised.
    Empty,
    /// Holds a control character (given as its code point, `U+001B`).
    ControlCharacter(String),
    /// `policy` in some spelling: the validators are not a person.
    Policy,
    /// An agent identity from the configuration or an overlay author.
    Agent(String),
    /// The proposal's own author.
    Author(String),
}

impl std::fmt::Display for DeciderRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeciderRefusal::Empty => {
                f.write_str("must name the person deciding; an agent cannot approve or reject")
            }
            DeciderRefusal::ControlCharacter(code) => write!(
                f,
                "the name holds a control character ({code}); give the person's name as plain text"
            ),
            DeciderRefusal::Policy => {
                f.write_str("`policy` is not a person; name the person deciding")
            }
            DeciderRefusal::Agent(agent) => write!(
                f,
                "the name is the agent identity `{agent}`; proposals are decided by people, never by agents"
            ),
            DeciderRefusal::Author(author) => write!(
                f,
                "the name is the proposal's author `{author}`; an author cannot decide its own proposal"
            ),
        }
    }
}

/// The identity key of `name` (see the module documentation). Two names are one identity when
/// their keys are equal.
pub fn identity_key(name: &str) -> String {
    let folded: String = name.nfkc().flat_map(char::to_lowercase).collect();
    let skeleton: String = unicode_security::skeleton(&folded)
        .flat_map(char::to_lowercase)
        .collect();
    let skeleton: String = skeleton.nfkc().collect();
    skeleton.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `a` and `b` are one identity.
pub fn same_identity(a: &str, b: &str) -> bool {
    identity_key(a) == identity_key(b)
}

/// Checks that `by` may decide a proposal written by `author`, given every agent identity the
/// repository knows (`agents`: the configuration's `agentId`s and the overlay's authors).
/// Returns the name to record: `by` with its ends trimmed.
pub fn check_decider<'a>(
    by: &'a str,
    author: &str,
    agents: &BTreeSet<String>,
) -> Result<&'a str, DeciderRefusal> {
    let by = by.trim();
    if let Some(c) = by.chars().find(|c| c.is_control()) {
        return Err(DeciderRefusal::ControlCharacter(format!(
            "U+{:04X}",
            u32::from(c)
        )));
    }
    let key = identity_key(by);
    if key.is_empty() {
        return Err(DeciderRefusal::Empty);
    }
    if key == identity_key(ACCEPTED_BY_POLICY) {
        return Err(DeciderRefusal::Policy);
    }
    if key == identity_key(author) {
        return Err(DeciderRefusal::Author(author.to_owned()));
    }
    if let Some(agent) = agents.iter().find(|agent| identity_key(agent) == key) {
        return Err(DeciderRefusal::Agent(agent.clone()));
    }
    Ok(by)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agents(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn case_width_and_look_alike_variants_of_policy_are_policy() {
        for name in [
            "policy",
            "Policy",
            "POLICY",
            " policy ",
            "p\u{043E}licy",          // Cyrillic о
            "pol\u{200B}icy",         // zero-width space
            "po\u{200D}licy\u{FEFF}", // zero-width joiner, BOM
            "\u{FF50}\u{FF4F}licy",   // full-width p, o
            "pol\u{0456}cy",          // Cyrillic і
            "\u{202E}policy\u{202C}", // bidirectional override
        ] {
            assert_eq!(
                check_decider(name, "agent", &agents(&[])),
                Err(DeciderRefusal::Policy),
                "{name:?}"
            );
        }
        assert!(check_decider("polly", "agent", &agents(&[])).is_ok());
    }

    #[test]
    fn an_author_in_another_spelling_is_still_the_author() {
        for name in [
            "Test-Agent",
            "TEST-AGENT",
            "test\u{2011}agent",
            "test-\u{200B}agent",
        ] {
            assert_eq!(
                check_decider(name, "test-agent", &agents(&[])),
                Err(DeciderRefusal::Author("test-agent".to_owned())),
                "{name:?}"
            );
        }
    }

    #[test]
    fn any_configured_agent_is_refused_whoever_wrote_the_proposal() {
        let known = agents(&["curator-bot", "judge"]);
        assert_eq!(
            check_decider("Curator-Bot", "other-agent", &known),
            Err(DeciderRefusal::Agent("curator-bot".to_owned()))
        );
        assert_eq!(
            check_decider("JUDGE", "other-agent", &known),
            Err(DeciderRefusal::Agent("judge".to_owned()))
        );
        assert_eq!(
            check_decider("  Ada Lovelace ", "other-agent", &known),
            Ok("Ada Lovelace")
        );
    }

    #[test]
    fn control_characters_and_empty_names_are_refused() {
        assert_eq!(
            check_decider("ada\u{1b}[31m", "agent", &agents(&[])),
            Err(DeciderRefusal::ControlCharacter("U+001B".to_owned()))
        );
        assert_eq!(
            check_decider("ada\nbob", "agent", &agents(&[])),
            Err(DeciderRefusal::ControlCharacter("U+000A".to_owned()))
        );
        assert_eq!(
            check_decider("\u{200B}\u{200B}", "agent", &agents(&[])),
            Err(DeciderRefusal::Empty)
        );
        assert_eq!(
            check_decider("   ", "agent", &agents(&[])),
            Err(DeciderRefusal::Empty)
        );
    }

    #[test]
    fn distinct_people_stay_distinct() {
        assert!(!same_identity("ada", "bob"));
        assert!(!same_identity("ada lovelace", "ada-lovelace"));
        assert!(same_identity("Ada  Lovelace", "ada lovelace"));
    }
}
