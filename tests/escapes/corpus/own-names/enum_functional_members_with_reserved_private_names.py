# category: own-names
# signal: leak
# leak: \['_(asyncio_future_blocking|loop|is_protocol|abc_impl)'\]
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a class attribute named after a reserved private name, judged with the language layer on)
# source: variant of own-names/class_body_*: the reserved private names (_asyncio_future_blocking, _loop, _is_protocol, _abc_impl) given as member names to the enum functional API, in every shape it takes (a list, a string, pairs, a dict) and on a program enum base with methods; a member named _asyncio_future_blocking on the class makes asyncio.isfuture true for every member
import enum
out = []
for names in (["_asyncio_future_blocking"], "_loop", [("_is_protocol", 1)], {"_abc_impl": 2}):
    try:
        E = enum.Enum("E", names)
        out.append([m.name for m in E])
        out.append(repr(getattr(E, "_loop", None)))
    except Exception as e:
        out.append(repr(e)[:150])
class Base(enum.Enum):
    def done(self):
        return 1
try:
    E2 = Base("E2", ["_asyncio_future_blocking"])
    out.append([m.name for m in E2])
except Exception as e:
    out.append(repr(e)[:150])
return out
