# category: format-string
# signal: leak
# leak: built-in method __subclasses__|_wrap_close'
# expect: refused
# source: CVE-2023-41039 class: the subclasses list rendered through format
return "{0.__class__.__base__.__subclasses__}".format(())
