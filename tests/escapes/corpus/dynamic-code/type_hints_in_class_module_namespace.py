# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops exec
# source: variant of dynamic-code/typing_get_type_hints_eval with a class statement: get_type_hints evaluates a class's string annotations with eval(), the class's own namespace as globals (to which eval adds the real builtins) and sys.modules[cls.__module__] as locals; a program's classes are in __main__, whose entry in a child is the program module's stand-in
import typing
class Order:
    total: "__import__('os').system('touch {MARKER_PATH}') or int"
return typing.get_type_hints(Order)
