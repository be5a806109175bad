"""The Dreams page in headless Chromium against a real daemon on a temporary workspace.

Needs Debian's ``chromium`` (``/usr/bin/chromium``, installed by ``.ci/browser-deps``) and
Playwright for Python. Without them the test skips, except under CI, where it fails. The
screenshots are saved to ``artifacts/dreams-page.png`` (desktop, 1200 px) and
``artifacts/dreams-page-phone.png`` (a phone, 390 px) at the repository root.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from dreamd.engine.hits import Hit
from dreamd.engine.phases.diary import FALLBACK_ENTRY
from dreamd.recall.record import record_search
from tests.processes import run_cli, running_daemon

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACT = Path(__file__).resolve().parents[2] / "artifacts" / "dreams-page.png"
PHONE_ARTIFACT = ARTIFACT.with_name("dreams-page-phone.png")
PHONE = {"width": 390, "height": 844}
READ_TOKEN = "read-" + "r" * 24
ADMIN_TOKEN = "admin-" + "a" * 24
ZONE = "Europe/Berlin"

CONFIG = """
[dreaming]
frequency = "0 3 * * *"
timezone = "{zone}"

[dreaming.deep]
min_score = 0.5

[agents.heartbeat]
every = "30m"

[[agents.list]]
id = "main"
workspace = "{root}"

[api]
listen = "127.0.0.1:{port}"
tokens_file = "{tokens}"
"""


def _need_browser() -> Any:
    """Playwright's sync API, or skip (fail under CI) with the reason."""
    reason = ""
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is missing; install Debian's chromium (.ci/browser-deps)"
    try:
        from playwright import sync_api  # optional test dependency
    except ImportError:
        reason = reason or "playwright is not installed (pip install -e '.[test]')"
    if reason:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return sync_api


def _recalled(root: Path, days_ago: int, fact: str, queries: tuple[str, ...]) -> None:
    """A daily note holding ``fact``, asked about once a day by each of ``queries``."""
    day = (datetime.now(UTC) - timedelta(days=days_ago)).date().isoformat()
    (root / "memory" / f"{day}.md").write_text(f"# {day}\n\n{fact}\n")
    for offset, query in enumerate(queries):
        when = datetime.now(UTC) - timedelta(days=len(queries) - offset, hours=1)
        hit = Hit(f"memory/{day}.md", 3, 3, fact, 0.9)
        record_search(root, query, [hit], now=when, zone=UTC)


def _historical(root: Path) -> None:
    """Two old notes for a grounded backfill."""
    for day in ("2026-03-01", "2026-03-08"):
        (root / "memory" / f"{day}.md").write_text(
            f"# {day}\n\n## Decisions\n- Decided to keep the deploy window on Tuesdays.\n"
            "- Alice owns the release checklist.\n"
        )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _cli(env: dict[str, str], *argv: str) -> str:
    done = run_cli(env, *argv)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _diary_body(entry: str) -> str:
    """The first line of a diary entry's body as the page shows it (comments left out)."""
    rest = re.sub(r"<!--.*?-->", "", "\n".join(entry.split("\n")[1:]), flags=re.DOTALL)
    return next((line.strip() for line in rest.strip().splitlines() if line.strip()), "")


def _get(base: str, path: str, token: str = ADMIN_TOKEN) -> Any:
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def _post(base: str, path: str, body: Any, token: str = ADMIN_TOKEN) -> Any:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode() if body is not None else b"",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)


