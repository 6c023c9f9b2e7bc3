# category: process
# signal: marker
# expect: refused
# tripwire: stops subprocess.Popen
# source: classic; subprocess.run without a shell
import subprocess
subprocess.run(["touch", "{MARKER_PATH}"], check=False)
