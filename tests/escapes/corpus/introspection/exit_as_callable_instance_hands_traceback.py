# category: introspection
# signal: leak
# leak: <class 'traceback'>
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure of a class the runtime withholds, judged with the language layer on)
# source: variant of introspection/exit_traceback_hands_traceback_class: the class body binds __exit__ to an instance of a class with __call__, which is not a descriptor, so a with statement would call it with (type, value, traceback) and no self, past any wrapper keyed on functions
out = []
class Caller:
    def __call__(self, *details):
        out.append(repr(type(details[-1])))
        return True
class CM:
    def __enter__(self):
        return self
    __exit__ = Caller()
with CM():
    1 / 0
return out
