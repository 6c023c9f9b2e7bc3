"""Lossless JSON: the one check every boundary uses.

A value is *lossless JSON* when writing it as JSON text and reading it back gives
the same value: dicts with ``str`` keys, lists, ``str`` (valid Unicode, no lone
surrogates), ``bool``, ``None``, finite floats other than ``-0.0``, and ints whose
float round trip is exact (``int(float(x)) == x``). Everything else is refused
with a message that names the path of the offending value (``$.items[3].price``)
and what to do instead.

This module lives in ``bridge`` because both sides of the sandbox need it: the
child checks a program's arguments and return value before they leave, and the
host checks them again (the child is hostile). ``codemode`` builds its frozen
snapshots on top of :func:`materialize`.

The walk is iterative, so a deep value cannot exhaust the interpreter's stack.
"""

from __future__ import annotations

import enum
import gc
import math
import weakref
from collections import Counter, OrderedDict, defaultdict
from functools import partial
from typing import TYPE_CHECKING, Any, Final, TypeAlias, cast, final

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

__all__ = [
    "INLINE_CHARS_PER_NODE",
    "INLINE_NODES",
    "INLINE_TEXT_BYTES",
    "MAX_DEPTH",
    "FrozenDict",
    "JsonValue",
    "LossyJsonError",
    "collection_paused",
    "exceeds_nodes",
    "fits_inline",
    "format_path",
    "is_snapshot",
    "materialize",
    "read_as_dict",
]

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"

def collection_paused() -> _CollectionPaused:
    """Pause the cyclic garbage collector while a program's value is walked or built.

    A collection runs finalizers, and a finalizer can be the program's own code:
    a generator left in a cycle runs its ``finally`` when collected. Started by
    an allocation halfway through copying a program's return value, it rewrote
    the rows not copied yet, and the host got a value that never existed. With
    the collector paused, the walk sees the value as the program left it (in
    the child, the program runs on one thread and cannot reach ``gc``).

    A context manager; nested uses restore the collector as each found it.
    """
    return _CollectionPaused()


@final
class _CollectionPaused:
    """The context manager of :func:`collection_paused`.

    A class, not a generator under ``contextlib.contextmanager``: each print
    line and the run's value pass through one or two of these, and the
    generator form cost about five times as much (4.5 against 0.9 µs a use,
    measured).
    """

    __slots__ = ("_enabled",)

    def __enter__(self) -> None:
        self._enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc_info: object) -> None:
        if self._enabled:
            gc.enable()


#: Containers nested deeper than this are refused: msgspec and most JSON readers
#: stop well before Python's own limits, and a value that deep is never useful.
MAX_DEPTH: Final = 500

_PathPart: TypeAlias = "str | int"


#: The most characters of one key a path shows, and of a whole path: a path
#: names where a value sits, and must not grow with the keys a peer chose.
_SHOWN_KEY_CHARS: Final = 64
_SHOWN_PATH_CHARS: Final = 4096


def format_path(parts: tuple[_PathPart, ...] | list[_PathPart]) -> str:
    """Render a path as ``$.key[3]["odd key"]``; a long key or path is cut with ``...``."""
    out = ["$"]
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif len(part) > _SHOWN_KEY_CHARS:
            out.append(f"[{_quote(part[:_SHOWN_KEY_CHARS])[:-1]}...\"]")
        elif part.isidentifier():
            out.append(f".{part}")
        else:
            out.append(f"[{_quote(part)}]")
    path = "".join(out)
    if len(path) > _SHOWN_PATH_CHARS:
        half = _SHOWN_PATH_CHARS // 2
        path = f"{path[:half]}...{path[-half:]}"
    return path


def _quote(key: str) -> str:
    # A JSON-style quoted key that survives lone surrogates (repr-like escapes).
    return '"' + key.encode("unicode_escape", "backslashreplace").decode("ascii").replace(
        '"', '\\"'
    ) + '"'


class LossyJsonError(ValueError):
    """A value cannot cross a boundary as JSON without changing.

    Attributes:
        path: where the offending value sits, as ``$.a[0].b``.
        reason: what is wrong with it, without the path.
    """

    def __init__(self, reason: str, path: str = "$") -> None:
        self.reason = reason
        self.path = path
        super().__init__(f"{reason} - at `{path}`")

    def __reduce__(self) -> tuple[type[LossyJsonError], tuple[str, str]]:
        return (LossyJsonError, (self.reason, self.path))


