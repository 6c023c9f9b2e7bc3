# description: Build a category tree of the catalogue and render it as an ASCII tree with recursive totals
# value: {"lines": ["catalogue (7,209.94)", "\u251c\u2500\u2500 hardware (2,925.94)", "\u2502   \u251c\u2500\u2500 peripherals (1,246.00)", "\u2502   \u2502   \u251c\u2500\u2500 KB-01 (1,246.00)", "\u2502   \u2502   \u2514\u2500\u2500 MS-02 (0.00)", "\u2502   \u2514\u2500\u2500 displays (1,679.94)", "\u2502       \u2514\u2500\u2500 MN-27 (1,679.94)", "\u2514\u2500\u2500 extras (4,284.00)", "    \u251c\u2500\u2500 accessories (2,943.00)", "    \u2502   \u251c\u2500\u2500 HD-10 (1,638.00)", "    \u2502   \u251c\u2500\u2500 CB-05 (1,170.00)", "    \u2502   \u2514\u2500\u2500 LP-14 (135.00)", "    \u2514\u2500\u2500 audio (1,341.00)", "        \u2514\u2500\u2500 HS-07 (1,341.00)"], "total": 7209.94, "nodes": 14, "depth": 4, "audio": 1341.0, "missing": null, "leaf_paths": ["catalogue/hardware/peripherals/KB-01", "catalogue/hardware/peripherals/MS-02", "catalogue/hardware/displays/MN-27", "catalogue/extras/accessories/HD-10", "catalogue/extras/accessories/CB-05", "catalogue/extras/accessories/LP-14", "catalogue/extras/audio/HS-07"]}
# logs: ["catalogue (7,209.94)", "\u251c\u2500\u2500 hardware (2,925.94)", "\u2502   \u251c\u2500\u2500 peripherals (1,246.00)", "\u2502   \u2502   \u251c\u2500\u2500 KB-01 (1,246.00)", "\u2502   \u2502   \u2514\u2500\u2500 MS-02 (0.00)", "\u2502   \u2514\u2500\u2500 displays (1,679.94)", "\u2502       \u2514\u2500\u2500 MN-27 (1,679.94)", "\u2514\u2500\u2500 extras (4,284.00)", "    \u251c\u2500\u2500 accessories (2,943.00)", "    \u2502   \u251c\u2500\u2500 HD-10 (1,638.00)", "    \u2502   \u251c\u2500\u2500 CB-05 (1,170.00)", "    \u2502   \u2514\u2500\u2500 LP-14 (135.00)", "    \u2514\u2500\u2500 audio (1,341.00)", "        \u2514\u2500\u2500 HS-07 (1,341.00)"]
from dataclasses import dataclass, field

GROUPS = {"hardware": ["peripherals", "displays"], "extras": ["accessories", "audio"]}


@dataclass
class Node:
    name: str
    value: float = 0.0
    units: int = 0
    children: list["Node"] = field(default_factory=list)

    def add(self, child: "Node") -> "Node":
        self.children.append(child)
        return child

    def total(self) -> float:
        return round(self.value + sum(c.total() for c in self.children), 2)

    def count(self) -> int:
        return 1 + sum(c.count() for c in self.children)

    def depth(self) -> int:
        return 1 + max((c.depth() for c in self.children), default=0)

    def find(self, name: str) -> "Node | None":
        if self.name == name:
            return self
        for c in self.children:
            if (hit := c.find(name)) is not None:
                return hit
        return None

    def walk(self, path=()):
        path = (*path, self.name)
        yield "/".join(path), self
        for c in self.children:
            yield from c.walk(path)


def render(node: Node, prefix: str = "", last: bool = True, root: bool = True) -> list[str]:
    label = f"{node.name} ({node.total():,.2f})"
    out = [label] if root else [f"{prefix}{'└── ' if last else '├── '}{label}"]
    child_prefix = "" if root else prefix + ("    " if last else "│   ")
    for i, child in enumerate(node.children):
        out.extend(render(child, child_prefix, i == len(node.children) - 1, False))
    return out


root = Node("catalogue")
for group, cats in GROUPS.items():
    g = root.add(Node(group))
    for cat in cats:
        c = g.add(Node(cat))
        for p in await tools.list_products(category=cat):
            c.add(Node(p["sku"], value=p["price"] * p["in_stock"], units=p["in_stock"]))

lines = render(root)
print("\n".join(lines))
paths = [p for p, n in root.walk() if not n.children]
return {
    "lines": lines,
    "total": root.total(),
    "nodes": root.count(),
    "depth": root.depth(),
    "audio": root.find("audio").total(),
    "missing": root.find("gpu"),
    "leaf_paths": paths,
}
