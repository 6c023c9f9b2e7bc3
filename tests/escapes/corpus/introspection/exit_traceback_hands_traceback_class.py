# category: introspection
# signal: leak
# leak: <class 'traceback'>
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure of a class the runtime withholds, judged with the language layer on)
# source: a with statement hands the program's own __exit__ (and an ExitStack hands a pushed callback) the real traceback object as its third argument; check_exit_details checks the class and the exception but passes the traceback as it is, so the program holds a TracebackType object and, through type(), the class the runtime withholds (native-readers/nested_operand_hands_traceback_class reached the same class through a hash collision)
import contextlib
out = []
class CM:
    def __enter__(self):
        return self
    def __exit__(self, kind, error, tb):
        out.append(repr(type(tb)))
        out.append(",".join(n for n in dir(type(tb)) if not n.startswith("_")))
        out.append("line " + str(tb.tb_lineno))
        return True
with CM():
    1 / 0
def pushed(kind, error, tb):
    out.append("exit stack: " + repr(type(tb)))
    return True
with contextlib.ExitStack() as stack:
    stack.push(pushed)
    raise ValueError("x")
return out
