# value: [["a-1", "a-2"], ["b-1", "b-2"], ["c-1", "c-2"]]
import asyncio
results = await asyncio.gather(*[tools.search(query=q) for q in "abc"])
return [r["hits"] for r in results]