@final
class FrozenDict(dict[str, "JsonValue"]):
    """A read-only ``dict`` used for frozen snapshots.

    It is a real ``dict`` subclass so that msgspec, ``json`` and ``isinstance``
    checks treat it as a mapping at no cost, while every mutator raises.
    """

    # Weak references let :func:`materialize` remember the snapshots it made
    # (see :func:`is_snapshot`) without keeping them alive.
    __slots__ = ("__weakref__",)

    def _readonly(self, *args: object, **kwargs: object) -> None:
        raise TypeError(
            "this value is a frozen snapshot and cannot be changed; copy it with dict()"
        )

    __setitem__ = _readonly
    __delitem__ = _readonly
    __ior__ = _readonly  # type: ignore[assignment]
    clear = _readonly
    pop = _readonly
    popitem = _readonly  # type: ignore[assignment]
    setdefault = _readonly
    update = _readonly

    def __hash__(self) -> int:  # type: ignore[override]
        raise TypeError("unhashable type: 'FrozenDict'")

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: object) -> FrozenDict:
        return self

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[str, JsonValue]]]:
        return (FrozenDict, (dict(self),))


#: What to send instead of a value of a common library type that is not JSON, by
#: the type's module and qualified name (``type(value)`` exactly: a subclass of
#: one of these is someone's own class, and gets no advice made for the base).
_CONVERSIONS: Final[dict[str, str]] = {
    "decimal.Decimal": "send str(value) to keep every digit, or float(value)",
    "fractions.Fraction": "send str(value), or float(value)",
    "datetime.datetime": "send value.isoformat()",
    "datetime.date": "send value.isoformat()",
    "datetime.time": "send value.isoformat()",
    "datetime.timedelta": "send value.total_seconds(), or str(value)",
    "datetime.timezone": "send str(value)",
    "uuid.UUID": "send str(value)",
    "builtins.complex": "send [value.real, value.imag]",
    "time.struct_time": 'send time.strftime("%Y-%m-%dT%H:%M:%SZ", value)',
    "re.Match": "send value.group(), value.groups() or value.groupdict()",
    "re.Pattern": "send value.pattern",
    "types.SimpleNamespace": "send vars(value)",
    "types.MappingProxyType": "send dict(value)",
    "collections.ChainMap": "send dict(value)",
    "collections.UserDict": "send dict(value)",
    "collections.UserList": "send list(value)",
    "collections.UserString": "send str(value)",
    "collections.deque": "send list(value)",
    **dict.fromkeys(
        [
            f"builtins.{name}"
            for name in (
                "range", "generator", "map", "filter", "zip", "enumerate", "reversed",
                "dict_keys", "dict_values", "dict_items", "list_iterator", "tuple_iterator",
                "range_iterator", "str_ascii_iterator", "str_iterator", "set_iterator",
                "dict_keyiterator", "dict_valueiterator", "dict_itemiterator",
                "list_reverseiterator",
            )
        ]
        + [
            f"itertools.{name}"
            for name in (
                "accumulate", "chain", "combinations", "combinations_with_replacement",
                "compress", "count", "cycle", "dropwhile", "filterfalse", "groupby", "islice",
                "pairwise", "permutations", "product", "repeat", "starmap", "takewhile",
                "zip_longest",
            )
        ],
        "send list(value)",
    ),
    "builtins.async_generator": "send [item async for item in value]",
}

#: The built-in types a class may derive from, with how to send such a value as
#: the base type (a subclass's own data is not read through its methods here);
#: a tuple's subclass (one derived from a namedtuple too) is sent as the list
#: ``json.dumps`` would write.
_BASE_CONVERSIONS: Final = (
    (dict, "dict"), (list, "list"), (tuple, "list"), (str, "str"), (int, "int"),
    (float, "float"),
)


def _type_name(kind: type) -> str:
    """``module.Name`` of a class; ``Name`` alone for a script's class or a label like ``<model>``.

    A class made by code compiled from text (``<model>``, ``<string>``) is in
    no module anyone can import, and a program's classes are in ``__main__``, as
    a script's are: their module only makes the message longer.
    """
    module = kind.__module__
    if type(module) is str and (module.startswith("<") or module == "__main__"):
        return kind.__qualname__
    return f"{module}.{kind.__qualname__}"


