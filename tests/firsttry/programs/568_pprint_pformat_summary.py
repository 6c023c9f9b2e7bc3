# description: Summarise stock per category and pretty-print it with pprint.pformat
# value: {"lines": 6, "categories": ["accessories", "audio", "displays", "peripherals"]}
# logs: ["{'accessories': [('CB-05', 120),", "                 ('HD-10', 42),", "                 ('LP-14', 3)],", " 'audio': [('HS-07', 9)],", " 'displays': [('MN-27', 6)],", " 'peripherals': [('KB-01', 14), ('MS-02', 0)]}"]
import pprint
from collections import defaultdict

products = await tools.list_products()
by_category = defaultdict(list)
for p in products:
    by_category[p["category"]].append((p["sku"], p["in_stock"]))

summary = {cat: sorted(items) for cat, items in sorted(by_category.items())}
text = pprint.pformat(summary, width=60, sort_dicts=True)
print(text)
return {"lines": len(text.splitlines()), "categories": list(summary)}
