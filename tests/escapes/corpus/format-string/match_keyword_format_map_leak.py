# category: format-string
# signal: leak
# leak: <module 'builtins'
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: the same through format_map
match "{f.__self__}":
    case str(format_map=render):
        return render({"f": len})
return "no match"
