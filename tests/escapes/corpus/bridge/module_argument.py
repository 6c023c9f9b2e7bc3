# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# source: a module object passed to the host
import json
await tools.echo(value=json)
