"""The ``codemode`` command: run programs, print the SDK and schemas, replay logs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import anyio
import click

from ._loading import ToolSpecError, load_registry
from ._log import (
    EventStore,
    JsonlStore,
    LogFormatError,
    MemoryStore,
    ModelToolCall,
    SessionLog,
    read_events,
    render_tree,
    replay,
)
from ._registry import Agent
from ._signal import AbortSignal
from ._turns import run_turn
from .code_mode import CodeMode, CodeOutput, CodeRun
from .code_mode._render import render_run_output

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["main"]

#: The outer call id of the program `codemode run` executes; sub-calls are `run:code:<n>`.
RUN_CALL_ID = "run"


def _fail_usage(message: str) -> NoReturn:
    raise click.UsageError(message)


@click.group()
@click.version_option(package_name="codemode")
def main() -> None:
    """Code Mode for LLM agents: run Python programs that call your tools, in a sandbox."""


@main.command()
@click.argument("program", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--tools", "tools_spec", required=True, metavar="TOOLS",
              help="MODULE or FILE.py, optionally :ATTR (a registry or a list of tools).")
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Append the session's events to this JSON Lines file.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Wall-clock limit for the program (default: the sandbox default, 60).")
def run(program: Path, tools_spec: str, as_json: bool, log_path: Path | None,
        timeout: float | None) -> None:
    """Run PROGRAM (the body of an async function) through the sandbox and the tool pipeline.

    What the program prints is shown as it prints it, then what it returned.
    """
    try:
        registry = load_registry(tools_spec)
    except ToolSpecError as exc:
        _fail_usage(str(exc))
    try:
        source = program.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail_usage(f"cannot read {program}: {exc}")
    try:
        store = JsonlStore(log_path) if log_path is not None else MemoryStore()
    except (OSError, LogFormatError) as exc:
        _fail_usage(f"--log {str(log_path)!r}: {exc}")
    # Printed lines are shown as the program prints them; --json keeps stdout
    # for the one object at the end, which holds them too.
    live = None if as_json else _echo_lines
    outcome = anyio.run(_run_program, registry, source, program.name, store, timeout, live)
    _print_outcome(outcome, as_json, shown=live is not None)
    sys.exit(0 if outcome["ok"] else 1)


def _echo_lines(output: CodeOutput) -> None:
    for line in output.lines:
        click.echo(line)


async def _run_program(registry: Any, source: str, label: str, store: EventStore,
                       wall_seconds: float | None,
                       on_output: Callable[[CodeOutput], None] | None = None) -> dict[str, Any]:
    from sandbox import Limits

    log = SessionLog(store)
    runs: list[CodeRun] = []
    agent = Agent("cli")
    dispose_mode = registry.present_as(agent, "code")
    limits = Limits(wall_seconds=wall_seconds) if wall_seconds is not None else Limits()
    try:
        async with CodeMode(registry, log=log, limits=limits, pool_size=1, on_run=runs.append,
                            on_output=on_output):
            arguments = json.dumps({"code": source, "description": f"Run {label}"})
            [result] = await run_turn(
                registry,
                [ModelToolCall(call_id=RUN_CALL_ID, name="run_code", arguments=arguments)],
                agent=agent,
                signal=AbortSignal(),
                log=log,
                turn=1,
            )
    finally:
        dispose_mode()
        log.close()
    run = runs[-1] if runs else None
    if result.is_error:
        info = result.error.info
        kind = info.kind if info is not None and info.kind else "error"
        message = run.error[1] if run is not None and run.error else result.error.message
        error: dict[str, str] | None = {"kind": kind, "message": message}
    else:
        error = None
    return {
        "ok": not result.is_error,
        "result": run.value if run is not None and not result.is_error else None,
        "logs": list(run.logs) if run is not None else [],
        "error": error,
        "calls": [
            {"id": c.id, "name": c.name, "is_error": c.is_error}
            for c in (run.calls if run is not None else ())
        ],
    }


def _print_outcome(outcome: dict[str, Any], as_json: bool, *, shown: bool = False) -> None:
    """Print the run's outcome; ``shown``: its printed lines are already on stdout."""
    if as_json:
        click.echo(json.dumps(outcome, ensure_ascii=False))
        return
    logs = [] if shown else outcome["logs"]
    if outcome["ok"]:
        click.echo(render_run_output(logs, outcome["result"]))
        return
    for line in logs:
        click.echo(line)
    error = outcome["error"]
    click.echo(f"error ({error['kind']}): {error['message']}", err=True)


@main.command()
@click.option("--tools", "tools_spec", required=True, metavar="TOOLS",
              help="MODULE or FILE.py, optionally :ATTR.")
def sdk(tools_spec: str) -> None:
    """Print the SDK section a model in code mode reads for these tools."""
    try:
        registry = load_registry(tools_spec)
    except ToolSpecError as exc:
        _fail_usage(str(exc))
    click.echo(CodeMode(registry).system_prompt())


@main.command("replay")
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the tree as JSON.")
def replay_log(log_file: Path, as_json: bool) -> None:
    """Print the call tree recorded in LOG_FILE (run_code calls with their sub-calls)."""
    try:
        nodes = replay(read_events(log_file))
    except (OSError, LogFormatError) as exc:
        raise click.BadParameter(str(exc), param_hint="LOG_FILE") from None
    if as_json:
        import msgspec

        click.echo(msgspec.json.encode(nodes).decode())
    else:
        click.echo(render_tree(nodes))

