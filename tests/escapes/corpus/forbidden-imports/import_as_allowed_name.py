# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: aliasing a forbidden module to an allowed module's name
import os as json
json.system("touch {MARKER_PATH}")
