"""The JSON Lines store: one event a line, in a file a store proves is a session log.

:class:`JsonlStore` appends (and repairs only what its own writer can have
left after a crash); :func:`read_events` reads a log without changing it.
Lines are read at most :data:`~codemode._log._stores.MAX_LINE_BYTES`
at a time, the cap the writer also keeps (read from that module, so both
sides always agree on it).
"""

from __future__ import annotations

import io
import logging
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Final, NoReturn, final

import msgspec

from .._errors import CodemodeError
from . import _stores
from ._events import EVENT_KINDS, Event
from ._stores import FIRST_SEQ, MAX_SEQ, _line_within_cap, _stamp, check_event

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from _typeshed import WriteableBuffer

try:  # POSIX advisory locks keep two writers off one file; absent elsewhere.
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

__all__ = ["JsonlStore", "LogFormatError", "read_events"]

_log = logging.getLogger("codemode.log")
_event_decoder: Final = msgspec.json.Decoder(Event)

#: How every line a JSON Lines store writes begins (the tag is encoded first).
_LINE_START: Final = b'{"kind":"'
#: What JSON counts as whitespace around a value (RFC 8259): a blank line is made of it.
_JSON_WHITESPACE: Final = b" \t\r\n"


# msgspec's decoder recurses on nested values and raises RecursionError past its limit;
# a line nested that deeply is damaged or hostile, so it is reported like any bad line.
_TOO_DEEP = "a value nested too deeply to decode"


class LogFormatError(CodemodeError, ValueError):
    """A file is not a session log, or a complete line of one is not an event this version reads.

    A torn *last* line after valid events is not this error: it is dropped
    with a warning. With ``not_a_log``, the file as a whole is not a session
    log (it holds no event, or a line no log writer produces, before any
    event): it was left unchanged.
    """

    def __init__(self, path: str, line: int, detail: str, *, not_a_log: bool = False) -> None:
        self.path = path
        self.line = line
        self.detail = detail
        self.not_a_log = not_a_log
        if not_a_log:
            where = f", line {line}" if line else ""
            message = (
                f"{path}{where}: not a session log ({detail}); the file was left unchanged - "
                "pass a new file or a log written by codemode"
            )
        else:
            message = (
                f"{path}, line {line}: not a valid event ({detail}); the log is damaged - "
                "restore it from a copy or remove that line"
            )
        super().__init__(message)


class _Header(msgspec.Struct):
    """The two fields every line is read for, whatever its kind."""

    kind: object = None
    seq: object = None


