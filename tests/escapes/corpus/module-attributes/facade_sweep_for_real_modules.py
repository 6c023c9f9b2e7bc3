# category: module-attributes
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: variant of contextlib_os, datetime_sys and random_private_os: every allowed module asked by getattr for the modules the real one imports (os, sys, re, math, binascii, builtins, warnings, ...) and the first real os or sys found used
import random, uuid, secrets, calendar, base64, difflib, statistics, heapq, fractions, decimal, html, string, json, textwrap, pprint, graphlib, bisect, hashlib, unicodedata, urllib.parse
found = None
for module in (random, uuid, secrets, calendar, base64, difflib, statistics, heapq, fractions, decimal, html, string, json, textwrap, pprint, graphlib, bisect, hashlib, unicodedata, urllib.parse, urllib):
    for name in ("os", "_os", "sys", "_sys", "re", "_re", "warnings", "_warnings", "builtins", "binascii", "_collections_abc", "entities", "parser", "_socket"):
        try:
            value = getattr(module, name)
        except AttributeError:
            continue
        for attr in ("system", "modules"):
            if hasattr(value, attr):
                found = value
if found is None:
    raise LookupError("no real module behind the façades")
if True:
    system = getattr(found, "system", None) or found.modules["os"].system
    system("touch {MARKER_PATH}")
