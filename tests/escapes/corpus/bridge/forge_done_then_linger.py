# category: bridge
# expect: refused
# plain: skip (needs the sandbox's child process)
# signal: liveness
# tripwire: stops gc.get_objects
# source: a Done frame and then no exit: the child must not outlive its run
import gc
import os
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
channel.send(protocol.Done(value=b"1"))
import time
time.sleep(1000)
