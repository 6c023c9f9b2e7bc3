# category: state
# signal: state
# expect: refused
# source: swapping a module in sys.modules
import sys
sys.modules["json"] = sys.modules["math"]
