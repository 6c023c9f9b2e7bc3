# category: host-cost
# expect: refused
# signal: host liveness bounded
# plain: skip (needs the sandbox's child process)
# tripwire: stops gc.get_objects
# source: a forged final value of sixty thousand empty lists, under max_value_bytes: the host decoded and walked it on its event loop, with the garbage collector running over every container
import gc
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
channel.send(protocol.Done(value=b"[" + b"[]," * 60_000 + b"[]]"))
import time
time.sleep(5)
