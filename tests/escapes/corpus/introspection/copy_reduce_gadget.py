# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: copy calls a class's __reduce__ result outside the policy
import copy
class Gadget:
    def __reduce__(self):
        return (getattr, (len, "__self__"))
copy.copy(Gadget()).__import__("os").system("touch {MARKER_PATH}")
