# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a metaclass runs code with the class namespace when the class is built
class Meta(type):
    def __new__(mcs, name, bases, namespace):
        namespace["run"] = len.__self__.__import__("os").system
        return super().__new__(mcs, name, bases, namespace)
class Victim(metaclass=Meta):
    pass
Victim.run("touch {MARKER_PATH}")
