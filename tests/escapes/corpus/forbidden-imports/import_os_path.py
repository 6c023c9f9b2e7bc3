# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a dotted import binds the top-level package name
import os.path
os.system("touch {MARKER_PATH}")
