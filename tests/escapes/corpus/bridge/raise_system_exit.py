# category: bridge
# signal: liveness
# kinds: exception
# plain: skip (checks the sandbox's containment)
# tripwire: harmless (the runtime contains every exception the program raises)
# source: SystemExit must end only the program
raise SystemExit(0)
