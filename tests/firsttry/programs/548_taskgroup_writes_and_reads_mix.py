# description: Tag customers and read stock in one task group
# value: {"first_tags": ["churn-risk"], "second_tags": ["churn-risk", "called"], "stock": [3, 9]}
import asyncio
async with asyncio.TaskGroup() as tg:
    t1 = tg.create_task(tools.tag_customer(customer_id="c5", tags=["churn-risk"]))
    s1 = tg.create_task(tools.get_stock(sku="LP-14"))
    t2 = tg.create_task(tools.tag_customer(customer_id="c5", tags=["called"]))
    s2 = tg.create_task(tools.get_stock(sku="HS-07"))
return {"first_tags": t1.result()["tags"], "second_tags": t2.result()["tags"],
        "stock": [s1.result(), s2.result()]}
