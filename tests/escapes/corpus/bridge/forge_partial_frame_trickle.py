# category: bridge
# signal: host liveness
# expect: refused
# kinds: worker-exit timeout
# plain: skip (would write into the test process's descriptors)
# tripwire: harmless (os.write raises no audit event; the host's budget of small reads ends it, or the wall clock first on a loaded machine; tests/bridge/test_host_read_budget.py pins the budget itself)
# source: a frame announced under the cap and sent one byte per write(), never completed: no frame was decoded, so no frame budget was spent, but every byte woke the host's event loop (epoll, reader callback, os.read): 1.1 million host reads and 5.2 s of host CPU in a 5 s run, against 6 reads for a program that sleeps; paced (a byte, then a short sleep) the child spends almost no CPU of its own and still wakes the host once a byte
import os
import time
target = None
for fd in range(3, 64):
    try:
        os.write(fd, b"")
    except OSError:
        continue
    target = fd
    break
os.write(target, (512 * 1024 - 1).to_bytes(4, "big"))
while True:
    os.write(target, b"\x00")
    time.sleep(0.00002)
