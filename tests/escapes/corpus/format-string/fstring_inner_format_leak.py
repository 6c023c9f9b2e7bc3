# category: format-string
# signal: leak
# leak: <module 'builtins'
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: a str.format call hidden inside an f-string
template = "{0.__self__}"
return f"{template.format(len)}"
