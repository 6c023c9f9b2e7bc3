# category: bridge
# signal: liveness bounded
# expect: refused
# plain: skip (would write into the test process's descriptors)
# tripwire: harmless (os.write raises no audit event; the host decodes every frame strictly, its size checked first)
# source: a frame header announcing 4 GiB, to make the host allocate before checking
import os
for fd in range(3, 256):
    try:
        os.write(fd, b"\xff\xff\xff\xff" + b"\xff" * 64)
    except OSError:
        pass
