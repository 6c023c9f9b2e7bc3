# category: introspection
# signal: leak
# leak: traceback at line \d+
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a real traceback object, a runtime object the program must not hold, judged with the language layer on)
# source: Python 3.11's contextmanager __exit__ calls gen.throw(type, value, traceback); a generator delegating with yield from to an iterator that is not a generator forwards all three arguments to that iterator's throw method, so a program class deriving from collections.abc.Generator receives the real traceback object as the third argument of its own throw (the closed exit route, introspection/exit_traceback_hands_traceback_class, by the delegation path)
import contextlib, collections.abc
out = []
class Inner(collections.abc.Generator):
    def send(self, value):
        return "step"
    def throw(self, kind, error=None, tb=None):
        out.append("traceback at line " + str(tb.tb_lineno) + ", lasti " + str(tb.tb_lasti))
        raise StopIteration
@contextlib.contextmanager
def managed():
    yield from Inner()
with managed():
    1 / 0
return out
