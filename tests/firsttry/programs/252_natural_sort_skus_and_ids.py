# description: Sort order ids, SKUs and version labels in natural (human) order
# value: {"plain": ["O-1003b", "o-10000", "o-1001", "o-1002"], "natural": ["o-1009", "o-1010", "o-1011", "o-10000"], "skus": ["CB-05", "HD-10", "HS-07", "KB-01", "KB-1", "kb-010", "LP-14", "MN-3", "MN-27", "MS-02"], "versions": ["v1.9.2", "v1.9.10", "v1.10.0-beta", "v1.10.0", "v2.0.0-rc1", "v2.0.0"], "newest": "v2.0.0"}
# logs: ["   plain: ['O-1003b', 'o-10000', 'o-1001', 'o-1002']", " natural: ['o-1009', 'o-1010', 'o-1011', 'o-10000']", "    skus: ['CB-05', 'HD-10', 'HS-07', 'KB-01', 'KB-1', 'kb-010', 'LP-14', 'MN-3', 'MN-27', 'MS-02']", "versions: ['v1.9.2', 'v1.9.10', 'v1.10.0-beta', 'v1.10.0', 'v2.0.0-rc1', 'v2.0.0']", "  newest: v2.0.0"]
import re
from typing import Any

def natural_key(text: str) -> tuple[Any, ...]:
    return tuple(int(part) if part.isdigit() else part.casefold() for part in re.split(r"(\d+)", text))

customers = await tools.list_customers()
order_ids: list[str] = []
for c in customers:
    order_ids += [o["id"] for o in await tools.list_orders(customer_id=c["id"])]
mixed_ids = order_ids + ["o-999", "o-10000", "O-1003b"]
skus = [p["sku"] for p in await tools.list_products()] + ["KB-1", "kb-010", "MN-3"]
versions = ["v1.10.0", "v1.9.2", "v1.9.10", "v2.0.0-rc1", "v2.0.0", "v1.10.0-beta"]

def version_key(v: str) -> tuple:
    core, _, pre = v.lstrip("v").partition("-")
    return (*map(int, core.split(".")), pre == "", natural_key(pre))

result = {
    "plain": sorted(mixed_ids)[:4],
    "natural": sorted(mixed_ids, key=natural_key)[-4:],
    "skus": sorted(skus, key=natural_key),
    "versions": sorted(versions, key=version_key),
    "newest": max(versions, key=version_key),
}
for k, v in result.items():
    print(f"{k:>8}: {v}")
return result
