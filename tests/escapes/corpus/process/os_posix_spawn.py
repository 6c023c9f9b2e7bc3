# category: process
# signal: marker
# expect: refused
# tripwire: stops os.posix_spawn
# source: posix_spawn avoids fork() and may use vfork/clone3 internally
import os
pid = os.posix_spawn("/usr/bin/touch", ["touch", "{MARKER_PATH}"], {})
os.waitpid(pid, 0)