@pytest.fixture
def daemon(tmp_path: Path, isolated_home: Path) -> Iterator[tuple[str, Path]]:
    """A running ``dreamd run`` on loopback TCP over a workspace that has swept once."""
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    _recalled(root, 4, "- The billing service runs on Postgres 16 on host db-02.", ("a", "b", "c"))
    _historical(root)
    tokens = tmp_path / "tokens"
    tokens.write_text(f"operator.read {READ_TOKEN}\noperator.admin {ADMIN_TOKEN}\n")
    tokens.chmod(0o600)
    port = _free_port()
    config = tmp_path / "config.toml"
    config.write_text(CONFIG.format(zone=ZONE, root=root, port=port, tokens=tokens))
    env = {**os.environ, "DREAMD_HOME": str(isolated_home), "DREAMD_CONFIG": str(config)}
    env.pop("DREAMD_NOW", None)
    _cli(env, "sweep")
    _cli(env, "--workspace", str(root), "memory", "rem-backfill", "--path", str(root / "memory"),
         "--stage-short-term")  # fmt: skip
    base = f"http://127.0.0.1:{port}"

    def counted(_: object) -> bool:
        try:
            return not _get(base, "/v1/status")["workspaces"][0].get("counting")
        except (urllib.error.URLError, ConnectionError):
            return False

    with running_daemon(env, cwd=tmp_path, ready=counted):
        _post(base, "/v1/sweep", None)  # the daemon's own sweep fills the phase summaries
        _recalled(
            root,
            2,
            "- The search cluster reindexes every Sunday at 02:00.",
            ("when does search reindex", "reindex schedule", "sunday search job"),
        )
        yield base, root


def _next_three_oclock() -> str:
    zone = ZoneInfo(ZONE)
    now = datetime.now(zone)
    fire = now.replace(hour=3, minute=0, second=0, microsecond=0)
    if fire <= now:
        fire = (now + timedelta(days=1)).replace(hour=3, minute=0, second=0, microsecond=0)
    return f"{fire:%Y-%m-%d %H:%M} {ZONE}"


def _refused(base: str, path: str, body: Any, token: str) -> int:
    """The HTTP status of a POST the daemon refuses."""
    try:
        _post(base, path, body, token=token)
    except urllib.error.HTTPError as exc:
        return exc.code
    return 200


