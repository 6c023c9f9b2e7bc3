"""Module façades and the guarded importer.

Every module a program may import is exposed as a **façade**: an object
holding only allow-listed attributes, never the real module. Module
attributes such as ``re.enum``, ``datetime.sys`` or ``json.codecs`` lead to
other modules and from there to ``sys.modules``; a façade has none of them.
Names are listed explicitly per module; an entry carries a comment when why
it is safe is not obvious, and notable exclusions are listed with the reason.

A façade is the only instance of a class made for it, whose class dictionary
holds the members: attribute reads are as fast as on a real module, a façade
has no instance dictionary, and its class is not a program class, so the
write guard refuses changes to either. A façade has no ``__name__``: the
interpreter's ``from m import x`` falls back to ``sys.modules[m.__name__ +
".x"]`` when ``x`` is missing, and the importer checks every imported name
up front as well.
"""

from __future__ import annotations

import abc
import asyncio
import base64
import bisect
import calendar
import cmath
import collections
import collections.abc
import contextlib
import csv
import dataclasses
import datetime
import decimal
import difflib
import enum
import fractions
import functools
import graphlib
import hashlib
import heapq
import html
import importlib
import inspect
import io
import itertools
import json
import math
import operator
import pprint
import random
import re
import secrets
import statistics
import string
import textwrap
import time
import types
import typing
import unicodedata
import urllib.parse
import uuid
from typing import Any, Final, TypeGuard

from . import _facades_async as _aio
from . import _facades_contextlib as _contextlib
from . import _facades_data as _data
from . import _facades_decorators as _deco
from . import _facades_enum as _enum_facade
from . import _facades_text as _text
from ._classes import register_program_class
from ._guards import SimpleNamespace, guarded_getitem
from ._library import mark_coroutine_function, result_checked
from ._missing_hints import MISSING_MEMBER_HINTS, MISSING_MODULE_HINTS
from ._output import RedirectStdout
from ._program import PROGRAM_CLASS_MODULE

if typing.TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = [
    "ALLOWED_MODULES", "FACADE_RESULT_CLASSES", "build_facades", "check_library_internals",
    "classes_behind", "make_importer", "named_as",
]


def _names(module: types.ModuleType, *names: str) -> dict[str, object]:
    """Members taken from the real module, by name; a missing name is a bug here."""
    return {name: getattr(module, name) for name in names}


# -- the allow-lists -------------------------------------------------------------------

# fmt: off
_MATH: Final = (
    # Pure numeric functions and constants; math has no submodules.
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "comb",
    "copysign", "cos", "cosh", "degrees", "dist", "e", "erf", "erfc", "exp", "exp2", "expm1",
    "fabs", "factorial", "floor", "fmod", "frexp", "fsum", "gamma", "gcd", "hypot", "inf",
    "isclose", "isfinite", "isinf", "isnan", "isqrt", "lcm", "ldexp", "lgamma", "log", "log10",
    "log1p", "log2", "modf", "nan", "nextafter", "perm", "pi", "pow", "prod", "radians",
    "remainder", "sin", "sinh", "sqrt", "tan", "tanh", "tau", "trunc", "ulp",
)

_CMATH: Final = (
    # Pure complex-number functions and constants.
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "e", "exp", "inf", "infj",
    "isclose", "isfinite", "isinf", "isnan", "log", "log10", "nan", "nanj", "phase", "pi",
    "polar", "rect", "sin", "sinh", "sqrt", "tan", "tanh", "tau",
)

_RE: Final = (
    "compile", "search", "match", "fullmatch", "split", "findall", "finditer", "sub", "subn",
    "escape", "purge",
    "Pattern", "Match", "error", "RegexFlag",
    # Flags. re.LOCALE is left out: it only applies to bytes patterns and
    # depends on the process locale.
    "A", "ASCII", "I", "IGNORECASE", "M", "MULTILINE", "S", "DOTALL", "X", "VERBOSE", "U",
    "UNICODE", "NOFLAG",
    # Excluded: re.enum, re.functools, re.copyreg (modules), re.template (deprecated).
)

_JSON: Final = (
    "loads", "dumps",
    "load", "dump",  # only ever given the program's own file-like objects (io.StringIO)
    "JSONDecodeError", "JSONEncoder", "JSONDecoder",
    # Excluded: json.decoder, json.encoder, json.scanner, json.codecs (modules).
)

