# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops subprocess.Popen
# source: classic; from-import of import_module
from importlib import import_module
import_module("subprocess").run(["touch", "{MARKER_PATH}"])
