"""Where events are kept: the store interface, a JSON Lines file, and memory."""

from __future__ import annotations

import logging
import os
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol, final

import msgspec

from bridge.lossless import FrozenDict, is_snapshot, materialize

from .._errors import CodemodeError
from ._events import EVENT_KINDS, CodeDispatchEvent, CodeDispatchStartEvent, Event, ToolResultEvent

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from bridge.lossless import JsonValue

try:  # POSIX advisory locks keep two writers off one file; absent elsewhere.
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "EventStore",
    "JsonlStore",
    "LogFormatError",
    "MemoryStore",
    "encode_arguments",
    "forget_arguments",
    "read_events",
]

_log = logging.getLogger("codemode.log")
_encoder: Final = msgspec.json.Encoder()
_event_decoder: Final = msgspec.json.Decoder(Event)

#: The first ``seq`` a new log assigns.
FIRST_SEQ: Final = 1


# msgspec's decoder recurses on nested values and raises RecursionError past its limit;
# a line nested that deeply is damaged or hostile, so it is reported like any bad line.
_TOO_DEEP = "a value nested too deeply to decode"


class LogFormatError(CodemodeError, ValueError):
    """A complete line of a log file is not an event this version can read.

    A torn *last* line is not this error: it is dropped with a warning.
    """

    def __init__(self, path: str, line: int, detail: str) -> None:
        self.path = path
        self.line = line
        self.detail = detail
        super().__init__(
            f"{path}, line {line}: not a valid event ({detail}); the log is damaged - "
            "restore it from a copy or remove that line"
        )


class EventStore(Protocol):
    """Where a :class:`~codemode.SessionLog` keeps its events.

    A store assigns each appended event the next ``seq``; a minimal one::

        class ListStore:
            def __init__(self) -> None:
                self.events: list[Event] = []
            def append(self, event: Event) -> Event:
                stamped = msgspec.structs.replace(event, seq=len(self.events) + 1)
                self.events.append(stamped)
                return stamped
            def sync(self) -> None: ...
            def close(self) -> None: ...
            def read(self) -> Iterator[Event]:
                return iter(list(self.events))
    """

    def append(self, event: Event) -> Event:
        """Keep ``event``; return it with its ``seq`` assigned."""
        ...

    def sync(self) -> None:
        """Make every appended event durable (a turn boundary)."""
        ...

    def close(self) -> None:
        """Sync and release the store; appending afterwards is an error."""
        ...

    def read(self) -> Iterator[Event]:
        """Every event kept so far, in ``seq`` order (unknown kinds skipped)."""
        ...


class _Header(msgspec.Struct):
    """The two fields every line is read for, whatever its kind."""

    kind: object = None
    seq: object = None


def _check_lossless(event: Event) -> None:
    # Durable events are a lossless-JSON boundary: msgspec alone would write
    # NaN as null. Content and ids are typed; only the JSON fields need this.
    # A frozen snapshot (a sub-call's arguments) was checked when it was taken.
    if isinstance(event, (CodeDispatchStartEvent, CodeDispatchEvent)):
        if not is_snapshot(event.arguments):
            materialize(event.arguments, accept_tuples=True)
    elif isinstance(event, ToolResultEvent) and not isinstance(event.meta, msgspec.UnsetType):
        materialize(event.meta, accept_tuples=True)


def _stamp(event: Event, seq: int) -> Event:
    return msgspec.structs.replace(event, seq=seq)


#: The JSON encodings of logged argument snapshots, by the snapshot's id, for
#: as long as the snapshot lives: a sub-call's arguments are measured once
#: (against its run's budget) and written in two events, and a store that
#: writes JSON splices these bytes in instead of encoding the arguments again.
_encodings: dict[int, tuple[weakref.ref[FrozenDict], bytes]] = {}