_DATETIME: Final = (
    # datetime.strptime imports the private _strptime module from C; the
    # importer hands it a façade of the one function it calls (_INTERNAL_MEMBERS).
    "date", "time", "datetime", "timedelta", "timezone", "tzinfo", "MINYEAR", "MAXYEAR", "UTC",
    # Excluded: datetime.sys (a module).
)

_TIME: Final = (
    "time", "monotonic", "perf_counter",
    "sleep",  # blocks the whole program; asyncio.sleep is the cooperative one
    "gmtime", "struct_time",  # UTC only; strftime is the façade's (UTC when given no time)
    # Excluded: localtime, mktime, ctime, asctime() without a time, tzset, timezone state
    # (the local time zone is read from the file system), process clocks.
)

_CSV: Final = (
    # The C reader and writer iterate what they are given and write with
    # .write() (the program's io.StringIO); dialects are read by fixed names.
    "reader", "writer", "DictReader", "DictWriter", "Sniffer", "Dialect", "excel",
    "excel_tab", "unix_dialect", "Error", "QUOTE_ALL", "QUOTE_MINIMAL", "QUOTE_NONE",
    "QUOTE_NONNUMERIC",
    "list_dialects",  # the registered names, a list of str
    # register_dialect and get_dialect are the façade's (exact str names). The
    # registry is process-wide, and a child runs one program: a dialect lasts
    # for the run that registers it.
    # Excluded: unregister_dialect (nothing to clean up), field_size_limit.
)

_HASHLIB: Final = (
    # Digests of bytes. Excluded: new() (algorithm by name), file_digest (files),
    # pbkdf2_hmac and scrypt (CPU-bound key stretching), algorithms_* sets.
    "md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha3_224", "sha3_256",
    "sha3_384", "sha3_512", "shake_128", "shake_256", "blake2b", "blake2s",
)

_UUID: Final = (
    "UUID", "uuid3", "uuid4", "uuid5", "NAMESPACE_DNS", "NAMESPACE_URL", "NAMESPACE_OID",
    "NAMESPACE_X500", "SafeUUID",
    # Excluded: uuid1 and getnode (read the machine's network address, which can
    # run a subprocess).
)

_PPRINT: Final = (
    "pformat", "saferepr", "isreadable", "isrecursive",
    # pprint and pp are the façade's (they print like print); PrettyPrinter is
    # excluded (it writes to the process's real stdout by default).
)

_ITERTOOLS: Final = (
    "accumulate", "chain", "combinations", "combinations_with_replacement", "compress", "count",
    "cycle", "dropwhile", "filterfalse", "groupby", "islice", "pairwise", "permutations",
    "product", "repeat", "starmap", "takewhile", "tee", "zip_longest",
)

_OPERATOR: Final = (
    "abs", "add", "and_", "concat", "contains", "countOf", "eq", "floordiv", "ge", "gt",
    "index", "indexOf", "inv", "invert", "is_", "is_not", "le", "lshift", "lt", "mod", "mul",
    "ne", "neg", "not_", "or_", "pos", "pow", "rshift", "sub", "truediv", "truth", "xor",
    "length_hint", "matmul",
    # Excluded: setitem/delitem and the in-place functions (they write without
    # the write guard). getitem/itemgetter, attrgetter and methodcaller are
    # replaced by versions that read through the guards.
)

_COLLECTIONS: Final = (
    "Counter", "defaultdict", "OrderedDict", "deque", "ChainMap", "UserDict", "UserList",
    # namedtuple is added as `safe_namedtuple`: its field names become
    # `__match_args__`, which `match` reads without the attribute guard.
    # Excluded: UserString (its format() method calls the real str.format on
    # its data, walking attributes unguarded).
)

_COLLECTIONS_ABC: Final = (
    # Abstract base classes: plain classes for isinstance checks and mixins.
    "Awaitable", "Coroutine", "AsyncIterable", "AsyncIterator", "AsyncGenerator", "Hashable",
    "Iterable", "Iterator", "Generator", "Reversible", "Sized", "Container", "Callable",
    "Collection", "Set", "MutableSet", "Mapping", "MutableMapping", "MappingView", "KeysView",
    "ItemsView", "ValuesView", "Sequence", "MutableSequence", "ByteString",
)

_STATISTICS: Final = (
    "mean", "fmean", "geometric_mean", "harmonic_mean", "median", "median_low", "median_high",
    "median_grouped", "mode", "multimode", "quantiles", "pstdev", "pvariance", "stdev",
    "variance", "covariance", "correlation", "linear_regression", "NormalDist",
    "StatisticsError",
)

