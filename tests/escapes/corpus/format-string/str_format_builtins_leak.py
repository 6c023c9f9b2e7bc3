# category: format-string
# signal: leak
# leak: <module 'builtins'
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: CVE-2023-41039: str.format walks attributes in C, past the attribute guard
return "{0.__self__}".format(len)
