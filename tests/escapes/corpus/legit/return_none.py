# value: null
return None