_STRING: Final = (
    "ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits",
    "punctuation", "printable", "whitespace", "capwords",
    "Template",  # substitutes $name by mapping lookups only: no attribute walks
    # Excluded: Formatter (its get_field/vformat walk attributes unguarded;
    # CVE-2023-41039, GHSA-hp3v-5vw7-fx9w).
)

_TEXTWRAP: Final = ("wrap", "fill", "dedent", "indent", "shorten", "TextWrapper")

_GRAPHLIB: Final = (
    # Pure Python over the nodes it is given: a dict of them (hash and ==, fixed
    # names) and tuples and lists of them out; its state is in `_` attributes.
    "TopologicalSorter", "CycleError",
)

_SECRETS: Final = (
    # Random bytes from the OS (the getrandom system call, as uuid.uuid4 reads
    # them) and text made of them. `choice` is a bound method of secrets' own
    # SystemRandom, which the façade's checked wrapper keeps out of reach.
    "token_bytes", "token_hex", "token_urlsafe", "choice", "randbelow", "compare_digest",
    "DEFAULT_ENTROPY",
    # Excluded: SystemRandom (the class; the functions above draw from it).
)

_HTML: Final = ("escape", "unescape")  # Excluded: html.entities (a module).

_URLLIB_PARSE: Final = (
    # Text in, text (or dicts, lists and the result namedtuples) out. The result
    # classes are listed so that they are visible classes whose methods check
    # their self, like every class a program can reach.
    "quote", "quote_plus", "quote_from_bytes", "unquote", "unquote_plus", "unquote_to_bytes",
    "urlencode", "urlparse", "urlunparse", "urlsplit", "urlunsplit", "urljoin", "urldefrag",
    "parse_qs", "parse_qsl",
    "ParseResult", "SplitResult", "DefragResult",
    "ParseResultBytes", "SplitResultBytes", "DefragResultBytes",
    # Excluded: the deprecated split* helpers, urllib.parse.sys/re/... (modules).
)

_DIFFLIB: Final = (
    # SequenceMatcher and the diff generators compare the sequences they are
    # given; `Match` is the namedtuple get_matching_blocks() returns.
    "SequenceMatcher", "Match", "Differ", "get_close_matches", "unified_diff", "context_diff",
    "ndiff", "restore", "IS_LINE_JUNK", "IS_CHARACTER_JUNK",
    # Excluded: HtmlDiff (HTML pages from templates), diff_bytes, difflib.re (a module).
)

_RANDOM: Final = (
    "random", "randint", "randrange", "choice", "choices", "shuffle", "sample", "uniform",
    "gauss", "normalvariate", "lognormvariate", "expovariate", "vonmisesvariate",
    "gammavariate", "betavariate", "paretovariate", "weibullvariate", "triangular", "seed",
    "getrandbits", "randbytes", "getstate", "setstate",
    "Random",  # a class: its instances hold only generator state
    # Excluded: SystemRandom (reads the OS entropy source), random._os and
    # the other module attributes.
)

_DECIMAL: Final = (
    "Decimal", "Context",
    "getcontext", "setcontext", "localcontext",  # a Context holds precision/rounding/flags only
    # Excluded: BasicContext, ExtendedContext, DefaultContext (process-wide
    # objects; DefaultContext is the template of every new context).
    "ROUND_CEILING", "ROUND_DOWN", "ROUND_FLOOR", "ROUND_HALF_DOWN", "ROUND_HALF_EVEN",
    "ROUND_HALF_UP", "ROUND_UP", "ROUND_05UP", "MAX_PREC", "MAX_EMAX", "MIN_EMIN",
    "DecimalException", "InvalidOperation", "DivisionByZero", "Inexact", "Rounded",
    "Subnormal", "Overflow", "Underflow", "Clamped", "FloatOperation",
)

_FRACTIONS: Final = ("Fraction",)

_HEAPQ: Final = (
    "heappush", "heappop", "heapify", "heapreplace", "heappushpop", "nlargest", "nsmallest",
    "merge",
)

_BISECT: Final = ("bisect", "bisect_left", "bisect_right", "insort", "insort_left", "insort_right")

