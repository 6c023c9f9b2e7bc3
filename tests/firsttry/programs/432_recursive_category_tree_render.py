# description: Build a nested category tree from products, walk it recursively, and render it as an indented outline
# value: {"tree": {"accessories": {"standard": {"in-stock": {"_items": ["HD-10", "CB-05", "LP-14"]}}}, "audio": {"premium": {"in-stock": {"_items": ["HS-07"]}}}, "displays": {"premium": {"in-stock": {"_items": ["MN-27"]}}}, "peripherals": {"standard": {"in-stock": {"_items": ["KB-01"]}, "sold-out": {"_items": ["MS-02"]}}}}, "depth": 4, "items": 7, "lines": 20}
# logs: ["accessories/ (3)", "  standard/ (3)", "    in-stock/ (3)", "      - HD-10", "      - CB-05", "      - LP-14", "audio/ (1)", "  premium/ (1)", "    in-stock/ (1)", "      - HS-07", "displays/ (1)", "  premium/ (1)", "    in-stock/ (1)", "      - MN-27", "peripherals/ (2)", "  standard/ (2)", "    in-stock/ (1)", "      - KB-01", "    sold-out/ (1)", "      - MS-02"]
from collections import defaultdict


def tree():
    return defaultdict(tree)


def insert(root, path, leaf):
    node = root
    for part in path:
        node = node[part]
    node.setdefault("_items", []).append(leaf)


def to_plain(node):
    return {k: (v if k == "_items" else to_plain(v)) for k, v in sorted(node.items())}


def count_items(node) -> int:
    return sum(len(v) if k == "_items" else count_items(v) for k, v in node.items())


def render(node, depth=0, out=None):
    out = [] if out is None else out
    for key, child in sorted(node.items()):
        if key == "_items":
            out.extend("  " * depth + f"- {sku}" for sku in child)
        else:
            out.append("  " * depth + f"{key}/ ({count_items(child)})")
            render(child, depth + 1, out)
    return out


def depth_of(node) -> int:
    subs = [depth_of(v) for k, v in node.items() if k != "_items"]
    return 1 + max(subs, default=0)


root = tree()
for p in await tools.list_products():
    band = "premium" if p["price"] >= 100 else "standard"
    stock = "in-stock" if p["in_stock"] else "sold-out"
    insert(root, [p["category"], band, stock], p["sku"])

lines = render(root)
print("\n".join(lines))
return {"tree": to_plain(root), "depth": depth_of(root), "items": count_items(root), "lines": len(lines)}
