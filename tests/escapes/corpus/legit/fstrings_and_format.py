# value: ["pi=3.14", "  42|", "Hello, Ada!", "0x1f"]
import math
name = "Ada"
return [f"pi={math.pi:.2f}", "{:>4}|".format(42), "Hello, {who}!".format_map({"who": name}), f"{31:#x}"]
