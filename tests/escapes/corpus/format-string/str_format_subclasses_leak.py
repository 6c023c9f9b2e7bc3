# category: format-string
# signal: leak
# leak: built-in method __subclasses__|_wrap_close'
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: CVE-2023-41039 class: the subclasses list rendered through format
return "{0.__class__.__base__.__subclasses__}".format(())
