"""An MCP stdio server that misbehaves on purpose: ``python hostile_server.py MODE [N]``.

It speaks raw newline-delimited JSON-RPC, so it can break the protocol in ways
an SDK server never would. Every mode answers the handshake (``server/discover``
with a JSON-RPC error, so the client falls back to ``initialize``) unless it is
``hang_init``; the tools it lists and how it answers ``tools/call`` depend on
the mode:

* ``hang_init`` / ``hang_list`` / ``hang_call``: never answer that request.
* ``garbled``: answers a call with a line that is not JSON.
* ``huge N``: answers a call with one text block of N KiB.
* ``noline N``: answers a call with N KiB and no newline, then waits.
* ``many_blocks N``: answers a call with N text blocks.
* ``many_values N``: answers a call with ``structuredContent`` holding N numbers.
* ``enum_out N``: lists a tool whose output schema has an N-value enum and
  answers with N items.
* ``bad_one``, ``reserved_one``, ``dup_names``: ten good tools (``good0``…)
  and one named ``""``, ``run_code`` or ``good0`` again.
"""

from __future__ import annotations

import json
import sys
from typing import Any

MODE = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 0
OUT = sys.stdout.buffer


def send(message: dict[str, Any]) -> None:
    OUT.write(json.dumps(message).encode() + b"\n")
    OUT.flush()


def tool(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "d", "inputSchema": {"type": "object"}, **extra}


def listing() -> list[dict[str, Any]]:
    good = [tool(f"good{i}") for i in range(10)]
    if MODE == "bad_one":
        return [*good, tool("")]
    if MODE == "reserved_one":
        return [*good, tool("run_code")]
    if MODE == "dup_names":
        return [*good, tool("good0")]
    if MODE == "enum_out":
        values = [f"value-{i:06d}" for i in range(N)]
        schema = {"type": "object", "properties": {
            "v": {"type": "array", "items": {"type": "string", "enum": values}}}}
        return [tool("pick", outputSchema=schema)]
    if MODE == "many_values":
        schema = {"type": "object", "properties": {"v": {"type": "array"}}}
        return [tool("echo", outputSchema=schema)]
    return [tool("echo")]


def answer_call(ident: object) -> None:
    if MODE == "hang_call":
        return
    if MODE == "garbled":
        OUT.write(b"this is not JSON\n")
        OUT.flush()
        return
    if MODE == "noline":
        OUT.write(b"A" * (N * 1024))
        OUT.flush()
        return
    result: dict[str, Any]
    if MODE == "huge":
        result = {"content": [{"type": "text", "text": "A" * (N * 1024)}]}
    elif MODE == "many_blocks":
        result = {"content": [{"type": "text", "text": "a"}] * N}
    elif MODE == "many_values":
        result = {"content": [], "structuredContent": {"v": [0] * N}}
    elif MODE == "enum_out":
        last = f"value-{N - 1:06d}"
        result = {"content": [{"type": "text", "text": "x"}],
                  "structuredContent": {"v": [last] * N}}
    else:
        result = {"content": [{"type": "text", "text": "ok"}]}
    send({"jsonrpc": "2.0", "id": ident, "result": result})


for raw in sys.stdin.buffer:
    message = json.loads(raw)
    if "id" not in message or "method" not in message:
        continue
    ident, method = message["id"], message["method"]
    if method == "initialize":
        if MODE != "hang_init":
            send({"jsonrpc": "2.0", "id": ident, "result": {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "hostile", "version": "1"}}})
    elif method == "tools/list":
        if MODE != "hang_list":
            send({"jsonrpc": "2.0", "id": ident, "result": {"tools": listing()}})
    elif method == "tools/call":
        answer_call(ident)
    elif MODE == "hang_init":
        continue
    else:
        send({"jsonrpc": "2.0", "id": ident,
              "error": {"code": -32601, "message": f"unknown method {method}"}})
