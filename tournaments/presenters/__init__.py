"""What the public pages say, page by page: words and plain values for the templates.

Reads only: a presenter takes rows the selectors fetched and turns them into sentences
(through gettext, so English and Bulgarian read the same) and small frozen values; it never
decides a write. `standings` is also used by tournaments.results.render, which writes the
standings out once per snapshot for the polls.
"""
