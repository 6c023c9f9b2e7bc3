"""Every protection the language policy keeps: one refusal per test."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox._attribute_names import BLOCKED_ATTRIBUTES, READABLE_DUNDERS
from sandbox._compile import ProgramCompileError, compile_program
from sandbox._guards import guarded_getattr

from .test_language_support import compile_errors, run_error, run_ok

_DUNDER = (
    'names starting and ending with "__" belong to the runtime (a class body may define the '
    "reviewed special methods)"
)


def _refused(source: str) -> str:
    """The program is refused at compile time or fails with an exception; return the message."""
    try:
        compile_program(source)
    except ProgramCompileError as exc:
        return str(exc)
    kind, message = run_error(source)
    assert kind == "exception"
    return message


def test_names_of_the_runtime_are_refused() -> None:
    assert compile_errors("x = _hidden_\ny = __builtins__") == (
        'Line 1: "_hidden_" is an invalid name: names starting and ending with "_" belong to '
        "the runtime",
        'Line 2: "__builtins__" is an invalid name: names starting and ending with "__" belong '
        "to the runtime (a class body may define the reviewed special methods)",
    )


def test_underscore_attributes_are_refused_in_the_source() -> None:
    assert compile_errors("x = [].__class__.__base__") == (
        'Line 1: "__base__" is an invalid attribute name because it starts with "_"',
    )


@pytest.mark.parametrize(
    "write",
    [
        "d = {}\nd._x = 1",
        "import asyncio\nq = asyncio.Queue()\nq._maxsize = 0",
        "setattr([], '_x', 1)",
    ],
)
def test_underscore_attribute_writes_are_refused_on_library_objects(write: str) -> None:
    kind, message = run_error(write)
    assert kind == "exception"
    assert "can be used only on the program's own objects" in message


@pytest.mark.parametrize(
    "attr",
    [
        "__globals__",
        "__code__",
        "__closure__",
        "__func__",
        "__self__",
        "__dict__",
        "__mro__",
        "__bases__",
        "__subclasses__",
        "__builtins__",
        "__traceback__",
        "__getattribute__",
        "__reduce_ex__",
        "__wrapped__",
        "__module__",
    ],
)
def test_dangerous_dunders_are_refused_by_getattr(attr: str) -> None:
    message = _refused(f"def f():\n    pass\nreturn getattr(f, {attr!r})")
    assert f'"{attr}" is an invalid attribute name because it starts with "_"' in message


def test_the_init_globals_chain_is_refused() -> None:
    source = (
        "class A:\n    def __init__(self):\n        pass\nreturn getattr(A.__init__, '__globals__')"
    )
    assert '"__globals__" is an invalid attribute name' in _refused(source)


def test_dunder_methods_are_only_readable_on_super_and_classes() -> None:
    message = _refused("x = [1]\nreturn x.__len__()")
    assert '"__len__" is an invalid attribute name' in message


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        ("class A:\n    pass\nreturn A().__dict__", "; use vars(obj) for the attributes"),
        (
            "class C:\n    A = 1\nreturn list(C.__members__)",
            "; use list(SomeEnum) for an enum's members, or SomeEnum[name] for one by name",
        ),
        (
            # The class does not define __repr__: object's, the runtime's own.
            "class A:\n    def show(self):\n        return self.__repr__()\nreturn A().show()",
            "; use repr(x)",
        ),
        ("return (3).__str__()", "; use str(x)"),
        ("return [1].__len__()", "; use len(x)"),
        ("return getattr([1], '__len__')()", "; use len(x)"),
        ("return (1).__add__(2)", "; use x + y"),
        ("return {1: 2}.__getitem__(1)", "; use x[key]"),
        ("x = __import__('json')", "; use an import statement (`import json`)"),
        ("class A:\n    pass\nreturn A.__mro__", "; use cls.mro() for a class and its bases"),
        ("class A:\n    pass\nreturn A.__bases__", "; use cls.mro() for a class and its bases"),
        ("return int.__subclasses__()", "; a class's subclasses are not available"),
        ("class A:\n    pass\nreturn A.__module__", "is in the program's own module"),
        (
            "import dataclasses\n@dataclasses.dataclass(frozen=True)\nclass P:\n    x: int = 0\n"
            "    def __post_init__(self):\n        super().__setattr__('x', 1)\nP()",
            "; only object.__setattr__ can be read: in a frozen dataclass's __post_init__ write "
            "object.__setattr__(self, name, value)",
        ),
    ],
)
def test_refused_underscore_names_say_what_to_write_instead(source: str, hint: str) -> None:
    assert hint in _refused(source)


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("__getattr__", "for attribute access to a dict use types.SimpleNamespace(**d)"),
        ("__new__", "in a @classmethod that returns cls(...)"),
        ("__init_subclass__", "a class decorator that returns the class"),
        ("__get__", "use @property"),
        ("__set_name__", "use @property"),
        ("__class_getitem__", "derive from typing.Generic[T]"),
        ("__del__", "use a `with` block"),
    ],
)
def test_a_special_method_a_class_may_not_define_says_what_to_write(name: str, hint: str) -> None:
    [error] = compile_errors(f"class A:\n    def {name}(self, *args):\n        pass\n")
    assert error.startswith(f'Line 2: "{name}" is an invalid name: names starting and ending')
    assert error.endswith(hint) or f"; {hint}" in error


def test_match_args_says_how_to_match_instead() -> None:
    [error] = compile_errors("class A:\n    __match_args__ = ('x',)\n")
    assert "a @dataclass or NamedTuple makes __match_args__ from its fields" in error


def test_what_the_class_hints_suggest_works() -> None:
    assert run_ok(
        "import dataclasses, typing\n"
        "registry = []\n"
        "def register(cls):\n    registry.append(cls.__name__)\n    return cls\n"
        "@register\nclass Plugin:\n    pass\n"
        "T = typing.TypeVar('T')\n"
        "class Box(typing.Generic[T]):\n"
        "    def __init__(self, item):\n        self._item = item\n"
        "    @classmethod\n    def of(cls, item):\n        return cls(item)\n"
        "    @property\n    def item(self):\n        return self._item\n"
        "    @item.setter\n    def item(self, value):\n        self._item = value\n"
        "@dataclasses.dataclass\nclass Point:\n    x: int\n    y: int\n"
        "class Plain:\n    def __init__(self):\n        self.x, self.y = 0, 5\n"
        "box = Box[int].of(1)\nbox.item = 2\n"
        "match Point(1, 2):\n    case Point(a, b):\n        first = a + b\n"
        "match Plain():\n    case Plain(x=0, y=y):\n        second = y\n"
        "return [registry, box.item, first, second]"
    ) == [["Plugin"], 2, 3, 5]


def test_what_the_hints_suggest_works() -> None:
    assert run_ok(
        "import dataclasses\n"
        "class A:\n    pass\nclass B(A):\n    pass\n"
        "@dataclasses.dataclass(frozen=True)\nclass P:\n    x: int = 0\n"
        "return [[c.__name__ for c in B.mro()], issubclass(B, A),"
        " dataclasses.replace(P(), x=2).x]"
    ) == [["B", "A", "object"], True, 2]


def test_underscore_names_without_a_hint_are_refused_as_before() -> None:
    assert _refused("def f():\n    pass\nreturn f.__globals__").endswith(
        '"__globals__" is an invalid attribute name because it starts with "_"'
    )


@pytest.mark.parametrize("attr", sorted(BLOCKED_ATTRIBUTES))
def test_interpreter_internals_are_refused_in_the_source(attr: str) -> None:
    errors = compile_errors(f"x = y.{attr}")
    assert errors == (
        f'Line 1: "{attr}" is a restricted attribute (it leads to interpreter internals)',
    )


@pytest.mark.parametrize(
    "attr", ["gi_frame", "gi_code", "cr_frame", "ag_frame", "f_back", "tb_frame"]
)
def test_interpreter_internals_are_refused_by_getattr(attr: str) -> None:
    source = f"def g():\n    yield 1\nreturn getattr(g(), {attr!r}, 'fallback')"
    assert f'"{attr}" is a restricted attribute' in _refused(source)


def test_interpreter_internal_names_cannot_be_declared() -> None:
    # A dataclass field or match pattern would turn the name into an attribute read.
    errors = compile_errors("class P:\n    gi_frame: int\n")
    assert errors == ('Line 2: "gi_frame" is a reserved name (it names interpreter internals)',)


def test_match_keyword_patterns_are_checked_like_attributes() -> None:
    errors = compile_errors("match x:\n    case object(__class__=c):\n        pass\n")
    assert errors == (
        'Line 2: "__class__" is an invalid attribute name because it starts with "_"',
    )


def test_generator_frame_through_getattr_with_a_computed_name_is_refused() -> None:
    source = "g = (i for i in [1])\nname = 'gi_' + 'frame'\nreturn getattr(g, name)"
    assert '"gi_frame" is a restricted attribute' in _refused(source)


def test_format_strings_cannot_walk_dunder_attributes() -> None:
    message = _refused("x = 1\nreturn '{0.__class__}'.format(x)")
    assert '"__class__" is an invalid attribute name because it starts with "_"' in message


def test_format_map_cannot_walk_dunder_attributes() -> None:
    message = _refused("return '{x.__class__.__mro__}'.format_map({'x': 1})")
    assert '"__class__" is an invalid attribute name' in message


def test_unbound_str_format_is_guarded_too() -> None:
    message = _refused("return str.format('{0.__class__}', 1)")
    assert '"__class__" is an invalid attribute name' in message


def test_format_strings_cannot_walk_into_interpreter_internals() -> None:
    message = _refused("g = (i for i in [1])\nreturn '{0.gi_frame}'.format(g)")
    assert '"gi_frame" is a restricted attribute' in message


def test_format_through_super_is_refused() -> None:
    source = "class S(str):\n    pass\nreturn super(S, S('{0.__class__}')).format(1)"
    assert '"format" cannot be read through super()' in _refused(source)


def test_format_strings_still_read_plain_fields() -> None:
    source = """\
