# description: Collect the whole support rota by following next_page_token until it is absent
# value: {"pages": 4, "on_call": ["Ines", "Kemal", "Noor", "Otto"], "languages": ["ar", "da", "de", "en", "fr", "pt", "tr"]}
# logs: ["7 agents over 4 pages; on call: Ines, Kemal, Noor, Otto"]
agents = []
token = None
pages = 0
while True:
    params = {"page_size": 2}
    if token is not None:
        params["page_token"] = token
    page = await tools.list_support_agents(**params)
    pages += 1
    agents.extend(page["agents"])
    token = page.get("next_page_token")
    if token is None:
        break
on_call = [a["name"] for a in agents if a["on_call"]]
speakers = sorted({lang for a in agents for lang in a["languages"]})
print(f"{len(agents)} agents over {pages} pages; on call: {', '.join(on_call)}")
return {"pages": pages, "on_call": on_call, "languages": speakers}
