# category: bridge
# signal: liveness
# kinds: invalid-output
# plain: skip (checks the sandbox's output validation)
# tripwire: harmless (the return value is checked as lossless JSON)
# source: lossy values in the return value
return {"a": (1, 2), "b": float("nan")}
