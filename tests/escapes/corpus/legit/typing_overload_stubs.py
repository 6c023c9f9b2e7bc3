# value: "NotImplementedError"
import typing
@typing.overload
def f(x: int) -> int: ...
def f(x):
    return x
@typing.overload
def g(x: int) -> int: ...
try:
    g(1)
except NotImplementedError as e:
    return type(e).__name__