class P:
    def __init__(self):
        self.name = 'n'
return '{0.name}|{1[k]}'.format(P(), {'k': 2})
"""
    assert run_ok(source) == "n|2"


@pytest.mark.parametrize(
    "name",
    [
        "exec",
        "eval",
        "compile",
        "open",
        "globals",
        "locals",
        "breakpoint",
        "input",
        "help",
        "memoryview",
        "exit",
        "quit",
    ],
)
def test_forbidden_builtins_do_not_exist(name: str) -> None:
    message = _refused(f"return {name}")
    assert (
        "Exec calls" in message
        or "Eval calls" in message
        or f"name '{name}' is not defined" in message
    )


def test_exec_and_eval_calls_are_refused_at_compile_time() -> None:
    assert compile_errors("exec('x')\neval('1')") == (
        "Line 1: Exec calls are not allowed. (write the code in the program itself)",
        "Line 2: Eval calls are not allowed. (parse data with json.loads, int() or float(); "
        "write code in the program itself)",
    )


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        ("with open('orders.csv') as f:\n    pass", "programs have no file system; use the tools"),
        ("exit(0)", "to end the program, return its value at the top level (`return value`)"),
        ("quit()", "to end the program, return its value at the top level"),
        ("return locals()", "the program's namespace is not available; name the values "
                            "instead: an f-string"),
        ("return globals()['x']", "the program's namespace is not available"),
        ("return input('name? ')", "take data from the tools they are given"),
        ("help(len)", "dir(x) lists an object's names"),
        ("breakpoint()", "print() the values to see them"),
        ("return compile('1', 'f', 'eval')", "programs cannot make code"),
        ("f = eval\nreturn f('1')", "parse data with json.loads"),
        ("def f():\n    return open\nreturn f()", "programs have no file system"),
        ("class A:\n    x = exit\nreturn 1", "to end the program"),
    ],
)
def test_unavailable_builtins_raise_a_name_error_saying_what_to_do(source: str, hint: str) -> None:
    kind, message = run_error(source)
    assert kind == "exception"
    last = message.splitlines()[-1]
    assert last.startswith("NameError: name '")
    assert " is not defined in run_code: " in last
    assert hint in last


def test_an_unavailable_builtin_is_still_a_name_error() -> None:
    source = (
        "try:\n"
        "    open('x')\n"
        "except NameError as error:\n"
        "    return [type(error).__name__, error.name, 'file system' in str(error)]"
    )
    assert run_ok(source) == ["NameError", "open", True]


def test_a_name_the_program_or_the_caller_binds_is_not_rewritten() -> None:
    assert run_ok("def open(path):\n    return path\nreturn open('x')") == "x"
    assert run_ok("def f():\n    return input\ninput = 3\nreturn f()") == 3
    assert run_ok("return [quit for quit in range(2)]") == [0, 1]
    assert run_ok("return input", bindings={"input": "given"}) == "given"


def test_vars_without_an_argument_says_what_to_do() -> None:
    kind, message = run_error("return vars()")
    assert kind == "exception"
    assert message.endswith(
        "TypeError: vars() without an argument (the program's namespace) is not available in "
        "run_code; pass values explicitly, or use vars(obj) for an object's attributes"
    )


def test_an_uncaught_system_exit_says_to_return_instead() -> None:
    kind, message = run_error("raise SystemExit(1)")
    assert kind == "exception"
    assert message.endswith(
        "SystemExit: 1\n(SystemExit ends a program as a failure; to end it with a result, "
        "return the value at the top level: `return value`)"
    )


def test_type_with_three_arguments_is_refused() -> None:
    message = _refused("return type('X', (), {'__reduce_ex__': 1})")
    assert "type() takes exactly one argument in run_code" in message


def test_the_real_type_is_not_reachable_through_a_class() -> None:
    source = """\
