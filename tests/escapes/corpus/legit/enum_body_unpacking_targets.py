# value: [[["ORIGIN", [0, 0]], ["x", 0], ["low", 1], ["high", 9], ["LIMITS", [1, 9]]], [[0, 0], 2, 3]]
import contextlib
import enum
class Axis(enum.Enum):
    ORIGIN = (x, y) = (0, 0)
    with contextlib.nullcontext((1, 9)) as (low, high):
        LIMITS = (low, high)
class Point:
    origin = (a, b) = (0, 0)
    with contextlib.nullcontext((2, 3)) as (c, d):
        pass
return [[[member.name, member.value] for member in Axis], [list(Point.origin), Point.c, Point.d]]
