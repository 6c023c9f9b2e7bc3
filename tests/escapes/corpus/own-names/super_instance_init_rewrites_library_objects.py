# category: own-names
# signal: leak
# leak: program-rewrote-(library-exception|typing-List)
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a write past the write guard, judged with the language layer on)
# source: the constructor check (_guards._initializer) wraps only an unbound __init__ read from a class; super(C, obj).__init__ over a library object is a bound method-wrapper or bound method, handed out raw, so a base class's constructor re-runs on objects the program did not make (a library exception's args, typing's process-wide List alias)
import decimal, typing
out = []
try:
    decimal.Decimal("not a number")
except decimal.InvalidOperation as error:
    caught = error
# The texts are built, not written, so that a refusal's traceback (which quotes
# the line) does not read as the leak.
super(ArithmeticError, caught).__init__("-".join(["program", "rewrote", "library", "exception"]))
out.append(repr(caught))
alias = typing.List
super(type(alias), alias).__init__(dict, inst=True, name="-".join(["program", "rewrote", "typing", "List"]))
out.append(repr(typing.List[str, int]))
return out
