"""Sandboxes on a Ray cluster: :class:`RayPool` (the ``ray`` extra).

Host side only, and Ray is imported only when a pool opens: importing this
package needs no Ray.
"""

from sandbox._ray._pool import NodeStatus, RayPool

__all__ = ["NodeStatus", "RayPool"]
