# description: Iterate over paged forecast days with a custom iterator class
# value: {"pages": [["15", "16", "17"], ["18", "19", "20"], ["21"]], "countdown": [3, 2, 1], "reversed": [1, 2, 3], "temps": {"Oslo": 6.5, "Cairo": 33.5}, "first": [1, 2], "rest": [[3]], "in": true}
class Pager:
    def __init__(self, items, size):
        self.items = items
        self.size = size
        self.pos = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.pos >= len(self.items):
            raise StopIteration
        page = self.items[self.pos:self.pos + self.size]
        self.pos += self.size
        return page

class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        n = self.n
        while n > 0:
            yield n
            n -= 1
    def __reversed__(self):
        return iter(range(1, self.n + 1))

class AsyncPager:
    def __init__(self, cities):
        self.cities = list(cities)
    def __aiter__(self):
        return self
    async def __anext__(self):
        if not self.cities:
            raise StopAsyncIteration
        city = self.cities.pop(0)
        return city, (await tools.get_weather(city=city))["celsius"]

days = await tools.forecast(city="Tokyo", days=7)
pages = [[d["date"][-2:] for d in page] for page in Pager(days, 3)]
temps = {}
async for city, c in AsyncPager(["Oslo", "Cairo"]):
    temps[city] = c
it = iter(Pager([1, 2, 3], 2))
return {"pages": pages, "countdown": list(Countdown(3)), "reversed": list(reversed(Countdown(3))), "temps": temps, "first": next(it), "rest": list(it), "in": 2 in Countdown(3)}
