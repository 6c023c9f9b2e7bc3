# description: Filter customers with a small query language parsed by a recursive-descent parser
# value: {"tier = \"pro\" or tier = \"enterprise\"": ["c1", "c2", "c4", "c6"], "address.country = \"US\" and not tags ~ \"vip\"": ["c2"], "(tier != \"free\" and tags ~ \"beta\") or name ~ \"turing\"": ["c1", "c2", "c3"], "tier = pro": "syntax error: expected string, got ('ident', 'pro')"}
# logs: ["'tier = \"pro\" or tier = \"enterprise\"'                        -> ['c1', 'c2', 'c4', 'c6']", "'address.country = \"US\" and not tags ~ \"vip\"'                -> ['c2']", "'(tier != \"free\" and tags ~ \"beta\") or name ~ \"turing\"'      -> ['c1', 'c2', 'c3']", "'tier = pro'                                                 -> syntax error: expected string, got ('ident', 'pro')"]
import re
from dataclasses import dataclass
from typing import Union

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<op>!=|=|~)
  | (?P<lparen>\()
  | (?P<rparen>\))
  | (?P<word>and|or|not)\b
  | (?P<ident>[a-z_][a-z_.]*)
  | (?P<string>"[^"]*")
""", re.VERBOSE)

@dataclass(frozen=True)
class Cmp:
    field: str
    op: str
    value: str

@dataclass(frozen=True)
class BoolOp:
    op: str
    left: "Node"
    right: "Node"

@dataclass(frozen=True)
class Not:
    inner: "Node"

Node = Union[Cmp, BoolOp, Not]

def tokenize(text: str) -> list[tuple[str, str]]:
    pos, out = 0, []
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise SyntaxError(f"unexpected {text[pos]!r} at {pos}")
        if m.lastgroup != "ws":
            out.append((m.lastgroup, m.group()))
        pos = m.end()
    return out

class Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, kind: str) -> str:
        tok = self.peek()
        if tok is None or tok[0] != kind:
            raise SyntaxError(f"expected {kind}, got {tok}")
        self.i += 1
        return tok[1]

    def expr(self) -> Node:
        node = self.term()
        while (tok := self.peek()) and tok == ("word", "or"):
            self.i += 1
            node = BoolOp("or", node, self.term())
        return node

    def term(self) -> Node:
        node = self.factor()
        while (tok := self.peek()) and tok == ("word", "and"):
            self.i += 1
            node = BoolOp("and", node, self.factor())
        return node

    def factor(self) -> Node:
        match self.peek():
            case ("word", "not"):
                self.i += 1
                return Not(self.factor())
            case ("lparen", _):
                self.i += 1
                node = self.expr()
                self.take("rparen")
                return node
            case _:
                field = self.take("ident")
                op = self.take("op")
                return Cmp(field, op, self.take("string").strip('"'))

def lookup(record: dict, path: str) -> object:
    for part in path.split("."):
        record = record[part]
    return record

def evaluate(node: Node, record: dict) -> bool:
    match node:
        case Cmp(field, "=", value):
            return str(lookup(record, field)) == value
        case Cmp(field, "!=", value):
            return str(lookup(record, field)) != value
        case Cmp(field, "~", value):
            got = lookup(record, field)
            return value in got if isinstance(got, list) else value.casefold() in str(got).casefold()
        case BoolOp("and", left, right):
            return evaluate(left, record) and evaluate(right, record)
        case BoolOp("or", left, right):
            return evaluate(left, record) or evaluate(right, record)
        case Not(inner):
            return not evaluate(inner, record)
    raise TypeError(node)

customers = await tools.list_customers()
queries = [
    'tier = "pro" or tier = "enterprise"',
    'address.country = "US" and not tags ~ "vip"',
    '(tier != "free" and tags ~ "beta") or name ~ "turing"',
    'tier = pro',
]
results = {}
for q in queries:
    try:
        tree = Parser(tokenize(q)).expr()
        results[q] = [c["id"] for c in customers if evaluate(tree, c)]
    except SyntaxError as e:
        results[q] = f"syntax error: {e}"
    print(f"{q!r:<60} -> {results[q]}")
return results
