# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops compile
# source: rebuilding a function around a code object compiled without the policy
def template():
    pass
code = compile("__import__('os').system('touch {MARKER_PATH}')", "x", "exec")
type(template)(code, {"__builtins__": __builtins__})()
