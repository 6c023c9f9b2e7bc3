"""No runtime code steps, closes or reaches the frames of an object the program chose, natively.

Rule 5 of SECURITY.md: a coroutine a task is running is stepped only by that
task, and ``send``/``throw``/``close`` (``asend``/``athrow``/``aclose``) are
judged by the attribute guard on the object, whoever makes the call. The guard
sees only the program's own reads: runtime and façade code that writes
``thing.close()`` calls the method natively, past it, and so did
``contextlib.closing``'s exit, the ``contextmanager`` wrappers and
``asyncio.run`` until they took the method through ``guarded_getattr``. This
test finds such call sites before they ship.

What it checks, statically (the syntax trees of every module the child side
imports, the list ``tests/test_layering.py`` derives from the entry points;
no child process runs):

* every attribute read (called or not: ``x.close()``, ``step = x.send``,
  ``type(x).throw``, a descriptor taken from a class such as
  ``types.CoroutineType.cr_frame``) of a *stepping* name - ``send``, ``throw``,
  ``close``, ``asend``, ``athrow``, ``aclose``, ``__next__``, ``__anext__``,
  ``__await__`` - or a *frame-reaching* one - the guard's
  ``BLOCKED_ATTRIBUTES`` (RestrictedPython's ``gi_frame``, ``cr_frame``,
  ``ag_frame``, ``f_back``, ``f_globals``, ``tb_frame``, ``tb_next``,
  ``cr_await``, ``gi_yieldfrom``, ... and ``get_coro``, ``get_loop``,
  ``get_stack``, ``co_consts``, ``f_generator``), ``__traceback__``,
  ``_getframe``, ``_current_frames``, ``currentframe``;
* the same names read dynamically by a native reader: ``getattr(x, "close")``,
  ``object.__getattribute__(x, "send")``, ``inspect.getattr_static``,
  ``operator.attrgetter``/``methodcaller``, and a subscript
  (``vars(x)["throw"]``, ``cls.__dict__["send"]``);
* every native reader whose name is *not* a literal (``getattr(obj, name)``):
  it may be any of the above.

Each site must be on :data:`ALLOWED`, by module, qualified name of the
enclosing function and the exact text of the read, with the reason its
receiver cannot be an object the program chose (or, for a dynamic read, why
its name cannot be a stepping or frame-reaching one). A site the program can
steer goes through the guard instead - ``guarded_getattr(obj, "close")()`` -
which is never flagged. An entry no site matches any more fails too, so the
list stays the audit of what is there.

What it does not check:

* the builtins ``next()``/``anext()``, ``iter()``, ``for``, ``await``,
  ``yield from``: they step through the type's slot as the program's own
  statement would (``next(it)`` on a program iterator runs program code as
  the program; a coroutine is no iterator, and ``await`` of one a task is
  running is refused by the interpreter), so a forwarder written with them
  gives the program nothing it lacks;
* library code the runtime calls that steps what it is given inside itself:
  ``contextlib``'s context managers (their exits are façade subclasses, see
  ``_facades_data``), asyncio's ``Task`` stepping a program's own
  ``collections.abc.Coroutine`` (``send(None)`` and a fresh ``CancelledError``
  only: rule 5), ``collections.abc`` mixins (``Generator.__next__`` is
  ``self.send(None)``: rule 7 makes it check its ``self``), ``functools``/
  ``itertools``/``operator`` (they iterate and call, which is ``next()``, or
  read through the façade's ``attrgetter``/``methodcaller``);
* a library method reached past a façade's override through ``super()``
  (the guard refuses it: see ``test_language_stepping``), aliases such as
  ``close = thing.close`` made once and called elsewhere (the read is flagged
  where it is made, and its entry's reason must cover every use), reads
  through ``functools.partial(getattr, ...)`` or ``map(getattr, ...)``, and
  code-reaching names (``__code__``, ``__globals__``), which the tripwire
  audits at run time instead (``RESTRICTED_MEMBERS``);
* host-side modules (``sandbox._pool`` and its layers, ``codemode``): a
  program's objects never reach them.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from sandbox._attribute_names import ASYNC_STEP_ATTRIBUTES, BLOCKED_ATTRIBUTES, STEP_ATTRIBUTES
from tests.test_layering import child_closure, module_path

if TYPE_CHECKING:
    from collections.abc import Iterator

#: Names that step a generator, a coroutine or an awaitable, or close one.
STEPPING: Final = STEP_ATTRIBUTES | ASYNC_STEP_ATTRIBUTES | {
    "close", "__next__", "__anext__", "__await__"
}  # fmt: skip
#: Names that lead to a frame (and from there to globals), or to a task's loop.
FRAME_REACHING: Final = BLOCKED_ATTRIBUTES | {
    "__traceback__", "_getframe", "_current_frames", "currentframe"
}  # fmt: skip
WATCHED: Final = STEPPING | FRAME_REACHING

#: Native readers that take the attribute name as an argument.
_NAMED_READERS: Final = frozenset(
    {"getattr", "getattr_static", "__getattribute__", "attrgetter", "methodcaller"}
)


@dataclass(frozen=True)
class Site:
    """One read: where it is and its source text."""

    module: str
    qualname: str
    text: str
    line: int

    def key(self) -> tuple[str, str, str]:
        return (self.module, self.qualname, self.text)


@dataclass(frozen=True)
class Allowed:
    """A reviewed site, and why what it reads or steps is not the program's choice."""

    module: str
    qualname: str
    text: str
    reason: str

    def key(self) -> tuple[str, str, str]:
        return (self.module, self.qualname, self.text)


