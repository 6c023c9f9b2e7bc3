"""The transport between the codemode host and a sandboxed child.

``bridge.lossless`` and ``bridge.protocol`` are used on both sides; ``bridge.child``
(the channel) and ``bridge.proxy`` (the program's ``tools``) only inside the child;
``bridge.host`` only on the host (not imported here, so the child never loads it).
"""
