# description: Running totals, running maxima and day-over-day changes with accumulate (func, initial) and pairwise
# value: {"running": [111.99, 297.98, 468.97, 513.96, 543.95, 647.94], "with_initial": [100.0, 211.99, 397.98, 568.97], "running_max": [24.0, 25.5, 27.0, 27.0, 27.0, 27.0, 27.0], "growth": [1, 2, 6, 24], "deltas": [1.5, 1.5, -3.0, 1.5, 1.5, -3.0], "rising": 4, "pairs_of_short": [["a", "b"]], "empty": [], "balance": [50, 30, 0, 30]}
import operator
from itertools import accumulate, pairwise

days = await tools.forecast(city="Tokyo", days=7)
highs = [d["high"] for d in days]
purchases = [e["amount"] for e in (await tools.list_events(page_size=20))["items"] if e["kind"] == "purchase"]
return {
    "running": [round(x, 2) for x in accumulate(purchases)],
    "with_initial": [round(x, 2) for x in accumulate(purchases[:3], initial=100.0)],
    "running_max": list(accumulate(highs, max)),
    "growth": list(accumulate([1, 2, 3, 4], operator.mul)),
    "deltas": [round(b - a, 2) for a, b in pairwise(highs)],
    "rising": sum(1 for a, b in pairwise(highs) if b > a),
    "pairs_of_short": list(pairwise("ab")), "empty": list(accumulate([])),
    "balance": list(accumulate([50, -20, -40, 30], lambda bal, x: max(bal + x, 0))),
}