def _reader_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _flagged(node: ast.AST) -> bool:
    """Whether ``node`` reads a watched name natively, or a name not known until run time."""
    if isinstance(node, ast.Attribute):
        return node.attr in WATCHED
    if isinstance(node, ast.Subscript):
        key = node.slice
        return isinstance(key, ast.Constant) and key.value in WATCHED
    if isinstance(node, ast.Call) and _reader_name(node.func) in _NAMED_READERS:
        names = [a for a in node.args if not isinstance(a, ast.Starred)]
        if _reader_name(node.func) in {"attrgetter", "methodcaller"}:
            candidates = names
        else:
            # getattr(obj, name[, default]); X.__getattribute__(obj, name) or
            # obj.__getattribute__(name); getattr_static(obj, name[, default]).
            candidates = names[1:2] if len(names) >= 2 else names[:1]
        return any(
            not (isinstance(a, ast.Constant) and type(a.value) is str) or a.value in WATCHED
            for a in candidates
        ) or any(isinstance(a, ast.Starred) for a in node.args)
    return False


def sites_in(module: str, source: str) -> list[Site]:
    """Every flagged read in ``source`` (the text of ``module``)."""
    found: list[Site] = []

    def visit(node: ast.AST, scope: tuple[str, ...]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                visit(decorator, scope)
            inner = (*scope, node.name) if isinstance(node, ast.ClassDef) else (
                *scope, node.name, "<locals>"
            )
            body: list[ast.AST] = list(node.body)
            if not isinstance(node, ast.ClassDef):
                body.append(node.args)
                if node.returns is not None:
                    visit(node.returns, scope)
            for child in body:
                visit(child, inner)
            return
        if isinstance(node, ast.Lambda):
            scope = (*scope, "<lambda>", "<locals>")
        if _flagged(node):
            qualname = ".".join(p for p in scope if p != "<locals>") or "<module>"
            found.append(Site(module, qualname, ast.unparse(node), node.lineno))  # type: ignore[attr-defined]
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(ast.parse(source), ())
    return found


@functools.cache
def child_modules() -> tuple[str, ...]:
    """The project modules the child side imports (``tests/test_layering.py``'s closure)."""
    return tuple(sorted(child_closure()))


@functools.cache
def child_side_sites() -> tuple[Site, ...]:
    """The flagged reads in every module the child side imports."""
    found: list[Site] = []
    for module in child_modules():
        path = module_path(module)
        assert path is not None, module
        found.extend(sites_in(module, path.read_text(encoding="utf-8")))
    return tuple(found)


def _a(module: str, qualname: str, *texts_and_reason: str) -> Iterator[Allowed]:
    *texts, reason = texts_and_reason
    for text in texts:
        yield Allowed(module, qualname, text, reason)


_CHANNEL = "the child's own channel to the host: its send writes a message, it steps nothing"
_OWN_FD = "os.close of a file descriptor this process opened, not a method of any object"
_MODULE = "a name read from a module the runtime imported itself (never the program's object)"

#: Every reviewed site, with the reason its receiver is not an object the program chose.
ALLOWED: Final[tuple[Allowed, ...]] = (
    # --- bridge: the channel, the tool stubs, the loop's selector
    *_a("bridge.child", "ChildChannel.send_done", "self.send", _CHANNEL),
    *_a("bridge.child", "send_ready", "channel.send", _CHANNEL),
    *_a(
        "bridge.proxy", "_ToolCall.__await__", "self._calls.start(self).__await__",
        "the real future _Calls.start makes for this call, awaited by the interpreter; "
        "programs cannot read __await__ of a tool call (not a program class)",
    ),
    *_a(
        "bridge.proxy", "_ToolStub.__call__", "sys._getframe", "frame.f_globals", "frame.f_back",
        "this call's own stack from sys._getframe(1), walked here only; only f_lineno leaves",
    ),
    *_a(
        "bridge.proxy", "_Tools.__getattribute__", "object.__getattribute__(self, name)",
        "the tools object's own _ names (its _calls): the receiver is self, and the guard "
        "refuses _ names to programs on it",
    ),
    *_a(
        "bridge.proxy", "make_bindings", "calls.close",
        "the _Calls made two lines above: its close refuses later tool calls",
    ),
    *_a(
        "bridge.run_loop", "_StepSelector.close", "self._opened.close",
        "the selector this object opened itself",
    ),
    # --- sandbox: package and child start-up
    *_a(
        "sandbox", "__getattr__", "getattr(importlib.import_module(home), name)",
        "a lazy export: the module is a sandbox module named in a fixed table",
    ),
    *_a("sandbox._child", "_inherited_streams", "getattr(sys, name)", _MODULE),
    *_a("sandbox._child", "_probe", "getattr(resource, name)", _MODULE),
    *_a("sandbox._classes", "<module>", "getattr(collections.abc, name)", _MODULE),
    *_a("sandbox._seccomp", "compile_filter", "getattr(pyseccomp, operator)", _MODULE),
    *_a("sandbox._seccomp", "_export", "os.close", _OWN_FD),
    # --- sandbox: façades
    *_a("sandbox._facades_members", "_names", "getattr(module, name)", _MODULE),
    *_a("sandbox._facades", "_load_digests", "getattr(hashlib, name)", _MODULE),
    *_a("sandbox._facades", "check_library_internals", "getattr(module, name)", _MODULE),
    *_a(
        "sandbox._facades", "make_importer",
        "getattr(importlib.import_module(name), member)",
        "a member of a module the runtime imports itself, by a name in the fixed "
        "_INTERNAL_MEMBERS table",
    ),
    *_a(
        "sandbox._facades_async", "ProgramTask.__await__", "self.__task.__await__",
        "the real asyncio task the façade holds privately (made by create_task or a group)",
    ),
    *_a(
        "sandbox._facades_data", "_plain_instance_class", "getattr(cls, hook, None)",
        "getattr(object, hook, None)",
        "hook runs over _COPY_HOOKS, fixed copy-protocol names, none stepping or frame-reaching",
    ),
    *_a(
        "sandbox._facades_data", "safe_astuple", "getattr(obj, f.name)",
        "a dataclass field name, checked when the class was made (rule 2: blocked names are "
        "refused as field names); a field's value is read, never called",
    ),
    *_a("sandbox._facades_data", "_as_inner", "getattr(value, f.name)", "as safe_astuple"),
    *_a("sandbox._facades_data", "_as_inner_tuple", "getattr(value, f.name)", "as safe_astuple"),
    *_a(
        "sandbox._facades_decorators", "_copy_names", "getattr(wrapped, attr, None)",
        "attr is one of _WRAPPER_NAMES (__name__, __qualname__, __doc__), checked above",
    ),
    # --- sandbox: the guard itself
    *_a(
        "sandbox._guards", "guarded_getattr", "getattr(obj, name)", "getattr(obj, name, default)",
        "the guard's fast path: only names that are neither private nor in _SLOW_NAMES, which "
        "hold every stepping and frame-reaching name",
    ),
    *_a(
        "sandbox._guards", "_runtime_checked", "getattr(target, name)",
        "an async generator's asend/athrow/aclose, after type(target) is AsyncGeneratorType: "
        "handed out only wrapped in a coroutine (_awaited)",
    ),
    *_a(
        "sandbox._guards", "_plain_getattr", "getattr(obj, name)", "getattr(obj, name, default)",
        "the guard's read once its checks have judged the name on the object",
    ),
    *_a(
        "sandbox._guards", "_is_program_generator", "obj.gi_code",
        "after type(obj) is GeneratorType in the same expression; reads the file name only",
    ),
    # --- sandbox: the runtime, its tracebacks, the stop report, the tripwire, the zygote
    *_a("sandbox._runtime", "_close_loop", "loop.close", "the runtime's own event loop"),
    *_a(
        "sandbox._tracebacks", "program_frames", "tb.tb_frame.f_code", "tb.tb_frame", "tb.tb_next",
        "each step after type(tb) is TracebackType; hands out file, line and name only",
    ),
    *_a(
        "sandbox._tracebacks", "_add_stacks", "getattr(exc, '__traceback__', None)",
        "an exception's traceback, handed only to program_frames (which checks its type); a "
        "program class cannot define __traceback__",
    ),
    *_a(
        "sandbox._tracebacks", "_suggestion", "exc.__traceback__",
        "exc is of the exact class NameError (its C getset); the traceback is handed only to "
        "program_frames (which checks its type), for the names the program's frames bind",
    ),
    *_a(
        "sandbox._tracebacks", "_tool_error_handler_hint", "getattr(builtins, raised, None)",
        "getattr(builtins, name, None)", _MODULE,
    ),
    *_a(
        "sandbox._tripwire", "make_tripwire", "sys._getframe",
        "the audit hook's own frame reader, bound into its closure",
    ),
    *_a(
        "sandbox._tripwire", "_template.hook", "first.f_globals", "getframe(0).f_back",
        "caller.f_globals", "caller.f_code",
        "the audit hook's own frame and its caller (first only after an exact FrameType check)",
    ),
    *_a(
        "sandbox._where", "<module>",
        "types.CoroutineType.cr_frame", "types.CoroutineType.cr_await",
        "types.GeneratorType.gi_frame", "types.GeneratorType.gi_yieldfrom",
        "descriptors program_line applies to the main task's await chain, each after an exact "
        "type check; no frame leaves it",
    ),
    *_a(
        "sandbox._where", "program_line", "current.f_globals", "current.f_back",
        "task.get_coro", "inner.f_globals",
        "the interrupted frame's own stack, and the runtime's main task (never the program's "
        "object); only a line number leaves",
    ),
    *_a(
        "sandbox._zygote", "_withholding_fork_handlers.register_unless_withheld",
        "sys._getframe", "sys._getframe(1).f_globals",
        "the caller's module name, before any program runs (zygote start-up)",
    ),
    *_a("sandbox._zygote", "_Server._handle_request", "os.close", _OWN_FD),
    *_a("sandbox._zygote", "_Server._spawn", "os.close", _OWN_FD),
    *_a("sandbox._zygote", "_Server._reap", "os.close", _OWN_FD),
    *_a(
        "sandbox._zygote", "_Server._shutdown", "self._control.close",
        "the zygote's own control socket",
    ),
)


def test_every_stepping_or_frame_read_in_child_code_is_reviewed() -> None:
    allowed = {entry.key() for entry in ALLOWED}
    unlisted = [
        f"{s.module}:{s.line} in {s.qualname}: {s.text}"
        for s in child_side_sites()
        if s.key() not in allowed
    ]
    assert unlisted == [], (
        "runtime code reads a stepping or frame-reaching name natively (or a name not known "
        "until run time): take it through the guard (guarded_getattr(obj, 'close')()) if the "
        "object can be one the program chose, or add the site to ALLOWED with the reason it "
        "cannot be (rule 5):\n  " + "\n  ".join(unlisted)
    )


def test_no_allowed_site_is_stale() -> None:
    present = {s.key() for s in child_side_sites()}
    stale = [entry for entry in ALLOWED if entry.key() not in present]
    assert stale == []


def test_every_entry_gives_a_one_line_reason() -> None:
    assert len({entry.key() for entry in ALLOWED}) == len(ALLOWED)
    for entry in ALLOWED:
        assert entry.reason.strip(), entry
        assert "\n" not in entry.reason, entry


def test_the_scan_covers_the_facades_and_the_runtime() -> None:
    modules = set(child_modules())
    assert {
        "sandbox._facades", "sandbox._facades_async", "sandbox._facades_data",
        "sandbox._facades_contextlib", "sandbox._facades_decorators", "sandbox._facades_members",
        "sandbox._runtime", "sandbox._tracebacks", "sandbox._output", "sandbox._guards",
        "bridge.proxy",
    } <= modules  # fmt: skip


def test_the_scan_sees_every_form() -> None:
    # The check must be able to fail: each form a forwarder could take.
    source = (
        "import operator, types\n"
        "class Holder:\n"
        "    def __exit__(self, *exc):\n"
        "        self.thing.close()\n"
        "    async def forward(self, gen):\n"
        "        step = gen.asend\n"
        "        getattr(gen, 'throw')(ValueError)\n"
        "        getattr(gen, self.name)\n"
        "        operator.methodcaller('send', None)(gen)\n"
        "        type(gen).__dict__['close'](gen)\n"
        "        return (lambda c: c.cr_frame)(gen)\n"
        "FRAME = types.CoroutineType.cr_frame\n"
        "def fine(obj):\n"
        "    guarded_getattr(obj, 'close')()\n"
        "    return next(obj), getattr(obj, 'name')\n"
    )
    found = [(s.qualname, s.text) for s in sites_in("m", source)]
    assert found == [
        ("Holder.__exit__", "self.thing.close"),
        ("Holder.forward", "gen.asend"),
        ("Holder.forward", "getattr(gen, 'throw')"),
        ("Holder.forward", "getattr(gen, self.name)"),
        ("Holder.forward", "operator.methodcaller('send', None)"),
        ("Holder.forward", "type(gen).__dict__['close']"),
        ("Holder.forward.<lambda>", "c.cr_frame"),
        ("<module>", "types.CoroutineType.cr_frame"),
    ]
