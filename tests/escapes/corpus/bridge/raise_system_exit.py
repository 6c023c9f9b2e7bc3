# category: bridge
# signal: liveness
# kinds: exception
# plain: skip (checks the sandbox's containment)
# source: SystemExit must end only the program
raise SystemExit(0)
