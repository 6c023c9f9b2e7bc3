# category: introspection
# signal: leak
# leak: traceback at line \d+
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a real traceback object, a runtime object the program must not hold, judged with the language layer on)
# source: type() of what contextlib.contextmanager returns is the real contextlib._GeneratorContextManager; called directly it takes any callable and does not wrap the object it returns, so its __exit__ calls that object's throw(type, value, traceback) with the real traceback (the closed route introspection/yield_from_throw_hands_traceback, by the class instead of the decorator)
import contextlib
out = []
class Steps:
    def __next__(self):
        return "entered"
    def throw(self, kind, error=None, tb=None):
        out.append("traceback at line " + str(tb.tb_lineno) + ", lasti " + str(tb.tb_lasti))
        raise StopIteration
@contextlib.contextmanager
def managed():
    yield
Manager = type(managed())
with Manager(Steps, (), {}):
    1 / 0
return out
