# category: bridge
# expect: refused
# plain: skip (needs the sandbox's child process)
# signal: limit
# kinds: timeout worker-exit
# tripwire: stops gc.get_objects
# source: half a frame header and then silence: the host must still end the run on time
import gc
import os
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
os.write(channel._write_fd, b"\x00\x00")
import time
time.sleep(1000)
