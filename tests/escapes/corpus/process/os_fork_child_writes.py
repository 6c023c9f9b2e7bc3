# category: process
# signal: marker
# expect: refused
# tripwire: stops os.fork
# source: fork, then act in the child
import os
pid = os.fork()
if pid == 0:
    os.close(os.open("{MARKER_PATH}", os.O_CREAT | os.O_WRONLY, 0o644))
    os._exit(0)
os.waitpid(pid, 0)
