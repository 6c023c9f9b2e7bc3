# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops compile
# source: code.replace swaps the constants and names of an existing function
def template():
    return print("touch {MARKER_PATH}")
other = compile("__import__('os').system('touch {MARKER_PATH}')", "x", "eval")
template.__code__ = other
template()
