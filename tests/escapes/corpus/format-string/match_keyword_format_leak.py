# category: format-string
# signal: leak
# leak: <module 'builtins'
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: a keyword class pattern reads str.format natively, past the guard that swaps in the guarded formatter
match "{0.__self__}":
    case str(format=render):
        return render(len)
return "no match"
