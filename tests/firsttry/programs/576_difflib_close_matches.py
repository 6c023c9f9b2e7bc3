# description: Resolve misspelled product names with difflib.get_close_matches
# value: {"resolved": {"mechanical keybord": "KB-01", "wireles mouse": "MS-02", "usb hub": "HD-10", "laptop stnd": "LP-14", "toaster": null}, "ratio": 0.875}
import difflib

products = await tools.list_products()
names = {p["name"].lower(): p["sku"] for p in products}
queries = ["mechanical keybord", "wireles mouse", "usb hub", "laptop stnd", "toaster"]
resolved = {}
for q in queries:
    match = difflib.get_close_matches(q, names.keys(), n=1, cutoff=0.6)
    resolved[q] = names[match[0]] if match else None
ratio = difflib.SequenceMatcher(None, "usb hub", "usb-c hub").ratio()
return {"resolved": resolved, "ratio": round(ratio, 3)}
