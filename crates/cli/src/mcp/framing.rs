//! The lines between stdio and the MCP library: every line a client sends gets an answer.
//!
//! MCP over stdio is one JSON-RPC message per line. A line that is not JSON (`garbage`, `{`,
//! invalid UTF-8) would otherwise be dropped without a word, and a client waiting for its answer
//! would wait forever. So each line is looked at first (JSON-RPC 2.0, "Error object"):
//!
//! - not UTF-8, or not JSON: `-32700` (parse error), `id` null;
//! - JSON but neither an object nor a non-empty array, or an object whose `id` is neither a
//!   string, a number nor null: `-32600` (invalid request), `id` null;
//! - an object with a key given twice at any depth (`{"a": 1, "a": 2}`: which one counts is
//!   up to the parser, so the request is ambiguous): `-32600`, with the request's `id` when it
//!   has a usable one;
//! - a line longer than [`MAX_LINE_BYTES`]: `-32700`, and the line is skipped whole.
//!
//! Everything else goes to the library unchanged. Answers from both are written to stdout one
//! whole line at a time, so they never interleave.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

/// The longest line read (a request is small; a tool's arguments are bounded far below this).
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// Size of the in-process pipes between these tasks and the library.
const PIPE_BYTES: usize = 1 << 16;

/// What to do with one line from the client.
#[derive(Debug, Clone, PartialEq)]
pub enum Screened {
    /// Hand it to the library as it is.
    Forward,
    /// Nothing to do (a blank line).
    Skip,
    /// Answer it with this error response (one line of JSON).
    Answer(Value),
}

/// Looks at one line (without its newline).
pub fn screen(line: &[u8]) -> Screened {
    let trimmed = line.trim_ascii();
    if trimmed.is_empty() {
        return Screened::Skip;
    }
    let Ok(text) = std::str::from_utf8(trimmed) else {
        return Screened::Answer(error(
            Value::Null,
            -32700,
            "Parse error: the line is not UTF-8",
        ));
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            return Screened::Answer(error(
                Value::Null,
                -32700,
                &format!("Parse error: the line is not JSON ({e})"),
            ));
        }
    };
    let id = match &value {
        Value::Object(object) => match object.get("id") {
            None | Some(Value::Null) => Value::Null,
            Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
            Some(_) => {
                return Screened::Answer(error(
                    Value::Null,
                    -32600,
                    "Invalid Request: `id` must be a string, a number or null",
                ));
            }
        },
        Value::Array(items) if !items.is_empty() => Value::Null,
        _ => {
            return Screened::Answer(error(
                Value::Null,
                -32600,
                "Invalid Request: a request is a JSON object",
            ));
        }
    };
    if let Err(key) = no_duplicate_keys(text) {
        return Screened::Answer(error(
            id,
            -32600,
            &format!("Invalid Request: the key `{key}` is given twice"),
        ));
    }
    Screened::Forward
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// `Err(key)` with the first key found twice in one object of `text` (valid JSON).
fn no_duplicate_keys(text: &str) -> Result<(), String> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    match UniqueKeys.deserialize(&mut deserializer) {
        Ok(()) => Ok(()),
        Err(e) => {
            let message = e.to_string();
            match message.strip_prefix(DUPLICATE) {
                Some(rest) => Err(rest.split(" at line").next().unwrap_or(rest).to_owned()),
                None => Ok(()),
            }
        }
    }
}

const DUPLICATE: &str = "duplicate key: ";

/// Walks a JSON value, failing on the first object with a key given twice.
struct UniqueKeys;

impl<'de> DeserializeSeed<'de> for UniqueKeys {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UniqueKeys {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(UniqueKeys)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!("{DUPLICATE}{key}")));
            }
            map.next_value_seed(UniqueKeys)?;
        }
        Ok(())
    }
}

