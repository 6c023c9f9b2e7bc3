# category: bridge
# expect: refused
# plain: skip (needs the sandbox's child process)
# signal: handler liveness
# tripwire: stops gc.get_objects
# source: frames after a forged Done: a call for an undeclared tool and a second Done
import gc
import sys
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
channel.send(protocol.Done(value=b"1"))
channel.send(protocol.Call(id=0, name="admin-delete-everything", args=b"{}"))
channel.send(protocol.Done(value=b"2"))
