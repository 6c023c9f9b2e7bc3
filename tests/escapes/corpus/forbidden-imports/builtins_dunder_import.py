# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: __import__ reached through the builtins module
import builtins
getattr(builtins, "__import__")("os").system("touch {MARKER_PATH}")
