"""Reading one served message: budgets checked first, then the JSON, then the SDK's model.

What ``codemode serve-mcp``'s client sends is untrusted (SECURITY.md, "Bounded
host work"): a message's JSON values and nesting are counted in its bytes
before it is parsed, a message that is not JSON, is a batch or is not a
JSON-RPC message becomes a :class:`Refusal` carrying the error it is owed
(with its id when its first bytes show one), and the id of a message too long
to parse is read from its first bytes alone. The transports in
``_server_wire.py`` decide when each step runs and write the answers.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from ._transport import more_values_than, tokens_outside_strings

__all__ = [
    "ID_WINDOW",
    "INTERNAL_ERROR",
    "INVALID_REQUEST",
    "MAX_MESSAGE_DEPTH",
    "MAX_MESSAGE_VALUES",
    "PARSE_ERROR",
    "Refusal",
    "RequestId",
    "batch_answers",
    "deeper_than",
    "error_body",
    "error_line",
    "id_in",
    "id_key",
    "message_of",
    "parse",
]

RequestId = str | int


#: JSON-RPC's code for a message that is not JSON (or could not be parsed).
PARSE_ERROR: Final = -32700

#: JSON-RPC's code for a message that is JSON but not a request the server reads.
INVALID_REQUEST: Final = -32600

#: JSON-RPC's code for a failure of the server's own (an answer it could not encode).
INTERNAL_ERROR: Final = -32603

#: The most JSON values one message may hold, and the held requests together
#: (the client's ``MAX_RESULT_NODES``): parsed, each is a Python object.
MAX_MESSAGE_VALUES: Final = 500_000

#: The first bytes of a message searched for its id when it is not parsed whole.
ID_WINDOW: Final = 4096

#: The deepest a message may nest (the message itself is level 1). Every later stage
#: walks a request on the event loop's stack (the handler encodes a call's arguments
#: again for the session log), where Python's recursion limit falls at a depth that
#: depends on the caller; a bound of its own, well above the pipeline's
#: ``bridge.lossless.MAX_DEPTH`` for a value, keeps every admitted message within them.
MAX_MESSAGE_DEPTH: Final = 600


class Refusal(Exception):
    """A message the server answers with a JSON-RPC error (or logs, when no answer is owed)."""

    def __init__(self, code: int, message: str, request_id: str | int | float | None, *,
                 owed: bool = True) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.request_id = request_id
        #: False for a malformed notification or response: nothing may be sent back.
        self.owed = owed


#: A whole string, one structural character, or a run of anything else (a scalar).
_LEX: Final = re.compile(rb'"(?:[^"\\]|\\.)*+"|[\[\]{}:,]|[^\s\[\]{}:,"]+')
_INT: Final = re.compile(rb"-?(?:0|[1-9][0-9]{0,17})")
#: A string's opening quote, or one bracket (outside strings).
_NESTING: Final = re.compile(rb'"|[\[\]{}]')


def deeper_than(line: bytes, limit: int) -> bool:
    """Whether the JSON text ``line`` nests more than ``limit`` levels (strings skipped).

    One token at a time, and a string a bounded piece at a time
    (:func:`~codemode.mcp._transport.tokens_outside_strings`), so a worker
    thread doing it never holds the GIL, and with it the event loop, for long.
    """
    if line.count(b"[") + line.count(b"{") <= limit:
        return False
    depth = 0
    for token in tokens_outside_strings(line, _NESTING):
        if token in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def _scalar_id(token: bytes) -> RequestId | None:
    if token.startswith(b'"'):
        try:
            text = json.loads(token)
        except ValueError:
            return None
        return text if isinstance(text, str) else None
    return int(token) if _INT.fullmatch(token) else None


def id_in(text: bytes) -> RequestId | None:
    """The id of the request whose JSON text begins with ``text``, if its top level shows one.

    Reads the top-level members in order, stepping over nested values, and
    gives the ``id`` only if a ``method`` was seen too and no ``result`` or
    ``error`` (a response is never answered). A member counts only once the
    token after its value shows the value is complete.
    """
    tokens = _LEX.finditer(text)
    first = next(tokens, None)
    if first is None or first.group() != b"{":
        return None
    depth = 1
    state = "key"
    key: bytes = b""
    value: bytes | None = None
    found: dict[bytes, bytes | None] = {}
    for match in tokens:
        token = match.group()
        if depth > 1:
            if token in (b"{", b"["):
                depth += 1
            elif token in (b"}", b"]"):
                depth -= 1
            continue
        if state == "key":
            if not token.startswith(b'"'):
                break
            key, state = token, "colon"
        elif state == "colon":
            if token != b":":
                break
            state = "value"
        elif state == "value":
            value = None if token in (b"{", b"[") else token
            if value is None:
                depth += 1
            state = "after"
        else:  # after a value: a comma or the object's end completes it
            if token not in (b",", b"}"):
                break
            found[key] = value
            if token == b"}":
                break
            state = "key"
    if found.keys() & {b'"result"', b'"error"'} or b'"method"' not in found:
        return None
    id_token = found.get(b'"id"')
    return _scalar_id(id_token) if id_token is not None else None


def _not_json(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _loads(line: bytes) -> object:
    return json.loads(line, parse_constant=_not_json)


def parse(line: bytes) -> object:
    """The JSON value of ``line``, or a :class:`Refusal` saying why it is not read."""
    if more_values_than(line, MAX_MESSAGE_VALUES):
        raise Refusal(
            INVALID_REQUEST,
            f"Invalid request: the message holds more than {MAX_MESSAGE_VALUES} JSON values",
            id_in(line[:ID_WINDOW]),
        )
    if deeper_than(line, MAX_MESSAGE_DEPTH):
        raise Refusal(
            PARSE_ERROR,
            f"Parse error: the message nests more deeply than {MAX_MESSAGE_DEPTH} levels",
            id_in(line[:ID_WINDOW]),
        )
    try:
        return _loads(line)
    except RecursionError:
        reason = "the message nests more deeply than this server parses"
    except json.JSONDecodeError as exc:
        reason = f"the message is not JSON ({exc.msg} at byte {exc.pos})"
    except UnicodeDecodeError:
        reason = "the message is not UTF-8"
    except ValueError as exc:
        reason = f"the message is not JSON ({exc})"
    raise Refusal(PARSE_ERROR, f"Parse error: {reason}", id_in(line[:ID_WINDOW]))


def _echoed_id(value: object) -> str | int | float | None:
    """An id JSON-RPC allows (a string or a number), to answer with, else ``None``."""
    return value if isinstance(value, str | int | float) and not isinstance(value, bool) else None


def _valid_id(raw: dict[str, Any]) -> RequestId | None:
    value = raw.get("id")
    return value if isinstance(value, str | int) and not isinstance(value, bool) else None


_BATCH: Final = (
    "Invalid request: JSON-RPC batches are not supported (MCP has none); "
    "send one message per line"
)
_NOT_A_MESSAGE: Final = (
    "Invalid request: not a JSON-RPC 2.0 message (expected an object with "
    'jsonrpc "2.0", a method string, an id string or integer, and params an object if any)'
)


def batch_answers(batch: list[Any]) -> list[dict[str, Any]]:
    """The error each member of a batch is owed: one per request, none per notification."""
    if not batch:
        return [error_body(None, INVALID_REQUEST, _BATCH)]
    answers: list[dict[str, Any]] = []
    for member in batch:
        if isinstance(member, dict) and "method" in member and "id" not in member:
            continue  # a notification: nothing may be sent back
        request_id = _valid_id(member) if isinstance(member, dict) else None
        answers.append(error_body(request_id, INVALID_REQUEST, _BATCH))
    return answers


def message_of(raw: object) -> Any:
    """The SDK's model of one parsed message, or a :class:`Refusal`."""
    import mcp_types
    from pydantic import ValidationError

    try:
        message = mcp_types.jsonrpc_message_adapter.validate_python(raw, by_name=False)
    except ValidationError:
        pass
    else:
        if isinstance(message, mcp_types.JSONRPCNotification) and isinstance(raw, dict) and (
            "id" in raw
        ):
            # The SDK reads a request whose id is not a string or an integer (true,
            # 1.5, null) as a notification, and would never answer it.
            raise Refusal(
                INVALID_REQUEST, "Invalid request: the id must be a string or an integer",
                _echoed_id(raw["id"]),
            )
        return message
    if not isinstance(raw, dict):
        raise Refusal(INVALID_REQUEST, _NOT_A_MESSAGE, None)
    if "result" in raw or "error" in raw:
        raise Refusal(INVALID_REQUEST, "a malformed response", None, owed=False)
    if "method" in raw and "id" not in raw:
        raise Refusal(INVALID_REQUEST, "a malformed notification", None, owed=False)
    raise Refusal(INVALID_REQUEST, _NOT_A_MESSAGE, _valid_id(raw))


def error_body(request_id: str | int | float | None, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def error_line(request_id: str | int | float | None, code: int, message: str) -> bytes:
    return json.dumps(error_body(request_id, code, message)).encode() + b"\n"


def id_key(request_id: RequestId) -> tuple[type, RequestId]:
    # 1 and "1" are different ids (and True is no id at all).
    return (type(request_id), request_id)
