# Every object a program can reach from the allowed modules, walked as a program sees them:
# each module's members, ordinary instances of their classes (a program subclass of each
# inert base included), the class of each, and what their zero-argument methods return,
# to a small depth. Each value is handed to `collect(path, value)`, a binding of the test
# that classifies it in the host (tests/sandbox/library_reach.py), which also binds `MODS`:
# every allowed module by name.
import json, math, cmath, re, datetime, time, csv, hashlib, uuid, pprint, types, calendar, abc
import itertools, functools, operator, collections, statistics, string, textwrap, html
import urllib.parse, difflib, random, decimal, fractions, heapq, bisect, copy, base64
import unicodedata, io, contextlib, dataclasses, typing, enum, asyncio
import collections.abc as cabc
seen = set()
errors = []
def visit(path, v, depth):
    collect(path, v)
    if depth <= 0 or id(v) in seen:
        return
    seen.add(id(v))
    if isinstance(v, (str, bytes, int, float, complex, bool)) or v is None:
        return
    try:
        names = dir(v)
    except Exception as e:
        errors.append(path + " dir: " + repr(e)[:80])
        return
    for n in names:
        if n[:1] == "_":
            continue
        try:
            a = getattr(v, n)
        except Exception as e:
            continue
        visit(path + "." + n, a, depth - 1)
    if isinstance(v, (list, tuple, set, frozenset)) and len(v) < 20:
        i = 0
        for item in v:
            visit(path + "[" + str(i) + "]", item, depth - 1)
            i += 1
    if isinstance(v, dict) and len(v) < 40:
        for k in list(v):
            visit(path + "[" + repr(k)[:30] + "]", v[k], depth - 1)
for name in MODS:
    visit(name, MODS[name], 3)

def f(x=1):
    return x
async def co():
    return 1
class Sub(json.JSONDecoder):
    pass
class SubE(json.JSONEncoder):
    pass
class T(string.Template):
    pass
class UL(collections.UserList):
    pass
class UD(collections.UserDict):
    pass
class TZ(datetime.tzinfo):
    pass
class Col(enum.Enum):
    RED = 1
class Fl(enum.Flag):
    A = 1
class P(typing.NamedTuple):
    x: int
@dataclasses.dataclass
class DC:
    x: int = 0
    y: list = dataclasses.field(default_factory=list)
class G(typing.Generic[typing.TypeVar("Q")]):
    pass
class Pr(typing.Protocol):
    def m(self): ...
class TD(typing.TypedDict):
    a: int
class E(Exception):
    pass
class CM:
    pass
class CP:
    @functools.cached_property
    def v(self):
        return 1
