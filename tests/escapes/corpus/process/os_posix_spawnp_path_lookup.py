# category: process
# signal: marker
# expect: refused
# tripwire: stops os.posix_spawn
# source: variant of os_posix_spawn: posix_spawnp looks the program up on PATH
import os
pid = os.posix_spawnp("touch", ["touch", "{MARKER_PATH}"], {})
os.waitpid(pid, 0)
