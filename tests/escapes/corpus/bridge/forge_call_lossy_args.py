# category: bridge
# expect: refused
# plain: skip (needs the sandbox's child process)
# signal: handler liveness
# tripwire: stops gc.get_objects
# source: a forged call frame whose JSON arguments decode to values lossless JSON forbids
import gc
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
channel.send(protocol.Call(id=0, name="echo", args=b'{"x": 1e400, "y": -0.0}'))
import time
time.sleep(0.5)
