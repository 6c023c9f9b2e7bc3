# category: native-readers
# signal: leak
# leak: hook ran
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the program's own methods run by a library cache and os.fspath, judged with the language layer on)
# source: fnmatch keeps compiled patterns in a process-wide lru_cache keyed by the pattern (hash and ==, with another pattern as the operand) and reads names through os.normcase/os.fspath; a str or bytes subclass of the program's would have its methods run inside that library code
import fnmatch
ran = []
class Text(str):
    def __hash__(self):
        ran.append("hook ran: hash")
        return 1
    def __eq__(self, other):
        ran.append("hook ran: eq " + repr(other))
        return True
    def __str__(self):
        ran.append("hook ran: str")
        return "zz"
class Data(bytes):
    def __hash__(self):
        ran.append("hook ran: bytes hash")
        return 1
    def __eq__(self, other):
        ran.append("hook ran: bytes eq " + repr(other))
        return True
found = []
def attempt(label, make):
    try:
        found.append([label, repr(make())])
    except Exception as error:
        found.append([label, type(error).__name__])
attempt("fnmatch", lambda: fnmatch.fnmatch(Text("ab"), Text("a*")))
attempt("fnmatchcase", lambda: fnmatch.fnmatchcase(Text("ab"), Text("a?")))
attempt("cached again", lambda: fnmatch.fnmatchcase(Text("zz"), Text("a?")))
attempt("filter", lambda: fnmatch.filter([Text("ab"), Text("zz"), "ax"], Text("a*")))
attempt("filter copies", lambda: [type(name).__name__ for name in fnmatch.filter([Text("ab")], "a*")])
attempt("translate", lambda: fnmatch.translate(Text("a*")))
attempt("bytes", lambda: fnmatch.fnmatch(Data(b"ab"), Data(b"a*")))
attempt("bytes filter", lambda: fnmatch.filter([Data(b"ab")], Data(b"a?")))
attempt("mixed", lambda: fnmatch.fnmatch(b"ab", "a*"))
attempt("translate bytes", lambda: fnmatch.translate(b"a*"))
attempt("backtracking", lambda: fnmatch.fnmatch("a" * 60, "*a" * 30 + "b"))
return [found, ran]
