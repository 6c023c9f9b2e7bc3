# category: introspection
# signal: leak
# leak: <module 'builtins'|<module
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: pyjail builtin-function __self__ route, read by a match class pattern instead of an attribute
match len:
    case object(__self__=s):
        return repr(s)
