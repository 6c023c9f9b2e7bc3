# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops import runpy
# source: runpy runs a module of the program's choosing
import runpy
runpy.run_module("this")
import os
os.system("touch {MARKER_PATH}")
