# category: bridge
# signal: handler leak
# leak: <bridge\.|_Calls object|ChildChannel|<Future|StreamWriter
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (the host serves only the tools the program was given)
# source: a tool call's object answers iteration, len, indexing, `in`, `async for` and the read of a missing name with a message; every door that could hand out its underscore slots (getattr with a default, attrgetter, str.format, copy, deepcopy, vars, dir then getattr) must stay shut, or the call's channel would send a call for any tool name
import copy
import operator
call = tools.echo(value=1)
seen = []
def attempt(label, make):
    try:
        got = make()
    except Exception as error:
        seen.append([label, type(error).__name__])
        return None
    seen.append([label, repr(got)[:120]])
    return got
found = []
for name in ("_calls", "_serial", "_args", "_name", "__dict__", "__slots__", "__reduce_ex__"):
    found.append(attempt("getattr " + name, lambda: getattr(call, name, None)))
    found.append(attempt("attrgetter " + name, lambda: operator.attrgetter(name)(call)))
    found.append(attempt("format " + name, lambda: ("{0." + name + "}").format(call)))
for label, make in (
    ("copy", lambda: copy.copy(call)),
    ("deepcopy", lambda: copy.deepcopy(call)),
    ("vars", lambda: vars(call)),
    ("dir", lambda: [getattr(call, n, None) for n in dir(call)]),
    ("missing", lambda: call.items),
    ("iter", lambda: list(call)),
    ("index", lambda: call[0]),
    ("len", lambda: len(call)),
    ("in", lambda: 1 in call),
):
    found.append(attempt(label, make))
for got in found:
    if got is not None and type(got).__name__ == "_Calls":
        forged = type(call)(got, "admin_delete_everything", b"{}", None, None)
        seen.append(await forged)
seen.append(await call)
return seen
