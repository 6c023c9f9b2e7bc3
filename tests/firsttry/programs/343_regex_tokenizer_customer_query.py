# description: Parse a small customer filter language with a regex tokenizer and apply it
# value: {"tokens": [["NAME", "tier", 0], ["OP", ":", 4], ["NAME", "enterprise", 5], ["AND", "AND", 16], ["NAME", "country", 20], ["OP", "=", 27], ["NAME", "US", 28], ["OR", "OR", 31], ["NAME", "tags", 34], ["OP", ":", 38], ["NAME", "beta", 39], ["AND", "AND", 44], ["NAME", "signup_date", 48], ["OP", ">=", 59], ["STRING", "2022-01-01", 61]], "clauses": 2, "matched": ["c2", "c6"], "error": "unexpected '&' at 9"}
# logs: ["['NAME:tier', 'OP::', 'NAME:enterprise', 'AND:AND', 'NAME:country', 'OP:=', 'NAME:US', 'OR:OR', 'NAME:tags', 'OP::', 'NAME:beta', 'AND:AND', 'NAME:signup_date', 'OP:>=', 'STRING:2022-01-01']"]
import re
from typing import NamedTuple


class Token(NamedTuple):
    kind: str
    value: str
    pos: int


TOKEN_SPEC = [
    ("NUMBER", r"\d+(?:\.\d+)?"),
    ("STRING", r'"[^"]*"'),
    ("OP", r">=|<=|!=|[:=<>]"),
    ("AND", r"\bAND\b"),
    ("OR", r"\bOR\b"),
    ("NAME", r"[A-Za-z_][A-Za-z0-9_.-]*"),
    ("SKIP", r"\s+"),
    ("MISMATCH", r"."),
]
MASTER = re.compile("|".join(f"(?P<{name}>{pattern})" for name, pattern in TOKEN_SPEC))


def tokenize(text: str) -> list[Token]:
    out = []
    for m in MASTER.finditer(text):
        kind = m.lastgroup
        if kind == "SKIP":
            continue
        if kind == "MISMATCH":
            raise SyntaxError(f"unexpected {m.group()!r} at {m.start()}")
        value = m.group()[1:-1] if kind == "STRING" else m.group()
        out.append(Token(kind, value, m.start()))
    return out


def clauses(tokens):
    groups, current = [], []
    for tok in tokens:
        if tok.kind == "OR":
            groups.append(current)
            current = []
        elif tok.kind != "AND":
            current.append(tok)
    groups.append(current)
    return [[tuple(g[i:i + 3]) for i in range(0, len(g), 3)] for g in groups]


def test(customer, field, op, value):
    actual = customer.get(field) if field != "country" else customer["address"]["country"]
    if field == "tags":
        return value in customer["tags"]
    if op in (":", "="):
        return str(actual) == value
    if op == "!=":
        return str(actual) != value
    return {">": actual > value, "<": actual < value, ">=": actual >= value, "<=": actual <= value}[op]


query = 'tier:enterprise AND country=US OR tags:beta AND signup_date>="2022-01-01"'
tokens = tokenize(query)
plan = clauses(tokens)
customers = await tools.list_customers()
matched = [
    c["id"] for c in customers
    if any(all(test(c, f.value, op.value, v.value) for f, op, v in clause) for clause in plan)
]
try:
    tokenize("tier:pro & x")
    err = None
except SyntaxError as e:
    err = str(e)
print([f"{t.kind}:{t.value}" for t in tokens])
return {"tokens": [list(t) for t in tokens], "clauses": len(plan), "matched": matched, "error": err}
