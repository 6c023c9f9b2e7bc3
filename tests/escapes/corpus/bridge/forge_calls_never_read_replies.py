# category: bridge
# expect: refused
# plain: skip (needs the sandbox's child process)
# signal: limit handler
# kinds: timeout worker-exit
# tripwire: stops gc.get_objects
# source: many large calls whose replies the child never reads, so that the host's writes block on a full pipe
import gc
import sys
import time
protocol = sys.modules["bridge.protocol"]
channel = next(o for o in gc.get_objects() if type(o).__name__ == "ChildChannel")
payload = b'{"blob": "' + b"x" * 60000 + b'"}'
for call_id in range(100):
    channel.send(protocol.Call(id=call_id, name="echo", args=payload))
time.sleep(1000)
