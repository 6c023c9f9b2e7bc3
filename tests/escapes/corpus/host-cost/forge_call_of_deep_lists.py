# category: host-cost
# expect: refused
# signal: host handler liveness
# plain: skip (needs the sandbox's child process)
# tripwire: stops gc.get_objects
# source: a forged call whose arguments hold hundreds of lists nested 450 deep, under the frame cap: decoding and checking the nesting cost the host's event loop a walk of every level
import gc
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
deep = b"[" * 450 + b"0" + b"]" * 450
channel.send(protocol.Call(id=0, name="search", args=b'{"x":[' + b",".join([deep] * 500) + b"]}"))
import time
time.sleep(5)
