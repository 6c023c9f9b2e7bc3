# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops exec
# source: ForwardRef evaluation is eval() underneath
import typing
expr = "__import__('os').system('touch {MARKER_PATH}')"
typing.get_type_hints(type("Holder", (), {"__annotations__": {"x": typing.ForwardRef(expr)}}), globalns={"__builtins__": __builtins__})
