# value: ["point 1,2", "origin", "list of 3", "other"]
def describe(value):
    match value:
        case {"x": 0, "y": 0}:
            return "origin"
        case {"x": x, "y": y}:
            return f"point {x},{y}"
        case [_, _, _]:
            return "list of 3"
        case _:
            return "other"
return [describe({"x": 1, "y": 2}), describe({"x": 0, "y": 0}), describe([1, 2, 3]), describe(7)]
