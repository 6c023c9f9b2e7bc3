# description: Re-rank help-centre articles for several questions with a TF-IDF score
# value: {"docs": 7, "ranking": {"how do I reset my password": ["kb-1", "kb-7"], "when will my refund arrive": ["kb-4"], "can I change the shipping address of my order": ["kb-5", "kb-8", "kb-3"]}, "rarest": ["10", "12", "2", "3", "address"]}
# logs: ["how do I reset my password     | kb-1 kb-7", "when will my refund arrive     | kb-4", "can I change the shipping addr | kb-5 kb-8 kb-3"]
import asyncio
import math
import re
from collections import Counter

STOP = frozenset("a an the to of and your in is be can my how do i".split())

def terms(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.casefold()) if w not in STOP]

questions = [
    "how do I reset my password",
    "when will my refund arrive",
    "can I change the shipping address of my order",
]
hit_lists = await asyncio.gather(*(tools.search_docs(query=" ".join(terms(q)), limit=8) for q in questions))
docs: dict[str, dict] = {}
for hits in hit_lists:
    for h in hits:
        docs.setdefault(h["id"], h)

tf = {doc_id: Counter(terms(f"{d['title']} {d['snippet']}")) for doc_id, d in docs.items()}
df = Counter(t for counts in tf.values() for t in counts)
n = len(docs)

def score(doc_id: str, query: list[str]) -> float:
    counts = tf[doc_id]
    length = sum(counts.values())
    return sum(counts[t] / length * math.log((1 + n) / (1 + df[t])) for t in query if t in counts)

ranking = {}
for q, hits in zip(questions, hit_lists):
    qt = terms(q)
    ranked = sorted(((round(score(h["id"], qt), 4), h["id"]) for h in hits), key=lambda x: (-x[0], x[1]))
    ranking[q] = [doc_id for s, doc_id in ranked if s > 0][:3]
    print(f"{q[:30]:<30} | {' '.join(ranking[q])}")
return {"docs": n, "ranking": ranking, "rarest": sorted(t for t, c in df.items() if c == 1)[:5]}
