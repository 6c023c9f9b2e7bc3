# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: classic; importlib.import_module
import importlib
importlib.import_module("os").system("touch {MARKER_PATH}")
