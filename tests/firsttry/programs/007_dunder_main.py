# description: Find enterprise customers and their pending orders
# value: {"Ada Lovelace": ["o-1003"], "Margaret Hamilton": ["o-1010"]}
# logs: ["{'Ada Lovelace': ['o-1003'], 'Margaret Hamilton': ['o-1010']}"]
async def main():
    enterprise = await tools.list_customers(tier="enterprise")
    result = {}
    for customer in enterprise:
        pending = await tools.list_orders(customer_id=customer["id"], status="pending")
        result[customer["name"]] = [o["id"] for o in pending]
    return result


if __name__ == "__main__":
    result = await main()
    print(result)

return result
