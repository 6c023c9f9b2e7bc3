# category: state
# signal: state
# expect: refused
# tripwire: harmless (a fresh child per run: the changed state dies with it)
# source: the same through setattr()
import math
setattr(math, "pi", 3)
