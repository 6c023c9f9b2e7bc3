"""The rolling pool: ordered starts, capped overlap, exclusive barriers, ordered commits."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Literal

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemode._scheduling import JobAbandoned, JobFailed, Scheduler, Ticket

if TYPE_CHECKING:
    from collections.abc import Callable


class Gate:
    """An event a test opens to let one stage of one job finish."""

    def __init__(self) -> None:
        self.event = anyio.Event()

    def open(self) -> None:
        self.event.set()


class Probe:
    """A job that records its stages in a shared trace and can be held at any stage."""

    def __init__(
        self,
        name: str,
        trace: list[str],
        mode: str | Callable[[], str] = "parallel",
        *,
        hold_start: Gate | None = None,
        hold_run: Gate | None = None,
        hold_commit: Gate | None = None,
        fail: Literal["start", "run", "commit"] | None = None,
        raising: Callable[[], BaseException] | None = None,
    ) -> None:
        self.name = name
        self.trace = trace
        self._mode = mode
        self.holds = {"start": hold_start, "run": hold_run, "commit": hold_commit}
        self.fail = fail
        self.raising = raising

    def mode(self) -> Literal["parallel", "exclusive"]:
        self.trace.append(f"{self.name}:mode")
        mode = self._mode() if callable(self._mode) else self._mode
        return mode  # type: ignore[return-value]

    async def _stage(self, stage: str) -> None:
        self.trace.append(f"{self.name}:{stage}>")
        hold = self.holds[stage]
        if hold is not None:
            await hold.event.wait()
        if self.fail == stage:
            self.trace.append(f"{self.name}:{stage}!")
            if self.raising is not None:
                raise self.raising()
            raise ValueError(f"{self.name} failed in {stage}")
        self.trace.append(f"{self.name}:{stage}<")

    async def start(self) -> None:
        await self._stage("start")

    async def run(self) -> None:
        await self._stage("run")

    async def commit(self) -> str:
        await self._stage("commit")
        return f"{self.name} done"


def entered(trace: list[str], stage: str) -> list[str]:
    """Names of jobs that entered ``stage``, in order."""
    return [item.split(":")[0] for item in trace if item.endswith(f":{stage}>")]


async def settle_all() -> None:
    await anyio.wait_all_tasks_blocked()


class Runner:
    """Submits jobs from background tasks and keeps what each submit returned or raised."""

    def __init__(self, scheduler: Scheduler, tg: anyio.abc.TaskGroup) -> None:
        self.scheduler = scheduler
        self.tg = tg
        self.outcomes: dict[str, object] = {}
        self.finished: list[str] = []

    async def _submit(self, job: Probe) -> None:
        try:
            self.outcomes[job.name] = await self.scheduler.submit(job)
        except Exception as exc:
            self.outcomes[job.name] = exc
        self.finished.append(job.name)

    async def submit(self, *jobs: Probe) -> None:
        for job in jobs:
            self.tg.start_soon(self._submit, job)
            # Let the submission reach the queue so submission order is the call order.
            await anyio.lowlevel.checkpoint()
        await settle_all()


async def test_consecutive_parallel_jobs_overlap() -> None:
    trace: list[str] = []
    gates = [Gate() for _ in range(3)]
    with anyio.fail_after(5):
        async with Scheduler(max_parallel=10) as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(*(Probe(n, trace, hold_run=g) for n, g in zip("abc", gates,
                                                                               strict=True)))
            assert entered(trace, "run") == ["a", "b", "c"]
            assert entered(trace, "commit") == []
            for gate in gates:
                gate.open()
    assert runner.outcomes == {"a": "a done", "b": "b done", "c": "c done"}


async def test_parallel_jobs_never_exceed_the_cap_and_refill_as_slots_free() -> None:
    trace: list[str] = []
    gates = {n: Gate() for n in "abcd"}
    with anyio.fail_after(5):
        async with Scheduler(max_parallel=2) as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(*(Probe(n, trace, hold_run=gates[n]) for n in "abcd"))
            assert entered(trace, "start") == ["a", "b"]
            assert scheduler.in_flight == 2
            gates["a"].open()
            await settle_all()
            # A rolling pool: c starts as soon as a is done, while b still runs.
            assert entered(trace, "start") == ["a", "b", "c"]
            assert "b:run<" not in trace
            gates["b"].open()
            await settle_all()
            assert entered(trace, "start") == ["a", "b", "c", "d"]
            gates["c"].open()
            gates["d"].open()
    assert runner.finished == ["a", "b", "c", "d"]


async def test_max_parallel_of_one_runs_jobs_one_after_another() -> None:
    trace: list[str] = []
    async with Scheduler(max_parallel=1) as scheduler, anyio.create_task_group() as tg:
        runner = Runner(scheduler, tg)
        await runner.submit(Probe("a", trace), Probe("b", trace))
    assert [item for item in trace if not item.endswith(":mode")] == [
        "a:start>", "a:start<", "a:run>", "a:run<", "a:commit>", "a:commit<",
        "b:start>", "b:start<", "b:run>", "b:run<", "b:commit>", "b:commit<",
    ]
    assert trace[trace.index("b:start>") - 1] == "b:mode"


async def test_an_exclusive_job_waits_for_the_pool_to_drain_and_holds_the_barrier_through_commit(
) -> None:
    trace: list[str] = []
    run_a, commit_b = Gate(), Gate()
    with anyio.fail_after(5):
        async with Scheduler() as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(
                Probe("a", trace, hold_run=run_a),
                Probe("b", trace, "exclusive", hold_commit=commit_b),
                Probe("c", trace),
            )
            assert entered(trace, "start") == ["a"]
            run_a.open()
            await settle_all()
            assert entered(trace, "start") == ["a", "b"]
            assert "b:commit>" in trace
            assert "c:mode" not in trace
            commit_b.open()
            await settle_all()
            assert entered(trace, "start") == ["a", "b", "c"]
    assert trace.index("b:commit<") < trace.index("c:start>")
    assert runner.finished == ["a", "b", "c"]


async def test_start_stages_run_alone_and_in_submission_order() -> None:
    trace: list[str] = []
    start_a = Gate()
    with anyio.fail_after(5):
        async with Scheduler() as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(Probe("a", trace, hold_start=start_a), Probe("b", trace))
            assert entered(trace, "start") == ["a"]
            start_a.open()
    assert trace.index("a:start<") < trace.index("b:start>")


async def test_a_start_never_overlaps_a_commit() -> None:
    trace: list[str] = []
    commit_a = Gate()
    with anyio.fail_after(5):
        async with Scheduler() as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(Probe("a", trace, hold_commit=commit_a))
            assert trace[-1] == "a:commit>"
            await runner.submit(Probe("b", trace))
            assert "b:start>" not in trace
            commit_a.open()
    assert trace.index("a:commit<") < trace.index("b:start>")


async def test_commits_follow_submission_order_when_later_bodies_finish_first() -> None:
    trace: list[str] = []
    gates = {n: Gate() for n in "abc"}
    with anyio.fail_after(5):
        async with Scheduler() as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(*(Probe(n, trace, hold_run=gates[n]) for n in "abc"))
            gates["c"].open()
            await settle_all()
            gates["b"].open()
            await settle_all()
            assert "c:run<" in trace
            assert entered(trace, "commit") == []
            assert runner.finished == []
            gates["a"].open()
    assert [i for i in trace if i.endswith(":run<")] == ["c:run<", "b:run<", "a:run<"]
    assert entered(trace, "commit") == ["a", "b", "c"]
    assert runner.finished == ["a", "b", "c"]


async def test_settle_abandons_queued_jobs_and_waits_for_started_ones() -> None:
    trace: list[str] = []
    run_a = Gate()
    settled = anyio.Event()
    with anyio.fail_after(5):
        async with Scheduler(max_parallel=1) as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(
                Probe("a", trace, hold_run=run_a), Probe("b", trace), Probe("c", trace)
            )

            async def settle() -> None:
                await scheduler.settle("run settled")
                settled.set()

            tg.start_soon(settle)
            await settle_all()
            assert runner.finished == ["b", "c"]
            assert not settled.is_set()
            run_a.open()
            await settled.wait()
            assert runner.finished == ["b", "c", "a"]
    assert entered(trace, "start") == ["a"]
    abandoned = runner.outcomes["b"]
    assert isinstance(abandoned, JobAbandoned)
    assert abandoned.reason == "run settled"
    assert str(abandoned) == "job abandoned before it started: run settled"
    assert runner.outcomes["a"] == "a done"


async def test_a_submission_after_settle_is_abandoned_at_once() -> None:
    trace: list[str] = []
    async with Scheduler() as scheduler:
        await scheduler.settle("over")
        with pytest.raises(JobAbandoned, match=r"^job abandoned before it started: over$"):
            await scheduler.submit(Probe("late", trace))
    assert trace == []


async def test_mode_is_read_just_before_the_job_starts() -> None:
    trace: list[str] = []
    run_a, run_b = Gate(), Gate()
    mode_of_b = ["exclusive"]
    with anyio.fail_after(5):
        async with Scheduler() as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(
                Probe("a", trace, "exclusive", hold_run=run_a),
                Probe("b", trace, lambda: mode_of_b[0], hold_run=run_b),
            )
            assert "b:mode" not in trace
            # Changed after submission: the scheduler must use the new mode.
            mode_of_b[0] = "parallel"
            run_a.open()
            await settle_all()
            assert "b:run>" in trace
            await runner.submit(Probe("c", trace))
            # c overlaps b, which it could not if b had been classified exclusive.
            assert "c:run<" in trace
            assert "b:run<" not in trace
            run_b.open()
    assert trace[trace.index("b:start>") - 1] == "b:mode"
    assert trace.index("a:commit<") < trace.index("b:start>")


@pytest.mark.parametrize(
    "mode",
    [
        pytest.param("raise", id="throwing"),
        pytest.param("PARALLEL", id="wrong-case"),
        pytest.param(True, id="truthy-non-string"),
    ],
)
async def test_a_mode_other_than_exactly_parallel_means_exclusive(mode: object) -> None:
    trace: list[str] = []
    run_a = Gate()

    def odd_mode() -> str:
        if mode == "raise":
            raise RuntimeError("classification failed")
        return mode  # type: ignore[return-value]

    with anyio.fail_after(5):
        async with Scheduler() as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(
                Probe("a", trace, hold_run=run_a), Probe("b", trace, odd_mode), Probe("c", trace)
            )
            assert entered(trace, "start") == ["a"]
            run_a.open()
    assert trace.index("a:commit<") < trace.index("b:start>")
    assert trace.index("b:commit<") < trace.index("c:start>")
    assert runner.outcomes == {"a": "a done", "b": "b done", "c": "c done"}


@pytest.mark.parametrize("stage", ["start", "run", "commit"])
async def test_an_exception_in_a_stage_is_that_jobs_outcome_only(
    stage: Literal["start", "run", "commit"],
) -> None:
    trace: list[str] = []
    with anyio.fail_after(5):
        async with Scheduler() as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(Probe("a", trace, fail=stage), Probe("b", trace))
    failure = runner.outcomes["a"]
    assert isinstance(failure, ValueError)
    assert str(failure) == f"a failed in {stage}"
    assert runner.outcomes["b"] == "b done"
    assert runner.finished == ["a", "b"]


async def _cancelled_elsewhere() -> BaseException:
    """The ``CancelledError`` of awaiting a future that something else cancelled."""
    future = asyncio.get_running_loop().create_future()
    future.cancel()
    try:
        await future
    except asyncio.CancelledError as exc:
        return exc
    raise AssertionError("a cancelled future was awaited without CancelledError")


@pytest.mark.parametrize("stage", ["start", "run", "commit"])
@pytest.mark.parametrize(
    "kind", ["KeyboardInterrupt", "SystemExit", "CancelledError", "group-of-CancelledError"]
)
async def test_a_base_exception_no_one_delivered_is_that_jobs_failure_and_the_worker_goes_on(
    stage: Literal["start", "run", "commit"], kind: str
) -> None:
    # Regression: a stage's BaseException ended the worker task, so the job
    # never got its outcome (a program waited for its reply until its wall
    # clock) and no worker started the jobs queued behind it.
    cancelled = await _cancelled_elsewhere()
    errors: dict[str, BaseException] = {
        "KeyboardInterrupt": KeyboardInterrupt(),
        "SystemExit": SystemExit(3),
        "CancelledError": cancelled,
        "group-of-CancelledError": BaseExceptionGroup("tool", [cancelled]),
    }
    error = errors[kind]
    trace: list[str] = []
    with anyio.fail_after(5):
        async with Scheduler() as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(
                Probe("a", trace, fail=stage, raising=lambda: error), Probe("b", trace)
            )
    failure = runner.outcomes["a"]
    assert isinstance(failure, JobFailed)
    assert failure.__cause__ is error
    assert str(failure) == f"the job raised {type(error).__name__}"
    assert runner.outcomes["b"] == "b done"
    assert runner.finished == ["a", "b"]


async def test_a_mode_that_raises_a_base_exception_means_exclusive() -> None:
    def mode() -> str:
        raise KeyboardInterrupt

    trace: list[str] = []
    with anyio.fail_after(5):
        async with Scheduler() as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(Probe("a", trace, mode=mode), Probe("b", trace))
    assert runner.outcomes == {"a": "a done", "b": "b done"}


class Leave(Exception):
    """Leaves a scheduler's block, carrying the ticket of the job left running."""

    def __init__(self, ticket: Ticket[str]) -> None:
        super().__init__("leave")
        self.ticket = ticket


