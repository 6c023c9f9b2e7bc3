# description: Check float precision pitfalls in the price totals with fsum, isclose, is_integer and float.hex
# value: {"naive": 1911.72, "fsum": 1911.72, "sum": 1911.72, "same": true, "close": true, "point3": 0.30000000000000004, "point3_eq": false, "is_integer": [true, false, false, true], "ratio": [3602879701896397, 36028797018963968], "hex": "0x1.0000000000000p-1", "fromhex": 3.0, "repr": "0.3333333333333333", "str_big": "1e+16", "str_small": "1e-05", "inf_cmp": true, "neg_zero": -1.0, "rounded_cents": [8900, 2550, 27999, 3900], "int_of_float_str": 3, "float_str": -1500.0, "nan_str": "nan", "max_float_ok": true}
import math

products = await tools.list_products()
prices = [p["price"] for p in products] * 3
naive = 0.0
for p in prices:
    naive += p
return {
    "naive": naive, "fsum": math.fsum(prices), "sum": sum(prices), "same": naive == math.fsum(prices),
    "close": math.isclose(naive, math.fsum(prices), rel_tol=1e-12), "point3": 0.1 + 0.2,
    "point3_eq": 0.1 + 0.2 == 0.3, "is_integer": [p.is_integer() for p in prices[:4]],
    "ratio": list((0.1).as_integer_ratio()), "hex": (0.5).hex(), "fromhex": float.fromhex("0x1.8p1"),
    "repr": repr(1 / 3), "str_big": str(1e16), "str_small": str(1e-5), "inf_cmp": float("inf") > 1e308,
    "neg_zero": math.copysign(1, -0.0), "rounded_cents": [round(p * 100) for p in prices[:4]],
    "int_of_float_str": int(float("3.7")), "float_str": float(" -1.5e3 "), "nan_str": str(float("nan")),
    "max_float_ok": math.ulp(1.0) > 0,
}
