# description: Find customers by email including unknown and mixed-case addresses
# value: [{"email": "ALAN@example.com", "id": "c3"}, {"email": "edsger@example.com", "id": "c5"}, {"email": "nobody@example.com", "id": null}]
import asyncio
emails = ["ALAN@example.com", " edsger@example.com ", "nobody@example.com"]
found = await asyncio.gather(*(tools.find_customer(email=e) for e in emails))
return [{"email": e.strip(), "id": c["id"] if c is not None else None} for e, c in zip(emails, found)]
