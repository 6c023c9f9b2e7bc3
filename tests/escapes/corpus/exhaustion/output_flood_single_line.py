# category: exhaustion
# signal: bounded
# plain: skip (floods the output)
# tripwire: harmless (the host's output caps)
# source: one enormous line
print("x" * 30_000_000)
return "done"
