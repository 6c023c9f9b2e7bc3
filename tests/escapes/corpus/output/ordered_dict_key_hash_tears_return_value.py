# category: output
# signal: leak
# leak: \["before"\], \{"a": 1\}, \["after"\]
# plain: skip (checks the sandbox's snapshot of the return value)
# tripwire: harmless (no audited event: a key's __hash__ run by OrderedDict iteration)
# source: iterating an OrderedDict's items hashes each key again, so a str enum member key with its own __hash__ runs while the returned value is copied and rewrites a list the copy has not reached yet
import enum
import collections
box = ["before"]
state = {"armed": False}
class K(str, enum.Enum):
    A = "a"
    def __hash__(self):
        if state["armed"]:
            box[0] = "after"
        return str.__hash__(self)
od = collections.OrderedDict()
od[K.A] = 1
state["armed"] = True
return [box, od, box]
