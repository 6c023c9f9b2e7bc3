# description: Search the docs with a keyword-only options dataclass
# value: {"top": ["Refund policy", "Cancelling an order"], "strict": ["Refund policy"], "options": "SearchOptions(query='refund', limit=2, min_score=0.0)"}
from dataclasses import KW_ONLY, dataclass


@dataclass(frozen=True)
class SearchOptions:
    query: str
    _: KW_ONLY
    limit: int = 3
    min_score: float = 0.0


async def search(options):
    hits = await tools.search_docs(query=options.query, limit=options.limit)
    return [h["title"] for h in hits if h["score"] >= options.min_score]


options = SearchOptions("refund", limit=2)
strict = SearchOptions("refund", min_score=2.0)
return {"top": await search(options), "strict": await search(strict), "options": repr(options)}
