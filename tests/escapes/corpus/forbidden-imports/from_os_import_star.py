# category: forbidden-imports
# signal: marker
# kinds: compile
# plain: skip (a star import in a function body is a syntax error in any Python)
# tripwire: harmless (plain Python refuses it at compile time)
# source: star import binds every public name
from os import *
system("touch {MARKER_PATH}")
