# value: {"ran": true, "name": "__main__", "total": 6}
# logs: ["running as __main__"]
def main(values):
    return sum(values)
result = {"ran": False, "name": __name__, "total": 0}
if __name__ == "__main__":
    print(f"running as {__name__}")
    result["ran"] = True
    result["total"] = main([1, 2, 3])
return result
