"""Warming the stack before the first phase: a venue laptop has been serving for a while
when a round ends, so neither phase should pay the first requests' imports and connections."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor


def warm(base_url: str, slug: str, game_ids: list[int], rounds: int = 3) -> None:
    """Each page the phases ask for, a few times over from 16 threads (every gunicorn
    thread gets some); answers are not checked, the phases count errors."""
    import httpx

    paths = ["/healthz", f"/events/{slug}/standings/live/", f"/api/events/{slug}/standings"]
    for game_id in game_ids[:16]:
        paths += [f"/bench-floor/read/{game_id}/", f"/games/{game_id}/sheet/?v=0"]

    def get(path: str) -> None:
        try:
            httpx.get(base_url + path, timeout=30)
        except httpx.HTTPError:
            pass

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(get, paths * rounds))
