# category: state
# signal: state
# expect: refused
# tripwire: harmless (a fresh child per run: the changed state dies with it)
# source: swapping a module in sys.modules
import sys
sys.modules["json"] = sys.modules["math"]
