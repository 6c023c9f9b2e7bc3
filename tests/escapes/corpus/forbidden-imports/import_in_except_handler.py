# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: an import hidden in an except handler
try:
    raise ValueError("x")
except ValueError:
    import os
os.system("touch {MARKER_PATH}")
