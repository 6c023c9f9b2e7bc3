"""The ``codemode`` command: run programs, print the SDK and schemas, replay logs, escape-test.

The contract every command keeps: stdout carries only what the command itself
prints (exactly one JSON object under ``--json``), so whatever a tools module
or a tool prints goes to stderr; a tools module that cannot be loaded is one
readable usage error; the exit status is 0, 1 or 2 and nothing else.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import secrets
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, final

import anyio
import click

from ._formats import FORMATS
from ._loading import ToolSpecError, load_registry
from ._log import (
    EventStore,
    JsonlStore,
    LogFormatError,
    LogInvariantError,
    MemoryStore,
    ModelToolCall,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
    read_events,
    render_tree,
    replay,
)
from ._log._replay import InvariantCheck, tree_json
from ._registry import RUN_CODE, Agent, Registry
from ._results import safe_str, type_name
from ._signal import AbortSignal
from ._terminal import one_line, terminal_safe
from ._turns import run_turn
from .code_mode import CodeMode, CodeOutput, CodeRun
from .code_mode._render import render_run_output

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from sandbox import RunResult

    from ._log import Event
    from .escapes import Case, CorpusRun, LegitProgram, Mode

__all__ = ["main"]

#: The outer call id of the program `codemode run` executes is this and 8 random hex digits
#: that no call in the log has (`run-3f9a1c2b`); its sub-calls are `run-3f9a1c2b:code:<n>`.
RUN_CALL_ID_PREFIX = "run-"

_CONTEXT: dict[str, Any] = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

_TOOLS_HELP = (
    "MODULE or FILE.py, optionally :ATTR (a Registry, a tool, or a list of tools); without "
    ":ATTR every public, fully annotated function becomes a tool. MODULE is looked up in the "
    "current folder too."
)


_MCP_HEADER_HELP = (
    "With --tools 'mcp+http:URL': send the header NAME with every request, its value read "
    "from the environment variable VAR, so no secret goes on the command line (e.g. "
    "Authorization=MCP_AUTH, MCP_AUTH holding 'Bearer ...'). Repeatable."
)


def _mcp_header_option(command: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--mcp-header", "mcp_headers", multiple=True, metavar="NAME=VAR", help=_MCP_HEADER_HELP,
    )(command)


def _fail_usage(message: str) -> NoReturn:
    # The message may quote a server's or a file's words; it stays one `Error:` line.
    raise click.UsageError(one_line(message))


@contextlib.contextmanager
def _prints_to_stderr() -> Iterator[Callable[[str], None]]:
    """While the block runs, send everything written to stdout to stderr instead.

    Tools modules and tools are the user's code: a ``print`` at import time or in
    a tool (or a write to file descriptor 1 from C code or a subprocess) must not
    land in front of the command's own output, which the caller may parse.

    Yields a function that writes one line of the command's own output to the
    real stdout at once (a program's printed lines, shown while it runs).
    """
    sys.stdout.flush()
    real = sys.stdout
    try:
        out_fd, err_fd = sys.stdout.fileno(), sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        saved = None  # not a real file (an in-process test runner): Python level only
    else:
        saved = os.dup(out_fd)
        os.dup2(err_fd, out_fd)

    def show(line: str) -> None:
        line = terminal_safe(line)
        if saved is None:
            real.write(line + "\n")
            real.flush()
            return
        data = (line + "\n").encode("utf-8", "replace")
        while data:
            data = data[os.write(saved, data):]

    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield show
    finally:
        if saved is not None:
            # What was written to the real stdout object is still buffered: let it
            # reach stderr before the descriptor points back at stdout.
            with contextlib.suppress(OSError, ValueError):
                sys.stdout.flush()
            os.dup2(saved, out_fd)
            os.close(saved)


def _load(tools_spec: str) -> Registry:
    try:
        return load_registry(tools_spec)
    except ToolSpecError as exc:
        _fail_usage(str(exc))


@click.group(
    invoke_without_command=True,
    context_settings=_CONTEXT,
    epilog="Run `codemode COMMAND --help` for a command's options, an example, its --json "
    "shape and its exit statuses.",
)
@click.version_option(package_name="codemode")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Code Mode for LLM agents: run Python programs that call your tools, in a sandbox.

    \b
    Example:
      codemode run examples/programs/bookshop.py --tools examples/bookshop_tools.py
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())
        ctx.exit(0)


# -- run ------------------------------------------------------------------------------------------


@main.command(short_help="Run a program through the sandbox and the tool pipeline.")
@click.argument("program", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--tools", "tools_spec", required=True, metavar="TOOLS", help=_TOOLS_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Append the session's events to this JSON Lines file.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Wall-clock limit for the program (default: the sandbox default, 60).")
@_mcp_header_option
def run(program: Path, tools_spec: str, as_json: bool, log_path: Path | None,
        timeout: float | None, mcp_headers: tuple[str, ...]) -> None:
    """Run PROGRAM (the body of an async function) through the sandbox and the tool pipeline.

    The program calls the tools as `await tools.NAME(arg=value)`; it prints and
    returns what it wants back. What it prints is shown as it prints it, then what
    it returned (with --json, nothing until the one object at the end). Whatever
    the tools print goes to stderr.

    \b
    Example:
      codemode run examples/programs/bookshop.py --tools examples/bookshop_tools.py --json

    \b
    TOOLS may also name an MCP server, whose tools the program then calls:
      --tools 'mcp+stdio:python my_server.py'   started, spoken to over stdio
      --tools 'mcp+http:https://example.com/mcp' --mcp-header Authorization=MCP_AUTH
        streamable HTTP; each --mcp-header NAME=VAR sends the header NAME with
        the value of the environment variable VAR (e.g. MCP_AUTH='Bearer ...',
        or X-Api-Key=MY_KEY), so the secret is in no command line.

    \b
    --json prints exactly one object:
      {"ok": true|false, "result": <returned value or null>, "logs": ["printed line", ...],
       "error": null | {"kind": "exception|compile|timeout|...", "message": "..."},
       "calls": [{"id": "run-3f9a1c2b:code:1", "name": "TOOL", "is_error": false}, ...]}

    The program runs as one call, `run-` and 8 random hex digits that no call
    in the --log file has (`run-3f9a1c2b`); its tool calls are that id,
    `:code:` and their number.

    \b
    Exit status: 0 the program succeeded, 1 it failed (a tool call that failed
    and was caught is not a failure), 2 usage error (TOOLS, PROGRAM or --log:
    one that cannot be opened, is not a session log, or whose events break the
    session log's invariants).
    """
    if timeout is not None and not math.isfinite(timeout):
        # Refused here, as a usage error: the sandbox's Limits would refuse it only
        # once the run had started, as the program's failure.
        _fail_usage(f"--timeout must be a finite number of seconds, not {timeout}")
    try:
        source = program.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail_usage(f"cannot read {program}: {exc}")
    log, seen = _open_log(log_path)
    call_id = _new_run_call_id(seen.run_ids)
    try:
        with _prints_to_stderr() as show:
            registry = _tools_source(tools_spec, mcp_headers)
            # Printed lines are shown as the program prints them; --json keeps stdout
            # for the one object at the end, which holds them too.
            live = None if as_json else _LiveLines(show)
            try:
                outcome = anyio.run(
                    _with_tools, _run_program, registry, source, program.name, log, call_id,
                    timeout, live,
                )
            except click.UsageError:
                raise  # an MCP server named by --tools could not be reached
            except BaseException as exc:
                # Past the pipeline's own containment: a policy listener of the tools
                # module raising SystemExit, say, or Ctrl-C. Still one object, status 1.
                outcome = _host_failure(exc)
            finally:
                if live is not None:
                    live.close()  # every line shown before the outcome
    finally:
        log.close()
    _print_outcome(outcome, as_json, shown=live is not None)
    sys.exit(0 if outcome["ok"] else 1)


@final
class _SeenIds:
    """An event store as it is, noting the `run-` call ids its history holds as it is read.

    :class:`SessionLog` reads a store's history once, when it opens it; read
    through here, that same pass tells `codemode run` which of its root call
    ids the log has used, so the one it picks is new to the log (which its
    store keeps locked while the run appends) without reading the file twice.
    """

    __slots__ = ("run_ids", "store")

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.run_ids: set[str] = set()

    def read(self) -> Iterator[Event]:
        for event in self.store.read():
            if (
                isinstance(event, ToolCallEvent | ToolResultEvent)
                and event.call_id.startswith(RUN_CALL_ID_PREFIX)
            ):
                self.run_ids.add(event.call_id)
            yield event

    def append(self, event: Event) -> Event:
        return self.store.append(event)

    def sync(self) -> None:
        self.store.sync()

    def close(self) -> None:
        self.store.close()


def _open_log(log_path: Path | None) -> tuple[SessionLog, _SeenIds]:
    """The session log a `--log` value names (in memory without one), or a usage error.

    The store and the log are built here together: a file that cannot be opened
    or locked, that is not a session log, or whose events break the session
    log's invariants (say, a dispatch line from another session) is one `Error:`
    line and exit status 2, before any tool is loaded or any call runs.
    """
    try:
        seen = _SeenIds(JsonlStore(log_path) if log_path is not None else MemoryStore())
        return SessionLog(seen), seen
    except (OSError, LogFormatError, LogInvariantError) as exc:
        _fail_usage(f"--log {str(log_path)!r}: {exc}")


def _run_call_id_suffix() -> str:
    return secrets.token_hex(4)


def _new_run_call_id(used: set[str]) -> str:
    """`run-` and 8 random hex digits, none of ``used`` (the ids the log already holds)."""
    while True:
        call_id = RUN_CALL_ID_PREFIX + _run_call_id_suffix()
        if call_id not in used:
            return call_id


@final
class _LiveLines:
    """A program's printed lines, shown in order from a thread of their own.

    The run calls it on the event loop, which must not block (``on_output``):
    a stdout nobody drains (a pager paused, a terminal stopped with Ctrl-S, a
    pipe whose reader is busy) would stop every task on the loop with the
    write, the run's wall clock included. Lines wait in a queue, bounded by the
    run's output cap, and :meth:`close` waits until all are shown. A write that
    fails (the reader went away) stops the showing; the outcome says the rest.
    """

    __slots__ = ("_lines", "_show", "_thread")

    def __init__(self, show: Callable[[str], None]) -> None:
        self._show = show
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def __call__(self, output: CodeOutput) -> None:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._write, name="codemode-live-output", daemon=True
            )
            self._thread.start()
        for line in output.lines:
            self._lines.put(line)

    def _write(self) -> None:
        failed = False
        while (line := self._lines.get()) is not None:
            if failed:
                continue  # drained, so that close() is not kept waiting
            try:
                self._show(line)
            except (OSError, ValueError):
                failed = True

    def close(self) -> None:
        """Wait until every line given so far has been shown (or the showing failed)."""
        if self._thread is not None:
            self._lines.put(None)
            self._thread.join()
            self._thread = None


async def _run_program(registry: Registry, source: str, label: str, log: SessionLog,
                       call_id: str, wall_seconds: float | None,
                       on_output: Callable[[CodeOutput], None] | None = None) -> dict[str, Any]:
    from sandbox import Limits

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
                [ModelToolCall(call_id=call_id, name="run_code", arguments=arguments)],
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
        if run is not None and run.error:
            message = run.error[1]
        else:
            message = result.error.message
            raised = result.error.exception_type
            if raised is not None and message != raised:
                # A policy listener or wrapper raised (SystemExit, say): name it, as a
                # program's failed tool call is named.
                message = f"{raised}: {message}"
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


def _host_failure(exc: BaseException) -> dict[str, Any]:
    # A tools module's exception: its __str__ and its class's name are foreign code.
    detail = " ".join(safe_str(exc, 500).split())[:500]
    name = type_name(exc)
    return {
        "ok": False,
        "result": None,
        "logs": [],
        "error": {"kind": "error", "message": f"{name}: {detail}" if detail else name},
        "calls": [],
    }


def _echo(text: str, *, err: bool = False) -> None:
    """Write ``text``, which may hold a program's or a server's words, with its controls shown."""
    click.echo(terminal_safe(text), err=err)


def _print_outcome(outcome: dict[str, Any], as_json: bool, *, shown: bool = False) -> None:
    """Print the run's outcome; ``shown``: its printed lines are already on stdout."""
    if as_json:
        _echo(json.dumps(outcome, ensure_ascii=False))
        return
    logs = [] if shown else outcome["logs"]
    if outcome["ok"]:
        _echo(render_run_output(logs, outcome["result"]))
        return
    for line in logs:
        _echo(line)
    error = outcome["error"]
    _echo(f"error ({error['kind']}): {error['message']}", err=True)


# -- sdk and schemas ------------------------------------------------------------------------------


@main.command(short_help="Print the SDK section a model in code mode reads.")
@click.option("--tools", "tools_spec", required=True, metavar="TOOLS", help=_TOOLS_HELP)
@_mcp_header_option
def sdk(tools_spec: str, mcp_headers: tuple[str, ...]) -> None:
    """Print the SDK section a model in code mode reads for these tools.

    The text is Python stubs (TypedDicts, one `async def` per tool, ToolCallError)
    under the rule that run_code is the only direct tool; it is deterministic.

    \b
    Example:
      codemode sdk --tools examples/bookshop_tools.py

    \b
    Exit status: 0 printed, 2 usage error (TOOLS).
    """
    with _prints_to_stderr():
        registry = _listing(tools_spec, mcp_headers)
    _echo(CodeMode(registry).system_prompt())


@main.command(short_help="Print the model's tool list in a provider's format.")
@click.option("--tools", "tools_spec", required=True, metavar="TOOLS", help=_TOOLS_HELP)
@click.option("--mode", type=click.Choice(["native", "code", "both"]), default="code",
              show_default=True,
              help="native: every tool; code: only run_code; both: every tool, then run_code.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="neutral",
              show_default=True, help="The shape of each entry (see below).")
@_mcp_header_option
def schemas(tools_spec: str, mode: str, fmt: str, mcp_headers: tuple[str, ...]) -> None:
    """Print the tool list a model gets, as JSON, in a provider's format.

    \b
    Formats (one entry per tool):
      neutral           {"name", "description", "parameters"}
      openai            {"type": "function", "function": {"name", "description",
                         "parameters", "strict"}}   (Chat Completions)
      openai-responses  {"type": "function", "name", "description", "parameters", "strict"}
      anthropic         {"name", "description", "input_schema"}
      mcp               {"name", "description", "inputSchema", "outputSchema"?}
      gemini            {"name", "description", "parametersJsonSchema",
                         "responseJsonSchema"?}   (functionDeclarations entries)

    OpenAI's strict is true only where the schema already meets strict mode's
    rules; for each tool sent with strict false, stderr says why.

    \b
    Example:
      codemode schemas --tools examples/bookshop_tools.py --mode native --format openai

    \b
    Exit status: 0 printed, 2 usage error (TOOLS, or a tool name the provider refuses).
    """
    from ._formats import openai_strict_problems

    with _prints_to_stderr():
        registry = _listing(tools_spec, mcp_headers)
    agent = Agent("cli")
    registry.present_as(agent, mode)  # type: ignore[arg-type]
    if mode != "native" and registry.get(RUN_CODE, agent) is None:
        registry.install_run_code(CodeMode(registry).definition)
    try:
        listed = registry.wire_schemas(agent, format=fmt)  # type: ignore[call-overload]
    except ValueError as exc:
        _fail_usage(f"--format {fmt}: {exc}")
    if fmt.startswith("openai"):
        for entry in registry.wire_schemas(agent):
            problems = openai_strict_problems(entry["parameters"])
            if problems:
                # One line per tool: a property name in a problem may hold a line break.
                _echo(
                    f"note: {one_line(entry['name'])} is sent with strict: false: "
                    + "; ".join(one_line(problem) for problem in problems),
                    err=True,
                )
    _echo(json.dumps(listed, indent=2, ensure_ascii=False))


# -- replay ---------------------------------------------------------------------------------------


@main.command("replay", short_help="Print the call tree recorded in a session log.")
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the tree as JSON.")
def replay_log(log_file: Path, as_json: bool) -> None:
    """Print the call tree recorded in LOG_FILE (run_code calls with their sub-calls).

    \b
    Example:
      codemode replay session.jsonl
      (after `codemode run PROGRAM.py --tools TOOLS --log session.jsonl`)

    \b
    --json prints one array of call nodes, each with its sub-calls:
      [{"call_id", "name", "arguments", "started", "finished", "is_error",
        "content", "error", "children": [{"call_id": "run-3f9a1c2b:code:1", ...}]}]

    \b
    One line per call: id, name, outcome, duration and the first line of its
    content. An id, name or error code that is not plain (empty, or holding a
    space, a quote, a backslash or a character that is not printable, a line
    break among them) is shown as a JSON string ("c1\\nx"); the content's
    controls and line breaks as \\uXXXX. --json keeps every field exact.
    Sub-calls are indented two spaces a level up to 5 levels; deeper lines
    say "[depth N]" instead, so the output stays linear in the log.

    \b
    A log whose events break the session log's invariants (which run --log
    and serve-mcp --log refuse) is still shown, with a warning on stderr.

    \b
    Exit status: 0 printed, 2 usage error (LOG_FILE missing or damaged; the message
    names the line).
    """
    check = InvariantCheck()
    try:
        nodes = replay(check.passing(read_events(log_file)))
    except (OSError, LogFormatError) as exc:
        raise click.BadParameter(one_line(str(exc)), param_hint="LOG_FILE") from None
    if as_json:
        try:
            encoded = tree_json(nodes)
        except ValueError as exc:
            raise click.BadParameter(one_line(str(exc)), param_hint="LOG_FILE") from None
        _echo(encoded.decode())
    else:
        _echo(render_tree(nodes))
    if check.problems:
        _echo(f"warning: {one_line(str(log_file))}: {check.summary()}", err=True)


# -- escape-test ----------------------------------------------------------------------------------


@main.command("escape-test", short_help="Run a corpus of escape programs against the sandbox.")
@click.argument("directory", required=False,
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--layers", type=click.Choice(["all", "language", "tripwire", "os"]),
              default="all", show_default=True,
              help="The ablation mode: all three layers, or one layer alone.")
@click.option("--case", "patterns", multiple=True, metavar="PATTERN",
              help="Run only the cases whose id (CATEGORY/NAME, or legit/NAME) matches this "
              "glob; repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print exactly one JSON object.")
def escape_test(directory: Path | None, layers: str, patterns: tuple[str, ...],
                as_json: bool) -> None:
    """Run every escape program in DIRECTORY through real sandbox children and judge each run.

    DIRECTORY (default: the project's own corpus) holds CATEGORY/NAME.py programs,
    each opening with `# key: value` header lines (category, signal, source,
    tripwire, and optionally expect, kinds, applies, leak), and optionally legit/
    programs that must keep working (`# value: <JSON>`). Each case gets a fresh
    stage (a secret file, a marker directory, canary sockets, a victim process);
    every harm is read from outside the child (the format: README, and every
    key in SECURITY.md).

    \b
    Example:
      codemode escape-test examples/escape_corpus --layers os

    \b
    --json prints exactly one object:
      {"ok": bool, "corpus": str, "mode": str,
       "categories": {"CATEGORY": {"cases": n, "contained": n, "escaped": n}},
       "escapes": [{"id": "CATEGORY/NAME", "source": str, "harms": [str]}],
       "legitimate": {"run": n, "broken": [{"id": "legit/NAME", "problem": str}]},
       "pool": [str], "missing_layers": [str]}

    \b
    Exit status: 0 every case contained, 1 a case escaped or the pool was harmed
    (broken legitimate programs are reported, not failed), 2 usage error (a
    malformed case header, no case selected).
    """
    import fnmatch

    from .escapes import _format, _report, _runner

    corpus = directory if directory is not None else _format.CORPUS_DIR
    if not corpus.is_dir():
        _fail_usage(
            f"the project's corpus is not at {corpus}; pass the directory of a corpus"
        )
    mode: Mode = layers  # type: ignore[assignment]  # click.Choice checked it
    try:
        cases = _format.load_cases(corpus)
        programs = _format.load_legit_programs(corpus / _format.LEGIT_NAME)
    except (ValueError, OSError, UnicodeDecodeError) as exc:
        _fail_usage(f"{corpus}: {' '.join(str(exc).split())}")

    def chosen(item_id: str) -> bool:
        return not patterns or any(fnmatch.fnmatchcase(item_id, p) for p in patterns)

    cases = tuple(c for c in cases if chosen(c.id) and mode in c.applies)
    programs = tuple(p for p in programs if chosen(f"{_format.LEGIT_NAME}/{p.id}"))
    if not cases and not programs:
        loose = sorted(path.name for path in corpus.glob("*.py"))
        hint = (
            f"; cases live in DIR/CATEGORY/NAME.py, and {corpus} holds {', '.join(loose[:3])} "
            "directly: pass its parent" if loose else ""
        )
        _fail_usage(f"no case of {corpus} applies to --layers {layers}"
                    + (f" and matches {', '.join(patterns)}" if patterns else "") + hint)
    with _progress(len(cases) + len(programs)) as step:
        run, legit = anyio.run(_escape_runs, mode, cases, programs, step)
    report = _report.build_report(corpus, run, legit, pool_size=_runner.POOL_SIZE)
    if as_json:
        _echo(json.dumps(report.as_json(), ensure_ascii=False))
    else:
        _echo(_report.render_report(report))
    sys.exit(0 if report.ok else 1)


async def _escape_runs(
    mode: Mode,
    cases: tuple[Case, ...],
    programs: tuple[LegitProgram, ...],
    step: Callable[[], object],
) -> tuple[CorpusRun, dict[str, tuple[LegitProgram, RunResult]]]:
    from .escapes import _runner

    run = await _runner.run_corpus(mode, cases, on_outcome=lambda _: step())
    legit: dict[str, tuple[LegitProgram, RunResult]] = {}

    def record(program: LegitProgram, result: RunResult) -> None:
        legit[program.id] = (program, result)
        step()

    if programs:
        await _runner.run_legit(mode, programs, on_result=record)
    return run, legit


@contextlib.contextmanager
def _progress(total: int) -> Iterator[Callable[[], object]]:
    """A progress bar on stderr when it is a terminal, else a counter line every tenth."""
    if sys.stderr.isatty():
        with click.progressbar(length=total, label="escape-test", file=sys.stderr) as bar:
            yield lambda: bar.update(1)
        return
    done = [0]
    every = max(1, total // 10)

    def step() -> None:
        done[0] += 1
        if done[0] % every == 0 or done[0] == total:
            click.echo(f"escape-test: {done[0]}/{total} run", err=True)

    yield step


# -- MCP ------------------------------------------------------------------------------------------
# A `--tools` value starting with `mcp+` names an MCP server; codemode.mcp reads it (and
# imports the optional SDK) only then. Its registry can call tools while the connection is open.


def _tools_source(spec: str, mcp_headers: tuple[str, ...] = ()) -> Any:
    """The registry a ``--tools`` value names, or the parsed MCP spec to open later.

    ``mcp_headers`` are ``--mcp-header NAME=VAR`` values, for an ``mcp+http:`` spec only.
    """
    if spec.startswith("mcp+"):
        from .mcp._spec import parse_spec

        try:
            return parse_spec(spec, mcp_headers)
        except ToolSpecError as exc:
            _fail_usage(str(exc))
    if mcp_headers:
        _fail_usage("--mcp-header is for an HTTP MCP server (--tools 'mcp+http:URL')")
    return _load(spec)


async def _with_tools(body: Any, source: Any, *args: Any) -> Any:
    """``await body(registry, *args)``, connecting first when ``source`` is an MCP spec."""
    if isinstance(source, Registry):
        return await body(source, *args)
    from .mcp._spec import open_spec

    try:
        async with open_spec(source) as registry:
            return await body(registry, *args)
    except ToolSpecError as exc:
        _fail_usage(str(exc))


async def _registry_of(registry: Registry) -> Registry:
    return registry


def _listing(spec: str, mcp_headers: tuple[str, ...] = ()) -> Registry:
    """The registry for listing tools (sdk, schemas): an MCP server's is read, then closed."""
    source = _tools_source(spec, mcp_headers)
    if isinstance(source, Registry):
        return source
    registry: Registry = anyio.run(_with_tools, _registry_of, source)
    return registry


@main.command("serve-mcp", short_help="Serve the tools' Code Mode as an MCP server.")
@click.option("--tools", "tools_spec", required=True, metavar="TOOLS",
              help=_TOOLS_HELP + " Or mcp+stdio:COMMAND / mcp+http:URL: an MCP server's tools.")
@click.option("--mode", type=click.Choice(["code", "both"]), default="code", show_default=True,
              help="code: list only run_code; both: every tool, then run_code.")
@click.option("--http", "port", type=click.IntRange(0, 65535), metavar="PORT",
              help="Serve streamable HTTP on 127.0.0.1:PORT (0 picks a free port) instead of "
                   "stdio.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Append the session's events to this JSON Lines file.")
@click.option("--max-concurrent", type=click.IntRange(1, 4096), metavar="N",
              help="Run at most N calls at once (each run_code holds one sandbox child). "
                   "[default: the number of CPUs]")
@click.option("--max-queued", type=click.IntRange(0, 1_000_000), metavar="N",
              help="Let at most N more calls wait, in order, for one to finish; past that a "
                   "call is refused with an MCP error (code -32000). [default: 4 x "
                   "--max-concurrent]")
@click.option("--max-message-bytes", type=click.IntRange(1024, 1 << 30), metavar="N",
              default=16 * 1024 * 1024,
              help="Refuse a message from the client longer than N bytes (over HTTP, also "
                   "the 4 MiB body cap). [default: 16 MiB]")
@click.option("--token-file", "token_file", type=click.Path(dir_okay=False, path_type=Path),
              metavar="FILE",
              help="With --http: every request must carry `Authorization: Bearer TOKEN`, "
                   "TOKEN being what FILE holds (one trailing newline dropped; at least 16 "
                   "characters of A-Z a-z 0-9 -._~+/ and trailing =). No one but its owner "
                   "may read or write FILE (chmod 600).")
@click.option("--max-sessions", type=click.IntRange(1, 1_000_000), metavar="N",
              help="With --http: hold at most N MCP sessions open at once (about 40 KB "
                   "each, until deleted or idle 30 minutes); one more initialize gets 503. "
                   "[default: 256]")
@_mcp_header_option
def serve_mcp(tools_spec: str, mode: str, port: int | None, log_path: Path | None,
              max_concurrent: int | None, max_queued: int | None,
              max_message_bytes: int, token_file: Path | None, max_sessions: int | None,
              mcp_headers: tuple[str, ...]) -> None:
    """Serve these tools as an MCP server: run_code (its description carries the SDK), or both.

    Each call runs under the registry's policies; a run_code result carries what
    the program printed and returned and its sub-calls (structuredContent: logs,
    result or error, calls). Over stdio (the default) stdout is the protocol
    stream, so whatever the tools print goes to stderr; with --http the server
    listens on 127.0.0.1 only and says where on stderr once it listens (never
    the token). A web page's requests (another Host or Origin, or a POST that is
    not JSON) are refused unread. Without --token-file any local process may call
    the tools; with it, a request without `Authorization: Bearer TOKEN` gets 401
    unread. The token keeps out local processes that cannot read FILE; there is
    no TLS, so it is for loopback only. At most
    --max-concurrent calls run at once; up to --max-queued more wait in order,
    and further calls get the MCP error -32000 ("the server is busy"). A
    request of any kind counts until its answer has been written, and at most
    those two bounds plus 16 are held: then stdio stops reading (a client that
    never reads its answers cannot make the server hold more) and HTTP answers
    -32000. Every request gets an answer: a line that is not JSON, nests too
    deeply, is a batch or is longer than --max-message-bytes gets a JSON-RPC
    error (-32700 or -32600, with its id when it can be read).

    \b
    Example:
      codemode serve-mcp --tools examples/bookshop_tools.py --http 8000
      (umask 077; python -c "import secrets; print(secrets.token_urlsafe(32))" > token)
      codemode serve-mcp --tools examples/bookshop_tools.py --http 8000 --token-file token

    \b
    Exit status: 0 the session ended (the client closed it, Ctrl-C over HTTP,
    or a message over the cap whose id could not be read: the reason is on
    stderr), 2 usage error (TOOLS, --log as for run, --token-file or
    --max-sessions without --http, a token file not of its owner alone, or
    the MCP SDK is not installed: pip install 'codemode[mcp]'). SIGTERM over HTTP shuts down as
    Ctrl-C does (calls in progress get 5 s), then ends by that signal (143).
    """
    from .mcp._client import require_sdk

    try:
        require_sdk()
    except ModuleNotFoundError as exc:
        _fail_usage(str(exc))
    from .mcp._server import HTTP_MAX_SESSIONS, read_token_file, serve

    if max_sessions is not None and port is None:
        _fail_usage("--max-sessions is for --http: a stdio server has one session")
    token = None
    if token_file is not None:
        if port is None:
            _fail_usage("--token-file is for --http: a stdio server's client is its parent")
        try:
            token = read_token_file(token_file)
        except ValueError as exc:
            _fail_usage(f"--token-file {exc}")
    with _prints_to_stderr() if port is None else contextlib.nullcontext():
        registry = _tools_source(tools_spec, mcp_headers)

    log = _open_log(log_path)[0] if log_path is not None else None
    try:
        anyio.run(_with_tools, serve, registry, mode, port, log, max_concurrent, max_queued,
                  max_message_bytes, token,
                  HTTP_MAX_SESSIONS if max_sessions is None else max_sessions)
    finally:
        if log is not None:
            log.close()
