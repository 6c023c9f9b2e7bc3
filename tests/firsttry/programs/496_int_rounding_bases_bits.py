# description: Check banker's rounding, negative floor division, int parsing in bases and bit operations on stock numbers
# value: {"round_half": [0, 2, 2, 0, -2], "round_neg_ndigits": [1200.0, 1200, 1400], "round_2": [2.67, 0.12], "floor_div": [-4, -4, 2, -2], "divmod": [[-4, 3], [4.0, 1.5]], "parse": [255, 10, 42, 1000, 511], "bases": ["0b1110", "0b110", "0o100", "0x3"], "bits": [4, 3, 6, 7, 2], "popcount": [3, 2, 3, 4, 2], "bit_count": 3, "shift": [1024, 128, 2, 7, 5, -6], "to_bytes": [4, 1], "from_bytes": 1, "pow_mod": 1, "inverse": 23, "abs_neg": 14, "int_trunc": [-2, 2], "float_int": true, "true_div": 3.5}
stock = await tools.stock_levels(skus=["KB-01", "MN-27", "HD-10", "CB-05", "LP-14"])
vals = list(stock.values())
return {
    "round_half": [round(x) for x in (0.5, 1.5, 2.5, -0.5, -1.5)],
    "round_neg_ndigits": [round(1234.5678, -2), round(1250, -2), round(1350, -2)],
    "round_2": [round(2.675, 2), round(0.125, 2)],
    "floor_div": [-7 // 2, 7 // -2, -7 % 3, 7 % -3], "divmod": [list(divmod(-17, 5)), list(divmod(17.5, 4))],
    "parse": [int("ff", 16), int("0b1010", 0), int("  42\n"), int("1_000"), int("777", 8)],
    "bases": [bin(v) for v in vals[:2]] + [oct(64), hex(vals[-1])],
    "bits": [v.bit_length() for v in vals], "popcount": [bin(v).count("1") for v in vals],
    "bit_count": (42).bit_count(), "shift": [1 << 10, 1024 >> 3, 6 & 3, 6 | 3, 6 ^ 3, ~5],
    "to_bytes": list((1025).to_bytes(2, "big")), "from_bytes": int.from_bytes(b"\x01\x00", "little"),
    "pow_mod": pow(3, 200, 1000), "inverse": pow(7, -1, 40), "abs_neg": abs(-vals[0]),
    "int_trunc": [int(-2.9), int(2.9)], "float_int": float(10 ** 15) == 10 ** 15, "true_div": 7 / 2,
}
