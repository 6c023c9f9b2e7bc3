# category: bridge
# signal: host liveness bounded
# expect: refused
# plain: skip (would write into the test process's descriptors)
# tripwire: harmless (os.write raises no audit event; the host counts the line reports a run sends)
# source: line reports (Where) written in a loop: each is small and valid, and the host took them without a budget, at about 100 % of its loop's CPU for the whole wall clock
import os
chunk = b"\x00\x00\x00\x08\x92\xa5where\x01" * 4096
for fd in range(3, 64):
    try:
        for _ in range(2000):
            os.write(fd, chunk)
    except OSError:
        pass
