# category: bridge
# signal: liveness bounded
# expect: refused
# plain: skip (would write into the test process's descriptors)
# tripwire: harmless (os.write raises no audit event; the host decodes every frame strictly, its size checked first)
# source: flooding the protocol descriptors with valid-looking small frames
import os
chunk = (b"\x00\x00\x00\x02{}") * 4096
for fd in range(3, 256):
    try:
        for _ in range(256):
            os.write(fd, chunk)
    except OSError:
        pass
