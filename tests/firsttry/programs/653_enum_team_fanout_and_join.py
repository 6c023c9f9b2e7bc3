# description: Per team, list on-call agents concurrently and match them to a ticket's language
# value: {"sizes": {"billing": 2, "shipping": 2, "technical": 3}, "routing": {"billing/fr": "Lea", "technical/en": "Kemal", "shipping/de": "Jonas", "technical/ja": null}}
# logs: ["billing/fr    -> Lea", "technical/en  -> Kemal", "shipping/de   -> Jonas", "technical/ja  -> nobody"]
import asyncio

TEAMS = ("billing", "shipping", "technical")

async def whole_team(team):
    out, token = [], None
    while True:
        page = await tools.list_support_agents(team=team, page_token=token, page_size=5)
        out += page["agents"]
        if "next_page_token" not in page:
            return out
        token = page["next_page_token"]

rosters = dict(zip(TEAMS, await asyncio.gather(*(whole_team(t) for t in TEAMS))))
needs = [("billing", "fr"), ("technical", "en"), ("shipping", "de"), ("technical", "ja")]
routing = {}
for team, language in needs:
    fits = [a for a in rosters[team] if language in a["languages"]]
    fits.sort(key=lambda a: (not a["on_call"], a["name"]))
    routing[f"{team}/{language}"] = fits[0]["name"] if fits else None
for key, who in routing.items():
    print(f"{key:<13} -> {who or 'nobody'}")
return {"sizes": {t: len(r) for t, r in rosters.items()}, "routing": routing}
