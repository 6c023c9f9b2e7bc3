# category: format-string
# signal: leak
# leak: <frame at|<module '|'__builtins__': 
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: a generator's frame reached and rendered through format
def gen():
    yield 1
return "{0.gi_frame.f_globals}".format(gen())