_BASE64: Final = (
    "b64encode", "b64decode", "standard_b64encode", "standard_b64decode", "urlsafe_b64encode",
    "urlsafe_b64decode", "b32encode", "b32decode", "b32hexencode", "b32hexdecode", "b16encode",
    "b16decode", "b85encode", "b85decode", "a85encode", "a85decode",
    # Excluded: base64.binascii, base64.struct (modules), encode/decode (file objects).
)

_UNICODEDATA: Final = (
    "lookup", "name", "decimal", "digit", "numeric", "category", "bidirectional", "combining",
    "east_asian_width", "mirrored", "decomposition", "normalize", "is_normalized",
    "unidata_version",
)

_CONTEXTLIB: Final = (
    "suppress", "nullcontext",
    "AbstractContextManager", "AbstractAsyncContextManager",
    # closing and aclosing are the façade's: they close what they hold through the
    # guard (a coroutine a task is running is not closed under its task, rule 5).
    # contextmanager and asynccontextmanager are the façade's: the real ones copy
    # the decorated object's __dict__ (functools.wraps), so only program functions.
    # redirect_stdout is the façade's (it redirects print, never a real stream).
    # ExitStack and AsyncExitStack are the façade's: they check what a pushed
    # callback is handed, as a with statement's exit is checked (rule 9).
    # Excluded: redirect_stderr (a program has no stderr), chdir (the file system).
)

_ENUM: Final = (
    "auto", "unique",
    # Enum, IntEnum, StrEnum, Flag and IntFlag come from `_facades_enum`: their
    # functional API checks member names (a `_` name would define any dunder).
    # Excluded: EnumMeta/EnumType (a metaclass builds classes from a dict).
)

_TYPING: Final = (
    # Names for annotations; none of them evaluates anything.
    "Any", "Optional", "Union", "List", "Dict", "Tuple", "Set", "FrozenSet", "Type", "Callable",
    "Iterable", "Iterator", "Generator", "AsyncIterable", "AsyncIterator", "AsyncGenerator",
    "Awaitable", "Coroutine", "Sequence", "MutableSequence", "Mapping", "MutableMapping",
    "Collection", "Container", "Hashable", "Sized", "Reversible", "DefaultDict", "OrderedDict",
    "Counter", "Deque", "ChainMap", "Literal", "Final", "ClassVar", "Annotated", "TypedDict",
    "Protocol", "Generic", "TypeVar", "ParamSpec", "Concatenate", "TypeAlias",
    "TypeGuard", "Self", "Never", "NoReturn", "LiteralString", "Required", "NotRequired",
    "Unpack", "TypeVarTuple", "NewType", "SupportsInt", "SupportsFloat", "SupportsIndex",
    "SupportsAbs", "SupportsRound", "Text", "TYPE_CHECKING",
    "cast", "overload", "assert_never", "assert_type",
    # final is the façade's safe_final (the real one writes to any object).
    "NamedTuple",  # the class form: its class is checked like any (names, __match_args__)
    # Excluded: get_type_hints (evaluates string annotations with eval),
    # ForwardRef (its evaluation does too), get_origin/get_args (hand out the
    # real classes behind aliases, such as the real `type`),
    # runtime_checkable (isinstance by attribute presence, which with a
    # dataclass's __match_args__ would read attributes of arbitrary objects),
    # reveal_type (writes to the real stderr), no_type_check and
    # dataclass_transform (set attributes on what they are given).
)

_IO: Final = ("StringIO",)

_CALENDAR: Final = (
    # Date arithmetic and text; month and day names come from datetime.strftime.
    "isleap", "leapdays", "monthrange", "monthcalendar", "weekday", "month", "calendar",
    "timegm", "month_name", "month_abbr", "day_name", "day_abbr", "Calendar",
    "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY",
    "IllegalMonthError", "IllegalWeekdayError",
    # Excluded: prmonth/prcal and TextCalendar/HTMLCalendar (write to the real
    # stdout), the Locale* calendars and setfirstweekday (process-wide state).
)
# fmt: on


def _operator_members() -> dict[str, object]:
    members = _names(operator, *_OPERATOR)
    members["getitem"] = guarded_getitem

    def itemgetter(*keys: Any) -> Callable[[Any], Any]:
        """``operator.itemgetter`` reading items through the item guard."""
        if not keys:
            raise TypeError("itemgetter expected 1 argument, got 0")
        if len(keys) == 1:
            key = keys[0]
            return lambda obj: guarded_getitem(obj, key)
        return lambda obj: tuple(guarded_getitem(obj, k) for k in keys)

    members["itemgetter"] = itemgetter
    members["attrgetter"] = _text.attrgetter
    members["methodcaller"] = _text.methodcaller
    return members


