"""The value a run returns is the value the program left, not one a finalizer changed halfway.

A generator left in a reference cycle runs its ``finally`` when the cyclic
collector frees it, and an allocation can start the collector anywhere: while
the runtime copied a returned list of rows, it rewrote the rows not copied yet,
and the host got a list that never existed (684 rows of ``0``, then ``"late"``).
"""

from __future__ import annotations

import gc

import pytest

from bridge.lossless import collection_paused

from .test_language_support import run

#: Rows a finalizer rewrites when the collector frees a generator left in a cycle.
TEARING = """\
rows = [{"i": 0} for _ in range(5000)]
def spoiler():
    me = [None]
    def gen():
        try:
            yield me
        finally:
            for row in rows:
                row["i"] = "late"
    g = gen()
    me[0] = g
    next(g)
for _ in range(3):
    scratch = [[] for _ in range(2000)]
spoiler()
return rows
"""


def test_a_finalizer_cannot_tear_the_returned_value() -> None:
    for threshold in (1, 10, 700):
        old = gc.get_threshold()
        gc.set_threshold(threshold)
        try:
            result = run(TEARING)
        finally:
            gc.set_threshold(*old)
        assert result.error is None, result.error
        rows = result.value
        assert isinstance(rows, list)
        assert len({row["i"] for row in rows if isinstance(row, dict)}) == 1, threshold
        assert all(isinstance(row, dict) for row in rows)


def test_the_collector_is_paused_only_for_the_walk() -> None:
    assert gc.isenabled()
    with collection_paused():
        assert not gc.isenabled()
        with collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collection_paused():
            pass
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def _walk_that_raises(seen: list[bool]) -> None:
    with collection_paused():
        seen.append(gc.isenabled())
        raise KeyError("walk")


def test_the_collector_is_restored_when_the_walk_raises() -> None:
    seen: list[bool] = []
    with pytest.raises(KeyError):
        _walk_that_raises(seen)
    assert seen == [False]
    assert gc.isenabled()
    with collection_paused():
        with pytest.raises(KeyError):
            _walk_that_raises(seen)
        assert not gc.isenabled()  # the outer pause still holds
    assert gc.isenabled()


#: A task the program leaves running changes the value when it is cancelled.
REWRITTEN_ON_CANCEL = """\
import asyncio
result = ["computed"]
async def late():
    try:
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        result[0] = "rewritten after return"
        print("ran after return")
        raise
asyncio.create_task(late())
await asyncio.sleep(0)
return result
"""


def test_the_value_is_copied_before_tasks_left_running_are_cancelled() -> None:
    # The cancelled task's handler still runs (its print is kept), but the run's
    # value is the one the program returned.
    result = run(REWRITTEN_ON_CANCEL)
    assert result.error is None, result.error
    assert result.value == ["computed"]
    assert list(result.logs) == ["ran after return"]


#: A task the program leaves ready runs its first step after the program returns.
REWRITTEN_BY_A_READY_TASK = """\
import asyncio
result = ["computed"]
async def writer():
    result[0] = "rewritten after return"
asyncio.create_task(writer())
return result
"""


def test_the_value_is_copied_in_the_step_that_returns_it() -> None:
    result = run(REWRITTEN_BY_A_READY_TASK)
    assert result.error is None, result.error
    assert result.value == ["computed"]


#: Every container the copy accepts, holding a key and a value of the program's
#: whose special methods raise once the program has returned: the copy must
#: call none of them (C code that hashes, compares or converts would).
NO_PROGRAM_CODE_IN_THE_COPY = """\
import collections, enum
armed = [False]
def guard(name):
    if armed[0]:
        raise RuntimeError(name + " ran inside the copy")
class Key(str, enum.Enum):
    A = "a"
    def __hash__(self):
        guard("__hash__")
        return 1
    def __eq__(self, other):
        guard("__eq__")
        return other is self
    def __str__(self):
        guard("__str__")
        return "not the value"
    def __len__(self):
        guard("__len__")
        return 99
class Level(enum.IntEnum):
    HIGH = 3
    def __index__(self):
        guard("__index__")
        return 0
    def __int__(self):
        guard("__int__")
        return 0
Point = collections.namedtuple("Point", "x y")
value = {
    Key.A: [Key.A, Level.HIGH],
    "ordered": collections.OrderedDict([(Key.A, 1), ("b", Level.HIGH)]),
    "counter": collections.Counter({Key.A: 2}),
    "default": collections.defaultdict(list, {Key.A: [Level.HIGH]}),
    "tuple": (Key.A, Point(Level.HIGH, Key.A)),
}
armed[0] = True
return value
"""


def test_the_copy_of_the_value_runs_none_of_the_program_s_code() -> None:
    result = run(NO_PROGRAM_CODE_IN_THE_COPY)
    assert result.error is None, result.error
    assert result.value == {
        "a": ["a", 3],
        "ordered": {"a": 1, "b": 3},
        "counter": {"a": 2},
        "default": {"a": [3]},
        "tuple": ["a", [3, "a"]],
    }
