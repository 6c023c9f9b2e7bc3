# category: facade-bypass
# signal: leak
# leak: <enum '_State'>|asyncio\.events\.(Timer)?Handle|<function Timeout\.
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure, judged with the language layer on)
# source: type() of the real Timeout asyncio.timeout() returns gives a class no façade lists, so its public methods, read from the class, ran with a program object as self: expired() compared the program's _state with asyncio's private _State members (handing them to the program's __eq__), and reschedule() scheduled a program callback on the real loop and stored the loop's TimerHandle on the program object
import asyncio
T = type(asyncio.timeout(1))
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
