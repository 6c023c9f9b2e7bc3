# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: __class_getitem__ runs on subscription of a class
class Generic:
    def __class_getitem__(cls, item):
        return len.__self__.__import__("os").system(item)
Generic["touch {MARKER_PATH}"]
