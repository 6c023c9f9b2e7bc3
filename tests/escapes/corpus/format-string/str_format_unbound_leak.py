# category: format-string
# signal: leak
# leak: <module 'builtins'
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: CVE-2023-41039 class: the unbound str.format method
return str.format("{0.__self__}", len)
