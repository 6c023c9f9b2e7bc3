"""The per-run budget on what the host persists on a program's behalf.

A ``run_code`` program chooses how many sub-calls it makes and how large their
arguments and results are; every one of them is recorded durably (two dispatch
events, each with the call's arguments) and a large result may be spilled to a
file. :class:`PersistBudget` bounds the bytes (and spill files) one run may
cause the host to persist, as the sandbox's limits bound what travels back to
the caller. Sizes are those of the JSON Lines a :class:`~codemode.JsonlStore`
writes, computed without writing anything (:func:`dispatch_event_size`).
"""

from __future__ import annotations

import threading
from typing import Final, final

import msgspec

from ._events import UNASSIGNED, CodeDispatchEvent, CodeDispatchStartEvent

__all__ = ["PersistBudget", "dispatch_event_size"]

_encoder: Final = msgspec.json.Encoder()

#: Bytes a stamped event may take beyond its unstamped encoding: ``seq`` is
#: written as ``-1`` until a store assigns it (at most 19 digits, an int64),
#: and the event's ``time`` is measured as ``0.0`` (a float's shortest
#: round-trip spelling is at most 24 characters), plus the line's newline.
_SLACK: Final = (len(str(2**63 - 1)) - len(str(UNASSIGNED))) + (24 - len("0.0")) + 1


def dispatch_event_size(
    event: CodeDispatchStartEvent | CodeDispatchEvent,
    *,
    arguments_bytes: int,
    content_bytes: int | None = None,
) -> int:
    """The most bytes a JSON Lines store writes for ``event``, its newline included.

    ``arguments_bytes`` is the length of the compact JSON encoding of
    ``event.arguments``, which is not encoded again; for a settle event,
    ``content_bytes`` likewise stands for the encoding of ``event.content``
    (``None``: encode it here). The result is exact but for the digits of the
    ``seq`` and ``time`` the event will be written with, for which it allows
    their longest spelling.
    """
    # msgspec writes compact JSON field by field, so a field's bytes add up:
    # measure the event around a ``null`` (4 bytes) or an empty array (2).
    shell: CodeDispatchStartEvent | CodeDispatchEvent
    if isinstance(event, CodeDispatchEvent) and content_bytes is not None:
        shell = msgspec.structs.replace(event, arguments=None, content=(), time=0.0)
        extra = arguments_bytes - 4 + content_bytes - 2
    else:
        shell = msgspec.structs.replace(event, arguments=None, time=0.0)
        extra = arguments_bytes - 4
    return len(_encoder.encode(shell)) + extra + _SLACK


@final
class PersistBudget:
    """Bytes (and spill files) the host may persist on behalf of one ``run_code`` run.

    Every dispatch event of the run's sub-calls and every spill file written
    for them is charged. A sub-call is admitted only with room for both of its
    events (:meth:`reserve`: its start event and a settle event whose content
    is cut to a bounded preview), so that once a call has started, its settle
    event always has room: the durable log never holds a start without its
    settle because of the budget. Safe to use from several threads (a spill
    file is written from a worker thread).

    Args:
        max_bytes: the most bytes; ``None`` means no limit.
        max_spill_files: the most spill files; ``None`` means no limit.
    """

    __slots__ = ("_committed", "_files", "_lock", "max_bytes", "max_spill_files")

    def __init__(self, *, max_bytes: int | None, max_spill_files: int | None = None) -> None:
        for name, value in (("max_bytes", max_bytes), ("max_spill_files", max_spill_files)):
            if value is not None and (type(value) is not int or value < 0):
                raise ValueError(f"{name}={value!r}: expected a non-negative int or None")
        self.max_bytes = max_bytes
        self.max_spill_files = max_spill_files
        self._lock = threading.Lock()
        self._committed = 0  # bytes persisted, and bytes reserved for events still owed
        self._files = 0

    @property
    def committed(self) -> int:
        """Bytes persisted so far plus those reserved for events the run still owes."""
        return self._committed

    @property
    def spill_files(self) -> int:
        """Spill files charged so far."""
        return self._files

    def room(self, reserved: int = 0) -> int | None:
        """Bytes free, counting ``reserved`` (held by the caller) as free; ``None``: no limit."""
        if self.max_bytes is None:
            return None
        return self.max_bytes - self._committed + reserved

    def reserve(self, size: int) -> bool:
        """Hold ``size`` bytes if they fit; return whether they did (nothing is held if not)."""
        with self._lock:
            if self.max_bytes is not None and self._committed + size > self.max_bytes:
                return False
            self._committed += size
            return True

    def settle(self, reserved: int, actual: int) -> None:
        """Replace a reservation of ``reserved`` bytes by the ``actual`` bytes written.

        ``actual`` may be larger than what was free (a settle event is always
        written); the difference is charged all the same.
        """
        with self._lock:
            self._committed += actual - reserved

    def reserve_spill(self, size: int) -> str | None:
        """Charge a spill file of ``size`` bytes; return why it may not be written (or ``None``)."""
        with self._lock:
            if self.max_spill_files is not None and self._files >= self.max_spill_files:
                return (
                    f"this run may write at most {self.max_spill_files} spill files "
                    "(Quotas.max_spill_files)"
                )
            if self.max_bytes is not None and self._committed + size > self.max_bytes:
                return (
                    f"this run may persist at most {self.max_bytes} bytes "
                    f"(Quotas.max_persisted_bytes) and {self.max_bytes - self._committed} "
                    "are left"
                )
            self._files += 1
            self._committed += size
            return None
