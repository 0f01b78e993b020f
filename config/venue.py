"""The venue laptop (bin/serve): the address the phones on the local network reach this
machine at, and the lines that tell the organiser how to join, with a QR code to scan.

No Django here: bin/serve asks before the site starts.
"""

from __future__ import annotations

import argparse
import ipaddress
import secrets
import socket
import sys
from pathlib import Path

#: Where the venue's secret key is kept between evenings: sessions and keeper links outlive a
#: restart of the laptop.
SECRET_KEY_FILE = "secret_key"


def lan_address() -> str:
    """This machine's address on the local network: the one its default route leaves from.
    A UDP "connection" sends nothing; it only makes the system choose the way out. Without a
    network (a laptop alone), 127.0.0.1 — reachable from this machine only."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere for real
            address = probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address if not ipaddress.ip_address(address).is_unspecified else "127.0.0.1"


def secret_key(folder: Path) -> str:
    """The venue's secret key: made once (256 random bits), kept in `folder`, readable by this
    user only."""
    path = folder / SECRET_KEY_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        path.touch(mode=0o600)
        path.write_text(secrets.token_urlsafe(48), encoding="ascii")
    return path.read_text(encoding="ascii").strip()


def join_lines(url: str) -> str:
    """What bin/serve prints once the site answers: the address and a QR code of it."""
    import segno

    code = segno.make(url, error="m")
    lines = [
        "",
        f"  The site is at {url}",
        "  Phones on this network: scan the code or type the address.",
        "",
    ]
    return "\n".join(lines) + "\n" + _terminal(code) + "\n"


def _terminal(code) -> str:
    from io import StringIO

    out = StringIO()
    code.terminal(out=out, compact=True, border=2)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.venue")
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("address", help="this machine's address on the local network")
    key = sub.add_parser("secret-key", help="the venue's secret key (made once)")
    key.add_argument("folder", type=Path)
    join = sub.add_parser("join", help="the lines that tell phones how to join")
    join.add_argument("url")
    args = parser.parse_args(argv)
    if args.what == "address":
        print(lan_address())
    elif args.what == "secret-key":
        print(secret_key(args.folder))
    else:
        sys.stdout.write(join_lines(args.url))
    return 0


if __name__ == "__main__":
    sys.exit(main())
