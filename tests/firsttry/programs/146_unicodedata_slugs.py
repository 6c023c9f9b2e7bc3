# description: Make ASCII slugs for customer names and product titles
# value: {"customers": ["ada-lovelace", "grace-hopper", "alan-turing", "katherine-johnson", "edsger-dijkstra", "margaret-hamilton", "zoe-angstrom", "strae-cafe-no5"], "products": ["mechanical-keyboard", "wireless-mouse", "27-inch-monitor", "usb-c-hub", "braided-cable", "laptop-stand", "noise-cancelling-headset"], "categories": ["Ll", "Nd", "Zs", "Ll", "Sc"], "name": "EURO SIGN", "combining": 230}
import re
import unicodedata

def slugify(text: str) -> str:
    norm = unicodedata.normalize("NFKD", text)
    ascii_text = norm.encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")

names = [c["name"] for c in await tools.list_customers()] + ["Zoë Ångström", "Straße Café №5"]
products = [p["name"] for p in await tools.list_products()]
return {
    "customers": [slugify(n) for n in names],
    "products": [slugify(p) for p in products],
    "categories": [unicodedata.category(ch) for ch in "a1 ë€"],
    "name": unicodedata.name("€"),
    "combining": unicodedata.combining("\u0301"),
}