def _functools_members() -> dict[str, object]:
    members = _names(functools, "reduce", "partial", "cmp_to_key", "cached_property")
    members["cache"] = _deco.safe_cache  # the real ones copy the wrapped object's __dict__
    members["lru_cache"] = _deco.safe_lru_cache
    members["wraps"] = _deco.safe_wraps  # the real one copies dunders between arbitrary objects
    members["update_wrapper"] = _deco.safe_update_wrapper  # likewise, and __dict__ and __wrapped__
    members["partialmethod"] = _deco.SafePartialMethod  # the real one calls any func's __get__
    members["total_ordering"] = _deco.safe_total_ordering  # only on the program's classes
    return members


def _dataclasses_members() -> dict[str, object]:
    members = _names(
        dataclasses,
        "field",
        "fields",
        "replace",
        "is_dataclass",
        "FrozenInstanceError",
        "InitVar",
        "KW_ONLY",
        "MISSING",
    )
    members["dataclass"] = (
        _data.safe_dataclass
    )  # only on the program's classes, field names checked
    members["asdict"] = _data.safe_asdict  # the real ones deep-copy with copy.deepcopy
    members["astuple"] = _data.safe_astuple
    # Excluded: make_dataclass (a class from a dict of names, namespace included).
    return members


def _asyncio_members() -> dict[str, object]:
    members: dict[str, object] = {
        "gather": _aio.gather,
        "create_task": _aio.create_task,
        "wait_for": _aio.wait_for,
        "wait": _aio.wait,
        "as_completed": _aio.as_completed,
        "run": _aio.run,  # raises, saying that top-level await already works
        "TaskGroup": _aio.ProgramTaskGroup,
        "current_task": _aio.current_task,  # the program's own task object, never a real task
        "iscoroutinefunction": _aio.iscoroutinefunction,  # exact types and code flags only
        "iscoroutine": _aio.iscoroutine,
    }
    members.update(
        _names(
            asyncio,
            "sleep",  # a coroutine function; its result is awaited, never inspected
            "timeout",  # an async context manager with when()/reschedule()/expired()
            "Semaphore",
            "BoundedSemaphore",
            "Lock",
            "Event",
            "Condition",  # loop is private
            "Queue",
            "LifoQueue",
            "PriorityQueue",
            "QueueEmpty",
            "QueueFull",
            "CancelledError",
            "TimeoutError",
            "InvalidStateError",
            "FIRST_COMPLETED",
            "FIRST_EXCEPTION",
            "ALL_COMPLETED",
        )
    )
    # Excluded: get_event_loop/get_running_loop/new_event_loop/run (the loop),
    # all_tasks/ensure_future/shield (real tasks and futures),
    # subprocess and stream functions. wait/as_completed are wrapped.
    return members


#: The runtime's own modules: their functions are the façades' wrappers, written
#: for programs; every other Python function is library code.
_OWN_MODULES: Final = ("sandbox.", "bridge.")


def named_as(value: object, name: str) -> None:
    """Give ``value``, if it is one of the runtime's own functions, the name a program calls.

    A builtin or façade member written here (``guarded_getattr`` for
    ``getattr``, ``safe_asdict`` for ``dataclasses.asdict``) prints, and words
    the ``TypeError`` of a wrong call, by its ``__qualname__``: the program
    reads ``asdict() missing 1 required positional argument: 'obj'`` and
    ``<function asdict at 0x...>``, never a name of the runtime's. Library
    functions (and their checked wrappers) keep the names Python gives them.
    """
    if type(value) is types.FunctionType and str(value.__module__).startswith(_OWN_MODULES):
        value.__name__ = value.__qualname__ = name


def _library_function(value: object) -> TypeGuard[Callable[..., Any]]:
    """Whether ``value`` is a library's Python function (or one bound to a library object).

    A library function behind ``functools.lru_cache`` (``urllib.parse.urlsplit``)
    counts too: the cache's wrapper is C, but it runs the function and hands
    out its result, and keeps ``lru_cache``'s own ``cache_parameters`` lambda.
    """
    if type(value) is types.MethodType:  # `random.randint`: a method of random's instance
        value = value.__func__
    elif type(value) is _LRU_CACHE_WRAPPER:
        value = value.__wrapped__
    return type(value) is types.FunctionType and not str(value.__module__).startswith(
        _OWN_MODULES
    )


