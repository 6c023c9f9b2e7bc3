# category: format-string
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: GHSA-hp3v-5vw7-fx9w class: a Formatter subclass receives each walked object in format_field
import string
class Walker(string.Formatter):
    def format_field(self, value, format_spec):
        value("os").system("touch {MARKER_PATH}")
        return ""
Walker().format("{0.__self__.__import__}", len)
