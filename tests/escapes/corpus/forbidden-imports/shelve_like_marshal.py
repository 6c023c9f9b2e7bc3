# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops compile
# source: marshal builds code objects from bytes
import marshal
import types
source = "__import__('os').system('touch {MARKER_PATH}')"
code = marshal.loads(marshal.dumps(compile(source, "x", "exec")))
types.FunctionType(code, {})()
