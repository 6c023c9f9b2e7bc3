# description: Find near-duplicate product names and match typed queries
# value: {"pairs": [["Mechanical keyboard", "Mechanical keyboard (UK)", 0.884], ["Wireless mouse", "Wireless mouse 2", 0.933]], "matches": {"keybord": ["keyboard"], "monitr": ["monitor"], "hedset": ["headset"], "toaster": []}, "diff": ["--- ", "+++ ", "@@ -2 +1,0 @@", "-b", "@@ -3,0 +3 @@", "+d"]}
import difflib
from itertools import combinations

products = await tools.list_products()
names = [p["name"] for p in products] + ["Mechanical keyboard (UK)", "Wireless mouse 2"]
pairs = []
for a, b in combinations(names, 2):
    ratio = difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio()
    if ratio > 0.75:
        pairs.append((a, b, round(ratio, 3)))
queries = ["keybord", "monitr", "hedset", "toaster"]
matches = {q: difflib.get_close_matches(q, [n.split()[-1].lower() for n in names], n=1, cutoff=0.6) for q in queries}
diff = list(difflib.unified_diff(["a", "b", "c"], ["a", "c", "d"], lineterm="", n=0))
return {"pairs": pairs, "matches": matches, "diff": diff}
