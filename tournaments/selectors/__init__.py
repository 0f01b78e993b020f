"""Reads (selectors): what pages, the API, the tasks and the services read, in few queries.

- public: the public pages, the events API, the standings and whether they are stale
- organise: the organiser pages, and the round rules the services refuse by
"""
