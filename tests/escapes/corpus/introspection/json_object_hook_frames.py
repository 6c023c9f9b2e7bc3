# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: a json object hook runs in a frame whose callers are the real json module
import json
found = []
def hook(obj):
    try:
        raise ValueError("x")
    except ValueError as error:
        found.append(error.__traceback__.tb_frame.f_back)
    return obj
json.loads('{"a": 1}', object_hook=hook)
frame = found[0]
while frame is not None:
    imp = frame.f_builtins.get("__import__")
    if imp is not None:
        imp("os").system("touch {MARKER_PATH}")
        break
    frame = frame.f_back
