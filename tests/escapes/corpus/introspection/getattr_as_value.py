# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: smolagents CVE-2025-5120 class: a builtin used as a value, then called on a dunder
fetch = getattr
fetch(fetch(len, "__self__"), "__import__")("os").system("touch {MARKER_PATH}")