def _conversion(value: object, kind: type) -> str:
    """`` (send ...)`` for a value of a common library type or built-in subclass, else ``""``."""
    hint = _CONVERSIONS.get(f"{kind.__module__}.{kind.__qualname__}")
    if hint is None and issubclass(kind, BaseException):
        hint = "send str(error), or type(error).__name__"
    if hint is None and not any(base is enum.Enum for base in kind.__mro__):
        # issubclass against the built-in types runs no code of ``kind``'s: their
        # metaclass is ``type``, which reads the class's own MRO.
        hint = next(
            (f"convert it with {name}(value)" for base, name in _BASE_CONVERSIONS
             if kind is not base and issubclass(kind, base)),
            None,
        )
    return f" ({hint})" if hint else ""


def _describe(value: object) -> str:
    kind = type(value)
    if kind is tuple:
        return "a tuple (use a list)"
    if kind in (set, frozenset):
        return "a set (use a sorted list)"
    if kind in (bytes, bytearray, memoryview):
        return "bytes (decode to str, or base64-encode)"
    name = _type_name(kind)
    # Looked up on the class's own namespaces, never through getattr: the
    # value may be a program's object, whose class could answer anything.
    if any("__dataclass_fields__" in vars(base) for base in kind.__mro__):
        return f"a dataclass instance of type {name} (convert it with dataclasses.asdict())"
    if isinstance(value, type):
        # Named by the class itself: the kind of a class is its metaclass, which
        # for ``type(x)`` in a program is the sandbox's own stand-in for ``type``.
        return f"a class ({type.__dict__['__qualname__'].__get__(value)})"
    if callable(value):
        return f"a callable ({kind.__name__})"
    return f"a value of type {name}{_enum_hint(value, kind) or _conversion(value, kind)}"


#: The scalar types an enum class may mix in, each with the C method that reads a
#: member's value as the exact type (never a method the enum class could define).
_ENUM_SCALARS: Final[tuple[tuple[type, Any], ...]] = (
    (str, str.__str__), (int, int.__int__), (float, float.__float__)
)
#: What :func:`_mixed_in` returns for a value that is not such a member.
_NOT_MIXED: Final = object()


def _mixed_in(value: object, kind: type) -> object:
    """The plain scalar a ``str``, ``int`` or ``float`` enum member is, else :data:`_NOT_MIXED`.

    ``class Status(str, Enum)`` is how models make members that are JSON:
    ``json.dumps`` writes such a member as its value, and so does
    ``accept_collections``.
    """
    if not any(base is enum.Enum for base in kind.__mro__):
        return _NOT_MIXED
    for base, read in _ENUM_SCALARS:
        if issubclass(kind, base):
            return read(value)
    return _NOT_MIXED


def _enum_hint(value: object, kind: type) -> str:
    """`` (an enum member: use Channel.EMAIL.value)`` for an enum member, else ``""``.

    The member's name is read from its own ``__dict__`` (where the enum class
    put it), never through an attribute a class could define.
    """
    if not any(base is enum.Enum for base in kind.__mro__):
        return ""
    try:
        member = object.__getattribute__(value, "__dict__").get("_name_")
    except AttributeError:
        member = None
    if type(member) is str and member.isidentifier():
        return f" (an enum member: use {kind.__name__}.{member}.value)"
    return " (an enum member: use its .value)"


def _int_text(value: int) -> str:
    # str() of a huge int raises ValueError past sys.get_int_max_str_digits(),
    # and a message thousands of digits long helps nobody anyway.
    if value.bit_length() <= 128:
        return str(value)
    digits = int(value.bit_length() * math.log10(2)) + 1
    return f"of about {digits} digits{', negative' if value < 0 else ''}"


def _describe_key(key: object) -> str:
    # Only builtin scalars are shown by value: a key's own __repr__ is arbitrary
    # code that may raise, and a tuple key needs different advice than a tuple value.
    kind = type(key)
    if kind is int:
        shown = _int_text(key)  # type: ignore[arg-type]
    elif kind in (float, bool, type(None)):
        shown = repr(key)
    else:
        return f"a dict key of type {_type_name(kind)}{_enum_hint(key, kind)}"
    return f"dict key {shown} ({kind.__name__})"


def _check_str(value: str, path: list[_PathPart]) -> None:
    if value.isascii():
        return
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise LossyJsonError(
            f"string contains a lone surrogate (U+{ord(value[exc.start]):04X}) at index "
            f"{exc.start}, which JSON text cannot carry; remove it or pair it",
            format_path(path),
        ) from None


