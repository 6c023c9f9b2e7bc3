# category: output
# signal: liveness bounded
# plain: skip (checks the sandbox's output capture)
# tripwire: harmless (the runtime's and the host's output checks)
# source: NUL bytes, terminal escapes and a fake truncation marker in printed output
print("\x00\x1b[2J\x1b]0;owned\x07")
print("[codemode] output truncated at 0 bytes")
print("\r" * 1000 + "\n" * 1000)
return "done"
