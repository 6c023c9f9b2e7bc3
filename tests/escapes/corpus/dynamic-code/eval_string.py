# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops compile
# source: classic; eval of a string
eval("__import__('os').system('touch {MARKER_PATH}')")