def _check_scalar(value: object, kind: type, path: list[_PathPart]) -> None:
    if kind is float:
        f = value
        assert isinstance(f, float)
        if not math.isfinite(f):
            raise LossyJsonError(
                f"{f!r} is not a JSON number; send null or a string instead", format_path(path)
            )
        if f == 0.0 and math.copysign(1.0, f) < 0:
            raise LossyJsonError("-0.0 does not survive JSON; use 0.0", format_path(path))
    elif kind is int:
        i = value
        assert isinstance(i, int)
        if -(2**53) <= i <= 2**53:
            return
        try:
            exact = int(float(i)) == i
        except OverflowError:
            exact = False
        if not exact:
            raise LossyJsonError(
                f"integer {_int_text(i)} cannot be represented exactly as a JSON number "
                "(beyond 2**53); send it as a string",
                format_path(path),
            )
    elif kind is str:
        _check_str(value, path)  # type: ignore[arg-type]


_SCALARS: Final = frozenset({str, int, float, bool, type(None)})

#: The dict types that ``accept_collections`` reads as objects: the standard
#: library's, and those :func:`read_as_dict` adds.
_DICT_TYPES: Final[set[type]] = {OrderedDict, Counter, defaultdict}


def read_as_dict(kind: type[dict[Any, Any]]) -> None:
    """Let ``accept_collections`` read ``kind``, a dict subclass, as an object.

    Its items are read with ``dict.items``, whatever the class defines, as
    ``json.dumps`` writes a dict subclass: for a subclass whose items are its
    data (the sandbox's ``vars()`` result).
    """
    if not (isinstance(kind, type) and issubclass(kind, dict)):
        raise TypeError(f"read_as_dict() takes a dict subclass, not {kind!r}")
    _DICT_TYPES.add(kind)


def _is_namedtuple(kind: type) -> bool:
    # What collections.namedtuple makes: a direct subclass of tuple with the
    # namedtuple API in its own namespace. Its items are read with
    # tuple.__iter__ whatever the class defines, so a look-alike gains nothing.
    namespace = vars(kind)
    return kind.__bases__ == (tuple,) and "_fields" in namespace and "_make" in namespace

_Frame: TypeAlias = (
    "tuple[Iterator[tuple[_PathPart, object]], list[JsonValue] | dict[str, JsonValue], int]"
)


#: The roots of the frozen snapshots :func:`materialize` made, by identity. A
#: snapshot is checked and deeply read-only, so freezing it again can return it
#: as it is: a sub-call's arguments are checked once, not once per layer. Each
#: entry is a weak reference whose callback drops the entry once the snapshot
#: dies: a plain ``dict`` of references rather than a ``WeakValueDictionary``,
#: whose Python-level entries cost about as much as the copy they register.
_snapshots: Final[dict[int, weakref.ReferenceType[FrozenDict]]] = {}


#: Whether each live snapshot fits inline (:func:`fits_inline`), by identity, once
#: asked: a snapshot is deeply read-only, so its weight never changes, and the
#: layers that each ask about the same sub-call's arguments walk them once.
#: Dropped with the snapshot's entry in :data:`_snapshots`.
_snapshot_fits: Final[dict[int, bool]] = {}


def _forget_snapshot(key: int, reference: object) -> None:
    # The entry may only go while it still holds the dead reference: a newer
    # snapshot can have the same id once this one's memory is freed.
    if _snapshots.get(key) is reference:
        _snapshots.pop(key, None)
        _snapshot_fits.pop(key, None)


def _remember_snapshot(snapshot: FrozenDict) -> None:
    key = id(snapshot)
    _snapshot_fits.pop(key, None)  # a verdict left by a dead snapshot of the same id
    _snapshots[key] = weakref.ref(snapshot, partial(_forget_snapshot, key))


def is_snapshot(value: object) -> bool:
    """Whether ``value`` is the root of a frozen snapshot made by :func:`materialize`.

    Such a value is lossless JSON, made only of :class:`FrozenDict`, ``tuple``
    and scalars, and shares no container with anything its maker was given:
    checking it again would find nothing new.
    """
    if type(value) is not FrozenDict:
        return False
    reference = _snapshots.get(id(value))
    return reference is not None and reference() is value


