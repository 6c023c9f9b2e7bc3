# description: Builtins grab bag on order data: divmod, pow, ascii, ord, chr, bin, slice, delattr
# value: {"euros": 357, "cents": 99, "inv": 14, "modpow": 1, "ascii": "'Zo\\xeb caf\\xe9'", "ords": [65, 90], "chr": "\u20ac", "bin": "0b1000101111010111", "hex": "0x8bd7", "oct": "0o10", "sku": "MN-27", "has_tmp": false, "sliced": "o-", "abs": 3.5, "complex": "(2+4j)", "rounded": [2, 4, 1200.0], "fmt": "1,234,567.9", "isnum": true}
class Box:
    pass

o = await tools.get_order(order_id="o-1007")
cents = round(o["total"] * 100)
euros, rest = divmod(cents, 100)
box = Box()
setattr(box, "sku", o["lines"][0]["sku"])
setattr(box, "tmp", 1)
delattr(box, "tmp")
first_two = slice(0, 2)
return {
    "euros": euros, "cents": rest,
    "inv": pow(7, -1, 97), "modpow": pow(3, 200, 1000),
    "ascii": ascii("Zoë café"), "ords": [ord(ch) for ch in "AZ"], "chr": chr(8364),
    "bin": bin(cents), "hex": hex(cents), "oct": oct(8),
    "sku": box.sku, "has_tmp": hasattr(box, "tmp"),
    "sliced": o["id"][first_two], "abs": abs(-3.5), "complex": str(complex(1, 2) * 2),
    "rounded": [round(2.5), round(3.5), round(1234.5678, -2)],
    "fmt": format(1234567.891, ",.1f"), "isnum": "²".isdigit(),
}
