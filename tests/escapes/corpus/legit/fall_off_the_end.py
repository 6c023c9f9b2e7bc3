# value: null
x = 1
