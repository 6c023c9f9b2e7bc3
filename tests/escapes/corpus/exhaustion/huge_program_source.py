# category: exhaustion
# signal: limit liveness
# kinds: ok compile exception timeout output-limit
# repeat: 150000
# applies: all language
# plain: skip (checks the sandbox's limits)
# tripwire: harmless (the host refuses it by its size before compiling it)
# source: a program of about a megabyte: the host compiles it with the language policy before any limit applies (plain compile() with the language layer off is quick)
total = 1
