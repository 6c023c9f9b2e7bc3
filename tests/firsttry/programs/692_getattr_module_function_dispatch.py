# description: Pick a statistics function by name with getattr on the module
# value: {"mean": 18.786, "median": 19.0, "pstdev": 1.249, "fmean": 18.786, "sqrt_max": 4.528, "has_geomean": true}
import statistics
import math

forecast = await tools.forecast(city="Sydney", days=7)
highs = [d["high"] for d in forecast]
wanted = ["mean", "median", "pstdev", "fmean"]
out = {name: round(getattr(statistics, name)(highs), 3) for name in wanted}
out["sqrt_max"] = round(getattr(math, "sqrt")(max(highs)), 3)
out["has_geomean"] = hasattr(statistics, "geometric_mean")
return out