class _Scan:
    """Decodes the lines of a log, skipping unknown kinds, and says whether it is one.

    Lines are read at most :data:`MAX_LINE_BYTES` at a time; a longer line is
    damaged. A last line without its newline is complete when it holds a whole
    JSON object (a write cut short never does: no prefix of an object is one):
    it is read like any line and :attr:`unterminated` says so. Any other last
    line without its newline is :attr:`torn`, which is what the writer can
    have left only if it begins as every line the writer writes begins (it
    starts with ``{"kind":"``, or is shorter and a prefix of it) and either
    follows a valid event or is the file's only content (the first write into
    a new log, cut short); anything else there means the file is not a session
    log. A file with complete lines but no event of a known kind is not one
    either (:meth:`finish`).
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.max_seq = FIRST_SEQ - 1
        self.max_seq_line = 0  # the line holding max_seq
        self.events_seen = 0  # lines of a known kind
        self.good_bytes = 0  # length of the prefix made of complete lines
        self.torn = b""  # a last line without its newline, cut short
        self.unterminated = False  # the last line is complete but lacks its newline
        self._unknown: set[str] = set()

    def events(self, file: BinaryIO) -> Iterator[Event]:
        number = 0
        while raw := file.readline(_stores.MAX_LINE_BYTES):
            number += 1
            if not raw.endswith(b"\n"):
                if len(raw) >= _stores.MAX_LINE_BYTES:
                    self._refuse(
                        number,
                        f"a line longer than {_stores.MAX_LINE_BYTES} bytes, "
                        "the longest a log line may be",
                    )
                if not _whole_object(raw):
                    self._torn_tail(raw, number)
                    self.torn = raw
                    return
                self.unterminated = True
            self.good_bytes += len(raw)
            # JSON's whitespace only: bytes.strip() also drops \x0b and \x0c, which
            # would let a line that is no JSON value pass as an event.
            line = raw.strip(_JSON_WHITESPACE)
            if not line:
                continue
            event = self._decode(line, number)
            if event is not None:
                self.events_seen += 1
                yield event

    def finish(self) -> None:
        """Refuse a file with content but no event of a known kind (after :meth:`events`)."""
        if self.events_seen == 0 and self.good_bytes:
            raise LogFormatError(
                self.source, 0, "it holds no event of a kind this version knows", not_a_log=True
            )

    def _torn_tail(self, raw: bytes, number: int) -> None:
        """Refuse a last line without its newline that no crash of the writer can have left."""
        if not _LINE_START.startswith(raw[: len(_LINE_START)]):
            detail = (
                "its last line has no newline and does not begin like a log line "
                '(with {"kind":"), so it is no write cut short'
            )
        elif self.events_seen or self.good_bytes == 0:
            return  # a write cut short: after valid events, or the first into a new log
        else:
            detail = "its last line has no newline and follows no event"
        self._refuse(number, detail)

    def _refuse(self, number: int, detail: str, *, an_event: bool = False) -> NoReturn:
        # Before any event, a line that is not even meant as one (not a JSON
        # object of a known kind) says the file is no session log at all.
        not_a_log = not (self.events_seen or an_event)
        raise LogFormatError(self.source, number, detail, not_a_log=not_a_log)

    def _decode(self, line: bytes, number: int) -> Event | None:
        try:
            header = msgspec.json.decode(line, type=_Header)
        except msgspec.DecodeError as exc:
            self._refuse(number, str(exc))
        except RecursionError:
            self._refuse(number, _TOO_DEEP)
        known = header.kind in EVENT_KINDS
        seq = header.seq
        if type(seq) is int:
            if not 0 <= seq <= MAX_SEQ:
                detail = f"seq {_int_text(seq)} is outside 0 to 2**63-1"
                self._refuse(number, detail, an_event=known)
            if seq > self.max_seq:
                self.max_seq = seq
                self.max_seq_line = number
        if not known:
            kind = repr(header.kind)
            if kind not in self._unknown:
                self._unknown.add(kind)
                _log.info("%s: skipping events of unknown kind %s", self.source, kind)
            return None
        try:
            return _event_decoder.decode(line)
        except msgspec.DecodeError as exc:
            self._refuse(number, str(exc), an_event=True)
        except RecursionError:
            self._refuse(number, _TOO_DEEP, an_event=True)


def _int_text(value: int) -> str:
    """``value`` for a message: a long one shortened (and never hitting str()'s digit limit)."""
    if -(10**30) < value < 10**30:
        return str(value)
    return f"{'-' if value < 0 else ''}about 2**{abs(value).bit_length() - 1}"


def _whole_object(raw: bytes) -> bool:
    """Whether ``raw`` (a last line without its newline) holds one whole JSON object."""
    try:
        msgspec.json.decode(raw, type=_Header)
    except (msgspec.DecodeError, RecursionError):
        return False  # cut short (or too deep to tell): a torn write
    return True


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

    A torn last line after valid events is skipped with a warning; a last line
    that lacks only its newline is read like any other; events of unknown
    kinds are skipped.

    Raises:
        LogFormatError: a complete line is not a valid event, a line is longer
            than :data:`MAX_LINE_BYTES`, or the file is not a session log.
        OSError: the file cannot be read.
    """
    source = os.fspath(path)
    return _read_scanned(source, lambda: open(source, "rb"))


def _read_scanned(source: str, opener: Callable[[], BinaryIO]) -> Iterator[Event]:
    """The events of the file ``opener`` opens once iterated, as :func:`read_events` says."""
    scan = _Scan(source)
    with opener() as file:
        yield from scan.events(file)
    scan.finish()
    if scan.torn:
        _log.warning(
            "%s: the last line is incomplete (%d bytes, a write was cut short); ignoring it",
            source,
            len(scan.torn),
        )


# POSIX flags (absent on Windows, where a FIFO or a symlink is no log path anyway).
_NOFOLLOW: Final[int] = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK: Final[int] = getattr(os, "O_NONBLOCK", 0)


def _open_log_file(path: str, *, create: bool = True) -> tuple[int, bool]:
    """Open (or create) ``path`` for appending without following a last symlink.

    Returns the descriptor and whether the file was created. ``O_NONBLOCK``
    keeps a FIFO from blocking the open; anything but a regular file is
    refused before a byte is read or written. With ``create=False`` the file
    is opened to be read only, and must exist.
    """
    flags = os.O_CLOEXEC | _NOFOLLOW | _NONBLOCK
    flags |= os.O_RDWR | os.O_APPEND if create else os.O_RDONLY
    created = create
    try:
        try:
            if not create:
                raise FileExistsError
            # O_EXCL: an existing name (a symlink too, even a dangling one) is not created.
            fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            created = False
            fd = os.open(path, flags)
    except OSError:
        if os.path.islink(path):
            raise OSError(
                f"{path} is a symbolic link, which a log store does not follow; "
                "pass the path of the log file itself"
            ) from None
        if os.path.isdir(path):
            raise OSError(f"{path} is a directory; pass the path of a log file") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(
                f"{path} is not a regular file (it is {_file_type(mode)}); "
                "pass the path of a regular file (a new one, or a log written by codemode)"
            )
        if _NONBLOCK:
            os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, created


def _file_type(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a directory"),
    ):
        if test(mode):
            return name
    return "not a regular file"  # pragma: no cover - no other kind of file opens


class _PositionalReader(io.RawIOBase):
    """Reads a descriptor from its start with ``pread``, leaving its shared offset alone.

    A store's reads and its appends (``O_APPEND``) then never move each other,
    however many reads are under way at once. Owns ``fd``: closing closes it.
    """

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self._offset = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        data = os.pread(self._fd, len(view), self._offset)
        view[: len(data)] = data
        self._offset += len(data)
        return len(data)

    def close(self) -> None:
        if not self.closed:
            try:
                os.close(self._fd)
            finally:
                super().close()


@final
class JsonlStore:
    """An append-only JSON Lines file: one event a line.

    Each event is written (and so flushed to the OS) as it is appended;
    :meth:`sync` and :meth:`close` also ``fsync`` it. A new file is created
    with mode 0600. Opening an existing file continues its ``seq`` numbering,
    and a torn last line (a write cut short by a crash) is dropped with a
    warning, the file truncated back to its last complete line so new appends
    stay readable. A last line that is a whole JSON object without its newline
    (another program wrote it) is kept: the newline is added, with a warning.

    Only what this writer can have left is repaired. A last line without its
    newline is dropped only if it begins as every line the writer writes
    begins (with ``{"kind":"``, or, shorter, with a prefix of it) and either
    follows a valid event or is the file's only content (the first write into
    a new log, cut short). A file that is not a session log
    (content but no event of a known kind, a line no writer produces before
    any event, any other unterminated last line) is refused and left
    byte-for-byte unchanged. ``path`` is opened without following a symbolic
    link in its last component, and must be a regular file; lines are read at
    most :data:`MAX_LINE_BYTES` at a time.

    Args:
        path: the log file; created if missing.

    Raises:
        LogFormatError: the file is not a session log (:attr:`~LogFormatError.not_a_log`),
            a complete line of it is not a valid event, a line is longer than
            :data:`MAX_LINE_BYTES`, or a ``seq`` is outside 0 to 2**63-1 (or is
            2**63-1 itself, which cannot be continued). Nothing was changed.
        OSError: the file cannot be opened, is a symbolic link or not a regular
            file, or another store holds it.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self._path = os.fspath(path)
        self._fd, created = _open_log_file(self._path)
        if created:
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
        # Read through the descriptor held (the name might point elsewhere by now);
        # nothing appends yet, so sharing its offset is safe.
        with os.fdopen(os.dup(self._fd), "rb") as file:
            file.seek(0)
            for _ in scan.events(file):
                pass
        scan.finish()
        if scan.max_seq >= MAX_SEQ:
            raise LogFormatError(
                self._path,
                scan.max_seq_line,
                f"seq {MAX_SEQ} is the highest a log may hold, so the log cannot be continued",
            )
        if scan.torn:
            _log.warning(
                "%s: dropping an incomplete last line (%d bytes, a write was cut short); "
                "the events before it are intact",
                self._path,
                len(scan.torn),
            )
            os.ftruncate(self._fd, scan.good_bytes)
            os.fsync(self._fd)
        elif scan.unterminated:
            # A whole line someone else wrote without its newline: finish the line
            # rather than cut it, so the next append starts a line of its own.
            _log.warning(
                "%s: the last line is a whole event without its newline; adding the newline",
                self._path,
            )
            os.write(self._fd, b"\n")
            os.fsync(self._fd)
        return scan.max_seq

    def append(self, event: Event) -> Event:
        """Write ``event`` as one line; return it with the next ``seq``.

        Raises:
            LossyJsonError: the event's arguments or meta are not lossless JSON,
                or its line would be longer than :data:`MAX_LINE_BYTES` (which
                no reader would read back: nothing is written).
            ValueError: the store is closed.
            OSError: the write failed (a full disk); a partly written line is
                removed, so the file still holds only whole events.
        """
        if self._closed:
            raise ValueError(f"cannot append to {self._path}: the log store is closed")
        check_event(event)
        stamped = _stamp(event, self._next)
        line = _line_within_cap(stamped)
        done = 0
        try:
            done = os.write(self._fd, line)
            if done < len(line):  # a short write: the rest, a view's slice at a time
                data = memoryview(line)
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
        """Every complete event in the file, in order.

        Read through the descriptor this store holds, never by name: the name
        may point elsewhere by now (renamed, replaced by a symbolic link). A
        closed store reads its path again, still without following a last
        symbolic link.

        Raises:
            LogFormatError: as :func:`read_events`.
            OSError: the store is closed and its path no longer opens as a
                regular file.
        """
        return _read_scanned(self._path, self._open_for_reading)

    def _open_for_reading(self) -> BinaryIO:
        if self._closed:
            fd, _ = _open_log_file(self._path, create=False)
        else:
            fd = os.dup(self._fd)
        return io.BufferedReader(_PositionalReader(fd))


