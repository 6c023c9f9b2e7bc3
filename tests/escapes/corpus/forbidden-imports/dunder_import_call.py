# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: classic; __import__ as a function
__import__("os").system("touch {MARKER_PATH}")
