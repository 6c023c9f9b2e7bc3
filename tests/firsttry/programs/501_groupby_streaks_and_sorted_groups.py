# description: Find runs of the same forecast condition with groupby on unsorted data and group events per kind after sorting
# value: {"streaks": [["rain", 1], ["sunny", 1], ["cloudy", 1], ["rain", 1], ["cloudy", 1], ["sunny", 1], ["windy", 1]], "longest": ["rain", 1], "per_kind": {"error": [4, 11, 18], "login": [2, 7, 9, 14, 16], "logout": [1, 8, 15], "purchase": [3, 5, 10, 12, 17, 19], "refund": [6, 13, 20]}, "unsorted_group_count": 20, "distinct": 5, "by_quarter_day": {"0": 4, "1": 5, "2": 5, "3": 6}}
# limitation: a returned dict with int keys is refused, plain json.dumps converts them
from itertools import groupby
from operator import itemgetter

days = await tools.forecast(city="Sydney", days=7)
streaks = [(cond, len(list(run))) for cond, run in groupby(d["condition"] for d in days)]
longest = max(streaks, key=lambda s: s[1])
page = await tools.list_events(page_size=20)
events = sorted(page["items"], key=itemgetter("kind", "id"))
per_kind = {kind: [e["id"] for e in grp] for kind, grp in groupby(events, key=itemgetter("kind"))}
unsorted_groups = [k for k, _ in groupby(e["kind"] for e in page["items"])]
by_hour = {h: len(list(g)) for h, g in groupby(sorted(int(e["at"][11:13]) // 6 for e in page["items"]))}
return {"streaks": streaks, "longest": longest, "per_kind": per_kind,
        "unsorted_group_count": len(unsorted_groups), "distinct": len(set(unsorted_groups)), "by_quarter_day": by_hour}
