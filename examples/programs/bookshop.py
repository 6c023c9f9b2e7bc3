# A run_code program: the body of an async function. `tools` is bound for it.
import asyncio

books = await tools.search_books(query="le guin")
prices = await asyncio.gather(*(tools.get_price(book_id=b["id"], currency="GBP") for b in books))
for book, price in zip(books, prices):
    print(f"{book['title']} ({book['year']}): £{price}")
try:
    await tools.get_price(book_id="nope")
except ToolCallError as error:
    print(error)  # names the tool and the exception it raised
return {"count": len(books), "total_gbp": round(sum(prices), 2)}
