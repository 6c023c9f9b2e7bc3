"""``CodeMode``: installs ``run_code`` into a registry and runs programs in the sandbox."""

from __future__ import annotations

import logging
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING, final

from sandbox import Limits, RunResult, WorkerPool

from .._errors import CodemodeError, CodeRunFailedError, SessionLogWriteError, ToolArgsError
from .._schema import validate
from .._tools import ToolDefinition, ToolOutput
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
    present_run_code_call,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from types import TracebackType

    from bridge.lossless import JsonValue

    from .._execution import ToolRunContext
    from .._log import SessionLog
    from .._registry import Agent, Registry
    from .._results import ContentBlock

__all__ = ["CodeMode", "CodeRun"]

_log = logging.getLogger("codemode.code_mode")


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
class CodeMode:
    """Gives a registry's agents Code Mode: the reserved ``run_code`` tool, backed by a sandbox.

    Use it as an async context manager; it starts a warm :class:`sandbox.WorkerPool`
    (unless you pass one) and installs ``run_code`` for every scope whose mode is
    ``code`` or ``both``::

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
        pool: a running pool to use; by default one is started with ``limits``.
        limits: sandbox limits for the pool this object starts.
        pool_size: warm children kept by the pool this object starts.
        log: the session log that receives dispatch events.
        quotas: per-run limits on sub-calls.
        check_calls: reject a program that names an unknown tool or passes
            unknown or missing keyword arguments, before anything runs.
        on_run: called with a :class:`CodeRun` after every execution.
    """

    def __init__(
        self,
        registry: Registry,
        *,
        pool: WorkerPool | None = None,
        limits: Limits | None = None,
        pool_size: int = 2,
        log: SessionLog | None = None,
        quotas: Quotas | None = None,
        check_calls: bool = True,
        on_run: Callable[[CodeRun], None] | None = None,
    ) -> None:
        if pool is not None and limits is not None:
            raise ValueError("pass either pool= or limits=, not both: a pool has its own limits")
        if pool is not None and not isinstance(pool, WorkerPool):
            raise TypeError(f"pool must be a running sandbox.WorkerPool, got pool={pool!r}")
        if type(pool_size) is not int or pool_size < 0:
            raise ValueError(f"pool_size must be a non-negative int, got pool_size={pool_size!r}")
        if quotas is not None and not isinstance(quotas, Quotas):
            raise TypeError(f"quotas must be a Quotas, got quotas={quotas!r}")
        self._registry = registry
        # The pool passed in (borrowed, never closed here) and the one in use.
        self._borrowed = pool
        self._pool = pool
        self._limits = limits if limits is not None else Limits()
        self._pool_size = pool_size
        self._log = log
        self._quotas = quotas if quotas is not None else Quotas()
        self._check_calls = check_calls
        self._on_run = on_run
        self._stack: AsyncExitStack | None = None
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

    def sdk_tools(self, agent: Agent | None = None) -> list[SdkTool]:
        """The tools a program in ``agent``'s scope can call (never ``run_code`` itself)."""
        return [
            SdkTool(
                name=d.name,
                description=d.description,
                parameters=d.parameters,
                output=d.output.schema,
            )
            for name, d in sorted(self._registry._visible(agent).items())
            if name != RUN_CODE_NAME
        ]

    def sdk(self, agent: Agent | None = None) -> str:
        """The SDK section for ``agent``'s scope (empty when the scope is native)."""
        if self._registry.mode_of(agent) == "native":
            return ""
        return render_sdk(self.sdk_tools(agent))

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
            raise ToolArgsError([str(v) for v in violations])
        assert isinstance(args, dict)
        code = args["code"]
        label = args["description"]
        assert isinstance(code, str)
        if not isinstance(label, str) or not label.strip():
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
        tools = {t.name: t for t in self.sdk_tools(ctx.agent)}
        # The pre-flight check runs where the sandbox compiles the program (on
        # the host for a short one, in the child for a longer one): a call that
        # cannot succeed ends the run as `compile` before anything is dispatched.
        signatures = tool_signatures(tools) if self._check_calls else None

        async def outer_abort() -> str:
            await ctx.signal.wait()
            return ctx.signal.reason or "aborted"

        async with dispatching(
            registry=self._registry, outer=ctx, log=self._log, quotas=self._quotas
        ) as dispatcher:
            result = await pool.run(
                code,
                tool_names=sorted(tools),
                handler=dispatcher,
                abort=outer_abort,
                signatures=signatures,
            )
        # Side channels survive a failed program (but not a post-execute block,
        # which the pipeline enforces by dropping what the body deferred).
        for context in dispatcher.contexts:
            ctx.defer_context(context)
        if dispatcher.concludes_turn and result.error is None:
            ctx.conclude_turn()
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

    def _report(self, run: CodeRun) -> None:
        if self._on_run is None:
            return
        # An observer's bug must not turn the run's outcome into something else.
        try:
            self._on_run(run)
        except Exception:
            _log.warning("the on_run callback failed for %s", run.call_id, exc_info=True)


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
    from .._results import TextBlock

    assert isinstance(value, dict)
    logs = value.get("logs")
    assert isinstance(logs, list | tuple)
    lines = [str(line) for line in logs]
    text = render_run_output(lines, value.get("result"), has_result="result" in value)
    return (TextBlock(text=text),)
