# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops exec
# source: get_type_hints evaluates string annotations with eval(), outside the policy
import typing
expr = "[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0].__init__.__globals__['system']('touch {MARKER_PATH}')"
holder = type("Holder", (), {"__annotations__": {"x": expr}})
typing.get_type_hints(holder)
