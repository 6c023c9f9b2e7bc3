# category: bridge
# signal: bounded liveness
# expect: refused
# plain: skip (would write into the test process's descriptors)
# tripwire: harmless (os.write raises no audit event)
# source: the host refused an undeclared tool name by quoting all of it with repr() in the run's error: a name of 500 KiB of control characters (inside the corpus frame cap of 512 KiB) made a message of 2 MiB, four times the frame
import os
import struct
name = b"\x01" * (500 * 1024)
body = b"\x94\xa4call\x00\xdb" + struct.pack(">I", len(name)) + name + b"\xc4\x02{}"
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
