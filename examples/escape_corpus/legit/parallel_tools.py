# value: {"echoed": {"n": 1}, "hits": ["books-1", "books-2"]}
import asyncio

echoed, found = await asyncio.gather(tools.echo(n=1), tools.search(query="books"))
return {"echoed": echoed, "hits": found["hits"]}