#: The host's one rule for linear work on data of a child's or a tool's choosing
#: (a check, a copy, an encoding, a decoding): it runs on the event loop only
#: when the data measures at most this many values (see :func:`exceeds_nodes`,
#: :func:`fits_inline`), and in a worker thread otherwise. Its worst case costs
#: about half a millisecond (an encoding of 2,048 values, measured).
INLINE_NODES: Final = 2048
#: Characters of a string (bytes of a ``bytes``) that count as one value more:
#: encoding a string costs up to about 40 ns a character (one that must be
#: escaped), so a long string weighs what a list of as much work does.
INLINE_CHARS_PER_NODE: Final = 8
#: JSON text decoded on the event loop: the same rule, with two bytes a value
#: (``0,`` is one value; text cannot hold more).
INLINE_TEXT_BYTES: Final = 2 * INLINE_NODES


def exceeds_nodes(value: object, limit: int) -> bool:
    """Whether ``value`` weighs more than ``limit`` values (containers and scalars).

    A string (a key too) or ``bytes`` weighs one value more for every
    :data:`INLINE_CHARS_PER_NODE` characters it holds, so the weight measures
    the work a linear walk (a check, a copy, an encoding) does on ``value``
    whether it is made of many values or of one long string. Costs at most
    about ``limit`` steps whatever the size of ``value``, so a caller can decide
    cheaply whether such work is small enough to run inline or belongs in a
    worker thread. Only ``dict``, ``list`` and ``tuple`` (and their subclasses,
    read through the base type) are looked into; anything else counts as one
    value plus its length if it is a ``str``, ``bytes`` or ``bytearray``.
    """
    budget = limit
    pending: list[object] = [value]
    while pending:
        item = pending.pop()
        budget -= 1
        if budget < 0:
            return True
        if isinstance(item, dict):
            if dict.__len__(item) > budget:
                return True
            for key in dict.keys(item):
                if isinstance(key, str):
                    budget -= str.__len__(key) // INLINE_CHARS_PER_NODE
            if budget < 0:
                return True
            pending.extend(dict.values(item))
        elif isinstance(item, (list, tuple)):
            size = list.__len__(item) if isinstance(item, list) else tuple.__len__(item)
            if size > budget:
                return True
            pending.extend(list.__iter__(item) if isinstance(item, list) else tuple.__iter__(item))
        elif isinstance(item, str):
            budget -= str.__len__(item) // INLINE_CHARS_PER_NODE
        elif isinstance(item, (bytes, bytearray)):
            length = bytes.__len__(item) if isinstance(item, bytes) else bytearray.__len__(item)
            budget -= length // INLINE_CHARS_PER_NODE
    return budget < 0


def fits_inline(value: object) -> bool:
    """Whether linear work on ``value`` may run on the event loop: at most :data:`INLINE_NODES`.

    Values and characters are both counted (see :func:`exceeds_nodes`); costs
    at most about :data:`INLINE_NODES` steps however large ``value`` is. A
    scalar other than a string is one value; a frozen snapshot's verdict is
    kept once asked (it is read-only: its weight cannot change).
    """
    kind = type(value)
    if kind is int or kind is float or kind is bool or value is None:
        return True  # one value (a subclass takes the walk, as in exceeds_nodes)
    if kind is FrozenDict:
        key = id(value)
        reference = _snapshots.get(key)
        if reference is not None and reference() is value:
            verdict = _snapshot_fits.get(key)
            if verdict is None:
                verdict = _snapshot_fits[key] = not exceeds_nodes(value, INLINE_NODES)
            return verdict
    return not exceeds_nodes(value, INLINE_NODES)


