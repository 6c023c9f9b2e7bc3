# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops subprocess.Popen
# source: an import hidden in a nested function body
def helper():
    import subprocess
    return subprocess
helper().run(["touch", "{MARKER_PATH}"])
