# category: process
# signal: marker
# expect: refused
# tripwire: stops import pty
# source: pty.fork is a second fork entry point
import os
import pty
pid, fd = pty.fork()
if pid == 0:
    os.close(os.open("{MARKER_PATH}", os.O_CREAT | os.O_WRONLY, 0o644))
    os._exit(0)
os.waitpid(pid, 0)
