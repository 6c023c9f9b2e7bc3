# description: Analyse the forecast with a range of itertools helpers
# value: {"deltas": [1.5, 1.5, -3.0, 1.5, 1.5, -3.0], "running_max": [18.0, 19.5, 21.0, 21.0, 21.0, 21.0, 21.0], "cum_rain": [0.0, 0.0, 0.0, 9.0, 9.0, 9.0, 9.0, 9.0], "runs": [["sunny", 1], ["cloudy", 1], ["rain", 1], ["cloudy", 1], ["sunny", 1], ["windy", 1], ["rain", 1]], "dry_days": ["2024-06-15", "2024-06-16", "2024-06-18", "2024-06-19", "2024-06-20"], "not_sunny": ["cloudy", "rain", "cloudy", "windy", "rain"], "labels": ["A", "B", "A", "B", "A"], "numbered": [[10, "sunny"], [15, "cloudy"], [20, "rain"]], "starmap": [6, 20], "longest": [["a", 1], ["b", null]], "pairs_with_repeat": 6, "perms": ["xy", "xz", "yx", "yz"], "prod": [[0, 0], [0, 1], [1, 0], [1, 1]], "tee": [[1, 2], [1, 2]], "warm_prefix": [18.0, 19.5], "after": [19.5, 21.0, 18.0, 19.5, 21.0, 18.0]}
import itertools as it
import operator

days = await tools.forecast(city="Paris", days=7)
highs = [d["high"] for d in days]
conds = [d["condition"] for d in days]
return {
    "deltas": [round(b - a, 1) for a, b in it.pairwise(highs)],
    "running_max": list(it.accumulate(highs, max)),
    "cum_rain": list(it.accumulate((d["rain_mm"] for d in days), operator.add, initial=0.0)),
    "runs": [(k, len(list(g))) for k, g in it.groupby(conds)],
    "dry_days": list(it.compress([d["date"] for d in days], [c != "rain" for c in conds])),
    "not_sunny": list(it.filterfalse(lambda c: c == "sunny", conds)),
    "labels": list(it.islice(it.cycle("AB"), 5)),
    "numbered": list(zip(it.count(10, 5), conds[:3])),
    "starmap": list(it.starmap(operator.mul, [(2, 3), (4, 5)])),
    "longest": list(it.zip_longest("ab", [1], fillvalue=None)),
    "pairs_with_repeat": len(list(it.combinations_with_replacement(range(3), 2))),
    "perms": ["".join(p) for p in it.permutations("xyz", 2)][:4],
    "prod": list(it.product([0, 1], repeat=2)),
    "tee": [list(t) for t in it.tee([1, 2], 2)],
    "warm_prefix": list(it.takewhile(lambda h: h < 20, highs)),
    "after": list(it.dropwhile(lambda h: h < 19, highs)),
}
