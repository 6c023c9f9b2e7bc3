# value: 200
total = 0
for i in range(200):
    total += (await tools.echo(i=1))["i"]
return total
