# category: forbidden-imports
# signal: marker
# expect: refused
# tripwire: stops gc.get_objects
# source: the garbage collector lists every live object, modules included
import gc
for obj in gc.get_objects():
    if type(obj).__name__ == "module" and getattr(obj, "__name__", "") == "os":
        obj.system("touch {MARKER_PATH}")
        break