_LRU_CACHE_WRAPPER: Final = type(functools.lru_cache(lambda: None))


def _class_factory(function: Any) -> Any:
    """typing's ``NamedTuple`` or ``TypedDict``: a class statement's base, or a class maker.

    Called, it makes a class (``NamedTuple("P", [("x", int)])``), which is
    checked like any class the program makes and recorded as the program's;
    as a base it resolves as typing's own does (``__mro_entries__``).
    """

    def make(*args: Any, **kwargs: Any) -> Any:
        made = function(*args, **kwargs)
        if not isinstance(made, type):
            return made
        # typing names the module of the function that called it (this one):
        # the class is the program's, in the program's module, as a class
        # statement's is (and a dataclass made of it takes that module's globals).
        type.__setattr__(made, "__module__", PROGRAM_CLASS_MODULE)
        return register_program_class(made)

    # As a base it is typing's own: its __mro_entries__ would insist on seeing
    # the real one among the bases, so the entry is resolved here, once.
    entries = function.__mro_entries__((function,))

    def mro_entries(bases: tuple[object, ...]) -> tuple[type, ...]:
        return entries  # type: ignore[no-any-return]

    make.__name__ = make.__qualname__ = function.__name__
    make.__doc__ = function.__doc__
    make.__mro_entries__ = mro_entries  # type: ignore[attr-defined]
    return make


class _ProgramNewType(typing.NewType):
    """typing's ``NewType``, named in the program's module as a script's is (``__main__.UserId``).

    typing takes the ``__name__`` of its caller's globals, which for a program
    is the name its functions are recognised by, not the one a script prints.
    """

    def __init__(self, name: str, tp: Any) -> None:
        super().__init__(name, tp)
        self.__module__ = PROGRAM_CLASS_MODULE


_ProgramNewType.__module__ = "typing"
_ProgramNewType.__name__ = _ProgramNewType.__qualname__ = "NewType"


def _module_members() -> dict[str, dict[str, object]]:
    return {
        "json": _names(json, *_JSON),
        "math": _names(math, *_MATH),
        "cmath": _names(cmath, *_CMATH),
        "re": _names(re, *_RE),
        "datetime": _names(datetime, *_DATETIME),
        "time": {**_names(time, *_TIME), "strftime": _text.strftime},
        "csv": {
            **_names(csv, *_CSV),
            "register_dialect": _text.register_dialect,
            "get_dialect": _text.get_dialect,
        },
        "hashlib": _names(hashlib, *_HASHLIB),
        "uuid": _names(uuid, *_UUID),
        "pprint": {**_names(pprint, *_PPRINT), "pprint": _text.pprint, "pp": _text.pp},
        "types": {"SimpleNamespace": SimpleNamespace},
        "calendar": _names(calendar, *_CALENDAR),
        "abc": {"ABC": abc.ABC, "abstractmethod": _deco.safe_abstractmethod},
        "itertools": _names(itertools, *_ITERTOOLS),
        "functools": _functools_members(),
        "operator": _operator_members(),
        "collections": {
            **_names(collections, *_COLLECTIONS),
            "namedtuple": _data.safe_namedtuple,
        },
        "collections.abc": _names(collections.abc, *_COLLECTIONS_ABC),
        "statistics": _names(statistics, *_STATISTICS),
        "string": _names(string, *_STRING),
        "textwrap": _names(textwrap, *_TEXTWRAP),
        "graphlib": _names(graphlib, *_GRAPHLIB),
        "secrets": _names(secrets, *_SECRETS),
        "html": _names(html, *_HTML),
        "urllib.parse": _names(urllib.parse, *_URLLIB_PARSE),
        "difflib": _names(difflib, *_DIFFLIB),
        "fnmatch": {
            "fnmatch": _text.fnmatch,
            "fnmatchcase": _text.fnmatchcase,
            "filter": _text.fnmatch_filter,
            "translate": _text.translate,
        },
        "random": _names(random, *_RANDOM),
        "decimal": _names(decimal, *_DECIMAL),
        "fractions": _names(fractions, *_FRACTIONS),
        "heapq": _names(heapq, *_HEAPQ),
        "bisect": _names(bisect, *_BISECT),
        "copy": {"copy": _data.safe_copy, "deepcopy": _data.safe_deepcopy},
        "base64": _names(base64, *_BASE64),
        "unicodedata": _names(unicodedata, *_UNICODEDATA),
        "io": _names(io, *_IO),
        "contextlib": {
            **_names(contextlib, *_CONTEXTLIB),
            "redirect_stdout": RedirectStdout,
            "closing": _contextlib.Closing,
            "aclosing": _contextlib.AsyncClosing,
            "ExitStack": _contextlib.ExitStack,
            "AsyncExitStack": _contextlib.AsyncExitStack,
            "contextmanager": _contextlib.safe_contextmanager,
            "asynccontextmanager": _contextlib.safe_asynccontextmanager,
        },
        "dataclasses": _dataclasses_members(),
        "typing": {
            **_names(typing, *_TYPING),
            "final": _deco.safe_final,
            "NamedTuple": _class_factory(typing.NamedTuple),
            "TypedDict": _class_factory(typing.TypedDict),
            "NewType": _ProgramNewType,
        },
        "enum": {**_names(enum, *_ENUM), **_names(_enum_facade, *_enum_facade.__all__)},
        "asyncio": _asyncio_members(),
    }


