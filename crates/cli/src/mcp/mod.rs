//! The Model Context Protocol server over stdio (`doc-bridge mcp`).
//!
//! stdout carries the protocol and nothing else; messages go to stderr. The index is kept in
//! memory ([`state`]) and each `tools/call` is answered from it in milliseconds. Wrong arguments
//! and unknown tools are JSON-RPC errors; a missing, stale or corrupt index, an unknown entity or
//! a refused path is an MCP error result the caller can read. Either way the server keeps serving.
//! Nothing here calls an agent: this module never depends on `doc-bridge-agents`.

pub mod budget;
pub mod confine;
mod framing;
pub mod install;
pub mod state;
pub mod tools;

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use crate::exit::UserError;
use state::State;
use tools::{Answer, ToolError};

/// The largest `arguments` object accepted, in bytes of JSON.
pub const MAX_ARGUMENT_BYTES: usize = 64 * 1024;

/// The server: the state behind a lock (calls are short and run one at a time).
#[derive(Clone)]
pub struct DocBridgeServer {
    state: Arc<Mutex<State>>,
}

impl DocBridgeServer {
    /// A server for the repository at `root` (canonical).
    pub fn new(root: PathBuf, options: ServeOptions) -> Self {
        DocBridgeServer {
            state: Arc::new(Mutex::new(State::new(
                root,
                options.allow_stale,
                options.refresh,
            ))),
        }
    }

    /// Writes what the last call's refresh left to write (see [`State::settle`]).
    fn settle(&self) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        state.settle();
    }

    /// Answers one `tools/call`.
    fn call(&self, name: &str, arguments: Option<JsonObject>) -> Result<CallToolResult, McpError> {
        let arguments = serde_json::Value::Object(arguments.unwrap_or_default());
        let size = serde_json::to_string(&arguments)
            .map(|s| s.len())
            .unwrap_or(usize::MAX);
        if size > MAX_ARGUMENT_BYTES {
            return Err(McpError::invalid_params(
                format!("arguments are {size} bytes; the limit is {MAX_ARGUMENT_BYTES}"),
                None,
            ));
        }
        // A poisoned lock only means an earlier call panicked; the state is still consistent
        // (every field is replaced whole), so serving goes on.
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let state = &mut *state;
        // What an earlier refresh left to write is on disk before any tool looks at it.
        state.settle();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            dispatch(state, name, arguments)
        }));
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(_) => {
                state.invalidate();
                return Err(McpError::internal_error(
                    format!("`{name}` failed unexpectedly; the server goes on"),
                    None,
                ));
            }
        };
        match outcome {
            Ok((answer, budget)) => {
                let value = answer.fitted(budget);
                let text = serde_json::to_string(&value).map_err(|e| {
                    McpError::internal_error(format!("cannot encode the answer: {e}"), None)
                })?;
                Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
            }
            Err(ToolError::Invalid(message)) => Err(McpError::invalid_params(message, None)),
            Err(ToolError::Failed(message)) => {
                Ok(CallToolResult::error(vec![ContentBlock::text(message)]))
            }
        }
    }
}

/// Parses arguments strictly: unknown fields and wrong types are refused with serde's message.
fn parse<T: DeserializeOwned>(name: &str, arguments: serde_json::Value) -> Result<T, ToolError> {
    serde_json::from_value(arguments)
        .map_err(|e| ToolError::Invalid(format!("invalid arguments for `{name}`: {e}")))
}

type Dispatched = Result<(Answer, Option<u64>), ToolError>;

fn dispatch(state: &mut State, name: &str, arguments: serde_json::Value) -> Dispatched {
    match name {
        "search" => {
            let args: tools::SearchArgs = parse(name, arguments)?;
            let budget = args.budget_tokens;
            Ok((tools::search_tool(state, args)?, budget))
        }
        "lookup" => {
            let args: tools::LookupArgs = parse(name, arguments)?;
            let budget = args.budget_tokens;
            Ok((tools::lookup_tool(state, args)?, budget))
        }
        "handoff" => {
            let args: tools::HandoffArgs = parse(name, arguments)?;
            let budget = args.budget_tokens;
            Ok((tools::handoff_tool(state, args)?, budget))
        }
        "read_document" => {
            let args: tools::ReadDocumentArgs = parse(name, arguments)?;
            let budget = args.budget_tokens;
            Ok((tools::read_document_tool(state, args)?, budget))
        }
        "diagnostics" => {
            let args: tools::DiagnosticsArgs = parse(name, arguments)?;
            let budget = args.budget_tokens;
            Ok((tools::diagnostics_tool(state, args)?, budget))
        }
        "proposals" => {
            let args: tools::ProposalsArgs = parse(name, arguments)?;
            let budget = args.budget_tokens;
            Ok((tools::proposals_tool(state, args)?, budget))
        }
        "refresh" => {
            let args: tools::RefreshArgs = parse(name, arguments)?;
            Ok((tools::refresh_tool(state, args)?, None))
        }
        other => Err(ToolError::Invalid(format!(
            "unknown tool `{}`; see tools/list",
            other.chars().take(100).collect::<String>()
        ))),
    }
}

