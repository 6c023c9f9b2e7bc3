# category: introspection
# signal: leak
# leak: <class 'traceback'>
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure of a class the runtime withholds, judged with the language layer on)
# source: variant of introspection/traceback_via_exc_info: a match class pattern's keyword reads __traceback__ natively off the caught exception
out = []
try:
    1 / 0
except ZeroDivisionError as error:
    match error:
        case ZeroDivisionError(__traceback__=tb):
            out.append(repr(type(tb)))
return out
