"""The tripwire, seen from real children: what ends a run as ``sandbox-violation``, and what not.

Programs here run with the language layer off (plain Python, real builtins,
in the same process as the runtime), so nothing but the tripwire stands between
them and each route; the OS layer stays on, and its filter answers only system
calls, never a frame read. Every route to a frame is also run with the tripwire
off, to show that it does hand out a real frame there.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Final

import anyio
import pytest

from bridge.host import tripped_message
from sandbox import Limits, WorkerPool
from sandbox._tripwire import FORBIDDEN_EVENTS, FORBIDDEN_MODULES, RESTRICTED_MEMBERS
from sandbox.testing import EchoHandler
from tests.layers import assert_host_layers

if TYPE_CHECKING:
    from sandbox import RunResult

pytestmark = pytest.mark.slow

GUARD = 60  # seconds; a guard against hangs, never a timing assertion
ARMED: Final = Limits(language_layer=False, wall_seconds=20)
BARE: Final = Limits(language_layer=False, tripwire=False, wall_seconds=20)
SECURITY_MD: Final = Path(__file__).resolve().parents[2] / "SECURITY.md"

#: Every route a plain-Python program has to a real frame, that CPython audits:
#: name -> (program ending with `frame = ...`, event, detail).
FRAME_ROUTES: Final[dict[str, tuple[str, str, str]]] = {
    "sys._getframe": ("import sys\nframe = sys._getframe()", "sys._getframe", ""),
    "inspect.currentframe": (
        "import inspect\nframe = inspect.currentframe()", "sys._getframe", ""
    ),
    "traceback.walk_stack": (
        "import traceback\nframe = next(traceback.walk_stack(None))[0]", "sys._getframe", ""
    ),
    "a traceback's tb_frame": (
        "try:\n    raise ValueError\nexcept ValueError as error:\n"
        "    frame = error.__traceback__.tb_frame",
        "object.__getattr__", "tb_frame",
    ),
    "sys.exc_info()": (
        "import sys\ntry:\n    raise ValueError\nexcept ValueError:\n"
        "    frame = sys.exc_info()[2].tb_frame",
        "object.__getattr__", "tb_frame",
    ),
    "traceback.walk_tb": (
        "import traceback\ntry:\n    raise ValueError\nexcept ValueError as error:\n"
        "    frame = next(traceback.walk_tb(error.__traceback__))[0]",
        "object.__getattr__", "tb_frame",
    ),
    "a generator's gi_frame": (
        "def numbers():\n    yield 1\nframe = numbers().gi_frame", "object.__getattr__", "gi_frame"
    ),
    "a coroutine's cr_frame": (
        "async def work():\n    pass\ncoroutine = work()\nframe = coroutine.cr_frame",
        "object.__getattr__", "cr_frame",
    ),
    "an async generator's ag_frame": (
        "async def numbers():\n    yield 1\nframe = numbers().ag_frame",
        "object.__getattr__", "ag_frame",
    ),
    "the running task's stack": (
        "import asyncio\nframe = asyncio.current_task().get_stack()[0]",
        "object.__getattr__", "cr_frame",
    ),
    "sys._current_frames": (
        "import sys\nframe = next(iter(sys._current_frames().values()))",
        "sys._current_frames", "",
    ),
    "a trace function": (
        "import sys\nseen = []\n"
        "sys.settrace(lambda frame, event, arg: seen.append(frame))\n"
        "def called():\n    pass\ncalled()\nsys.settrace(None)\nframe = seen[0]",
        "sys.settrace", "",
    ),
    "a profile function": (
        "import sys\nseen = []\n"
        "sys.setprofile(lambda frame, event, arg: seen.append(frame))\n"
        "def called():\n    pass\ncalled()\nsys.setprofile(None)\nframe = seen[0]",
        "sys.setprofile", "",
    ),
    "the collector's referents of a traceback": (
        "import gc, types\ntry:\n    raise ValueError\nexcept ValueError as error:\n"
        "    kept = error\n"
        "frame = next(o for o in gc.get_referents(kept.__traceback__)"
        " if isinstance(o, types.FrameType))",
        "gc.get_referents", "",
    ),
    # No event hands this one out (a signal handler's argument), but its code trips it.
    "a signal handler's frame, then its code": (
        "import signal\nframes = []\n"
        "signal.signal(signal.SIGVTALRM, lambda number, caught: frames.append(caught))\n"
        "signal.setitimer(signal.ITIMER_VIRTUAL, 0.001)\n"
        "while not frames:\n    pass\nframe = frames[0].f_code",
        "object.__getattr__", "f_code",
    ),
    "a function's __code__": (
        "def function():\n    pass\nframe = function.__code__", "object.__getattr__", "__code__"
    ),
    "a generator's gi_code": (
        "def numbers():\n    yield 1\nframe = numbers().gi_code", "object.__getattr__", "gi_code"
    ),
    "a coroutine's cr_code": (
        "async def work():\n    pass\ncoroutine = work()\nframe = coroutine.cr_code",
        "object.__getattr__", "cr_code",
    ),
}
_REPORT_FRAME: Final = "\nreturn type(frame).__name__"

#: Real operations and the event the tripwire names for each.
OPERATIONS: Final[dict[str, tuple[str, str, str]]] = {
    "open()": ("open('/etc/hostname')", "open", ""),
    "os.open": ("import os\nos.open('/etc/hostname', os.O_RDONLY)", "open", ""),
    "os.listdir": ("import os\nos.listdir('/')", "os.listdir", ""),
    "os.system": ("import os\nos.system('true')", "os.system", ""),
    "os.kill": ("import os\nos.kill(os.getpid(), 0)", "os.kill", ""),
    "subprocess.run": ("import subprocess\nsubprocess.run(['true'])", "subprocess.Popen", ""),
    "socket.socket": ("import socket\nsocket.socket()", "socket.__new__", ""),
    "ctypes.CDLL": ("import ctypes\nctypes.CDLL(None)", "ctypes.dlopen", ""),
    "fcntl.fcntl": ("import fcntl\nfcntl.fcntl(1, fcntl.F_GETFD)", "fcntl.fcntl", ""),
    "resource.setrlimit": (
        "import resource\nresource.setrlimit(resource.RLIMIT_CORE, (0, 0))",
        "resource.setrlimit", "",
    ),
    "signal.pthread_kill": (
        "import signal, threading\nsignal.pthread_kill(threading.main_thread().ident, 0)",
        "signal.pthread_kill", "",
    ),
    "gc.get_objects": ("import gc\ngc.get_objects()", "gc.get_objects", ""),
    "an import of a module that is not loaded": ("import xml.dom", "import", "xml.dom"),
    "exec of a string": ("exec('1')", "compile", ""),
    "eval": ("eval('1')", "compile", ""),
    "compile": ("compile('1', 'x', 'eval')", "compile", ""),
    # _imp hands out a frozen module's code with no event; running it has one.
    "exec of a code object": ("import _imp\nexec(_imp.get_frozen_object('__hello__'))", "exec", ""),
    "a function from a code object": (
        "import _imp, types\ntypes.FunctionType(_imp.get_frozen_object('__hello__'), {})",
        "function.__new__", "",
    ),
    "code.replace": (
        "import _imp\n_imp.get_frozen_object('__hello__').replace()", "code.__new__", ""
    ),
    "marshal.loads": ("import marshal\nmarshal.loads(b'N')", "marshal.loads", ""),
    "breakpoint()": ("breakpoint()", "builtins.breakpoint", ""),
    "another audit hook": (
        "import sys\nsys.addaudithook(lambda event, args: None)", "sys.addaudithook", ""
    ),
}


def violation(event: str, detail: str = "") -> str:
    return tripped_message(event, detail)


async def _run_all(programs: dict[str, str], limits: Limits) -> dict[str, RunResult]:
    results: dict[str, RunResult] = {}
    async with WorkerPool(limits=limits, size=2) as pool:
        slots = anyio.Semaphore(2)

        async def one(name: str, source: str) -> None:
            async with slots:
                results[name] = await pool.run(source, tool_names=["echo"], handler=EchoHandler())

        with anyio.fail_after(GUARD * 4):
            async with anyio.create_task_group() as group:
                for name, source in programs.items():
                    group.start_soon(one, name, source)
    return results


@pytest.fixture(scope="module")
def frame_runs() -> dict[bool, dict[str, RunResult]]:
    """Every frame route, run once with the tripwire and once without."""
    programs = {name: source + _REPORT_FRAME for name, (source, _, _) in FRAME_ROUTES.items()}
    return {
        armed: anyio.run(_run_all, programs, ARMED if armed else BARE) for armed in (True, False)
    }


@pytest.mark.parametrize("route", sorted(FRAME_ROUTES))
def test_a_real_frame_or_code_by_any_route_ends_the_run(
    route: str, frame_runs: dict[bool, dict[str, RunResult]]
) -> None:
    _, event, detail = FRAME_ROUTES[route]
    result = frame_runs[True][route]
    assert result.error is not None, result.value
    assert (result.error.kind, result.error.message) == (
        "sandbox-violation", violation(event, detail)
    )
    assert result.value is None


@pytest.mark.parametrize("route", sorted(FRAME_ROUTES))
def test_without_the_tripwire_each_route_hands_out_a_real_frame_or_code(
    route: str, frame_runs: dict[bool, dict[str, RunResult]]
) -> None:
    result = frame_runs[False][route]
    assert result.error is None, result.error
    assert result.value in {"frame", "code"}


@pytest.fixture(scope="module")
def operation_runs() -> dict[str, RunResult]:
    return anyio.run(_run_all, {name: source for name, (source, _, _) in OPERATIONS.items()}, ARMED)


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_an_operation_a_program_never_needs_ends_the_run_naming_its_event(
    operation: str, operation_runs: dict[str, RunResult]
) -> None:
    _, event, detail = OPERATIONS[operation]
    result = operation_runs[operation]
    assert result.error is not None, result.value
    assert (result.error.kind, result.error.message) == (
        "sandbox-violation", violation(event, detail)
    )


# -- the documented event list ----------------------------------------------------------


def documented_events() -> dict[str, str]:
    """The tripwire's event table in SECURITY.md: event (or ``module.*``) -> when it trips."""
    section = SECURITY_MD.read_text(encoding="utf-8").split("### 3. Tripwire", 1)[1]
    section = section.split("\n### ", 1)[0].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| ([a-z ]+) \|", section, re.MULTILINE)
    return dict(rows)


