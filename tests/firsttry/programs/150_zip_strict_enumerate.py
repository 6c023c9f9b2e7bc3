# description: Align ids with tool results and detect mismatched lengths
# value: {"aligned": {"1. KB-01": 14, "2. MS-02": 0, "3. MN-27": 6}, "mismatch": "zip() argument 2 is shorter than argument 1", "pairs": ["KB-01=14", "MS-02=0", "MN-27=6"], "nonzero": [14, 6], "squares": [8, 9], "unzipped": [["1. KB-01", "2. MS-02", "3. MN-27"], [14, 0, 6]]}
import asyncio

skus = ["KB-01", "MS-02", "MN-27"]
stocks = await asyncio.gather(*(tools.get_stock(sku=s) for s in skus))
aligned = {f"{i}. {s}": n for i, (s, n) in enumerate(zip(skus, stocks, strict=True), start=1)}
try:
    list(zip(skus, stocks[:-1], strict=True))
    mismatch = None
except ValueError as e:
    mismatch = str(e)
pairs = list(map(lambda s, n: f"{s}={n}", skus, stocks))
nonzero = list(filter(None, stocks))
squares = list(map(pow, [2, 3], [3, 2]))
unzipped = list(zip(*aligned.items()))
return {"aligned": aligned, "mismatch": mismatch, "pairs": pairs, "nonzero": nonzero, "squares": squares, "unzipped": unzipped}
