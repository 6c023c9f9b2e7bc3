# category: bridge
# signal: liveness bounded
# expect: refused
# plain: skip (would flood the test output)
# tripwire: harmless (the child has no standard streams)
# source: writing straight to descriptors 1 and 2, past print capture
import os
for _ in range(2000):
    for fd in (1, 2):
        try:
            os.write(fd, b"x" * 65536)
        except OSError:
            pass