/// The input schema of `T`: JSON Schema 2020-12 with subschemas inlined, so clients that do not
/// follow `$ref` read it too.
fn schema<T: JsonSchema>() -> Arc<JsonObject> {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let schema = generator.into_root_schema_for::<T>();
    match serde_json::to_value(schema) {
        Ok(serde_json::Value::Object(mut object)) => {
            object.remove("$schema");
            Arc::new(object)
        }
        _ => Arc::new(JsonObject::new()),
    }
}

fn tool<T: JsonSchema>(name: &'static str, description: &'static str, read_only: bool) -> Tool {
    let annotations = ToolAnnotations::new()
        .read_only(read_only)
        .destructive(false)
        .open_world(false);
    let mut tool = Tool::new(
        Cow::Borrowed(name),
        Cow::Borrowed(description),
        schema::<T>(),
    );
    tool.annotations = Some(annotations);
    tool
}

/// Every tool, in a fixed order. Names use only letters, digits and `_`.
pub fn tool_list() -> Vec<Tool> {
    vec![
        tool::<tools::SearchArgs>(
            "search",
            "Ranked search over the repository's documents, modules, packages and areas: title, path, score and a short numbered excerpt per result; `explain` adds every score part.",
            true,
        ),
        tool::<tools::LookupArgs>(
            "lookup",
            "One entity by id or path: its facts, neighbours by relation kind (up to `depth` hops; `limit` per kind, default 50, `nextCursor` for the rest), the documents covering it, its diagnostics and evidence.",
            true,
        ),
        tool::<tools::HandoffArgs>(
            "handoff",
            "Where to start when changing an entity: the file to read first, files to read before editing, edit roots, checks to run, related areas.",
            true,
        ),
        tool::<tools::ReadDocumentArgs>(
            "read_document",
            "Numbered lines of a file inside the repository (secrets redacted). Only files the index inventoried; paths outside the root are refused.",
            true,
        ),
        tool::<tools::DiagnosticsArgs>(
            "diagnostics",
            "Problems found while indexing (and by `doc-bridge check` when it ran), one entry each, filtered by path and lowest severity; `limit` (default 100) per answer, `nextCursor` for the rest.",
            true,
        ),
        tool::<tools::ProposalsArgs>(
            "proposals",
            "Enrichment proposals: `list` the overlay, or `approve`/`reject` a pending proposal on behalf of a named person (`by`); agents and `policy` cannot decide.",
            false,
        ),
        tool::<tools::RefreshArgs>(
            "refresh",
            "Bring the index up to date now, as `doc-bridge index` does (only changed files are analysed again; writes `.doc-bridge/`). Other tools refresh a stale index by themselves; every answer says `fresh`.",
            false,
        ),
    ]
}

impl ServerHandler for DocBridgeServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("doc-bridge", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "doc-bridge answers questions about this repository from its index: `search` to find, `lookup` and `handoff` to understand an entity, `read_document` to read a file, `diagnostics` for problems, `proposals` for enrichment review. Pass `budgetTokens` to bound a response.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tool_list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let server = self.clone();
        let name = request.name.to_string();
        // Tool work reads files; it runs off the protocol's threads.
        let result =
            tokio::task::spawn_blocking(move || server.call(&name, request.arguments)).await;
        // The answer goes out now; the artifacts a refresh built for it are written meanwhile
        // (the next call waits for them).
        let server = self.clone();
        tokio::task::spawn_blocking(move || server.settle());
        match result {
            Ok(result) => result.map(CallToolResponse::from),
            Err(_) => Err(McpError::internal_error(
                "the call failed unexpectedly; the server goes on",
                None,
            )),
        }
    }
}

/// How the server treats an index that is not up to date.
#[derive(Debug, Clone, Copy)]
pub struct ServeOptions {
    /// Serve a stale index (marked `fresh: false`) when it is not refreshed.
    pub allow_stale: bool,
    /// Bring a stale or missing index up to date before answering (`mcp` without
    /// `--no-refresh`).
    pub refresh: bool,
}

/// Serves over stdin/stdout until the client closes the connection.
pub fn serve(root: PathBuf, options: ServeOptions) -> Result<(), UserError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| UserError::error(format!("cannot start the MCP server: {e}")))?;
    runtime.block_on(async move {
        let server = DocBridgeServer::new(root, options);
        let last = server.clone();
        // Every line gets an answer, malformed ones included (see `framing`).
        let (reads, writes, writer) = framing::screened(tokio::io::stdin(), tokio::io::stdout());
        let running = server
            .serve((reads, writes))
            .await
            .map_err(|e| UserError::error(format!("MCP initialization failed: {e}")))?;
        let stopped = running
            .waiting()
            .await
            .map_err(|e| UserError::error(format!("the MCP server stopped: {e}")));
        let _ = writer.await;
        // Nothing a refresh built is left unwritten when the server ends.
        let _ = tokio::task::spawn_blocking(move || last.settle()).await;
        stopped?;
        Ok(())
    })
}
