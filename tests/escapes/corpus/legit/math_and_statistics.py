# value: [3.0, 2.5, 120, 1.0]
import math
import statistics
return [math.sqrt(9), statistics.median([1, 2, 3, 4]), math.factorial(5), round(math.cos(0), 3)]
