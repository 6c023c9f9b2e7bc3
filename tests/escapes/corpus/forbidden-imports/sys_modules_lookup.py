# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: classic; sys.modules holds every loaded module
import sys
sys.modules["os"].system("touch {MARKER_PATH}")
