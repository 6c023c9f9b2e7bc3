# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: smolagents CVE-2025-5120 class: an allowed module's private alias of os
import random
getattr(random, "_os").system("touch {MARKER_PATH}")