async def test_a_real_cancellation_of_a_started_job_still_propagates() -> None:
    # The other side of the rule: a CancelledError delivered to the worker
    # (leaving the block by an exception cancels started jobs) is not a failure.
    trace: list[str] = []
    hold = Gate()

    async def leave_with_a_job_running() -> Ticket[str]:
        async with Scheduler() as scheduler:
            ticket = scheduler.enqueue(Probe("a", trace, hold_run=hold))
            await settle_all()
            raise Leave(ticket)

    with pytest.raises(Leave) as left:
        await leave_with_a_job_running()
    ticket = left.value.ticket
    with pytest.raises(JobAbandoned):
        ticket.outcome()
    assert "a:run>" in trace
    assert "a:run<" not in trace


async def test_a_job_whose_run_failed_is_not_committed() -> None:
    trace: list[str] = []
    async with Scheduler() as scheduler:
        with pytest.raises(ValueError, match=r"^a failed in run$"):
            await scheduler.submit(Probe("a", trace, fail="run"))
    assert "a:commit>" not in trace


async def test_a_cancelled_submitter_withdraws_its_queued_job() -> None:
    trace: list[str] = []
    run_a = Gate()
    with anyio.fail_after(5):
        async with Scheduler(max_parallel=1) as scheduler, anyio.create_task_group() as tg:
            runner = Runner(scheduler, tg)
            await runner.submit(Probe("a", trace, hold_run=run_a))
            with anyio.CancelScope() as scope:
                tg.start_soon(lambda: _cancel_when_blocked(scope))
                await scheduler.submit(Probe("b", trace))
            run_a.open()
            await runner.submit(Probe("c", trace))
    assert entered(trace, "start") == ["a", "c"]


