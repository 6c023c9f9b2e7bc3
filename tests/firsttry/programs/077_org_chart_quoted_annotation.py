# description: A recursive dataclass with a quoted annotation, printed
# value: {"size": 4, "top": "Summary(name='Ada', reports=2)"}
# logs: ["Summary(name='Grace', reports=1)"]
from dataclasses import dataclass, field


@dataclass
class OrgNode:
    name: str
    reports: "list[OrgNode]" = field(default_factory=list)

    def size(self) -> int:
        return 1 + sum(r.size() for r in self.reports)


@dataclass
class Summary:
    name: str
    reports: int


grace = OrgNode("Grace", [OrgNode("Linus")])
root = OrgNode("Ada", [grace, OrgNode("Alan")])
print(Summary(grace.name, len(grace.reports)))
return {"size": root.size(), "top": repr(Summary(root.name, len(root.reports)))}
