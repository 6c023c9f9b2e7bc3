# category: format-string
# signal: leak
# leak: <module 'builtins'|'__import__'
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the real builtins named in the result, judged with the language layer on)
# source: variant of str_format_unbound_leak and str_format_subclasses_leak: str.format reached as a value (functools.partial, map, functools.reduce, a sort key, getattr with a built name, a str subclass's class attribute, super(), vars(str)) and %-formatting, each given a field that walks to a function's globals
import functools, operator
out = []
def f(): pass
def t(label, g):
    try:
        out.append(label + ": " + repr(g())[:150])
    except BaseException as e:
        out.append(label + " !" + type(e).__name__ + ": " + str(e)[:100])
spec = "{0.__globals__[__builtins__]}"
class S(str):
    pass
t("vars(str)", lambda: vars(str)["format"](spec, f))
t("S.format", lambda: S(spec).format(f))
t("str.format unbound", lambda: str.format(S(spec), f))
t("partial", lambda: functools.partial(str.format, spec)(f))
t("map", lambda: list(map(str.format, [spec], [f])))
t("super", lambda: super(S, S(spec)).format(f))
t("getattr", lambda: getattr(str, "format")(spec, f))
t("getattr inst", lambda: getattr(spec, "form" + "at")(f))
t("reduce", lambda: functools.reduce(str.format, [f], spec))
t("dict values", lambda: [v for k, v in vars(str).items() if k == "format_map"][0](spec, {0: f}))
t("fmt map", lambda: "{a.__globals__}".format_map({"a": f}))
t("percent", lambda: "%(a)s" % {"a": f})
t("sorted key", lambda: sorted([spec], key=str.format))
t("method of S class", lambda: S.format(spec, f))
return out
