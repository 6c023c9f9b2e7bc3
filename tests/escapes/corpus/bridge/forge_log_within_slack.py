# category: bridge
# signal: bounded liveness
# expect: refused
# plain: skip (would write into the test process's descriptors)
# tripwire: harmless (os.write raises no audit event; the host counts every log line against max_log_bytes)
# source: one forged log frame of 20,000 bytes under a 16 KiB output limit: the host allowed 4 KiB of slack beyond the limit, for the child's marker line, and returned it all as a success
import os
import struct
line = b"x" * 1000
body = b"\x92\xa3log\xdc" + struct.pack(">H", 20) + (b"\xda" + struct.pack(">H", len(line)) + line) * 20
frame = struct.pack(">I", len(body)) + body
for fd in range(3, 64):
    try:
        os.write(fd, frame)
    except OSError:
        pass
return "done"
