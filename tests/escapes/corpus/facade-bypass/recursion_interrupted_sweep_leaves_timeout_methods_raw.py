# category: facade-bypass
# signal: leak
# leak: <enum '_State'>|asyncio\.events\.(Timer)?Handle|<function Timeout\.
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure, judged with the language layer on)
# source: rule 7's sweep (sandbox._library._sweep) records a class in _swept before it replaces its methods; a RecursionError raised part way (the program calls asyncio.timeout() just under the recursion limit, so handed_out -> reveal_class -> _sweep runs out of stack at _SelfChecked(...)) leaves Timeout marked swept with its raw methods, never swept again: expired() hands asyncio's private _State members to a program __eq__, reschedule() schedules a program callback on the real loop and stores the loop's Handle on a program object
import asyncio
state = {"got": None}
def pad(k):
    if k == 0:
        return type(asyncio.timeout(100))
    return pad(k - 1)
def deep(n):
    try:
        deep(n + 1)
    except RecursionError:
        pass
    k = 40
    while state["got"] is None and k >= 0:
        try:
            state["got"] = pad(k)
        except RecursionError:
            pass
        k -= 1
deep(0)
T = state["got"]
got = []
class Probe:
    def __eq__(self, other):
        got.append(other)
        return False
    def __hash__(self):
        return 1
class Fake:
    pass
f = Fake()
f._state = Probe()
T.expired(f)
S = type(got[0])
g = Fake()
g._state = S("active")
g._timeout_handler = None
g._on_timeout = lambda: None
T.reschedule(g, 0)
return repr(T.reschedule) + " " + repr(S) + " " + repr(list(S)) + " " + repr(type(g._timeout_handler))