def test_the_code_watches_exactly_the_documented_events() -> None:
    documented = documented_events()
    always = {event for event, when in documented.items() if when == "always"}
    modules = {event.removesuffix(".*") for event in always if event.endswith(".*")}
    assert always - {f"{module}.*" for module in modules} == FORBIDDEN_EVENTS
    assert modules == FORBIDDEN_MODULES
    decided = {event for event, when in documented.items() if when != "always"}
    assert decided == {"sys._getframe", "exec", "compile", "import"} | {
        f"object.__getattr__ {member}" for member in RESTRICTED_MEMBERS
    }


def _audit_program(event: str) -> tuple[str, str, str]:
    """A program raising ``event`` itself with sys.audit, and what the run must report."""
    if event.endswith(".*"):
        name = event.removesuffix("*") + "probe"
        return f"import sys\nsys.audit({name!r})", name, ""
    if event.startswith("object.__getattr__ "):
        name, member = event.split()
        return f"import sys\nsys.audit({name!r}, None, {member!r})", name, member
    if event == "import":
        return "import sys\nsys.audit('import', 'xml')", "import", "xml"
    return f"import sys\nsys.audit({event!r})", event, ""


@pytest.fixture(scope="module")
def audit_runs() -> dict[str, RunResult]:
    programs = {event: _audit_program(event)[0] for event in documented_events()}
    # Audited, but not watched: the run goes on.
    programs["object.__getattr__ __defaults__"] = (
        "import sys\nsys.audit('object.__getattr__', None, '__defaults__')\nreturn 'went on'"
    )
    programs["builtins.id"] = "import sys\nsys.audit('builtins.id', 1)\nreturn 'went on'"
    return anyio.run(_run_all, programs, ARMED)


