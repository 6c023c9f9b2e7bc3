# category: native-readers
# signal: leak
# leak: <frame at 0x|codemode|site-packages
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: classmethod(str) on a program class gives a bound method whose attribute reads fall through to str; the guard decides .format by the method object it is asked on, so the real unbound str.format comes back and walks a generator's frames (CVE-2023-41039 class)
def walk():
    yield 1
walker = walk()
class Relay:
    text = classmethod(str)
real_format = Relay.text.format
return real_format("{0.gi_frame} {0.gi_frame.f_code}", walker)
