# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# expect: refused
# plain: skip (a thread bomb)
# source: classic thread bomb
import threading
import time
while True:
    threading.Thread(target=time.sleep, args=(1000,)).start()