/// Connects `input` and `output` (stdin and stdout) to the library through the screen: returns
/// the reader and writer to give the library, and the task that writes `output`, which ends
/// once the client closed `input` and the library its writer (await it so no answer is lost).
pub fn screened<R, W>(
    input: R,
    output: W,
) -> (DuplexStream, DuplexStream, tokio::task::JoinHandle<()>)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (mut to_library, library_reads) = tokio::io::duplex(PIPE_BYTES);
    let (library_writes, from_library) = tokio::io::duplex(PIPE_BYTES);
    let (answers, mut answered) = mpsc::channel::<Vec<u8>>(64);

    tokio::spawn(async move {
        let mut input = BufReader::new(input);
        let mut line = Vec::new();
        loop {
            line.clear();
            match read_bounded_line(&mut input, &mut line).await {
                Ok(None) => break,
                Ok(Some(false)) => {
                    let answer = error(
                        Value::Null,
                        -32700,
                        &format!("Parse error: the line is longer than {MAX_LINE_BYTES} bytes"),
                    );
                    if answers.send(answer.to_string().into_bytes()).await.is_err() {
                        break;
                    }
                }
                Ok(Some(true)) => match screen(&line) {
                    Screened::Skip => {}
                    Screened::Forward => {
                        line.push(b'\n');
                        if to_library.write_all(&line).await.is_err() {
                            break;
                        }
                    }
                    Screened::Answer(answer) => {
                        if answers.send(answer.to_string().into_bytes()).await.is_err() {
                            break;
                        }
                    }
                },
                Err(_) => break,
            }
        }
        // The client is gone: the library sees the end of its input and stops.
        let _ = to_library.shutdown().await;
    });

    let writer = tokio::spawn(async move {
        let mut output = output;
        let mut from_library = BufReader::new(from_library);
        let mut line = Vec::new();
        let mut library_open = true;
        let mut answers_open = true;
        while library_open || answers_open {
            tokio::select! {
                read = from_library.read_until(b'\n', &mut line), if library_open => {
                    match read {
                        Ok(0) | Err(_) => library_open = false,
                        Ok(_) => {
                            if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                                return;
                            }
                            line.clear();
                        }
                    }
                }
                answer = answered.recv(), if answers_open => match answer {
                    Some(mut answer) => {
                        answer.push(b'\n');
                        if output.write_all(&answer).await.is_err() || output.flush().await.is_err() {
                            return;
                        }
                    }
                    None => answers_open = false,
                },
            }
        }
    });

    (library_reads, library_writes, writer)
}

/// Reads one line into `line` (without its newline): `Ok(None)` at the end of the input,
/// `Ok(Some(false))` when the line was longer than [`MAX_LINE_BYTES`] (read to its end and
/// dropped), `Ok(Some(true))` otherwise.
async fn read_bounded_line<R: tokio::io::AsyncBufRead + Unpin>(
    input: &mut R,
    line: &mut Vec<u8>,
) -> std::io::Result<Option<bool>> {
    let mut too_long = false;
    let mut any = false;
    loop {
        let buffer = input.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(any.then_some(!too_long));
        }
        any = true;
        let (chunk, done) = match buffer.iter().position(|b| *b == b'\n') {
            Some(end) => (&buffer[..end], Some(end + 1)),
            None => (buffer, None),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = done.unwrap_or(buffer.len());
        input.consume(used);
        if done.is_some() {
            return Ok(Some(!too_long));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn code(screened: Screened) -> (i64, Value) {
        match screened {
            Screened::Answer(answer) => (
                answer["error"]["code"].as_i64().unwrap(),
                answer["id"].clone(),
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn lines_that_are_not_json_get_a_parse_error() {
        for line in [
            &b"garbage"[..],
            b"{",
            b"\xff\xfe{}",
            b"{\"jsonrpc\": \"2.0\",}",
        ] {
            assert_eq!(code(screen(line)), (-32700, Value::Null), "{line:?}");
        }
    }

    #[test]
    fn json_that_is_not_a_request_is_invalid() {
        for line in [
            "42",
            "\"x\"",
            "[]",
            "null",
            r#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
        ] {
            assert_eq!(
                code(screen(line.as_bytes())),
                (-32600, Value::Null),
                "{line}"
            );
        }
    }

    #[test]
    fn duplicate_keys_at_any_depth_are_refused_with_the_request_id() {
        let line = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"query":"a","query":"b"}}}"#;
        match screen(line.as_bytes()) {
            Screened::Answer(answer) => {
                assert_eq!(answer["id"], 7);
                assert_eq!(answer["error"]["code"], -32600);
                assert!(
                    answer["error"]["message"]
                        .as_str()
                        .unwrap()
                        .contains("`query`")
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn well_formed_requests_and_blank_lines_pass() {
        let line =
            r#"{"jsonrpc":"2.0","id":"a","method":"ping","params":{"a":{"b":1},"c":[{"b":2}]}}"#;
        assert_eq!(screen(line.as_bytes()), Screened::Forward);
        assert_eq!(screen(b"  \r"), Screened::Skip);
    }
}
