# value: ["a", "b", "c", "d"]
d = {1: "a", 2.5: "b", None: "c", "k": "d"}
view = d.items().mapping
return [view[1], view[2.5], view[None], view["k"]]
