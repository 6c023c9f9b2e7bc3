"""What each façade holds: the allow-list of every module a program may import.

Per module, the names taken from the real module (``_MATH``, ``_RE``,
``_CONTEXTLIB``, ...) and the replacements written for programs that stand
beside them (``functools.wraps``, ``dataclasses.dataclass``, ``asyncio``'s
task functions, typing's ``NamedTuple``/``TypedDict``/``NewType``), gathered
by ``_module_members`` into one table, module name to members. Names are
listed explicitly per module; an entry carries a comment when why it is safe
is not obvious, and notable exclusions are listed with the reason.

It is separate from how a façade is made of such a table and handed to a
program (``sandbox._facades``: the façade classes, the checked wrappers of
library functions, the importer, the sweep of what the façades reach), which
is the one module that reads it: a change of what a program may use is a
change here, and reviewed against SECURITY.md's audit table; a change of how
a façade behaves is a change there. A program sees the same members either
way: classes defined here name typing as their module, and the functions
written here are renamed to what a program calls as before.
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
import typing
import unicodedata
import urllib.parse
import uuid
from typing import Any, Final

from . import _facades_async as _aio
from . import _facades_contextlib as _contextlib
from . import _facades_data as _data
from . import _facades_decorators as _deco
from . import _facades_enum as _enum_facade
from . import _facades_text as _text
from ._classes import register_program_class
from ._guards import SimpleNamespace, guarded_getitem
from ._output import RedirectStdout
from ._program import PROGRAM_CLASS_MODULE

if typing.TYPE_CHECKING:
    import types
    from collections.abc import Callable

__all__: list[str] = []


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