async def _cancel_when_blocked(scope: anyio.CancelScope) -> None:
    await anyio.wait_all_tasks_blocked()
    scope.cancel()


async def test_leaving_the_block_abandons_queued_jobs() -> None:
    trace: list[str] = []
    run_a = Gate()
    outcomes: list[object] = []

    async def submit_late(scheduler: Scheduler) -> None:
        try:
            outcomes.append(await scheduler.submit(Probe("b", trace)))
        except JobAbandoned as exc:
            outcomes.append(exc.reason)

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg, Scheduler(max_parallel=1) as scheduler:
            tg.start_soon(scheduler.submit, Probe("a", trace, hold_run=run_a))
            await settle_all()
            tg.start_soon(submit_late, scheduler)
            await settle_all()
            run_a.open()
    assert outcomes == ["the scheduler was closed"]
    assert entered(trace, "start") == ["a"]


def _open_when_stuck(gate: Gate) -> asyncio.Task[None]:
    """Open ``gate`` once every task is blocked: a stage that should have been
    cancelled then finishes instead of hanging the test."""

    async def watch() -> None:
        await anyio.wait_all_tasks_blocked()
        gate.open()

    return asyncio.get_running_loop().create_task(watch())


@pytest.mark.parametrize("shield", [False, True])
async def test_leaving_by_an_exception_cancels_started_jobs_unless_shielded(shield: bool) -> None:
    trace: list[str] = []
    run_a = Gate()
    with anyio.fail_after(5):
        try:
            async with anyio.create_task_group() as tg, Scheduler(shield=shield) as scheduler:
                runner = Runner(scheduler, tg)
                await runner.submit(Probe("a", trace, hold_run=run_a))
                assert entered(trace, "run") == ["a"]
                watchdog = _open_when_stuck(run_a)
                trace.append("raised")
                raise LookupError("the owner failed")
        except* LookupError:
            pass
    watchdog.cancel()
    if shield:
        # Run to its commit, whatever happened to the owner.
        assert trace[-2:] == ["a:commit>", "a:commit<"]
    else:
        assert trace[-1] == "raised"  # cancelled in its run: it never got further


