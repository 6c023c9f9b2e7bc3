# description: Pass tuples as list arguments and tag a customer with them
# value: {"levels": {"KB-01": 14, "HD-10": 42}, "unknown_left_out": true, "tags": ["trial", "newsletter"]}
skus = ("KB-01", "HD-10", "ZZ-99")
levels = await tools.stock_levels(skus=skus)
tagged = await tools.tag_customer(customer_id="c3", tags=("trial", "newsletter"))
return {"levels": levels, "unknown_left_out": "ZZ-99" not in levels, "tags": tagged["tags"]}
