# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: smolagents CVE-2025-9959 class: dunder names assembled at run time and passed to getattr
under = "_" * 2
base = getattr(getattr((), under + "class" + under), under + "base" + under)
for cls in getattr(base, under + "subclasses" + under)():
    if getattr(cls, under + "name" + under) == "_wrap_close":
        init = getattr(cls, under + "init" + under)
        getattr(init, under + "globals" + under)["system"]("touch {MARKER_PATH}")
