# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# source: an undeclared name through the item form
await tools["admin-delete-everything"]()
