# category: host-cost
# expect: refused
# signal: host handler liveness
# plain: skip (needs the sandbox's child process)
# tripwire: stops gc.get_objects
# source: forged call frames, each a list of a quarter million items built cheaply in the child: the host decoded every one on its event loop before it checked the bytes in flight
import gc
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
args = b'{"x":[' + b"0," * 250_000 + b"0]}"
for n in range(40):
    channel.send(protocol.Call(id=n, name="search", args=args))
import time
time.sleep(5)
