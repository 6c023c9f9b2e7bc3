# value: "done"
# logs: ["hello", "a-b"]
print("hello")
print("a", "b", sep="-")
return "done"
