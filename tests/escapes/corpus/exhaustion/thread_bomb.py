# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# expect: refused
# plain: skip (a thread bomb)
# tripwire: harmless (threads raise no audit event in CPython 3.11; the host's wall clock ends it)
# source: classic thread bomb
import threading
import time
while True:
    threading.Thread(target=time.sleep, args=(1000,)).start()