#: Every module name a program may import.
ALLOWED_MODULES: Final[tuple[str, ...]] = tuple(sorted(_module_members()))


class _Facade:
    """Base of every façade class (see the module docstring)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{self!r} is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{self!r} is read-only")


def _make_facade(label: str, members: Mapping[str, object]) -> _Facade:
    def __repr__(self: object) -> str:
        return f"<module {label!r} (run_code)>"

    def __getattr__(self: object, name: str) -> Any:
        # Only reached for names the façade does not have.
        raise AttributeError(
            f"module {label!r} has no attribute {name!r} in run_code; "
            + _member_hint(label, name)
            + "available: "
            + ", ".join(sorted(members))
        )

    namespace: dict[str, object] = {
        "__slots__": (),
        "__repr__": __repr__,
        "__getattr__": __getattr__,
    }
    for name, value in members.items():
        if _library_function(value):
            # What library code returns never hides a class (SECURITY.md, rule 9).
            coroutine_function = inspect.iscoroutinefunction(value)
            value = result_checked(value, f"{label}.{name}")
            if coroutine_function:
                mark_coroutine_function(value)
        else:
            named_as(value, name)
        # Functions (and other descriptors) would bind to the façade as methods.
        binds = not isinstance(value, type) and hasattr(type(value), "__get__")
        namespace[name] = staticmethod(value) if binds else value  # type: ignore[arg-type]
    cls = type(f"{label}_facade", (_Facade,), namespace)
    # type(json) prints as <class 'json.module'>, naming no host module.
    cls.__name__ = cls.__qualname__ = "module"
    cls.__module__ = label
    return cls()  # type: ignore[no-any-return]


def _load_digests() -> None:
    # OpenSSL fetches an algorithm (and may read its configuration) the first
    # time it is used: do it here, before any child exists, so that a program's
    # first digest needs no file.
    for name in _HASHLIB:
        getattr(hashlib, name)(b"").digest(*(() if name[:5] != "shake" else (8,)))


def build_facades() -> dict[str, _Facade]:
    """Build one façade per allowed module (dotted names included)."""
    _load_digests()
    members = _module_members()
    abc_facade = _make_facade("collections.abc", members.pop("collections.abc"))
    members["collections"]["abc"] = abc_facade
    facades = {name: _make_facade(name, m) for name, m in members.items()}
    facades["collections.abc"] = abc_facade
    # `import urllib.parse` binds `urllib`, which holds only `parse`.
    facades["urllib"] = _make_facade("urllib", {"parse": facades["urllib.parse"]})
    return facades


#: Classes no facade lists whose objects the facades' own functions return:
#: ``asyncio.create_task``, ``TaskGroup.create_task`` and ``wait`` hand out tasks;
#: and typing's alias classes, whose objects subscription makes natively
#: (``typing.List[int]``, ``Optional[str]``, ``Annotated[...]``): their public
#: methods (``copy_with``) are in the program's reach through those objects.
FACADE_RESULT_CLASSES: Final[tuple[type, ...]] = (
    _aio.ProgramTask,
    *(
        value
        for value in vars(typing).values()
        if isinstance(value, type) and issubclass(value, typing._Final)
    ),
)


#: Library functions that a library constructor stores on every instance it
#: makes, where a program reads them natively: ``JSONDecoder()`` keeps
#: ``json.decoder.JSONObject`` and ``JSONArray`` as ``parse_object`` and
#: ``parse_array`` (json's C scanner, which decoding uses, never calls them).
_STORED_FUNCTIONS: Final = ((json.decoder, "JSONObject"), (json.decoder, "JSONArray"))


def check_library_internals() -> None:
    """Close the doors by which library code hands a program its own functions raw.

    Run in the child's zygote only (it changes library modules for the rest of
    the process): a library function reaches a program only in checked form
    (rule 9), also when library code stores it on an object the program holds
    (the functions are rebound to checked forms), and also as an argument
    library code hands the program's objects (``Template``'s substitution reads
    its pattern once and takes only a compiled one).
    """
    for module, name in _STORED_FUNCTIONS:
        function = getattr(module, name)
        if _library_function(function):
            setattr(module, name, result_checked(function, f"{module.__name__}.{name}"))
    _text.check_template_pattern()


def classes_behind(facade: _Facade) -> set[type]:
    """The library classes a program reaches through ``facade``'s members.

    The classes it lists, and the classes of the library objects it lists
    (``typing.List``, ``dataclasses.MISSING``, ``calendar.month_name``): a
    method read from such an object is as much in the program's reach as one
    of a listed class, so both are swept before any program runs (rules 7 and 9).
    """
    classes: set[type] = set()
    for name, value in vars(type(facade)).items():
        if name[:1] == "_" or isinstance(value, staticmethod | _Facade):
            continue
        if isinstance(value, type):
            classes.add(value)
        elif type(value).__module__ != "builtins":
            classes.add(type(value))
    return classes


#: What allowed C functions import lazily through the caller's frame, whose
#: ``__import__`` is the program's: ``datetime.strptime`` imports ``_strptime``
#: and calls its ``_strptime_datetime``. The importer hands them a façade with
#: that one function, never the module (whose globals lead to ``locale``, and
#: from there to ``sys``): a program's own ``import _strptime``, which the
#: compiler refuses, would get the same façade, whose ``_`` member its guard
#: does not let it read.
_INTERNAL_MEMBERS: Final[Mapping[str, tuple[str, ...]]] = {
    "_strptime": ("_strptime_datetime",),
}


def _members_of(facade: object) -> list[str]:
    return [name for name in vars(type(facade)) if name[:1] != "_"]


def _member_hint(module: str, name: object) -> str:
    hint = MISSING_MEMBER_HINTS.get((module, name)) if type(name) is str else None
    return f"{hint}. " if hint else ""


def make_importer(facades: Mapping[str, object]) -> Callable[..., object]:
    """The ``__import__`` of restricted programs: façades of allowed modules only.

    It returns a façade and nothing else, for every name (a test checks it):
    even the private modules allowed C code imports through it get one.
    """
    allowed = ", ".join(ALLOWED_MODULES)
    internal_facades = {
        name: _make_facade(
            name,
            {member: getattr(importlib.import_module(name), member) for member in members},
        )
        for name, members in _INTERNAL_MEMBERS.items()
    }

    def guarded_import(
        name: str,
        globals: Mapping[str, object] | None = None,
        locals: Mapping[str, object] | None = None,
        fromlist: tuple[str, ...] | list[str] | None = (),
        level: int = 0,
    ) -> object:
        if type(name) is not str:
            raise TypeError("module name must be a str")
        internal = internal_facades.get(name) if level == 0 else None
        if internal is not None:
            return internal
        if level != 0:
            raise ImportError("relative imports are not available in run_code")
        facade = facades.get(name)
        if facade is None:
            hint = MISSING_MODULE_HINTS.get(name) or MISSING_MODULE_HINTS.get(
                name.partition(".")[0]
            )
            # ModuleNotFoundError, as for a module that is not installed: an
            # optional import's `except ModuleNotFoundError:` takes its fallback.
            raise ModuleNotFoundError(
                f"module {name!r} is not available in run_code; "
                + (f"{hint}. " if hint else "")
                + f"allowed modules: {allowed}",
                name=name,
            )
        if fromlist:
            for item in fromlist:
                if type(item) is not str or item[:1] == "_" or item not in vars(type(facade)):
                    raise ImportError(
                        f"cannot import name {item!r} from {name!r} in run_code; "
                        + _member_hint(name, item)
                        + "available: "
                        + ", ".join(sorted(_members_of(facade))),
                        name=name,
                    )
            return facade
        return facades[name.partition(".")[0]]

    return guarded_import
