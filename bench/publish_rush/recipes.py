"""The floor of a visit: the SQL each of its requests sends, captured once the round is out
and replayed by bench.floor.views.replay on the same server (the floor used to be two
bare one-row reads, not the visit's own work).

Captured in the seed's process (bench/publish_rush/seed.py --publish), through the whole
middleware stack with bench.request_cost.recipes.capturing, for one player: "where do I sit"
in each of the three ways a phone asks it, and the round page. Each is first asked once for
another player (the process's seat map and templates loaded, as in a serving process), then
recorded for the player's own first ask, which is what most visits of the rush are.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote_plus

from bench.request_cost.recipes import capturing, save

SEAT_NAME = "rush-seat-name"
SEAT_LINK = "rush-seat-link"
SEAT_ME = "rush-seat-me"
ROUND = "rush-round"


def requests(slug: str, event_id: int, player: dict) -> dict[str, tuple[str, dict]]:
    """Each recipe's URL and cookies, for `player` (as bench.publish_rush.load sends them)."""
    seat = f"/events/{slug}/seat/"
    return {
        SEAT_NAME: (f"{seat}?name={quote_plus(player['name'].lower())}", {}),
        SEAT_LINK: (f"{seat}?name={quote_plus(player['name'])}&player={player['id']}", {}),
        SEAT_ME: (seat, {f"me-{event_id}": player["me"]}),
        ROUND: (f"/events/{slug}/rounds/1/", {}),
    }


def capture(event, players: list[dict], path: Path) -> dict[str, int]:
    """The four recipes, written to `path`; each one's statement count."""
    from django.test import Client

    warm, own = players[-1], players[0]
    found = {}
    for name, (url, cookies) in requests(event.slug, event.pk, warm).items():
        client = Client(HTTP_HOST="127.0.0.1")
        for cookie, value in cookies.items():
            client.cookies[cookie] = value
        with capturing():
            client.get(url)
        url, cookies = requests(event.slug, event.pk, own)[name]
        client = Client(HTTP_HOST="127.0.0.1")
        for cookie, value in cookies.items():
            client.cookies[cookie] = value
        with capturing() as steps:
            status = client.get(url).status_code
        if status != 200:
            raise RuntimeError(f"capturing {name} ({url}): answered {status}")
        found[name] = steps
    save(found, path)
    return {name: len(steps) for name, steps in found.items()}
