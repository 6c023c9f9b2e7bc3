"""``CodeMode``: installs ``run_code`` into a registry and runs programs in the sandbox."""

from __future__ import annotations

import logging
from collections import OrderedDict
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, final

from sandbox import Limits, Pool, RunResult, WorkerPool

from .._errors import CodemodeError, CodeRunFailedError, SessionLogWriteError, ToolArgsError
from .._results import TextBlock
from .._tools import ToolDefinition, ToolOutput
from .._validate import validate
from ._dispatch import SubCallRecord, dispatching
from ._preflight import tool_signatures
from ._quotas import Quotas
from ._render import describe_calls_ran, render_run_output
from ._sdk import SdkTool, render_sdk
from ._wire import (
    CODE_ONLY_RULE,
    RUN_CODE_DESCRIPTION,
    RUN_CODE_NAME,
    RUN_CODE_OUTPUT_SCHEMA,
    RUN_CODE_PARAMETERS,
    is_blank_label,
    present_run_code_call,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from types import TracebackType

    from bridge.lossless import JsonValue
    from sandbox import ToolSignature

    from .._execution import ToolRunContext
    from .._log import SessionLog
    from .._registry import Agent, Registry
    from .._results import ContentBlock
    from .._signal import AbortSignal

__all__ = ["CodeMode", "CodeRun"]

_log = logging.getLogger("codemode.code_mode")

#: Scopes whose derived view (:class:`_ScopeView`) is kept; older ones are rebuilt.
_VIEW_CACHE_SIZE: Final = 64


@final
@dataclass(frozen=True, eq=False)
class _ScopeView:
    """What a run derives from one scope's tools, computed once per registry version.

    ``source`` is the registry's own cached view of the scope: the registry makes
    a new one on every change, so ``source is registry._visible(agent)`` says
    whether this is still current (and holding it keeps its ``id`` unique).
    """

    source: Mapping[str, ToolDefinition]
    tools: dict[str, SdkTool]
    names: tuple[str, ...]
    signatures: tuple[ToolSignature, ...]
    sdk: list[str] = field(default_factory=list)  # the SDK text, rendered on first use


class InvalidDescriptionError(CodemodeError):
    """``run_code`` was called with a blank ``description``."""

    def __init__(self) -> None:
        super().__init__("invalid description: expected a non-empty string")


@final
@dataclass(frozen=True, kw_only=True)
class CodeRun:
    """Everything one ``run_code`` execution produced, for callers that want more than the result.

    Attributes:
        call_id: the outer ``run_code`` call id.
        value: what the program returned (``None`` when it failed).
        logs: the lines it printed.
        error: ``(kind, message)`` when it failed, e.g. ``("timeout", "wall-clock limit …")``.
        calls: the sub-calls dispatched, in commit order.
        sandbox: the sandbox's own report (layers in force, timings), when the program ran.
    """

    call_id: str
    value: JsonValue = None
    logs: tuple[str, ...] = ()
    error: tuple[str, str] | None = None
    calls: tuple[SubCallRecord, ...] = ()
    sandbox: RunResult | None = None


@final
@dataclass(frozen=True)
class CodeOutput:
    """Lines a running program printed, delivered while it runs (``CodeMode(on_output=...)``).

    Attributes:
        call_id: the outer ``run_code`` call id.
        lines: the lines, in order, without their newlines (a batch: the child
            sends what was printed in the last few milliseconds together).
    """

    call_id: str
    lines: tuple[str, ...]


@final
class CodeMode:
    """Gives a registry's agents Code Mode: the reserved ``run_code`` tool, backed by a sandbox.

    Use it as an async context manager; it starts a warm :class:`sandbox.WorkerPool`
    (unless you pass a pool: any :class:`sandbox.Pool` will do) and installs
    ``run_code`` for every scope whose mode is ``code`` or ``both``::

        registry = Registry(mode="code")
        registry.register(search)
        async with CodeMode(registry, log=log) as code_mode:
            print(code_mode.system_prompt())          # the rule and the SDK for the model
            result = await registry.execute(CallInput(
                call_id="call-1", name="run_code", signal=AbortSignal(), agent=agent,
                arguments={"code": "return await tools.search(query='x')",
                           "description": "Search for x"}))

    Args:
        registry: the registry whose tools programs may call.
        pool: a running pool to use (any :class:`sandbox.Pool`); by default a
            :class:`sandbox.WorkerPool` is started with ``limits``.
        limits: sandbox limits for the pool this object starts.
        pool_size: warm children kept by the pool this object starts.
        log: the session log that receives dispatch events.
        quotas: per-run limits on sub-calls.
        check_calls: reject a program that names an unknown tool or passes
            unknown or missing keyword arguments, before anything runs.
        on_run: called with a :class:`CodeRun` after every execution.
        on_output: called on the event loop with a :class:`CodeOutput` for each
            batch of lines a program prints, as they arrive, so an agent or a UI
            can show progress; it must not block. One that raises is logged and
            gets no more lines of that run. Every line is also in the result.
    """

    def __init__(
        self,
        registry: Registry,
        *,
        pool: Pool | None = None,
        limits: Limits | None = None,
        pool_size: int = 2,
        log: SessionLog | None = None,
        quotas: Quotas | None = None,
        check_calls: bool = True,
        on_run: Callable[[CodeRun], None] | None = None,
        on_output: Callable[[CodeOutput], None] | None = None,
    ) -> None:
        if pool is not None and limits is not None:
            raise ValueError("pass either pool= or limits=, not both: a pool has its own limits")
        if pool is not None and not isinstance(pool, Pool):
            raise TypeError(
                "pool must be a running sandbox pool (a sandbox.Pool: run, statistics, layers "
                f"and async with), got pool={pool!r}"
            )
        if type(pool_size) is not int or pool_size < 0:
            raise ValueError(f"pool_size must be a non-negative int, got pool_size={pool_size!r}")
        if quotas is not None and not isinstance(quotas, Quotas):
            raise TypeError(f"quotas must be a Quotas, got quotas={quotas!r}")
        self._registry = registry
        # The pool passed in (borrowed, never closed here) and the one in use.
        self._borrowed: Pool | None = pool
        self._pool: Pool | None = pool
        self._limits = limits if limits is not None else Limits()
        self._pool_size = pool_size
        self._log = log
        self._quotas = quotas if quotas is not None else Quotas()
        self._check_calls = check_calls
        if on_output is not None and not callable(on_output):
            raise TypeError(f"on_output must be a callable or None, got on_output={on_output!r}")
        self._on_run = on_run
        self._on_output = on_output
        self._stack: AsyncExitStack | None = None
        self._views: OrderedDict[int, _ScopeView] = OrderedDict()
        self.definition = ToolDefinition(
            name=RUN_CODE_NAME,
            description=RUN_CODE_DESCRIPTION,
            parameters=RUN_CODE_PARAMETERS,
            output=ToolOutput(schema=RUN_CODE_OUTPUT_SCHEMA, render=_render),
            execute=self._execute,
            present_call=present_run_code_call,
        )

    async def __aenter__(self) -> CodeMode:
        stack = AsyncExitStack()
        await stack.__aenter__()
        try:
            if self._borrowed is None:
                self._pool = await stack.enter_async_context(
                    WorkerPool(limits=self._limits, size=self._pool_size)
                )
                # Forget the pool once closed, so a later entry starts a new one.
                stack.callback(setattr, self, "_pool", None)
            stack.callback(self._registry.install_run_code(self.definition))
        except BaseException:
            await stack.aclose()
            raise
        self._stack = stack
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        stack, self._stack = self._stack, None
        if stack is not None:
            await stack.aclose()

    # -- what the model reads -----------------------------------------------------

    def _scope_view(self, agent: Agent | None) -> _ScopeView:
        """The SDK tools, their names and signatures for ``agent``'s scope, cached.

        Every run needs them and they depend only on the registry's state, which
        the registry's own per-version view identifies.
        """
        source = self._registry._visible(agent)
        key = id(source)
        cached = self._views.get(key)
        if cached is not None and cached.source is source:
            self._views.move_to_end(key)
            return cached
        tools = {
            name: SdkTool(
                name=d.name,
                description=d.description,
                parameters=d.parameters,
                output=d.output.schema,
            )
            for name, d in sorted(source.items())
            if name != RUN_CODE_NAME
        }
        view = _ScopeView(source, tools, tuple(tools), tool_signatures(tools))
        self._views[key] = view
        if len(self._views) > _VIEW_CACHE_SIZE:
            self._views.popitem(last=False)
        return view

    def sdk_tools(self, agent: Agent | None = None) -> list[SdkTool]:
        """The tools a program in ``agent``'s scope can call (never ``run_code`` itself)."""
        return list(self._scope_view(agent).tools.values())

    def sdk(self, agent: Agent | None = None) -> str:
        """The SDK section for ``agent``'s scope (empty when the scope is native)."""
        if self._registry.mode_of(agent) == "native":
            return ""
        view = self._scope_view(agent)
        if not view.sdk:
            view.sdk.append(render_sdk(view.tools.values()))
        return view.sdk[0]

    def system_prompt(self, agent: Agent | None = None) -> str:
        """The code-only rule (under ``code``) followed by the SDK section."""
        mode = self._registry.mode_of(agent)
        if mode == "native":
            return ""
        parts = [CODE_ONLY_RULE] if mode == "code" else []
        parts.append(self.sdk(agent))
        return "\n\n".join(parts)

    # -- the run_code body ----------------------------------------------------------

    async def _execute(self, args: JsonValue, ctx: ToolRunContext) -> JsonValue:
        violations = validate(RUN_CODE_PARAMETERS, args)
        if violations:
            raise ToolArgsError(violations.lines())
        assert isinstance(args, dict)
        code = args["code"]
        label = args["description"]
        assert isinstance(code, str)
        if not isinstance(label, str) or is_blank_label(label):
            raise InvalidDescriptionError()
        pool = self._pool
        if pool is None:
            raise CodemodeError(
                "run_code needs a running CodeMode: use `async with CodeMode(registry) as ...`"
            )
        if self._log is not None and ctx.agent is not None:
            # Refuse the whole run up front rather than dispatch sub-calls whose
            # events the log would refuse (outside their root call's turn).
            problem = self._log.dispatch_problem(ctx.root_call_id, ctx.call_id)
            if problem is not None:
                raise CodemodeError(
                    f"run_code was not run: the session log cannot take its dispatch events: "
                    f"{problem}"
                )
        view = self._scope_view(ctx.agent)
        # The pre-flight check runs where the sandbox compiles the program (on
        # the host for a short one, in the child for a longer one): a call that
        # cannot succeed ends the run as `compile` before anything is dispatched.
        signatures = view.signatures if self._check_calls else None

        async with dispatching(
            registry=self._registry, outer=ctx, log=self._log, quotas=self._quotas
        ) as dispatcher:
            result = await pool.run(
                code,
                tool_names=view.names,
                handler=dispatcher,
                abort=_PoolAbort(ctx.signal),
                signatures=signatures,
                on_output=self._output_for(ctx.call_id),
            )
        # Side channels survive a failed program (but not a post-execute block,
        # which the pipeline enforces by dropping what the body deferred).
        for context in dispatcher.contexts:
            ctx.defer_context(context)
        if dispatcher.concludes_turn and result.error is None:
            ctx.conclude_turn()
        if self._on_run is not None:  # the record is made only for an observer
            self._report(
                CodeRun(
                    call_id=ctx.call_id,
                    value=result.value,
                    logs=tuple(result.logs),
                    error=(result.error.kind, result.error.message) if result.error else None,
                    calls=tuple(dispatcher.records),
                    sandbox=result,
                )
            )
        if dispatcher.log_failures:
            # Never swallowed: the caller must learn that its durable record of
            # this run is incomplete, whatever the program did.
            raise SessionLogWriteError(_log_failure_detail(dispatcher.log_failures, result))
        if result.error is not None:
            # The model must know what a retry of the whole program would repeat.
            ran = describe_calls_ran(dispatcher.records)
            detail = result.error.message if ran is None else f"{result.error.message}\n{ran}"
            raise CodeRunFailedError(result.error.kind, detail, result.logs)
        return {"logs": list(result.logs), "result": result.value}

    def _output_for(self, call_id: str) -> Callable[[tuple[str, ...]], None] | None:
        listener = self._on_output
        if listener is None:
            return None

        def deliver(lines: tuple[str, ...]) -> None:
            listener(CodeOutput(call_id, lines))

        return deliver

    def _report(self, run: CodeRun) -> None:
        if self._on_run is None:
            return
        # An observer's bug must not turn the run's outcome into something else.
        try:
            self._on_run(run)
        except Exception:
            _log.warning("the on_run callback failed for %s", run.call_id, exc_info=True)


@final
class _PoolAbort:
    """The outer call's signal as a pool's ``abort`` (a :class:`sandbox.AbortSource`).

    :class:`~sandbox.WorkerPool` subscribes to it, so a run needs no task
    waiting for the signal; a pool that only awaits an ``abort`` callable gets
    the same reason by awaiting it.
    """

    __slots__ = ("_signal",)

    def __init__(self, signal: AbortSignal) -> None:
        self._signal = signal

    async def __call__(self) -> str:
        await self._signal.wait()
        return self._signal.reason or "aborted"

    @property
    def reason(self) -> str | None:
        return self._signal.reason

    def on_abort(self, callback: Callable[[], object]) -> Callable[[], None]:
        return self._signal.on_abort(callback)


def _log_failure_detail(failures: list[str], result: RunResult) -> str:
    count = len(failures)
    listed = "; ".join(failures[:5]) + ("; ..." if count > 5 else "")
    if result.error is None:
        outcome = "the program finished"
    else:
        outcome = f"the program failed ({result.error.kind}): {result.error.message}"
    return (
        f"the session log could not record {count} dispatch event{'s' if count != 1 else ''} "
        f"of this run ({listed}); {outcome}. Check the log's store (disk space, permissions) "
        "before running more programs: their calls would go unrecorded too"
    )


def _render(args: JsonValue, value: JsonValue) -> Sequence[ContentBlock]:
    assert isinstance(value, dict)
    logs = value.get("logs")
    assert isinstance(logs, (list, tuple))
    lines = [str(line) for line in logs]
    text = render_run_output(lines, value.get("result"), has_result="result" in value)
    return (TextBlock(text=text),)
