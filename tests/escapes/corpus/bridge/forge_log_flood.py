# category: bridge
# expect: refused
# plain: skip (needs the sandbox's child process)
# signal: liveness bounded
# tripwire: stops gc.get_objects
# source: forged log frames far past the log cap, bypassing the child's own budget
import gc
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
line = "x" * 1000
for _ in range(2000):
    channel.send(protocol.Log(lines=(line,) * 16))
