# category: process
# signal: marker
# expect: refused
# tripwire: stops open
# source: variant of os_system: subprocess.getoutput runs a shell
import subprocess
subprocess.getoutput("touch {MARKER_PATH}")