def encode_arguments(snapshot: JsonValue) -> bytes:
    """The compact JSON of a frozen arguments snapshot, remembered for the stores.

    Remembered until :func:`forget_arguments` or until the snapshot is gone.
    Safe to call from any thread; what a store writes is the same bytes it
    would have encoded itself.
    """
    data = _encoder.encode(snapshot)
    if type(snapshot) is FrozenDict and is_snapshot(snapshot):
        key = id(snapshot)

        def forget(ref: weakref.ref[FrozenDict], key: int = key) -> None:
            entry = _encodings.get(key)
            if entry is not None and entry[0] is ref:
                _encodings.pop(key, None)

        _encodings[key] = (weakref.ref(snapshot, forget), data)
    return data


def forget_arguments(snapshot: JsonValue) -> None:
    """Drop the remembered encoding of ``snapshot`` (its last event is written)."""
    entry = _encodings.get(id(snapshot))
    if entry is not None and entry[0]() is snapshot:
        _encodings.pop(id(snapshot), None)


def _encode_line(event: Event) -> bytes:
    """``event`` as one line of JSON, reusing a remembered encoding of its arguments."""
    if isinstance(event, (CodeDispatchStartEvent, CodeDispatchEvent)):
        entry = _encodings.get(id(event.arguments))
        if entry is not None and entry[0]() is event.arguments:
            spliced = msgspec.structs.replace(event, arguments=msgspec.Raw(entry[1]))
            return _encoder.encode(spliced) + b"\n"
    return _encoder.encode(event) + b"\n"


