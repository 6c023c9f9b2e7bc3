# category: check-then-use
# signal: handler liveness
# expect: refused
# tripwire: harmless (the host checks every tool name, and the str subclass does not encode, in every mode)
# source: the child's tools object checks a name with `name in declared`, which a str subclass passes by hashing and comparing like a declared name, then sends the name's own text; the host must check the name it receives, not trust the child's check
class Liar(str):
    def __hash__(self):
        return hash("echo")
    def __eq__(self, other):
        return True
stub = tools[Liar("undeclared_tool")]
return await stub(text="hello")
