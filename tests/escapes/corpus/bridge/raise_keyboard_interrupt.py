# category: bridge
# signal: liveness
# kinds: exception
# plain: skip (checks the sandbox's containment)
# source: KeyboardInterrupt must end only the program
raise KeyboardInterrupt()
