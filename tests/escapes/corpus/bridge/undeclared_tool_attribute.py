# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (the host serves only the tools the program was given)
# source: a tool name that was not sent with the program
await tools.admin_delete_everything()