class A:
    pass
meta = type(A)
meta2 = A.__class__
return [meta is type, meta2 is type]
"""
    assert run_ok(source) == [True, True]
    message = _refused("class A:\n    pass\nreturn A.__class__('X', (), {})")
    assert "type() takes exactly one argument" in message


def test_the_metaclass_keyword_is_refused() -> None:
    (error,) = compile_errors("class A(metaclass=M):\n    pass")
    # The refusal goes on to name the base to derive from (test_first_try_messages).
    assert error.startswith('Line 1: The keyword argument "metaclass" is not allowed. ')


def test_unreviewed_dunder_methods_cannot_be_defined() -> None:
    errors = compile_errors(
        """\
class A:
    def __reduce_ex__(self, p):
        pass
    def __getattr__(self, n):
        pass
"""
    )
    assert errors == (
        f'Line 2: "__reduce_ex__" is an invalid name: {_DUNDER}',
        f'Line 4: "__getattr__" is an invalid name: {_DUNDER}; for attribute access to a dict '
        'use types.SimpleNamespace(**d) (convert nested dicts too), or keep d["key"]; otherwise '
        "give the class the attributes it needs",
    )


def test_dunder_methods_are_only_allowed_in_class_bodies() -> None:
    assert compile_errors("def __init__(self):\n    pass") == (
        f'Line 1: "__init__" is an invalid name: {_DUNDER}',
    )


def test_positional_only_parameters_cannot_shadow_guards() -> None:
    # GHSA-ffg3-p8fm-mjx2: `def f(_getattr_, /)` used to replace the guard.
    assert compile_errors("def f(_getattr_, /):\n    return 1") == (
        'Line 1: "_getattr_" is an invalid name: names starting and ending with "_" belong to '
        "the runtime",
    )


def test_keyword_only_and_star_parameters_cannot_shadow_guards() -> None:
    errors = compile_errors(
        "def f(*_apply_, _write_=1, **_getitem_):\n    pass\nlambda _getiter_: 1"
    )
    assert len(errors) == 4


def test_writes_to_functions_are_refused() -> None:
    message = _refused("import json\njson.dumps.attr = 1")
    assert message.endswith(
        "TypeError: cannot change a function object: a program may only change objects it "
        "created (instances of its own classes, its classes, dicts, lists, sets)"
    )


def test_a_write_to_the_programs_own_function_says_where_to_keep_the_state() -> None:
    for write in ("f.calls = 0", "setattr(f, 'calls', 0)"):
        message = _refused(f"def f():\n    pass\n{write}")
        assert message.endswith(
            "TypeError: cannot set an attribute on a function in run_code, not even the "
            "program's own; keep such state in a dict, an instance of a class of the "
            "program's, or a `nonlocal` variable"
        ), write


def test_writes_to_module_facades_are_refused() -> None:
    message = _refused("import json\njson.dumps = 1")
    assert "TypeError: cannot change a module object" in message


def test_setattr_on_a_facade_class_is_refused() -> None:
    message = _refused("import json\nsetattr(type(json), 'loads', 1)")
    assert "TypeError: cannot change a type object" in message or "cannot change" in message


def test_writes_to_the_tools_binding_are_refused() -> None:
    message = _refused("tools.echo = 1")
    assert "cannot change a" in message


def test_writes_to_builtin_classes_are_refused() -> None:
    assert "cannot change" in _refused("setattr(int, 'x', 1)")


def test_setattr_refuses_underscore_names_on_own_objects() -> None:
    message = _refused("class A:\n    pass\nsetattr(A(), '__class__', int)")
    assert '"__class__" is an invalid attribute name' in message


def test_augmented_assignment_of_slices_is_refused() -> None:
    assert compile_errors("x = [1]\nx[0:1] += [2]") == (
        "Line 2: Augmented assignment of slices is not allowed; assign the slice instead.",
    )


def test_relative_imports_are_refused() -> None:
    assert compile_errors("from . import x") == (
        "Line 1: Relative imports are not available in programs.",
    )


def test_star_imports_are_refused() -> None:
    assert compile_errors("from json import *") == ('Line 1: "*" imports are not allowed.',)


def test_attribute_error_obj_is_not_readable() -> None:
    # CVE-2024-47532.
    message = _refused(
        "import string\ntry:\n    string.nothing\nexcept AttributeError as e:\n    return e.obj"
    )
    assert '"obj" of an AttributeError is not available' in message


def test_private_entries_of_class_namespaces_cannot_be_read() -> None:
    import types

    message = _refused("return ns['x']")
    assert message  # NameError: ns is not bound
    from sandbox._guards import guarded_getitem

    namespace = types.MappingProxyType({"_x": 1, "y": 2})
    with pytest.raises(TypeError, match=r"^reading the private entry '_x' of a class namespace"):
        guarded_getitem(namespace, "_x")
    assert guarded_getitem(namespace, "y") == 2


def test_writing_dunders_of_builtin_classes_are_not_readable() -> None:
    # dict.__setitem__(x, k, v) would write past the write guard.
    message = _refused("return dict.__setitem__")
    assert '"__setitem__" is an invalid attribute name' in message


def test_writing_dunders_of_the_programs_classes_are_readable() -> None:
    source = """
class Store(dict):
    def __setitem__(self, key, value):
        dict.__init__(self)
        super().__setitem__(key, value * 2)
class Child(Store):
    def __setitem__(self, key, value):
        Store.__setitem__(self, key, value + 1)
c = Child()
c["k"] = 1
return dict(c)
"""
    assert run_ok(source) == {"k": 4}


@given(st.text(min_size=1, max_size=12).map(lambda s: "_" + s))
def test_no_unreviewed_underscore_name_is_ever_readable(name: str) -> None:
    class Victim:
        pass

    victim = Victim()
    for target in (victim, Victim, print, (i for i in range(0)), guarded_getattr):
        if name in READABLE_DUNDERS:
            continue
        with pytest.raises(AttributeError):
            guarded_getattr(target, name)


@given(st.sampled_from(sorted(BLOCKED_ATTRIBUTES)), st.booleans())
def test_blocked_names_are_refused_with_or_without_a_default(name: str, with_default: bool) -> None:
    generator = (i for i in range(0))
    args: tuple[object, ...] = (None,) if with_default else ()
    with pytest.raises(AttributeError, match="restricted attribute"):
        guarded_getattr(generator, name, *args)
