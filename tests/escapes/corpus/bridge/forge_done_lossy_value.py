# category: bridge
# expect: refused
# plain: skip (needs the sandbox's child process)
# signal: liveness
# tripwire: stops gc.get_objects
# source: a forged Done frame whose JSON decodes to values lossless JSON forbids (infinity, -0.0, a lone surrogate)
import gc
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
channel.send(protocol.Done(value=b'{"big": 1e400, "zero": -0.0, "text": "\\ud800"}'))