@pytest.mark.parametrize("event", sorted(documented_events()))
def test_every_documented_event_ends_the_run_whoever_raises_it_in_the_program(
    event: str, audit_runs: dict[str, RunResult]
) -> None:
    _, name, detail = _audit_program(event)
    result = audit_runs[event]
    assert result.error is not None, result.value
    assert (result.error.kind, result.error.message) == (
        "sandbox-violation", violation(name, detail)
    )


@pytest.mark.parametrize("event", ["object.__getattr__ __defaults__", "builtins.id"])
def test_an_audited_event_outside_the_list_lets_the_program_go_on(
    event: str, audit_runs: dict[str, RunResult]
) -> None:
    assert audit_runs[event].error is None, audit_runs[event].error
    assert audit_runs[event].value == "went on"


# -- ending the run at once ---------------------------------------------------------------


async def _run(source: str, limits: Limits = ARMED) -> tuple[RunResult, EchoHandler]:
    handler = EchoHandler()
    async with WorkerPool(limits=limits, size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(source, tool_names=["echo"], handler=handler)
    return result, handler


async def test_nothing_of_the_program_runs_after_the_event() -> None:
    result, handler = await _run(
        "import sys\nawait tools.echo(step='before')\n"
        "try:\n    sys._getframe()\nexcept BaseException:\n    pass\n"
        "finally:\n    await tools.echo(step='finally')\n"
        "await tools.echo(step='after')\nreturn 'went on'"
    )
    assert result.error is not None
    assert result.error.kind == "sandbox-violation"
    assert handler.calls == [("echo", {"step": "before"})]


async def test_patching_what_the_program_can_reach_does_not_disarm_it() -> None:
    # Everything the tripwire's module, os and sys offer a plain-Python program,
    # replaced before the frame is taken through the saved real function.
    result, _ = await _run(
        "import os, sys\n"
        "import sandbox._tripwire as tripwire\n"
        "for name in ('FORBIDDEN_EVENTS', 'FORBIDDEN_MODULES', 'RESTRICTED_MEMBERS',\n"
        "             '_DECIDED', 'ALLOWED_IMPORTS'):\n"
        "    setattr(tripwire, name, frozenset())\n"
        "tripwire.trusted_steps = lambda: ()\n"
        "tripwire.make_tripwire = lambda *args, **kwargs: None\n"
        "getframe = sys._getframe\n"
        "sys._getframe = lambda *args: None\n"
        "os._exit = lambda status: None\n"
        "os.write = lambda fd, data: len(data)\n"
        "return type(getframe()).__name__"
    )
    assert result.error is not None, result.value
    assert (result.error.kind, result.error.message) == (
        "sandbox-violation", violation("sys._getframe")
    )


async def test_the_exempt_steps_hand_a_program_that_calls_them_no_frame_or_code() -> None:
    # A program may call every exempt function itself; what comes back is a line,
    # a summary, a module name, a class or a signature, never what they read.
    result, _ = await _run(
        "import collections, dataclasses, enum, inspect, types, typing\n"
        "from sandbox._tracebacks import program_frames\n"
        "try:\n    raise ValueError\nexcept ValueError as error:\n"
        "    summaries = program_frames(error.__traceback__, [])\n"
        "@dataclasses.dataclass\nclass Point:\n    x: int = 0\n"
        "made = [summaries, *summaries, collections.namedtuple('Pair', 'a b'),\n"
        "        enum.Enum('Colour', 'RED'), typing.TypeVar('T'), typing.List[int],\n"
        "        typing.ForwardRef('Point'), inspect.signature(Point), Point,\n"
        "        typing._caller(0), await tools.echo(x=1)]\n"
        "kinds = (types.FrameType, types.CodeType, types.TracebackType)\n"
        "return [type(value).__name__ for value in made if isinstance(value, kinds)]"
    )
    assert result.error is None, result.error
    assert result.value == []


async def test_the_exempt_steps_pass_what_they_read_to_no_function_a_program_can_replace() -> None:
    # Every function in the modules of the exempt steps is swapped for one that
    # records frames, code objects and tracebacks among its arguments; then each
    # exempt step runs. An exempt step that handed its frame to a module-level
    # helper (as the tool stub once did) would show up here.
    result, _ = await _run(
        "import collections, dataclasses, enum, inspect, sys, types, typing\n"
        "import bridge.proxy, sandbox._tracebacks, typing_extensions\n"
        "seen = []\n"
        "program_frames = sandbox._tracebacks.program_frames  # called here, not recorded\n"
        "kinds = (types.FrameType, types.CodeType, types.TracebackType)\n"
        "def recording(function):\n"
        "    def wrapper(*args, **kwargs):\n"
        "        seen.extend(type(a).__name__ for a in (*args, *kwargs.values())\n"
        "                    if isinstance(a, kinds))\n"
        "        return function(*args, **kwargs)\n"
        "    return wrapper\n"
        "for module in (bridge.proxy, sandbox._tracebacks, collections, dataclasses, enum,\n"
        "               inspect, typing, typing_extensions):\n"
        "    for name, value in list(vars(module).items()):\n"
        "        if isinstance(value, types.FunctionType):\n"
        "            setattr(module, name, recording(value))\n"
        "try:\n    raise ValueError\nexcept ValueError as error:\n"
        "    program_frames(error.__traceback__, [])\n"
        "await tools.echo(x=1)\n"
        "@dataclasses.dataclass\nclass Point:\n    x: int = 0\n"
        "collections.namedtuple('Pair', 'a b')\nenum.Enum('Colour', 'RED')\n"
        "typing.TypeVar('T')\ntyping.List[int]\ntyping.ForwardRef('Point')\n"
        "return seen"
    )
    assert result.error is None, result.error
    assert result.value == []


async def test_at_the_recursion_limit_a_watched_operation_is_refused_never_performed() -> None:
    # Where the interpreter cannot call the hook (or anything else), the
    # operation fails with RecursionError: the program never gets the frame.
    result, _ = await _run(
        "import sys\n"
        "def probe(depth):\n"
        "    try:\n        return probe(depth + 1)\n    except RecursionError:\n        pass\n"
        "    try:\n        frame = sys._getframe()\n    except RecursionError:\n"
        "        return 'refused'\n"
        "    return type(frame).__name__\n"
        "return probe(0)"
    )
    if result.error is None:
        assert result.value == "refused"
    else:
        assert result.error.kind == "sandbox-violation", result.error


async def test_the_tripwire_exit_status_alone_is_a_violation_only_with_a_tripwire() -> None:
    # In a run with a tripwire the status alone (its frame lost) still names
    # the kind; a program that exits with it itself ends only its own run. In
    # a run without one, 80 is the program's own status: it could otherwise
    # pose as a violation.
    armed = Limits(language_layer=False, wall_seconds=20)
    result, _ = await _run("import os\nos._exit(80)", armed)
    assert result.error is not None
    assert result.error.kind == "sandbox-violation"
    assert result.error.message == violation("") + " (the child could not report which event)"
    bare, _ = await _run("import os\nos._exit(80)", BARE)
    assert bare.error is not None
    assert bare.error.kind == "worker-exit"
    assert "status 80" in bare.error.message


# -- what programs need keeps working -----------------------------------------------------

LEGITIMATE: Final = """
import collections, dataclasses, enum, typing
@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: "typing.Optional[Point]" = None
Pair = collections.namedtuple("Pair", "left right")
Colour = enum.Enum("Colour", "RED GREEN")
T = typing.TypeVar("T")
UserId = typing.NewType("UserId", int)
Movie = typing.TypedDict("Movie", {"name": str})
Items = typing.List["Point"]
@typing.overload
def parse(text: str) -> int: ...
def parse(text):
    return int(text)
unawaited = tools.echo(x=1)
try:
    try:
        raise KeyError("inner")
    except KeyError as inner:
        raise ExceptionGroup("outer", [ValueError("a")]) from inner
except ExceptionGroup as group:
    caught = type(group).__name__
return [repr(Point(1)), list(Pair(1, 2)), Colour.RED.value, caught, Point.__doc__]
"""


@pytest.mark.parametrize("language_layer", [True, False])
async def test_what_legitimate_programs_use_works_with_the_tripwire(language_layer: bool) -> None:
    result, _ = await _run(LEGITIMATE, Limits(language_layer=language_layer, wall_seconds=20))
    assert result.error is not None  # the one unawaited call, reported with its line
    assert result.error.kind == "exception"
    assert "tool call tools.echo(...) at line 17 was never awaited" in result.error.message
    assert result.layers.tripwire


@pytest.mark.parametrize("language_layer", [True, False])
async def test_tracebacks_keep_their_program_frames_with_the_tripwire(language_layer: bool) -> None:
    result, _ = await _run(
        "def fail():\n    raise ValueError('deep')\n"
        "try:\n    fail()\nexcept ValueError as error:\n    raise KeyError('outer') from error",
        Limits(language_layer=language_layer, wall_seconds=20),
    )
    assert result.error is not None
    assert result.error.kind == "exception"
    assert 'File "<model>", line 2, in fail' in result.error.message
    assert 'File "<model>", line 6, in <module>' in result.error.message
    assert "The above exception was the direct cause" in result.error.message


async def test_layers_report_the_tripwire_and_its_switch() -> None:
    armed, _ = await _run("return 1", Limits())
    bare, _ = await _run("return 1", Limits(tripwire=False))
    assert armed.layers.tripwire
    assert_host_layers(armed.layers)
    assert not bare.layers.tripwire
    assert not bare.layers.complete
    assert "tripwire: switched off (tripwire=False)" in bare.layers.reasons
