"""The few lines of MCP (newline-delimited JSON-RPC over a child's stdio) the bench scripts
speak to `doc-bridge mcp`: start and initialize a server, and make a call. Standard library
only; imported by `mcp-refresh.py` and `mcp-first-answer.py` from this directory.
"""

import json
import subprocess
import sys


def call(proc, ident, method, params):
    """Sends one request and returns its answer (skipping anything else the server says)."""
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n")
    proc.stdin.flush()
    while True:
        line = proc.stdout.readline()
        if not line:
            sys.exit("the server closed its output")
        message = json.loads(line)
        if message.get("id") == ident:
            return message


def start(binary, tree, stderr=None):
    """A `binary mcp --root tree` server, initialized (request id 1 is used)."""
    proc = subprocess.Popen([binary, "mcp", "--root", tree], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=stderr, text=True)
    call(proc, 1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "bench", "version": "1"}})
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    proc.stdin.flush()
    return proc
