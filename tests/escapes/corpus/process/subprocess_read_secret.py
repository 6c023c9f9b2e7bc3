# category: process
# signal: secret
# expect: refused
# tripwire: stops open
# source: a helper binary reads the file for the program
import subprocess
return subprocess.check_output(["cat", "{SECRET_PATH}"]).decode()
