# category: format-string
# signal: leak
# leak: <frame at|<module '|'__builtins__': 
# expect: refused
# source: a generator's frame reached and rendered through format
def gen():
    yield 1
return "{0.gi_frame.f_globals}".format(gen())
