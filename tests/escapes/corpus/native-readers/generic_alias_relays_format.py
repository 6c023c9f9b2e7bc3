# category: native-readers
# signal: leak
# leak: <frame at 0x|f_back|codemode|site-packages
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: types.GenericAlias over a str relays .format to the real str.format (the guard decides format by the type of the object it is asked on, which is the alias), whose fields walk a generator's frames (CVE-2023-41039 class)
GenericAlias = type(list[int])
def walk():
    yield 1
walker = walk()
template = GenericAlias("{0.gi_frame} {0.gi_frame.f_back} {0.gi_frame.f_globals}", ())
return template.format(walker)
