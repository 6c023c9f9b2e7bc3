# category: format-string
# signal: leak
# leak: <module '|'__builtins__': 
# expect: refused
# tripwire: stops open
# source: CVE-2023-41039 class: format_map walking into a function's globals
def helper():
    pass
return "{f.__globals__}".format_map({"f": helper})
