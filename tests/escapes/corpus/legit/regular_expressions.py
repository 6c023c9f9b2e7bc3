# value: [["2024-01-02", "2025-03-04"], "a-b-c"]
import re
found = re.findall(r"\d{4}-\d{2}-\d{2}", "on 2024-01-02 and 2025-03-04")
return [found, re.sub(r"\s+", "-", "a  b   c")]
