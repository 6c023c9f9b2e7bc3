# category: bridge
# expect: refused
# plain: skip (needs the sandbox's child process)
# signal: handler liveness
# tripwire: stops gc.get_objects
# source: a call frame and then an immediate exit: the host's reply meets a closed pipe
import gc
import os
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
channel.send(protocol.Call(id=0, name="echo", args=b'{"x": 1}'))
os._exit(0)
