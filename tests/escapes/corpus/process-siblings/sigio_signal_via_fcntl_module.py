# category: process-siblings
# signal: victim
# expect: refused
# plain: as-nobody (the attack is on a process of the same unprivileged uid)
# tripwire: stops fcntl.fcntl
# source: the same asynchronous-I/O signal through the fcntl module and a pipe
import fcntl
import os
read_end, write_end = os.pipe()
fcntl.fcntl(read_end, fcntl.F_SETOWN, {VICTIM_PID})
fcntl.fcntl(read_end, 10, 9)
fcntl.fcntl(read_end, fcntl.F_SETFL, fcntl.fcntl(read_end, fcntl.F_GETFL) | os.O_ASYNC)
os.write(write_end, b"x")
