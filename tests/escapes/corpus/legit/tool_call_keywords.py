# value: {"query": "cats"}
return await tools.echo(query="cats")
