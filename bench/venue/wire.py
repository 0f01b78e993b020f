"""A keeper's own keep-alive client: bench.site_load's phones' Connection, with a body.

httpx costs this process a millisecond or more a request; 100 keepers posting as fast as they
can made the load generator, not the site, the bottleneck (its event loop ran seconds late
on the busy 2-core machine). The floor's writes and the site's deals go through this one
client alike, so neither phase pays more for its client than the other."""

from __future__ import annotations

import json

from bench.site_load.connection import Answer, Connection


class Wire(Connection):
    """`request` as bench.site_load.measure.Stats calls it, with an optional JSON body.
    Like Connection, it sends once more when the server had closed a kept-alive connection:
    a deal's number makes that safe (the same deal again records nothing)."""

    async def request(self, method: str, url: str, headers=None, json_body=None) -> Answer:
        body = b"" if json_body is None else json.dumps(json_body).encode()
        headers = {
            **(headers or {}),
            "Content-Type": "application/json",
            "Content-Length": str(len(body)),
        }
        return await super().request(method, url, headers, body)


def answer_json(answer: Answer) -> dict:
    return json.loads(answer.content)