NT = collections.namedtuple("NT", "a b")
sio = io.StringIO("a,b\n1,2\n")
inst = {
 "JSONDecoder()": json.JSONDecoder(), "JSONDecoder(hooks)": json.JSONDecoder(object_hook=f, parse_float=f, parse_int=f, parse_constant=f, object_pairs_hook=f),
 "JSONEncoder()": json.JSONEncoder(), "JSONEncoder(default)": json.JSONEncoder(default=f),
 "Sub()": Sub(), "SubE()": SubE(), "T('$a')": T("$a"), "Template('$a')": string.Template("$a"),
 "UL()": UL([1]), "UD()": UD(a=1), "TZ()": TZ(), "Col.RED": Col.RED, "Fl.A": Fl.A, "P(1)": P(1), "DC()": DC(),
 "G()": G(), "TD": TD(a=1), "E()": E("x"), "CM()": CM(), "CP()": CP(), "NT(1,2)": NT(1, 2),
 "re.compile": re.compile("(a)(?P<n>b)"), "re.match": re.match("(a)", "a"),
 "date": datetime.date(2020, 1, 1), "datetime": datetime.datetime(2020, 1, 1), "timezone": datetime.timezone.utc,
 "struct_time": time.gmtime(0),
 "csv.reader": csv.reader(["a,b"]), "csv.writer": csv.writer(io.StringIO()), "DictReader": csv.DictReader(io.StringIO("a,b\n1,2\n")),
 "DictWriter": csv.DictWriter(io.StringIO(), ["a"]), "Sniffer": csv.Sniffer(), "sniffed": csv.Sniffer().sniff("a,b\n1,2\n"),
 "excel": csv.excel(), "sha256": hashlib.sha256(b"x"), "blake2b": hashlib.blake2b(), "uuid4": uuid.uuid4(),
 "Calendar": calendar.Calendar(), "itercal": calendar.Calendar().itermonthdates(2020, 1),
 "chain": itertools.chain([1]), "groupby": itertools.groupby([1, 1]), "tee": itertools.tee([1])[0],
 "partial": functools.partial(f, 1), "lru_cache": functools.lru_cache(maxsize=3)(f), "cache": functools.cache(f),
 "cmp_to_key": functools.cmp_to_key(lambda a, b: 0), "cmpkey": functools.cmp_to_key(lambda a, b: 0)(1),
 "cached_property": functools.cached_property(f),
 "itemgetter": operator.itemgetter(1), "attrgetter": operator.attrgetter("a"), "methodcaller": operator.methodcaller("a"),
 "Counter": collections.Counter("ab"), "OrderedDict": collections.OrderedDict(a=1), "defaultdict": collections.defaultdict(list),
 "deque": collections.deque([1]), "ChainMap": collections.ChainMap({}), "UserDict": collections.UserDict(), "UserList": collections.UserList(),
 "keys": {1: 2}.keys(), "NormalDist": statistics.NormalDist(), "TextWrapper": textwrap.TextWrapper(),
 "urlparse": urllib.parse.urlparse("http://a/b?c=d"), "urlsplit": urllib.parse.urlsplit("http://a/b"), "urldefrag": urllib.parse.urldefrag("http://a/b#c"),
 "urlparseb": urllib.parse.urlparse(b"http://a/b"),
 "SequenceMatcher": difflib.SequenceMatcher(None, "ab", "ac"), "SMjunk": difflib.SequenceMatcher(lambda c: False, "ab", "ac"),
 "Differ": difflib.Differ(), "unified_diff": difflib.unified_diff(["a"], ["b"]), "ndiff": difflib.ndiff(["a"], ["b"]),
 "Random": random.Random(1), "Decimal": decimal.Decimal("1.5"), "Context": decimal.Context(), "getcontext": decimal.getcontext(),
 "localcontext": decimal.localcontext(), "Fraction": fractions.Fraction(1, 3), "heapq.merge": heapq.merge([1], [2]),
 "StringIO": io.StringIO("x"), "suppress": contextlib.suppress(ValueError), "nullcontext": contextlib.nullcontext(),
 "closing": contextlib.closing(sio), "aclosing": contextlib.aclosing(sio), "ExitStack": contextlib.ExitStack(),
 "AsyncExitStack": contextlib.AsyncExitStack(), "redirect_stdout": contextlib.redirect_stdout(io.StringIO()),
 "contextmanager": contextlib.contextmanager(lambda: (yield 1)), "field": dataclasses.field(default=1),
 "fields": dataclasses.fields(DC), "TypeVar": typing.TypeVar("X"), "ParamSpec": typing.ParamSpec("PS"), "TypeVarTuple": typing.TypeVarTuple("TT"),
 "NewType": typing.NewType("N", int), "List[int]": typing.List[int], "list[int]": list[int], "Callable": typing.Callable[[int], int],
 "Annotated": typing.Annotated[int, 1], "Union": typing.Union[int, str], "Optional": typing.Optional[int], "Literal": typing.Literal[1],
 "Type[int]": typing.Type[int], "auto": enum.auto(), "Col": Col, "Fl": Fl, "overload": typing.overload(f),
 "Lock": asyncio.Lock(), "Event": asyncio.Event(), "Semaphore": asyncio.Semaphore(), "BoundedSemaphore": asyncio.BoundedSemaphore(),
 "Condition": asyncio.Condition(), "Queue": asyncio.Queue(), "LifoQueue": asyncio.LifoQueue(), "PriorityQueue": asyncio.PriorityQueue(),
 "timeout": asyncio.timeout(5), "TaskGroup": asyncio.TaskGroup(), "SimpleNamespace": types.SimpleNamespace(a=1),
 "JSONDecodeError": json.JSONDecodeError("m", "doc", 1), "range": range(3), "slice": slice(1), "map": map(f, [1]),
}
task = asyncio.create_task(co())
inst["task"] = task
inst["gather"] = asyncio.gather(co())
inst["wait_for"] = asyncio.wait_for(co(), 1)
inst["sleep"] = asyncio.sleep(0)
inst["as_completed"] = asyncio.as_completed([co()])
await task
await inst["gather"]
await inst["wait_for"]
await inst["sleep"]
done, pend = await asyncio.wait([asyncio.create_task(co())])
inst["wait.done"] = list(done)[0]
try:
    json.loads("{")
except Exception as e:
    inst["caught json"] = e
try:
    decimal.Decimal("x")
except Exception as e:
    inst["caught decimal"] = e
try:
    statistics.mean([])
except Exception as e:
    inst["caught stats"] = e
for k in inst:
    visit("I:" + k, inst[k], 3)
for k in list(inst):
    v = inst[k]
    try:
        visit("type(I:" + k + ")", type(v), 2)
    except Exception as e:
        errors.append(k + ": " + repr(e)[:80])
# zero-argument public methods of instances: their results
for k in list(inst):
    v = inst[k]
    for n in dir(v):
        if n[:1] == "_" or n in ("close", "clear", "pop", "popitem", "popleft", "reverse", "release", "cancel", "set", "task_done", "seed", "reset", "truncate", "__next__", "get", "get_nowait", "wait", "acquire", "put", "put_nowait", "join", "cache_clear", "sort", "reverse"):
            continue
        try:
            m = getattr(v, n)
        except Exception:
            continue
        if not callable(m) or isinstance(m, type):
            continue
        try:
            r = m()
        except BaseException as e:
            continue
        if type(r).__name__ == "coroutine":
            continue
        visit("R:" + k + "." + n + "()", r, 2)
return len(seen)
