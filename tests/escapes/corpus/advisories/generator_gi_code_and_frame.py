# category: advisories
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: CVE-2023-37271: gi_code/gi_frame attributes of generators
def gen():
    yield gen_obj.gi_frame.f_back
gen_obj = gen()
frame = next(gen_obj)
frame.f_back.f_builtins["__import__"]("os").system("touch {MARKER_PATH}")
