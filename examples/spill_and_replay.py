"""Spill and replay: keep huge results out of the model's context, then replay the session log.

A tool returns a long report; the spill policy saves oversized text to a
private file and leaves a preview with the file's path, both in what the model
reads and in the logged copy of the sub-call. The JSON Lines log is then read
back into a call tree. Run it with ``python examples/spill_and_replay.py``.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import anyio

from codemode import (
    AbortSignal,
    Agent,
    JsonlStore,
    ModelToolCall,
    Registry,
    SessionLog,
    read_events,
    render_tree,
    replay,
    run_turn,
    text_of,
    tool,
)
from codemode.code_mode import CodeMode, LocalSpillStore, SpillPolicy


@tool
def report(lines: int) -> str:
    """A long plain-text report."""
    return "\n".join(f"row {i}: ok" for i in range(lines))


PROGRAM = """
text = await tools.report(lines=2000)
print(f"the report has {len(text.splitlines())} rows")
return text
"""


async def main() -> None:
    # The spill files and the log live in a scratch directory removed at the end.
    with tempfile.TemporaryDirectory(prefix="codemode-example-") as scratch:
        await show(Path(scratch))


async def show(workdir: Path) -> None:
    registry = Registry(mode="code")
    registry.register(report)
    SpillPolicy(max_inline_bytes=300, store=LocalSpillStore(workdir / "spill")).install(registry)
    log = SessionLog(JsonlStore(workdir / "session.jsonl"))
    call = ModelToolCall(
        call_id="call-1",
        name="run_code",
        arguments=json.dumps({"code": PROGRAM, "description": "Summarise the report"}),
    )
    async with CodeMode(registry, log=log, pool_size=1):
        [result] = await run_turn(
            registry, [call], agent=Agent("assistant"), signal=AbortSignal(), log=log, turn=1
        )
    log.close()
    print(text_of(result.content).splitlines()[0])
    print("...")
    print(text_of(result.content).splitlines()[-1].split(" Full")[0])
    print(render_tree(replay(read_events(workdir / "session.jsonl"))))


if __name__ == "__main__":
    anyio.run(main)