class _Scan:
    """Decodes the complete lines of a log, skipping unknown kinds."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.max_seq = FIRST_SEQ - 1
        self.good_bytes = 0  # length of the prefix made of complete lines
        self.torn = b""  # a last line without its newline
        self._unknown: set[str] = set()

    def events(self, lines: Iterable[bytes]) -> Iterator[Event]:
        for number, raw in enumerate(lines, start=1):
            if not raw.endswith(b"\n"):
                self.torn = raw
                return
            self.good_bytes += len(raw)
            line = raw.strip()
            if not line:
                continue
            event = self._decode(line, number)
            if event is not None:
                yield event

    def _decode(self, line: bytes, number: int) -> Event | None:
        try:
            header = msgspec.json.decode(line, type=_Header)
        except msgspec.DecodeError as exc:
            raise LogFormatError(self.source, number, str(exc)) from None
        except RecursionError:
            raise LogFormatError(self.source, number, _TOO_DEEP) from None
        if type(header.seq) is int:
            self.max_seq = max(self.max_seq, header.seq)
        if header.kind not in EVENT_KINDS:
            kind = repr(header.kind)
            if kind not in self._unknown:
                self._unknown.add(kind)
                _log.info("%s: skipping events of unknown kind %s", self.source, kind)
            return None
        try:
            return _event_decoder.decode(line)
        except msgspec.DecodeError as exc:
            raise LogFormatError(self.source, number, str(exc)) from None
        except RecursionError:
            raise LogFormatError(self.source, number, _TOO_DEEP) from None


def _sync_directory(directory: str) -> None:
    # A new file's name is durable only once its directory is synced.
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:  # pragma: no cover - a platform without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some filesystems refuse fsync on directories
        pass
    finally:
        os.close(fd)


def read_events(path: str | os.PathLike[str]) -> Iterator[Event]:
    """Read a JSON Lines log without changing it.

    A torn last line is skipped with a warning; events of unknown kinds are skipped.

    Raises:
        LogFormatError: a complete line is not a valid event.
        OSError: the file cannot be read.
    """
    source = os.fspath(path)
    scan = _Scan(source)
    with open(source, "rb") as file:
        yield from scan.events(file)
    if scan.torn:
        _log.warning(
            "%s: the last line is incomplete (%d bytes, a write was cut short); ignoring it",
            source,
            len(scan.torn),
        )


@final
class JsonlStore:
    """An append-only JSON Lines file: one event a line.

    Each event is written (and so flushed to the OS) as it is appended;
    :meth:`sync` and :meth:`close` also ``fsync`` it. A new file is created
    with mode 0600. Opening an existing file continues its ``seq`` numbering,
    and a torn last line (a write cut short by a crash) is dropped with a
    warning, the file truncated back to its last complete line so new appends
    stay readable.

    Args:
        path: the log file; created if missing.

    Raises:
        LogFormatError: a complete line of an existing file is not a valid event.
        OSError: the file cannot be opened, or another store holds it.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._path = os.fspath(path)
        flags = os.O_RDWR | os.O_APPEND | os.O_CLOEXEC
        try:
            self._fd = os.open(self._path, flags | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            self._fd = os.open(self._path, flags)
        else:
            _sync_directory(os.path.dirname(os.path.abspath(self._path)))
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise OSError(
                        f"{self._path} is already open for appending by another log store"
                    ) from None
            self._next = self._recover() + 1
        except BaseException:
            os.close(self._fd)
            raise
        self._closed = False

    @property
    def path(self) -> Path:
        """The log file."""
        return Path(self._path)

    def _recover(self) -> int:
        """Scan the file, drop a torn tail, and return the highest ``seq`` found."""
        scan = _Scan(self._path)
        with open(self._path, "rb") as file:
            for _ in scan.events(file):
                pass
        if scan.torn:
            _log.warning(
                "%s: dropping an incomplete last line (%d bytes, a write was cut short); "
                "the events before it are intact",
                self._path,
                len(scan.torn),
            )
            os.ftruncate(self._fd, scan.good_bytes)
            os.fsync(self._fd)
        return scan.max_seq

    def append(self, event: Event) -> Event:
        """Write ``event`` as one line; return it with the next ``seq``.

        Raises:
            LossyJsonError: the event's arguments or meta are not lossless JSON.
            ValueError: the store is closed.
            OSError: the write failed (a full disk); a partly written line is
                removed, so the file still holds only whole events.
        """
        if self._closed:
            raise ValueError(f"cannot append to {self._path}: the log store is closed")
        _check_lossless(event)
        stamped = _stamp(event, self._next)
        data = memoryview(_encode_line(stamped))
        done = 0
        try:
            while done < len(data):
                done += os.write(self._fd, data[done:])
        except BaseException:
            if done:
                self._cut_partial_line(done)
            raise
        self._next += 1
        return stamped

    def _cut_partial_line(self, written: int) -> None:
        # A write that failed midway (a full disk, a signal) left part of a line
        # behind; the next append would glue onto it and make a complete but
        # damaged line. Cut it back so the file stays a sequence of events.
        try:
            os.ftruncate(self._fd, os.fstat(self._fd).st_size - written)
        except OSError:
            _log.error(
                "%s: could not remove a partly written line (%d bytes); the next open "
                "drops it only if it stays the last line",
                self._path,
                written,
                exc_info=True,
            )

    def sync(self) -> None:
        """``fsync`` the file."""
        if not self._closed:
            os.fsync(self._fd)

    def close(self) -> None:
        """``fsync`` and close the file (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            os.fsync(self._fd)
        finally:
            os.close(self._fd)

    def read(self) -> Iterator[Event]:
        """Every complete event in the file, in order."""
        return read_events(self._path)


@final
class MemoryStore:
    """Keeps events in a list: for tests and for sessions that need no file."""

    def __init__(self) -> None:
        self._events: list[Event] = []
        self._closed = False

    def append(self, event: Event) -> Event:
        """Keep ``event``; return it with the next ``seq``."""
        if self._closed:
            raise ValueError("cannot append: the log store is closed")
        _check_lossless(event)
        stamped = _stamp(event, FIRST_SEQ + len(self._events))
        self._events.append(stamped)
        return stamped

    def sync(self) -> None:
        """Nothing to do: memory is as durable as it gets."""

    def close(self) -> None:
        """Refuse further appends; the events stay readable."""
        self._closed = True

    def read(self) -> Iterator[Event]:
        """The events appended so far (a snapshot)."""
        return iter(list(self._events))
