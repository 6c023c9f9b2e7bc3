# description: Plan packing and pricing with many math functions (isqrt, comb, perm, gcd, lcm, log, hypot, modf, frexp)
# value: {"grid": [13, 15], "bundles_of_3": 35, "orderings": 12, "fact": 720, "gcd": 1, "lcm": 60, "log2": 10.0, "log10": -3.0, "log_base": 4.0, "hypot": 13.0, "copysign": -2.5, "trunc": -7, "modf": [0.9900000000000091, 279.0], "frexp": [0.625, 6], "ldexp": 40.0, "finite": [true, false, false], "isnan": true, "nan_eq": false, "tau": 6.28319, "deg": 45.0, "rad": 3.141593, "expm1": 1.0000000001e-10, "prod": 120, "floor_neg": -3, "ceil_neg": -2, "remainder": 2.0, "fmod": -1.0, "dist": 10.0, "sqrt": false, "close": true}
import math

products = await tools.list_products()
stock = {p["sku"]: p["in_stock"] for p in products}
total = sum(stock.values())
side = math.isqrt(total)
result = {
    "grid": [side, math.ceil(total / side)],
    "bundles_of_3": math.comb(len(stock), 3), "orderings": math.perm(4, 2), "fact": math.factorial(6),
    "gcd": math.gcd(*[v for v in stock.values() if v]), "lcm": math.lcm(4, 6, 10),
    "log2": math.log2(1024), "log10": math.log10(0.001), "log_base": round(math.log(81, 3), 9),
    "hypot": math.hypot(3, 4, 12), "copysign": math.copysign(2.5, -0.0), "trunc": math.trunc(-7.9),
    "modf": list(math.modf(279.99)), "frexp": list(math.frexp(40.0)), "ldexp": math.ldexp(0.625, 6),
    "finite": [math.isfinite(x) for x in (1.0, math.inf, -math.inf)], "isnan": math.isnan(math.nan),
    "nan_eq": math.nan == math.nan, "tau": round(math.tau, 5), "deg": math.degrees(math.pi / 4),
    "rad": round(math.radians(180), 6), "expm1": round(math.expm1(1e-10), 20), "prod": math.prod(range(1, 6)),
    "floor_neg": math.floor(-2.5), "ceil_neg": math.ceil(-2.5), "remainder": math.remainder(10, 4), "fmod": math.fmod(-10, 3),
    "dist": math.dist((0, 0), (6, 8)), "sqrt": math.sqrt(2) ** 2 == 2, "close": math.isclose(math.sqrt(2) ** 2, 2),
}
return result
