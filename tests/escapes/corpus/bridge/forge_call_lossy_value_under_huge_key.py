# category: bridge
# signal: bounded liveness
# expect: refused
# plain: skip (would write into the test process's descriptors)
# tripwire: harmless (os.write raises no audit event)
# source: a declared call with a lossy value (-0.0) under a key of 480 KiB of astral characters: the host named the value's path in the run's error with the whole key escaped, ten characters for each
import os
import struct
key = "\U0010ffff" * (120 * 1024)
args = ('{"' + key + '":-0.0}').encode()
body = b"\x94\xa4call\x00\xa4echo\xc6" + struct.pack(">I", len(args)) + args
frame = struct.pack(">I", len(body)) + body
for fd in range(3, 64):
    try:
        view = memoryview(frame)
        while view:
            view = view[os.write(fd, view):]
    except OSError:
        pass
import time
time.sleep(5)