def materialize(
    value: object,
    *,
    freeze: bool = False,
    accept_tuples: bool = False,
    accept_collections: bool = False,
    describe: Callable[[object], str | None] | None = None,
) -> JsonValue:
    """Check that ``value`` is lossless JSON and return an independent copy.

    Args:
        value: any Python object.
        freeze: return read-only containers (:class:`FrozenDict` and ``tuple``)
            instead of ``dict`` and ``list``. Frozen input is accepted again, so
            freezing is idempotent.
        accept_tuples: also accept ``tuple`` (as a JSON array) and
            :class:`FrozenDict`, as :func:`materialize` with ``freeze`` produces.
        accept_collections: also accept what ``json.dumps`` writes from the
            standard library's containers: tuples and namedtuples (as arrays),
            ``collections.OrderedDict``, ``Counter`` and ``defaultdict`` (as
            objects). Their items are read through the base type (``dict.items``,
            ``tuple.__iter__``), never through a method a class could override.
            Any other subclass is still refused: a sandboxed program's arguments
            and return value are checked this way. Implies ``accept_tuples``.
        describe: says what is wrong with a value that is not JSON, in place of
            the generic ``a value of type ... is not JSON`` (``None`` keeps it):
            the sandbox names a call that was never awaited. It is given the
            offending value and must run none of its code (test its exact type).

    Returns:
        A deep copy that shares no container with ``value``; with ``freeze``, a
        snapshot this function made earlier is returned as it is (it is checked
        and read-only, so a copy would be the same value).

    Raises:
        LossyJsonError: naming the first offending path and what to do.
    """
    kind = type(value)
    if kind in _SCALARS:
        _check_scalar(value, kind, [])
        return value  # type: ignore[return-value]
    if freeze and is_snapshot(value):
        return value  # type: ignore[return-value]
    allow_frozen = freeze or accept_tuples or accept_collections
    try:
        # Most values are small, shallow and plain: a recursive copy costs a
        # fraction of the walk below. Anything it does not accept as is (a
        # value to refuse, a collection type, deep nesting) goes the general
        # way, which makes the same copy or raises the error with its path.
        # Its recursion needs more frames than the walk: a caller already deep
        # in its own (a program's) stack gets the walk, not a RecursionError.
        copied = _plain_copy(value, kind, freeze, allow_frozen, _PLAIN_DEPTH)
    except (_NotPlain, RecursionError):
        pass
    else:
        if freeze and type(copied) is FrozenDict:
            _remember_snapshot(copied)
        return copied
    path: list[_PathPart] = []  # keys from the root to the container being filled
    active: set[int] = set()  # ids of the containers on the path, to catch cycles

    def open_frame(obj: object, okind: type) -> _Frame:
        if okind is dict or (allow_frozen and okind is FrozenDict):
            frame: _Frame = (
                _dict_items(obj, path, mixed_keys=accept_collections, describe=describe),  # type: ignore[arg-type]
                {}, id(obj)
            )
        elif okind is list or (allow_frozen and okind is tuple):
            frame = (enumerate(cast("list[object]", obj)), [], id(obj))
        elif accept_collections and okind in _DICT_TYPES:
            # OrderedDict keeps its own order (move_to_end) beside the dict's,
            # and its iterator looks each key up again, hashing it: with a key
            # of the program's (a str enum member with its own __hash__) that
            # would run the program's code inside the copy. Its order is read
            # only when every key is an exact str; otherwise the dict's is.
            read: Callable[[Any], Iterable[tuple[object, object]]] = dict.items
            if okind is OrderedDict and all(
                type(key) is str for key in dict.keys(cast("dict[object, object]", obj))
            ):
                read = OrderedDict.items
            frame = (
                _dict_items(obj, path, read(obj), mixed_keys=True, describe=describe),  # type: ignore[arg-type]
                {}, id(obj)
            )
        elif accept_collections and _is_namedtuple(okind):
            frame = (enumerate(tuple.__iter__(cast("tuple[object, ...]", obj))), [], id(obj))
        else:
            reason = None if describe is None else describe(obj)
            if reason is None:
                reason = f"{_describe(obj)} is not JSON"
            raise LossyJsonError(reason, format_path(path))
        if id(obj) in active:
            raise LossyJsonError("the value contains itself (a cycle)", format_path(path))
        if len(active) >= MAX_DEPTH:
            raise LossyJsonError(
                f"containers are nested deeper than {MAX_DEPTH} levels", format_path(path)
            )
        active.add(id(obj))
        return frame

    if accept_collections:
        plain = _mixed_in(value, kind)
        if plain is not _NOT_MIXED:
            _check_scalar(plain, type(plain), [])
            return plain  # type: ignore[return-value]
    stack: list[_Frame] = [open_frame(value, kind)]
    while True:
        iterator, container, ident = stack[-1]
        step = next(iterator, None)
        if step is None:
            stack.pop()
            active.discard(ident)
            done: JsonValue = container
            if freeze:
                done = (
                    FrozenDict(container) if isinstance(container, dict) else tuple(container)  # type: ignore[assignment]
                )
            if not stack:
                if freeze and type(done) is FrozenDict:
                    _remember_snapshot(done)
                return done
            _place(stack[-1][1], path.pop(), done)
            continue
        key, child = step
        ckind = type(child)
        path.append(key)
        if ckind in _SCALARS:
            _check_scalar(child, ckind, path)
            path.pop()
            _place(container, key, child)  # type: ignore[arg-type]
        elif accept_collections and (plain := _mixed_in(child, ckind)) is not _NOT_MIXED:
            _check_scalar(plain, type(plain), path)
            path.pop()
            _place(container, key, plain)  # type: ignore[arg-type]
        else:
            stack.append(open_frame(child, ckind))


