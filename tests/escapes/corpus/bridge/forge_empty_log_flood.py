# category: bridge
# signal: host liveness bounded
# expect: refused
# plain: skip (would write into the test process's descriptors)
# tripwire: harmless (os.write raises no audit event; a log frame must carry a line, which spends the output budget)
# source: log frames without a line written in a loop: each cost the host a decode and none spent the output budget
import os
chunk = b"\x00\x00\x00\x06\x92\xa3log\x90" * 4096
for fd in range(3, 64):
    try:
        for _ in range(2000):
            os.write(fd, chunk)
    except OSError:
        pass