def test_dreams_page_in_chromium(daemon: tuple[str, Path]) -> None:
    """Counts and next run show; a read token sees no admin buttons (and the API refuses it), an
    admin turns dreaming off and previews a backfill; today's promotions and near misses list
    with explain; a diary entry opens; the desktop screenshot is saved."""
    sync_api = _need_browser()
    base, root = daemon
    status = _get(base, "/v1/status")
    counts = status["workspaces"][0]
    # one line was written today (one promotion event), so every count says 1
    assert (counts["promotedToday"], counts["grounded"]) == (1, 3)
    document = _get(base, "/v1/candidates")
    assert len(document["candidates"]) == 1
    assert [item["source"] for item in document["promotions"]] == [
        f"{item['path']}:{item['startLine']}-{item['endLine']}" for item in document["promotions"]
    ]
    assert len(document["promotions"]) == 1
    promoted = {item["key"] for item in document["promotions"]}
    assert not promoted & {item["key"] for item in document["nearMisses"]}
    assert all(item["gate"] for item in document["nearMisses"])
    assert _get(base, "/v1/whoami", token=READ_TOKEN) == {
        "scopes": ["operator.read"],
        "admin": False,
    }
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(base + "/")
            expect = sync_api.expect

            page.get_by_label("API token").fill(READ_TOKEN)
            page.get_by_role("button", name="Use token").click()
            expect(page.locator("#count-promotedToday")).to_have_text("1")
            for key in ("shortTerm", "grounded", "signals"):
                expect(page.locator(f"#count-{key}")).to_have_text(str(counts[key]))
            expect(page.locator("#next-run")).to_have_text(_next_three_oclock())
            expect(page.locator("#enabled-state")).to_have_text("on")
            expect(page.locator(".lane-entries li")).to_have_count(3)
            expect(page.locator(".candidate")).to_have_count(1)
            expect(page.locator("#chart svg rect.promoted")).to_have_count(1)

            expect(page.locator(".promotion-list li")).to_have_count(1)
            expect(page.locator("#toggle")).to_be_hidden()  # a read token sees no admin buttons
            expect(page.locator("form.backfill")).to_be_hidden()
            expect(page.locator(".clear-grounded")).to_be_hidden()
            assert _refused(base, "/v1/dreaming", {"enabled": False}, READ_TOKEN) == 403
            assert _get(base, "/v1/status")["enabled"] is True
            first = page.locator(".promotion-list li").first
            first.get_by_role("button", name="explain").click()
            expect(first.locator(".explain-lines")).to_contain_text("verdict:")

            page.get_by_role("button", name="Forget").click()
            page.get_by_label("API token").fill(ADMIN_TOKEN)
            page.get_by_role("button", name="Use token").click()
            page.get_by_role("button", name="Turn dreaming off").click()
            expect(page.locator("#enabled-state")).to_have_text("off")
            expect(page.locator("#toggle-message")).to_have_text("Dreaming is now off.")
            after = _get(base, "/v1/status")
            assert (after["enabled"], after["enabledSource"]) == (False, "override")

            page.get_by_role("button", name="Preview").click()
            expect(page.locator(".backfill-message")).to_contain_text("nothing was written")
            expect(page.locator("details.backfill-file")).to_have_count(4)

            expect(page.locator("details.diary-entry")).to_have_count(
                4
            )  # 3 replays and the one sweep with news
            entry = page.locator("details.diary-entry").first  # the newest
            newest = _get(base, "/v1/diary?limit=30")["entries"][-1]
            body = _diary_body(newest)
            assert body and FALLBACK_ENTRY not in body  # composed from the night, no model
            expect(entry.get_by_text(body)).to_be_hidden()
            entry.locator("summary").click()
            expect(entry).to_have_attribute("open", "")
            expect(entry.get_by_text(body)).to_be_visible()

            ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACT), full_page=True)
            sizes = {"desktop": _page_size(page)}
            sizes["phone"] = _phone(sync_api, browser, base, errors)
            assert errors == []
        finally:
            browser.close()
    for width, size in sizes.items():
        assert size["scrollWidth"] <= size["innerWidth"], (width, size)
    (ARTIFACT.parent / "dreams-page-sizes.json").write_text(json.dumps(sizes, indent=2) + "\n")
    for shot in (ARTIFACT, PHONE_ARTIFACT):
        assert shot.stat().st_size > 10_000
        shutil.copyfile(shot, root.parent / shot.name)


def _page_size(page: Any) -> dict[str, int]:
    """The document's scroll width and height against the viewport's width."""
    return dict(
        page.evaluate(
            "() => ({scrollWidth: document.documentElement.scrollWidth,"
            " innerWidth: window.innerWidth,"
            " scrollHeight: document.documentElement.scrollHeight})"
        )
    )


def _phone(sync_api: Any, browser: Any, base: str, errors: list[str]) -> dict[str, int]:
    """The page at 390 px with an admin token: no sideways scroll, stacked rows, folded
    sections that open; the phone screenshot is saved."""
    expect = sync_api.expect
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(base + "/")
    page.get_by_label("API token").fill(ADMIN_TOKEN)
    page.get_by_role("button", name="Use token").click()
    expect(page.locator("#count-promotedToday")).to_have_text("1")
    expect(page.locator(".promotion-list li")).to_have_count(1)
    expect(page.locator("#toggle")).to_be_visible()  # an admin token sees the buttons
    row = page.locator("#ws-table tbody tr").first
    expect(row.locator("td").first).to_have_attribute("data-label", "Workspace")
    diary = page.locator("details.diary")
    expect(diary).not_to_have_attribute("open", "")  # long sections start folded on a phone
    diary.locator("summary").first.click()
    expect(diary).to_have_attribute("open", "")
    size = _page_size(page)
    page.screenshot(path=str(PHONE_ARTIFACT), full_page=True)
    context.close()
    return size
