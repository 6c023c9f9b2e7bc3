# category: output
# signal: liveness bounded
# kinds: invalid-output
# plain: skip (checks the sandbox's output capture)
# tripwire: harmless (the runtime's and the host's output checks)
# source: text that cannot be encoded as UTF-8 in the logs and in the value
print("\ud800\udfff", "\udcff")
return "\ud800"
