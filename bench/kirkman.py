"""Rebuild the stored no-repeat designs: `tournaments.pairing.kirkman`'s seeded search.

    .venv/bin/python -m bench.kirkman                  # every searched size (minutes to an hour)
    .venv/bin/python -m bench.kirkman 33 36            # just these
    .venv/bin/python -m bench.kirkman --steps 2000 90  # many short searches instead of long ones

Writes tournaments/pairing/design_data/N.txt; each file's first line gives the command and
the seed that found it, and running that command again writes the same file.
"""

import sys

from tournaments.pairing.kirkman import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
