# value: {"hits": ["dogs-1", "dogs-2"]}
return await tools.search({"query": "dogs"})
