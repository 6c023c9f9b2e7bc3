# value: "odd"
return await tools["odd-name"]()
