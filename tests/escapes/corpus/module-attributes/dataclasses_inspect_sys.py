# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a real dataclasses module imports inspect
import dataclasses
dataclasses.inspect.sys.modules["os"].system("touch {MARKER_PATH}")