async def test_side_work_is_waited_for_and_cancelled_only_by_an_exception() -> None:
    trace: list[str] = []

    async def side(gate: Gate) -> None:
        try:
            await gate.event.wait()
            trace.append("side done")
        except BaseException:
            trace.append("side cancelled")
            raise

    async def leave(failing: bool) -> None:
        gate = Gate()
        async with Scheduler(shield=True) as scheduler:
            scheduler.start_soon(side, gate)
            await anyio.wait_all_tasks_blocked()
            watchdog = _open_when_stuck(gate)
            if failing:
                raise LookupError("the owner failed")
        watchdog.cancel()

    with anyio.fail_after(5):
        await leave(failing=False)
        with pytest.raises(LookupError):
            await leave(failing=True)
    assert trace == ["side done", "side cancelled"]


@pytest.mark.parametrize("value", [0, -1, True, 1.5, "2"])
def test_max_parallel_must_be_a_positive_integer(value: object) -> None:
    with pytest.raises(
        ValueError,
        match=rf"^max_parallel must be a positive integer, got max_parallel={value!r}$",
    ):
        Scheduler(max_parallel=value)  # type: ignore[arg-type]


async def test_submit_outside_the_block_is_refused() -> None:
    with pytest.raises(RuntimeError, match=r"^submit\(\) needs a running scheduler"):
        await Scheduler().submit(Probe("a", []))


