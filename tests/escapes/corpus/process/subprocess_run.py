# category: process
# signal: marker
# expect: refused
# source: classic; subprocess.run without a shell
import subprocess
subprocess.run(["touch", "{MARKER_PATH}"], check=False)
