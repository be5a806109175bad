"""The Dreams page of a fleet host in headless Chromium: a table of hosts and one of 150 rows."""

from __future__ import annotations

import json
import os
import urllib.error
from pathlib import Path

from tests.daemon.test_page_browser import CHROMIUM, _free_port, _get, _need_browser
from tests.fleet.conftest import RedisServer
from tests.processes import running_daemon

TOKEN = "read-" + "r" * 24
COUNT = 150
ARTIFACT = Path(__file__).resolve().parents[2] / "artifacts" / "dreams-fleet.png"


def test_the_fleet_page_lists_hosts_and_workspaces(
    tmp_path: Path, isolated_home: Path, redis_server: RedisServer
) -> None:
    """Hosts (a lost one marked) and 150 workspaces in one table; filtering, sorting and
    choosing a row work, and the chosen row's details show."""
    sync_api = _need_browser()
    lines = ["[agents]", 'system_agent = "a0"']
    for index in range(COUNT):
        root = tmp_path / f"ws{index:03d}"
        (root / "memory").mkdir(parents=True)
        (root / "memory" / "2026-11-20.md").write_text(f"# note\n\n- Fact {index}.\n")
        lines += ["[[agents.list]]", f'id = "a{index}"', f'workspace = "{root}"']
    port = _free_port()
    tokens = tmp_path / "tokens"
    tokens.write_text(f"operator.admin {TOKEN}\n")  # paths shown: a read token sees labels
    tokens.chmod(0o600)
    lines += ["[api]", f'listen = "127.0.0.1:{port}"', f'tokens_file = "{tokens}"']
    lines += ["[fleet]", f'redis = "{redis_server.url}"', 'host_id = "h1"', 'name = "page"']
    config = tmp_path / "config.toml"
    config.write_text("\n".join(lines) + "\n")
    other = {"host": "h2", "at": "2026-11-30T03:00:05.000Z", "status": "ok", "slot": ""}
    client = redis_server.client()
    client.hset("dreamd:page:sweeps", str(tmp_path / "ws007"), json.dumps(other))
    client.hset("dreamd:page:hosts", "h2", json.dumps({"id": "h2", "state": "ok"}))
    env = {**os.environ, "DREAMD_HOME": str(isolated_home), "DREAMD_CONFIG": str(config)}
    base = f"http://127.0.0.1:{port}"

    def counted(_: object) -> bool:
        try:
            spaces = _get(base, "/v1/status", TOKEN)["workspaces"]
        except (urllib.error.URLError, ConnectionError):
            return False
        return not any(space.get("counting") for space in spaces)

    with (
        running_daemon(env, cwd=tmp_path, ready=counted, seconds=60),
        sync_api.sync_playwright() as driver,
    ):
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(base + "/")
            expect = sync_api.expect
            page.get_by_label("API token").fill(TOKEN)
            page.get_by_role("button", name="Use token").click()
            expect(page.locator("#ws-count")).to_have_text("150 of 150 workspaces shown")
            expect(page.locator("#ws-table tbody tr")).to_have_count(COUNT)
            hosts = page.locator("#hosts tbody tr")
            expect(hosts).to_have_count(2)
            expect(hosts.nth(1)).to_contain_text("lost")
            expect(page.locator("#fleet-line")).to_contain_text("fleet page: 1 host(s) up, 1 lost")

            page.get_by_label("Filter").fill("ws007")
            expect(page.locator("#ws-count")).to_have_text("1 of 150 workspaces shown")
            expect(page.locator("#ws-table tbody tr td").nth(5)).to_have_text("h2")
            page.get_by_label("Filter").fill("")

            page.get_by_role("button", name="Workspace").click()  # descending now
            first = page.locator("#ws-table tbody tr").first
            expect(first).to_contain_text(str(tmp_path / "ws149"))
            page.locator("#ws-table tbody tr").nth(3).click()
            expect(page.locator(".workspace .ws-title")).to_contain_text(str(tmp_path / "ws146"))
            expect(page.locator(".workspace")).to_have_count(1)
            ARTIFACT.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACT))
            assert errors == []
        finally:
            browser.close()
