# value: [0, 2, ["KeyError", "'b'"], "wrapped", true, "ValueError"]
class Tally(dict):
    def __missing__(self, key):
        return 0
t = Tally()
t["a"] = t["a"] + 1
t["a"] += 1
out = [t["zzz"], t["a"]]
class ConfigError(Exception):
    pass
def load(table, key):
    try:
        return table[key]
    except KeyError as error:
        raise ConfigError("wrapped") from error
try:
    load({}, "b")
except ConfigError as error:
    cause = error.__cause__
    out.append([type(cause).__name__, str(cause)])
    out.append(str(error))
try:
    try:
        int("x")
    except ValueError:
        raise RuntimeError("while parsing")
except RuntimeError as error:
    out.append(error.__cause__ is None)
    out.append(type(error.__context__).__name__)
return out
