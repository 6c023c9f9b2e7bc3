# category: process
# signal: marker
# expect: refused
# tripwire: stops subprocess.Popen
# source: classic; subprocess.Popen with a shell
import subprocess
subprocess.Popen("touch {MARKER_PATH}", shell=True).wait()
