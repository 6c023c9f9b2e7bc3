# description: Fingerprint the catalogue for change detection
# value: {"fingerprint": "6d8e79f5b9c3294cd35a1311d01168a9c0619925", "categories": {"accessories": "079f09303f", "audio": "f88880ad20", "displays": "132d6ebd8a", "peripherals": "21daeca48e"}, "size": 644}
import hashlib
import json

products = await tools.list_products()
canonical = json.dumps(products, sort_keys=True, separators=(",", ":"))
fingerprint = hashlib.sha1(canonical.encode()).hexdigest()

per_category = {}
for p in products:
    per_category.setdefault(p["category"], []).append(p)
category_hashes = {
    cat: hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()[:10]
    for cat, items in sorted(per_category.items())
}
return {"fingerprint": fingerprint, "categories": category_hashes, "size": len(canonical)}
