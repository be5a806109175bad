"""Write (or, with --check, compare) the service files kept in the source tree.

``systemd/dreamd.service`` (the Debian package's unit, for /opt/dreamd),
``systemd/user/dreamd.service`` (a user unit for pipx and ``uv tool`` installs in
~/.local/bin)
and ``launchd/org.dreamd.dreamd.plist`` (a LaunchAgent for Homebrew on Apple silicon) are
rendered from the templates in ``dreamd/service/templates``, which ``dreamd service install``
uses on each host. Edit the templates, then run ``python packaging/service_files.py``;
``tests/service/test_systemd.py`` runs it with ``--check``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dreamd.service.launchd import LABEL, render_launch_agent
from dreamd.service.systemd import render_system_unit, render_user_unit, systemd_command

ROOT = Path(__file__).resolve().parents[1]
PACKAGED = "/opt/dreamd/bin/dreamd"
EXAMPLE_HOME = "/Users/you"


def rendered() -> dict[Path, bytes]:
    """Each kept file and the bytes it should hold."""
    system = render_system_unit(
        systemd_command([PACKAGED, "run"]), writable=["/srv/dreamd"], readable=[PACKAGED]
    )
    user = render_user_unit("%h/.local/bin/dreamd run")  # %h: systemd's home specifier
    agent = render_launch_agent(
        ["/opt/homebrew/bin/dreamd", "run"],
        home=EXAMPLE_HOME,
        log_dir=f"{EXAMPLE_HOME}/Library/Logs/dreamd",
    )
    return {
        ROOT / "systemd" / "dreamd.service": system.encode(),
        ROOT / "systemd" / "user" / "dreamd.service": user.encode(),
        ROOT / "launchd" / f"{LABEL}.plist": agent,
    }


def main() -> int:
    """Write the files, or with --check list the stale ones and exit 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when stale")
    args = parser.parse_args()
    stale = [
        path for path, data in rendered().items() if not path.is_file() or path.read_bytes() != data
    ]
    if args.check:
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)} (run python packaging/service_files.py)")
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(rendered()[path])
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
