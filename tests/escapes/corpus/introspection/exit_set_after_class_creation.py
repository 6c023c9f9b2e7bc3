# category: introspection
# signal: leak
# leak: <class 'traceback'>
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure of a class the runtime withholds, judged with the language layer on)
# source: variant of introspection/exit_traceback_hands_traceback_class: __exit__ set on the class after its statement ran (setattr, object.__setattr__), so no wrapper the class statement applies would see it
out = []
def helper(self, kind, error, tb):
    out.append(repr(type(tb)))
    return True
class CM:
    def __enter__(self):
        return self
for setter in (setattr, object.__setattr__):
    try:
        setter(CM, "__exit__", helper)
    except Exception as error:
        out.append(type(error).__name__)
try:
    with CM():
        1 / 0
except TypeError:
    pass
return out
