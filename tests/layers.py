"""What ``RunResult.layers`` of a default run must say on the host running the tests.

As root every protection is in force. Under any other uid the children cannot
switch to a uid of their own, so ``uid_drop`` is off and says why (never a silent
downgrade), and every other protection is still in force.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from sandbox import Layers

__all__ = ["HOST_IS_ROOT", "MISSING_PROTECTIONS", "PROTECTIONS", "assert_host_layers"]

#: Whether the tests run as root, so that children drop to a uid of their own.
HOST_IS_ROOT: Final = os.geteuid() == 0

#: The protections a ``Layers`` reports, in its field order.
PROTECTIONS: Final = (
    "language_layer", "tripwire", "rlimits", "uid_drop", "no_new_privs", "seccomp"
)

#: The protections a default run on this host goes without.
MISSING_PROTECTIONS: Final[tuple[str, ...]] = () if HOST_IS_ROOT else ("uid_drop",)

_UID_DROP_REASON: Final = (
    f"uid_drop: the host does not run as root (uid {os.geteuid()}), "
    "so the child keeps that unprivileged uid"
)


def assert_host_layers(layers: Layers) -> None:
    """Assert that ``layers`` has every protection this host can give, and no other gap.

    Root: all of them, with no reason. Any other uid: all but ``uid_drop``, whose
    one reason names the uid.
    """
    missing = tuple(name for name in PROTECTIONS if not getattr(layers, name))
    assert missing == MISSING_PROTECTIONS, layers.reasons
    if HOST_IS_ROOT:
        assert layers.complete, layers.reasons
        assert layers.reasons == ()
    else:
        assert layers.reasons == (_UID_DROP_REASON,)
