# category: bridge
# expect: refused
# plain: skip (needs the sandbox's child process)
# signal: handler liveness
# tripwire: stops gc.get_objects
# source: a call frame after closing the pipe the host replies on, then a long wait
import gc
import os
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
os.close(channel._read_fd)
channel.send(protocol.Call(id=0, name="echo", args=b'{"x": 1}'))
import time
time.sleep(1000)
