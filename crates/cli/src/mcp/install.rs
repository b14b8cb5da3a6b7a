//! `doc-bridge mcp install --claude|--cursor`: the client configuration that starts this server,
//! printed, or merged into the repository's client file (`.mcp.json` for Claude Code's project
//! scope, `.cursor/mcp.json` for Cursor) after a confirmation.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::args::McpInstallArgs;
use crate::exit::{CommandResult, Exit, UserError};
use crate::repo::Repo;
use doc_bridge_model::config::CONFIG_FILE;

/// The server's name in the client configuration.
pub const SERVER_NAME: &str = "doc-bridge";

/// The MCP clients a configuration is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Client {
    /// Claude Code (project scope) and Claude Desktop.
    Claude,
    /// Cursor.
    Cursor,
}

impl Client {
    /// The configuration file, relative to the repository root.
    pub fn config_file(self) -> &'static str {
        match self {
            Client::Claude => ".mcp.json",
            Client::Cursor => ".cursor/mcp.json",
        }
    }
}

/// The server entry. `Portable` (a project-scoped file written into the repository, meant to be
/// committed): `doc-bridge` from the `PATH`, started as `mcp` in the project, whose root it
/// finds itself, or `mcp --config <file relative to the root>`. `Local` (printed, for a
/// user-level configuration such as Claude Desktop's): this executable's absolute path, started
/// as `mcp --root <root>` or `mcp --config <absolute file>`.
pub fn server_entry(exe: &Path, repo: &Repo, scope: Scope) -> Value {
    let default_config = repo.config_file.as_str() == CONFIG_FILE;
    let (command, args) = match scope {
        Scope::Portable if default_config => ("doc-bridge".into(), json!(["mcp"])),
        Scope::Portable => (
            "doc-bridge".into(),
            json!(["mcp", "--config", repo.config_file.as_str()]),
        ),
        Scope::Local if default_config => (
            exe.to_string_lossy(),
            json!(["mcp", "--root", repo.root.to_string_lossy()]),
        ),
        Scope::Local => {
            let config = repo.root.join(repo.config_file.as_str());
            (
                exe.to_string_lossy(),
                json!(["mcp", "--config", config.to_string_lossy()]),
            )
        }
    };
    json!({"command": command, "args": args})
}

/// Where a server entry goes (see [`server_entry`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// A project file in the repository: no machine's paths in it.
    Portable,
    /// Printed for a configuration on this machine: absolute paths.
    Local,
}

/// `existing` (a client configuration file's bytes, if any) with the `doc-bridge` server set to
/// `entry`; every other server and key is kept. Refuses a file that is not a JSON object with an
/// object `mcpServers`, rather than overwrite what a person wrote.
pub fn merged(existing: Option<&[u8]>, entry: Value) -> Result<Value, String> {
    let mut config = match existing {
        None => json!({}),
        Some(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => json!({}),
        Some(bytes) => serde_json::from_slice::<Value>(bytes)
            .map_err(|e| format!("it is not valid JSON ({e})"))?,
    };
    let Some(object) = config.as_object_mut() else {
        return Err("it is not a JSON object".to_owned());
    };
    let servers = object
        .entry("mcpServers")
        .or_insert_with(|| Value::Object(Default::default()));
    let Some(servers) = servers.as_object_mut() else {
        return Err("its `mcpServers` is not an object".to_owned());
    };
    servers.insert(SERVER_NAME.to_owned(), entry);
    Ok(config)
}

/// Runs `mcp install`.
pub fn run(args: &McpInstallArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let client = if args.cursor {
        Client::Cursor
    } else {
        Client::Claude
    };
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| UserError::error(format!("cannot find this executable's path: {e}")))?;
    if !args.write {
        let entry = server_entry(&exe, &repo, Scope::Local);
        let config = merged(None, entry).map_err(UserError::error)?;
        crate::outln!("{config:#}");
        return Ok(Exit::Ok);
    }
    let path: PathBuf = repo.root.join(client.config_file());
    let existing = match std::fs::read(&path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(UserError::error(format!(
                "cannot read {}: {e}",
                path.display()
            )));
        }
    };
    let entry = server_entry(&exe, &repo, Scope::Portable);
    let config = merged(existing.as_deref(), entry).map_err(|why| {
        UserError::error(format!(
            "refusing to change {}: {why}; fix or move it, or copy the output of `doc-bridge mcp install` by hand",
            path.display()
        ))
    })?;
    let mut bytes = serde_json::to_vec_pretty(&config)
        .map_err(|e| UserError::error(format!("cannot encode the configuration: {e}")))?;
    bytes.push(b'\n');
    if existing.as_deref() == Some(bytes.as_slice()) {
        crate::errln!("{} already starts this server", path.display());
        return Ok(Exit::Ok);
    }
    if !args.yes && !confirm(&path)? {
        crate::errln!("nothing written");
        return Ok(Exit::Findings);
    }
    doc_bridge_store::artifact::write_atomic(&path, &bytes)
        .map_err(|e| UserError::error(format!("cannot write {}: {e}", path.display())))?;
    crate::errln!("wrote {}", path.display());
    Ok(Exit::Ok)
}

/// Asks on the terminal; refuses when stdin is not one (a script must pass `--yes`).
fn confirm(path: &Path) -> Result<bool, UserError> {
    let stdin = std::io::stdin();
    if !stdin.is_terminal() {
        return Err(UserError::error(format!(
            "refusing to write {} without confirmation: stdin is not a terminal; pass --yes",
            path.display()
        )));
    }
    eprint!(
        "write the doc-bridge server into {}? [y/N] ",
        path.display()
    );
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    stdin
        .lock()
        .read_line(&mut answer)
        .map_err(|e| UserError::error(format!("cannot read the answer: {e}")))?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes" | "Yes" | "YES"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn merging_keeps_other_servers_and_keys() {
        let existing = br#"{"mcpServers": {"other": {"command": "x"}}, "keep": 1}"#;
        let merged = merged(Some(existing), json!({"command": "db"})).unwrap();
        assert_eq!(merged["mcpServers"]["other"]["command"], "x");
        assert_eq!(merged["mcpServers"]["doc-bridge"]["command"], "db");
        assert_eq!(merged["keep"], 1);
    }

    #[test]
    fn a_file_that_is_not_a_configuration_is_refused() {
        assert!(merged(Some(b"[1]"), json!({})).is_err());
        assert!(merged(Some(b"{not json"), json!({})).is_err());
        assert!(merged(Some(br#"{"mcpServers": []}"#), json!({})).is_err());
        assert!(merged(Some(b"  \n"), json!({})).is_ok());
    }
}
