# category: bridge
# signal: liveness bounded
# expect: refused
# plain: skip (would write into the test process's descriptors)
# tripwire: harmless (os.write raises no audit event; the host decodes every frame strictly, its size checked first)
# source: writing garbage straight onto the protocol descriptors
import os
for fd in range(3, 256):
    try:
        os.write(fd, b"\x00\x00\x00\x10garbage-garbage!")
    except OSError:
        pass
