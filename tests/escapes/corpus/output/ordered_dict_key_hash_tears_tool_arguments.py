# category: output
# signal: leak
# leak: \["before"\], \{"a": 1\}, \["after"\]
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (no audited event: a key's __hash__ run by OrderedDict iteration)
# source: a tool's arguments are copied once at the call, and an OrderedDict key's own __hash__ runs during that copy and rewrites a list the copy has not reached yet, so the tool receives arguments that never existed
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
return await tools.echo(rows=[box, od, box])
