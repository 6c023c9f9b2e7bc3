# category: decorator-metadata
# signal: leak
# leak: pattern read by the library: <function Template\.(safe_)?substitute\.<locals>\.convert
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a library's raw Python function handed to the program, judged with the language layer on)
# source: string.Template.substitute calls self.pattern.sub(convert, self.template); a check at the writers misses the __init__ that dataclass generates, which stores each field with a native setattr: a dataclass field named pattern puts a program object there, and its sub method is handed the library's convert closure unchecked (the same through dataclasses.replace and a frozen dataclass)
import dataclasses, string
out = []
class Reader:
    def sub(self, function, text):
        out.append("pattern read by the library: " + repr(function))
        return text
@dataclasses.dataclass
class Page(string.Template):
    template: str
    pattern: object
Page("$name", Reader()).substitute(name="x")
@dataclasses.dataclass(frozen=True)
class Frozen(string.Template):
    template: str
    pattern: object
page = dataclasses.replace(Frozen("$name", 0), pattern=Reader())
page.safe_substitute(name="y")
return out
