# category: bridge
# signal: handler
# expect: exception
# plain: skip (needs the sandbox's tools binding)
# tripwire: harmless (tool arguments are checked as lossless JSON in the child and again on the host)
# source: a module object passed to the host
import json
await tools.echo(value=json)
