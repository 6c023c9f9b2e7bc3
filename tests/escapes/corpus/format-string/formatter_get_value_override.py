# category: format-string
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a Formatter subclass whose get_value hands out dunder-bearing objects
import string
class Walker(string.Formatter):
    def get_value(self, key, args, kwargs):
        return len
    def format_field(self, value, format_spec):
        value("os").system("touch {MARKER_PATH}")
        return ""
Walker().format("{anything.__self__.__import__}")
