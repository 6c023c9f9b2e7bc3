# category: process
# signal: marker
# expect: refused
# tripwire: stops import pty
# source: variant of pty_fork: pty.spawn forks and execs on a pseudo terminal
import pty
pty.spawn(["/bin/sh", "-c", "touch {MARKER_PATH}"])