async def test_open_does_what_entering_does_and_only_once() -> None:
    # For an owner that opens its scheduler lazily, outside an `async with`.
    trace: list[str] = []
    scheduler = Scheduler(max_parallel=2)
    assert scheduler.open() is scheduler
    assert await scheduler.submit(Probe("a", trace)) == "a done"
    with pytest.raises(RuntimeError, match=r"^a Scheduler can be entered only once$"):
        scheduler.open()
    with pytest.raises(RuntimeError, match=r"^a Scheduler can be entered only once$"):
        async with scheduler:
            pass
    await scheduler.__aexit__(None, None, None)
    # Left as a block is left: later submissions are abandoned.
    with pytest.raises(JobAbandoned):
        await scheduler.submit(Probe("b", trace))


async def test_enqueue_fixes_submission_order_without_waiting() -> None:
    trace: list[str] = []
    async with Scheduler(max_parallel=1) as scheduler:
        tickets = [scheduler.enqueue(Probe(n, trace)) for n in "abc"]
        assert not any(t.done for t in tickets)
        assert [await t.result() for t in reversed(tickets)] == ["c done", "b done", "a done"]
    assert entered(trace, "start") == ["a", "b", "c"]


async def test_enqueue_after_settle_gives_an_abandoned_ticket() -> None:
    async with Scheduler() as scheduler:
        await scheduler.settle("finished")
        ticket = scheduler.enqueue(Probe("late", []))
        assert ticket.done
        with pytest.raises(JobAbandoned, match=r"^job abandoned before it started: finished$"):
            await ticket.result()


