# category: bridge
# expect: refused
# plain: skip (needs the sandbox's child process)
# signal: liveness bounded
# tripwire: stops gc.get_objects
# source: a forged Done frame whose value is far past max_value_bytes, sent by the child after its own check
import gc
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
channel.send(protocol.Done(value=b'"' + b'x' * 400000 + b'"'))
