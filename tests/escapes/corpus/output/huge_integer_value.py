# category: output
# signal: liveness bounded
# kinds: invalid-output output-limit
# plain: skip (checks the sandbox's output validation)
# tripwire: harmless (the runtime's and the host's output checks)
# source: an integer with more digits than int-to-str conversion allows
return 10 ** 5000
