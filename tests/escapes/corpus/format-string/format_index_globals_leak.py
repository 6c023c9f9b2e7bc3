# category: format-string
# signal: leak
# leak: <module '|'__name__': 'builtins'
# expect: refused
# tripwire: stops open
# source: format's [key] item access into a real namespace
import json
return "{0.__globals__[__builtins__]}".format(json.dumps)