# --- tickets answered by callback (the bridge's start_call) -------------------------------------


async def test_a_done_callback_runs_once_when_the_outcome_is_published() -> None:
    # Called in the step that published the outcome, while the lane is still
    # the committing job's: the next job has not started yet.
    trace: list[str] = []
    seen: list[tuple[str, list[str]]] = []
    async with Scheduler(max_parallel=1) as scheduler:
        first = scheduler.enqueue(Probe("a", trace))
        scheduler.enqueue(Probe("b", trace))
        first.add_done_callback(lambda: seen.append((first.outcome(), entered(trace, "start"))))
        await settle_all()
    assert seen == [("a done", ["a"])]


async def test_a_done_callback_given_after_the_outcome_runs_at_once() -> None:
    async with Scheduler() as scheduler:
        ticket = scheduler.enqueue(Probe("a", []))
        await ticket.result()
        seen: list[str] = []
        ticket.add_done_callback(lambda: seen.append(ticket.outcome()))
        assert seen == ["a done"]


async def test_a_done_callback_that_raises_is_logged_and_the_submitter_still_gets_the_outcome(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken() -> None:
        raise RuntimeError("broken callback")

    async with Scheduler() as scheduler:
        ticket = scheduler.enqueue(Probe("a", []))
        ticket.add_done_callback(broken)
        assert await ticket.result() == "a done"
    assert ["a done callback" in r.getMessage() for r in caplog.records] == [True]


async def test_the_outcome_is_refused_before_it_is_known_and_raised_as_the_job_failed() -> None:
    gate = Gate()
    async with Scheduler() as scheduler:
        ticket = scheduler.enqueue(Probe("a", [], hold_run=gate, fail="commit"))
        with pytest.raises(RuntimeError, match="not known yet"):
            ticket.outcome()
        gate.open()
        with pytest.raises(ValueError, match="a failed in commit"):
            await ticket.result()
        with pytest.raises(ValueError, match="a failed in commit"):
            ticket.outcome()


async def test_withdrawing_a_queued_ticket_abandons_its_job_and_a_started_one_runs_on() -> None:
    trace: list[str] = []
    run_a = Gate()
    seen: list[str] = []
    async with Scheduler(max_parallel=1) as scheduler:
        started = scheduler.enqueue(Probe("a", trace, hold_run=run_a))
        queued = scheduler.enqueue(Probe("b", trace))
        queued.add_done_callback(lambda: seen.append("b"))
        await settle_all()
        queued.withdraw()
        started.withdraw()
        assert seen == ["b"]
        with pytest.raises(JobAbandoned):
            queued.outcome()
        run_a.open()
        assert await started.result() == "a done"
    assert entered(trace, "start") == ["a"]


# --- after_commit: a user's hold on the ordered lane --------------------------------------------


async def test_after_commit_holds_the_lane_once_the_outcome_is_published() -> None:
    trace: list[str] = []
    hold = Gate()
    holds: list[str] = []

    async def after_commit() -> None:
        holds.append("held")
        if len(holds) == 1:
            await hold.event.wait()

    run_a = Gate()
    async with (
        anyio.create_task_group() as tg,
        Scheduler(max_parallel=4, after_commit=after_commit) as scheduler,
    ):
        runner = Runner(scheduler, tg)
        await runner.submit(Probe("a", trace, hold_run=run_a), Probe("b", trace))
        assert entered(trace, "run") == ["a", "b"]
        run_a.open()
        await settle_all()
        # "a" has its outcome; "b" ran alongside but cannot commit, and "c"
        # cannot start, while the lane is held.
        assert runner.outcomes == {"a": "a done"}
        await runner.submit(Probe("c", trace))
        assert entered(trace, "commit") == ["a"]
        assert entered(trace, "start") == ["a", "b"]
        hold.open()
    assert runner.outcomes == {"a": "a done", "b": "b done", "c": "c done"}
    assert holds == ["held", "held", "held"]


async def test_an_after_commit_that_raises_is_logged_and_the_outcome_stands(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def after_commit() -> None:
        raise RuntimeError("broken hold")

    async with Scheduler(after_commit=after_commit) as scheduler:
        assert await scheduler.submit(Probe("a", [])) == "a done"
        assert await scheduler.submit(Probe("b", [])) == "b done"
    assert sum("after_commit raised" in r.getMessage() for r in caplog.records) == 2


def test_after_commit_must_be_callable() -> None:
    with pytest.raises(TypeError, match=r"^after_commit must be callable, got after_commit=3$"):
        Scheduler(after_commit=3)  # type: ignore[arg-type]


# --- model-based: random modes, caps and completion orders ------------------------------------


class Ledger:
    """Checks the scheduler's invariants as jobs pass their stages."""

    def __init__(self, max_parallel: int) -> None:
        self.max_parallel = max_parallel
        self.in_flight: dict[int, str] = {}
        self.in_ordered_stage = 0
        self.starts: list[int] = []
        self.commits: list[int] = []
        self.running: dict[int, anyio.Event] = {}


class ModelJob:
    def __init__(self, index: int, mode: str, ledger: Ledger) -> None:
        self.index = index
        self._mode = mode
        self.ledger = ledger

    def mode(self) -> Literal["parallel", "exclusive"]:
        return self._mode  # type: ignore[return-value]

    async def start(self) -> None:
        ledger = self.ledger
        assert ledger.in_ordered_stage == 0
        ledger.in_ordered_stage += 1
        if self._mode == "exclusive":
            assert ledger.in_flight == {}
        else:
            assert "exclusive" not in ledger.in_flight.values()
            assert len(ledger.in_flight) < ledger.max_parallel
        ledger.in_flight[self.index] = self._mode
        ledger.starts.append(self.index)
        await anyio.lowlevel.checkpoint()
        ledger.in_ordered_stage -= 1

    async def run(self) -> None:
        release = anyio.Event()
        self.ledger.running[self.index] = release
        await release.wait()

    async def commit(self) -> int:
        ledger = self.ledger
        assert ledger.in_ordered_stage == 0
        ledger.in_ordered_stage += 1
        await anyio.lowlevel.checkpoint()
        ledger.commits.append(self.index)
        del ledger.in_flight[self.index]
        ledger.in_ordered_stage -= 1
        return self.index


@given(
    modes=st.lists(st.sampled_from(["parallel", "parallel", "exclusive"]), max_size=12),
    max_parallel=st.integers(1, 4),
    data=st.data(),
)
def test_random_workloads_keep_every_scheduling_invariant(
    modes: list[str], max_parallel: int, data: st.DataObject
) -> None:
    ledger = Ledger(max_parallel)
    results: list[int] = []

    async def main() -> None:
        with anyio.fail_after(10):
            async with Scheduler(max_parallel=max_parallel) as scheduler:
                tickets = [scheduler.enqueue(ModelJob(i, m, ledger)) for i, m in enumerate(modes)]
                while len(ledger.commits) < len(modes):
                    # A few turns of the loop let ready jobs reach their run stage
                    # (wait_all_tasks_blocked would poll, which is slow here).
                    for _ in range(8):
                        await anyio.lowlevel.checkpoint()
                    if ledger.running:
                        waiting = sorted(ledger.running)
                        pick = data.draw(st.sampled_from(waiting), label="finish next")
                        ledger.running.pop(pick).set()
                results.extend([await t.result() for t in tickets])

    anyio.run(main)
    assert ledger.starts == list(range(len(modes)))
    assert ledger.commits == list(range(len(modes)))
    assert results == list(range(len(modes)))
