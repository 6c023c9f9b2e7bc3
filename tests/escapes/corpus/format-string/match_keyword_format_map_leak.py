# category: format-string
# signal: leak
# leak: <module 'builtins'
# expect: refused
# source: the same through format_map
match "{f.__self__}":
    case str(format_map=render):
        return render({"f": len})
return "no match"
