# category: exhaustion
# signal: limit
# kinds: exception worker-exit timeout
# expect: refused
# plain: skip (a fork bomb)
# tripwire: stops os.fork
# source: classic fork bomb; every layer must stop it before the machine suffers
import os
while True:
    os.fork()
