# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops open
# source: a real dataclasses module imports builtins
import dataclasses
dataclasses.builtins.open("{MARKER_PATH}", "w").close()