#: The deepest nesting :func:`_plain_copy` follows before leaving a value to the general walk.
_PLAIN_DEPTH: Final = 16


class _NotPlain(Exception):
    """:func:`_plain_copy` met something the general walk must judge."""


def _plain_copy(
    value: object, kind: type, freeze: bool, allow_frozen: bool, depth: int
) -> JsonValue:
    """:func:`materialize`'s copy of a plain value, or :class:`_NotPlain`.

    Plain: ``dict`` and ``list`` (``FrozenDict`` and ``tuple`` too when
    ``allow_frozen``), ``str`` keys, scalars that pass their check, nested at
    most ``depth`` levels (which also ends a cycle). The copy is the one the
    general walk makes; every refusal is left to that walk, for its message.
    """
    if kind in _SCALARS:
        if not _plain_scalar(value, kind):
            raise _NotPlain
        return value  # type: ignore[return-value]
    if depth == 0:
        raise _NotPlain
    depth -= 1
    if kind is dict or (allow_frozen and kind is FrozenDict):
        copy: dict[str, JsonValue] = {}
        entries = cast("dict[object, object]", value)
        for key, item in dict.items(entries):
            if type(key) is not str or not (key.isascii() or _encodes(key)):
                raise _NotPlain
            copy[key] = _plain_copy(item, type(item), freeze, allow_frozen, depth)
        return FrozenDict(copy) if freeze else copy
    if kind is list or (allow_frozen and kind is tuple):
        members = cast("list[object] | tuple[object, ...]", value)
        items: list[JsonValue] = [
            _plain_copy(item, type(item), freeze, allow_frozen, depth)
            for item in (list.__iter__(members) if kind is list else tuple.__iter__(members))  # type: ignore[arg-type]
        ]
        if freeze:
            return tuple(items)  # type: ignore[return-value]
        return items
    raise _NotPlain


def _plain_scalar(value: object, kind: type) -> bool:
    """Whether :func:`_check_scalar` passes ``value`` (of type ``kind``)."""
    if kind is str:
        text = cast("str", value)
        return text.isascii() or _encodes(text)
    if kind is int:
        return -(2**53) <= value <= 2**53  # type: ignore[operator]
    if kind is float:
        return math.isfinite(value) and not (value == 0.0 and math.copysign(1.0, value) < 0)  # type: ignore[arg-type]
    return True  # bool and None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _place(holder: list[JsonValue] | dict[str, JsonValue], key: _PathPart, item: JsonValue) -> None:
    if isinstance(holder, dict):
        holder[key] = item  # type: ignore[index]
    else:
        holder.append(item)


def _dict_items(
    obj: dict[object, object],
    path: list[_PathPart],
    items: Iterable[tuple[object, object]] | None = None,
    mixed_keys: bool = False,
    describe: Callable[[object], str | None] | None = None,
) -> Iterator[tuple[_PathPart, object]]:
    # Keys written as their values can meet a key already there (a member whose
    # class hashes and compares as it likes): the copy must not lose an entry.
    seen: set[str] | None = set() if mixed_keys else None
    for key, item in obj.items() if items is None else items:
        if seen is not None and type(key) is not str and issubclass(type(key), str):
            # A str enum member as a key: written as its value, as json.dumps does.
            plain = _mixed_in(key, type(key))
            if plain is not _NOT_MIXED:
                key = plain
        if seen is not None and type(key) is str:
            if key in seen:
                raise LossyJsonError(
                    f"dict key {key[:60]!r} appears twice once enum members are written "
                    "as their values; use distinct keys",
                    format_path(path),
                )
            seen.add(key)
        if type(key) is not str:
            # The caller's description (a call never awaited) says more than a type name.
            reason = None if describe is None else describe(key)
            raise LossyJsonError(
                f"a dict key: {reason} (JSON object keys must be str)" if reason else
                f"{_describe_key(key)} is not allowed; JSON object keys must be str "
                "(convert the key with str())",
                format_path(path),
            )
        _check_str(key, path)
        yield key, item
