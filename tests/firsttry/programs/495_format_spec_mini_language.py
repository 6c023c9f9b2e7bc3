# description: Format invoice numbers with the format-spec mini-language (thousands, sign, padding, bases, percent, exponent)
# value: {"comma": "77,206", "underscore": "1_234_567", "right": "      357.99", "center": "   VAT   |", "fill": "x****", "sign": "+358.0", "space_sign": " 5", "zero_pad": "0003.142", "hex": "0xff", "HEX": "FF", "bin": "00001010", "oct": "10", "percent": "18.8%", "exp": "4.555e+05", "general": "1.234e-05", "general2": "1.23457e+06", "nested": "       97.50", "decimal": "1,234.50", "date": "15 Jun 2024", "repr": "    'caf\u00e9'", "ascii": "'caf\\xe9'", "str_conv": "3.0", "int_as_float": "7.00", "debug": "width=12", "neg_paren": "((-3(((", "builtin_format": "1,000,000.0", "format_method": "    ab|cd    |  ab  "}
from datetime import date
from decimal import Decimal

orders = await tools.list_orders(customer_id="c4")
totals = [o["total"] for o in orders]
rate = await tools.get_exchange_rate(base="EUR", quote="JPY")
width = 12
cells = {
    "comma": f"{sum(totals) * rate:,.0f}", "underscore": f"{1234567:_}", "right": f"{totals[0]:>{width}.2f}",
    "center": f"{'VAT':^9}|", "fill": f"{'x':*<5}", "sign": f"{totals[0]:+.1f}", "space_sign": f"{5: d}",
    "zero_pad": f"{3.14159:08.3f}", "hex": f"{255:#x}", "HEX": f"{255:X}", "bin": f"{10:08b}", "oct": f"{8:o}",
    "percent": f"{0.1875:.1%}", "exp": f"{sum(totals) * 1000:.3e}", "general": f"{0.00001234:g}",
    "general2": f"{1234567.0:g}", "nested": f"{totals[-1]:{'>' if totals else '<'}{width},.2f}",
    "decimal": format(Decimal("1234.5"), ",.2f"), "date": f"{date(2024, 6, 15):%d %b %Y}",
    "repr": f"{'café'!r:>10}", "ascii": f"{'café'!a}", "str_conv": f"{3.0!s}", "int_as_float": format(7, ".2f"),
    "debug": f"{width=}", "neg_paren": "{:(^7}".format(-3), "builtin_format": format(1e6, ",.1f"),
    "format_method": "{0:>6}|{1:<6}|{0:^6}".format("ab", "cd"),
}
return cells
