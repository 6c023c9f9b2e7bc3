# category: bridge
# signal: handler
# expect: refused
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (the host serves only the tools the program was given)
# source: the program's own process can rewrite a tool stub's name; the host must still refuse undeclared tools
stub = tools.echo
object.__setattr__(stub, "_name", "admin-delete-everything")
await stub(confirm=True)
