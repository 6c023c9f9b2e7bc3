"""A started sub-call of a ``run_code`` run: its scheduler job and the scope each stage runs in.

:class:`_SubCall` is one sub-call as the run's scheduler runs it: its start
event logged before its ``start``, its outcome settled on every path (its
commit, a failing stage, or the dispatcher's sweep as the run ends).
:class:`_Stage` is the scope around one of its stages that may wait (what
``SubDispatcher.stage`` hands the pipeline as ``stop``): shielded from the
cancellation of the task running ``run_code``, and cancelled only once the
grace after the run settles is over (``SubDispatcher.stop_stages``).

Both are the dispatcher's own (:mod:`codemode.code_mode._dispatch` makes them;
nothing else does), kept apart from its admission, numbering and settlement:
this is a sub-call's life once it is queued, calling back into the dispatcher
for its events and its settlement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, final

import anyio

from .._cancellation import is_cancellation
from .._jobs import PipelineJob
from .._outcomes import aborted, from_exception

if TYPE_CHECKING:
    from types import TracebackType

    from bridge.lossless import JsonValue

    from .._results import ToolResult
    from ._dispatch import SubDispatcher
    from ._persist import LoggedArguments


@final
class _SubCall(PipelineJob):
    """One sub-call as a scheduler job: logged start, concurrent run, settled commit.

    A stage stopped after the grace (see :meth:`SubDispatcher.stop_stages`)
    settles the sub-call as aborted; the pipeline handles it (``begin``'s
    ``stop``).
    """

    __slots__ = ("_d", "_id", "_logged", "_name", "_open")

    def __init__(
        self,
        dispatcher: SubDispatcher,
        sub_call_id: str,
        name: str,
        dispatched: JsonValue,
        logged: LoggedArguments | None,
    ) -> None:
        call = dispatcher._call_input(sub_call_id, name, dispatched)
        # Each stage that may wait runs in a scope the dispatcher can stop.
        super().__init__(dispatcher._registry, call, stop=dispatcher.stage)
        self._d = dispatcher
        self._id = sub_call_id
        self._name = name
        self._logged = logged
        self._open = False  # started (its start event logged) and not yet settled

    async def start(self) -> None:
        self._d._log_start(self._id, self._name, self._logged)
        # From here on the sub-call settles on every path: through its commit,
        # its failure (below), or the dispatcher's sweep as the run ends.
        self._open = True
        self._d._unsettled[self._id] = self
        try:
            await super().start()
        except BaseException as exc:
            self.settle_failed(exc)
            raise

    async def run(self) -> None:
        try:
            await super().run()
        except BaseException as exc:
            self.settle_failed(exc)
            raise

    async def commit(self) -> ToolResult:
        try:
            result = await super().commit()
        except BaseException as exc:
            self.settle_failed(exc)
            raise
        self.settle(result)
        return result

    def settle(self, result: ToolResult) -> None:
        """Record the sub-call's outcome and log its settle event (once)."""
        if not self._open:
            return
        self._open = False
        self._d._unsettled.pop(self._id, None)
        self._d._settled(self._id, self._name, self._logged, result)

    def settle_failed(self, exc: BaseException) -> None:
        """Settle a sub-call whose stage raised: ``ABORTED`` if cancelled, else its failure."""
        if is_cancellation(exc):
            self.settle(aborted(before_dispatch=False))
        else:
            self.settle(from_exception(exc))


@final
class _Stage:
    """The context of :meth:`SubDispatcher.stage`: its scope, kept among the stages to stop.

    A class rather than a generator-based context manager: every sub-call
    enters one, and the generator's machinery cost more than the scope.
    """

    __slots__ = ("_dispatcher", "_scope")

    def __init__(self, dispatcher: SubDispatcher) -> None:
        self._dispatcher = dispatcher
        self._scope: anyio.CancelScope | None = None

    def __enter__(self) -> anyio.CancelScope:
        dispatcher = self._dispatcher
        # anyio.CancelScope looks the running backend up on every construction;
        # a run's stages all run on its one loop, so the backend's class, taken
        # from the first scope, makes the others.
        kind = dispatcher._scope_kind
        if kind is None:
            scope = anyio.CancelScope(shield=True)
            dispatcher._scope_kind = type(scope)
        else:
            scope = kind(shield=True)
        self._scope = scope
        if dispatcher._stopped:
            scope.cancel()
        dispatcher._stages.add(scope)
        try:
            return scope.__enter__()
        except BaseException:
            dispatcher._stages.discard(scope)
            raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        scope = self._scope
        assert scope is not None
        try:
            return scope.__exit__(exc_type, exc, tb)
        finally:
            self._dispatcher._stages.discard(scope)
