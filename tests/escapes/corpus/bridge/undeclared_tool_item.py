# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (the host serves only the tools the program was given)
# source: an undeclared name through the item form
await tools["admin-delete-everything"]()
