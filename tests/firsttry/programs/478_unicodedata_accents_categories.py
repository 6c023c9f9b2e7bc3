# description: Fold accented city and customer names to ASCII and describe characters with unicodedata
# value: {"folded": {"Zo\u00eb Salda\u00f1a": "Zoe Saldana", "Bj\u00f6rk Gu\u00f0mundsd\u00f3ttir": "Bjork Gu\u00f0mundsdottir", "\u00c5ngstr\u00f6m Caf\u00e9": "Angstrom Cafe", "\uff34\uff4f\uff4b\uff59\uff4f": "Tokyo", "na\u00efve fa\u00e7ade": "naive facade"}, "described": [["\u00e9", "LATIN SMALL LETTER E WITH ACUTE", "Ll"], ["1", "DIGIT ONE", "Nd"], [" ", "SPACE", "Zs"], ["-", "HYPHEN-MINUS", "Pd"]], "widths": ["F", "Na"], "composed": true, "numeric": 0.5, "decimal": 7, "customer": "edsger dijkstra", "ascii": "'caf\\xe9'"}
import unicodedata

names = ["Zoë Saldaña", "Björk Guðmundsdóttir", "Ångström Café", "Ｔｏｋｙｏ", "naïve façade"]

def fold(s: str) -> str:
    decomposed = unicodedata.normalize("NFKD", s)
    return "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn")

folded = {n: fold(n) for n in names}
described = [(ch, unicodedata.name(ch, "?"), unicodedata.category(ch)) for ch in "é1 -"]
widths = [unicodedata.east_asian_width(ch) for ch in "Ｔa"]
composed = unicodedata.normalize("NFC", "e\u0301") == "é"
customer = await tools.get_customer(customer_id="c5")
return {"folded": folded, "described": described, "widths": widths, "composed": composed,
        "numeric": unicodedata.numeric("½"), "decimal": unicodedata.decimal("7"),
        "customer": fold(customer["name"]).casefold(), "ascii": ascii("café")}
