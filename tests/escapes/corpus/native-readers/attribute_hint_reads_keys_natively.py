# category: native-readers
# signal: liveness bounded
# kinds: exception
# plain: skip (the hint is the sandbox's formatting of an uncaught error)
# tripwire: harmless (the hint compares only exact str keys, at most 10,000, in every mode)
# source: an uncaught AttributeError whose obj is a dict gets a line when the dict has the name as a key; the formatting reads the exception's name and obj after the program ended, so a key of a str subclass whose __eq__ never returns, or many long keys equal in length to the name, must not run program code or cost more than a bounded scan
class Key(str):
    def __eq__(self, other):
        while True:
            pass
    def __hash__(self):
        return 7
name = "k" * 2_000
keys = {Key("title"): 0}
for i in range(12_000):
    keys["k" * 1_990 + str(i).zfill(10)] = i
raise AttributeError("the read", name=name, obj=keys)
