# category: hand-stepped-coroutines
# signal: leak
# leak: <module 'builtins'|_asyncio\.Future|<Future
# expect: refused
# tripwire: harmless (it only discloses interpreter internals, judged with the language layer on)
# source: a mapping pattern's key is a dotted name read natively (a library coroutine's send) and handed to the subject's own get(); stepping asyncio.sleep by hand yields the real Future it awaits
import asyncio
got = []
class Probe(dict):
    def get(self, key, default=None):
        got.append(key)
        return default
sleeper = asyncio.sleep(5)
match Probe(a=1):
    case {sleeper.send: _}:
        pass
future = got[0](None)
sleeper.close()
return repr(type(future)) + " " + repr(future)
