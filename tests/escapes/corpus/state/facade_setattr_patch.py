# category: state
# signal: state
# expect: refused
# source: the same through setattr()
import math
setattr(math, "pi", 3)
