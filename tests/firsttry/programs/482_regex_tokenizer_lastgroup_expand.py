# description: Tokenise a customer search query with a compiled verbose regex, lastgroup and Match.expand
# value: {"tokens": [["FIELD", "tier"], ["COLON", ":"], ["WORD", "pro"], ["FIELD", "country"], ["COLON", ":"], ["WORD", "US"], ["FIELD", "min_total"], ["COLON", ":"], ["NUMBER", "20.5"], ["WORD", "Grace"]], "pairs": {"tier": "pro", "country": "US", "min_total": "20.5"}, "words": ["Grace"], "matched": ["Grace Hopper"], "expanded": "Hopper, Grace (Grace)", "groupindex": {"FIELD": 1, "COLON": 2, "NUMBER": 3, "WORD": 4, "SPACE": 5}, "flags_has_verbose": true, "pattern_len": true}
import re

TOKEN = re.compile(r"""
    (?P<FIELD>[a-z_]+)(?=:)     # a field name before a colon
  | (?P<COLON>:)
  | (?P<NUMBER>\d+(?:\.\d+)?)
  | (?P<WORD>[\w@.-]+)
  | (?P<SPACE>\s+)
""", re.VERBOSE | re.IGNORECASE)

query = "tier:pro country:US min_total:20.5 Grace"
tokens = []
for m in TOKEN.finditer(query):
    if m.lastgroup != "SPACE":
        tokens.append((m.lastgroup, m.group()))
pairs = {}
words = []
i = 0
while i < len(tokens):
    kind, value = tokens[i]
    if kind == "FIELD":
        pairs[value] = tokens[i + 2][1]
        i += 3
    else:
        words.append(value)
        i += 1
customers = await tools.list_customers(tier=pairs["tier"])
matched = [c["name"] for c in customers if c["address"]["country"] == pairs["country"]
           and any(w.lower() in c["name"].lower() for w in words)]
m = re.match(r"(?P<first>\w+) (?P<last>\w+)", matched[0])
return {"tokens": tokens, "pairs": pairs, "words": words, "matched": matched,
        "expanded": m.expand(r"\g<last>, \g<first> (\1)"), "groupindex": dict(TOKEN.groupindex),
        "flags_has_verbose": bool(TOKEN.flags & re.VERBOSE), "pattern_len": len(TOKEN.pattern) > 10}
