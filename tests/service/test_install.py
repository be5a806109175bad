"""`dreamd service install|uninstall|status`, with fake `systemctl` and `launchctl` programs.

The fakes are real executables on PATH that log their arguments and answer like the real
tools; the OS corners (platform, euid, where systemd keeps its units, whether it is running)
are pointed at the test's own directories so nothing outside tmp_path is touched.
"""

from __future__ import annotations

import json
import os
import plistlib
import pwd
import sys
from pathlib import Path

import pytest

from dreamd.cli import service
from dreamd.cli.main import main
from dreamd.config import parse_config
from dreamd.errors import DreamdError
from dreamd.service import target
from dreamd.service.launchd import LABEL, check_launch_agent, render_launch_agent
from dreamd.service.systemd import render_system_unit, render_user_unit, systemd_command
from dreamd.service.target import Access, plan_access, plan_target
from dreamd.workspace.discovery import discover

SHOW = "--property=LoadState,UnitFileState,ActiveState,SubState,MainPID,StatusText"
FAKE = """#!/bin/sh
echo "$(basename "$0") $*" >> "$FAKE_LOG"
case "$*" in
  *" show "*) printf 'LoadState=loaded\\nActiveState=%s\\nSubState=running\\n' "$FAKE_ACTIVE" ;;
  "print "*) [ "$FAKE_ACTIVE" = active ] || exit 113; printf 'gui/501/x = {\\n\\tstate = running\\n\\tpid = 4242\\n}\\n' ;;
esac
"""


@pytest.fixture
def host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fake systemctl/launchctl on PATH, a running systemd, system dirs inside tmp_path."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    for name in ("systemctl", "launchctl"):
        (bin_dir / name).write_text(FAKE, encoding="utf-8")
        (bin_dir / name).chmod(0o755)
    log = tmp_path / "calls.log"
    log.touch()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_LOG", str(log))
    monkeypatch.setenv("FAKE_ACTIVE", "inactive")
    for name in ("XDG_CONFIG_HOME", "DREAMD_LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "run-systemd").mkdir()
    monkeypatch.setattr(service, "SYSTEMD_RUNNING", tmp_path / "run-systemd")
    monkeypatch.setattr(target, "SYSTEM_UNIT_DIR", tmp_path / "etc-systemd")
    monkeypatch.setattr(service, "SYSTEM_CONFIG", tmp_path / "etc-dreamd" / "config.toml")
    monkeypatch.setattr(sys, "platform", "linux")
    return log


def calls(log: Path) -> list[str]:
    """The fake tools' invocations so far, one string each."""
    return log.read_text(encoding="utf-8").splitlines()


def user_unit_path() -> Path:
    """Where the user unit goes for this test's HOME."""
    return Path.home() / ".config" / "systemd" / "user" / "dreamd.service"


def expected_user_unit(*extra: str) -> str:
    """The user unit install writes here: this program, DREAMD_HOME passed through."""
    argv = [*service.program(), *extra, "run"]
    return render_user_unit(
        systemd_command(argv), environment={"DREAMD_HOME": os.environ["DREAMD_HOME"]}
    )


def tmp_notes(paths: list[str]) -> list[str]:
    """The note about PrivateTmp= that paths under /tmp (where pytest may put tmp_path) get."""
    hidden = [path for path in paths if path.startswith(("/tmp/", "/var/tmp/"))]
    return (
        [f"PrivateTmp= gives the service its own /tmp: it cannot see {', '.join(hidden)}"]
        if hidden
        else []
    )


def create_user_prefix() -> str:
    """What the system unit's enable line starts with on this machine (no `dreamd` user yet)."""
    try:
        pwd.getpwnam("dreamd")
    except KeyError:
        return "useradd --system --user-group --home-dir /var/lib/dreamd --shell /usr/sbin/nologin dreamd && "
    return ""


def test_user_dry_run_prints_the_unit_and_changes_nothing(
    host: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--dry-run prints exactly the unit, says what the service will load, names the file and
    the enable command, runs nothing."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    monkeypatch.chdir(tmp_path)
    assert main(["--workspace", "ws", "service", "install", "--user", "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert out == expected_user_unit("--workspace", str(workspace))
    user = os.environ.get("USER") or pwd.getpwuid(os.geteuid()).pw_name
    assert err == (
        f"dreamd: the service reads no config file (defaults) and dreams 1 workspace(s): "
        f"{workspace}\n"
        f"dreamd: to keep it running after you log out: loginctl enable-linger {user}\n"
        f"dreamd: dry run: would write {user_unit_path()}, then: systemctl --user enable --now dreamd.service\n"
    )
    assert (user_unit_path().exists(), calls(host)) == (
        False,
        [f"systemctl --user show dreamd.service {SHOW}"],
    )


def test_system_dry_run_grants_the_configured_workspaces(
    host: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The system unit gets one ReadWritePaths= per workspace of its config, and --config; it
    says what the service loads, and that its private /tmp hides a config under /tmp."""
    for name in ("ops", "research"):
        (tmp_path / "agents" / name).mkdir(parents=True)
    config = tmp_path / "dreamd.toml"
    config.write_text(
        '[[agents.list]]\nid = "ops"\nworkspace = "agents/ops"\n'
        '[[agents.list]]\nid = "research"\nworkspace = "agents/research"\n',
        encoding="utf-8",
    )
    assert (
        main(["--json", "--config", str(config), "service", "install", "--system", "--dry-run"])
        == 0
    )
    out, err = capsys.readouterr()
    program = service.program()
    spaces = [str(tmp_path / "agents" / name) for name in ("ops", "research")]
    unit = render_system_unit(
        systemd_command([*program, "--config", str(config), "run"]),
        writable=spaces,
        readable=program,
    )
    enable = f"{create_user_prefix()}systemctl enable --now dreamd.service"
    notes = [
        f"the service reads {config} and dreams 2 workspace(s): {', '.join(spaces)}",
        f"the user 'dreamd' needs read and write access to {', '.join(spaces)}",
        *tmp_notes([*spaces, *program, str(config)]),
    ]
    assert json.loads(out) == {
        "manager": "systemd",
        "scope": "system",
        "path": str(tmp_path / "etc-systemd" / "dreamd.service"),
        "content": unit,
        "enable": enable,
        "written": False,
        "notes": notes,
        "loads": {"config": str(config), "workspaces": spaces},
    }
    assert [line for line in unit.splitlines() if line.startswith("ReadWritePaths=")] == [
        f"ReadWritePaths=-{path}" for path in spaces
    ]
    unit_path = tmp_path / "etc-systemd" / "dreamd.service"
    assert err == "".join(f"dreamd: {note}\n" for note in notes) + (
        f"dreamd: dry run: would write {unit_path}, then: {enable}\n"
    )


def test_a_system_unit_that_would_dream_nothing_is_refused(
    host: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No system config and no flags (the installing user's own config lives elsewhere): the
    system service would dream none of their workspaces, so nothing is written, and the error
    says what it reads and how to point it at a config or workspace."""
    from dreamd import paths

    own = paths.default_config_path()
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text('[[agents.list]]\nid = "main"\nworkspace = "/srv/agents/main"\n')
    assert main(["service", "install", "--system", "--dry-run"]) == 1
    err = capsys.readouterr().err
    assert err == (
        "dreamd: error: the system service would dream no workspace: it reads "
        f"{service.SYSTEM_CONFIG}, which does not exist and was given no --workspace; your own "
        f"{own} is not what it reads. Pass --config FILE (listing [[agents.list]] workspaces) "
        f"or --workspace PATH before `service`, or write {service.SYSTEM_CONFIG}\n"
    )
    assert not (tmp_path / "etc-systemd").exists()


def test_install_writes_reloads_and_prints_the_one_command(
    host: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """install writes the unit, reloads systemd, and prints how to enable and start it."""
    assert main(["service", "install", "--user"]) == 0
    out, err = capsys.readouterr()
    path = user_unit_path()
    assert out == (
        f"user unit {path}: written.\nEnable and start it with:\n  systemctl --user enable --now dreamd.service\n"
    )
    user = os.environ.get("USER") or pwd.getpwuid(os.geteuid()).pw_name
    default = Path(os.environ["DREAMD_HOME"]) / "data" / "workspace"
    assert err == (
        f"dreamd: the service reads no config file (defaults) and dreams 1 workspace(s): "
        f"{default}\n"
        f"dreamd: to keep it running after you log out: loginctl enable-linger {user}\n"
    )
    assert path.read_text(encoding="utf-8") == expected_user_unit()
    assert calls(host) == [
        "systemctl --user daemon-reload",
        f"systemctl --user show dreamd.service {SHOW}",
    ]


def test_reinstall_of_a_running_service_says_restart(
    host: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unchanged unit is left alone; a running service is told to restart, not enable."""
    assert main(["service", "install", "--user"]) == 0
    monkeypatch.setenv("FAKE_ACTIVE", "active")
    capsys.readouterr()
    assert main(["service", "install", "--user"]) == 0
    assert capsys.readouterr().out == (
        f"user unit {user_unit_path()}: already up to date.\n"
        "Enable and start it with:\n  systemctl --user restart dreamd.service\n"
    )


def test_status_reports_the_file_and_the_manager(
    host: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """status says whether the unit is installed and current, and what systemd reports."""
    assert main(["--json", "service", "status", "--user"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["installed"], document["upToDate"]) == (False, None)
    assert main(["service", "install", "--user"]) == 0
    monkeypatch.setenv("FAKE_ACTIVE", "active")
    capsys.readouterr()
    assert main(["service", "status", "--user"]) == 0
    assert capsys.readouterr().out == (
        f"user unit: {user_unit_path()}\n  file:  installed, up to date\n"
        "  state: LoadState=loaded, ActiveState=active, SubState=running\n"
    )
    user_unit_path().write_text(expected_user_unit().replace("60s", "90s"), encoding="utf-8")
    assert main(["--json", "service", "status", "--user"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert (document["installed"], document["upToDate"]) == (True, False)


def test_uninstall_disables_removes_and_reloads(
    host: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """uninstall stops and disables the service, removes the unit, reloads; twice is fine."""
    assert main(["service", "install", "--user"]) == 0
    host.write_text("", encoding="utf-8")
    assert main(["service", "uninstall", "--user", "--dry-run"]) == 0
    assert user_unit_path().exists() and calls(host) == []
    capsys.readouterr()
    assert main(["service", "uninstall", "--user"]) == 0
    assert capsys.readouterr().out == f"removed the user unit {user_unit_path()}\n"
    assert calls(host) == [
        "systemctl --user disable --now dreamd.service",
        "systemctl --user daemon-reload",
    ]
    assert not user_unit_path().exists()
    assert main(["service", "uninstall", "--user"]) == 0
    assert capsys.readouterr().out == f"no user unit at {user_unit_path()}\n"


def test_a_unit_dreamd_did_not_write_is_kept_unless_forced(
    host: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hand-written dreamd.service is neither replaced nor removed without --force."""
    path = user_unit_path()
    path.parent.mkdir(parents=True)
    path.write_text("[Service]\nExecStart=/usr/bin/true\n", encoding="utf-8")
    assert main(["service", "install", "--user"]) == 1
    assert main(["service", "uninstall", "--user"]) == 1
    assert (
        capsys.readouterr().err.count("was not written by dreamd; move it away or use --force") == 2
    )
    assert main(["service", "install", "--user", "--force"]) == 0
    assert path.read_text(encoding="utf-8") == expected_user_unit()


def test_system_install_needs_root(
    host: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without root, --system writes nothing and says to use sudo."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert main(["service", "install", "--system"]) == 1
    assert "the system unit needs root: sudo " in capsys.readouterr().err
    assert not (target.SYSTEM_UNIT_DIR / "dreamd.service").exists()


def test_root_gets_the_system_unit_by_default(host: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root with no --user/--system, install writes the system unit."""
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    (host.parent / "ws").mkdir()
    assert main(["--workspace", str(host.parent / "ws"), "service", "install"]) == 0
    written = (target.SYSTEM_UNIT_DIR / "dreamd.service").read_text(encoding="utf-8")
    assert "User=dreamd\n" in written and calls(host)[0] == "systemctl daemon-reload"


def test_macos_gets_a_launch_agent(
    host: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On macOS install writes the LaunchAgent, creates the log dir and prints bootstrap."""
    monkeypatch.setattr(sys, "platform", "darwin")
    assert main(["service", "install"]) == 0
    path = Path.home() / "Library" / "LaunchAgents" / f"{LABEL}.plist"
    uid = os.geteuid()
    assert capsys.readouterr().out == (
        f"LaunchAgent {path}: written.\nEnable and start it with:\n  launchctl bootstrap gui/{uid} {path}\n"
    )
    log_dir = Path(os.environ["DREAMD_HOME"]) / "log"
    document = plistlib.loads(path.read_bytes())
    assert check_launch_agent(document) == [] and log_dir.is_dir()
    assert path.read_bytes() == render_launch_agent(
        [*service.program(), "run"],
        home=str(Path.home()),
        log_dir=str(log_dir),
        environment={"DREAMD_HOME": os.environ["DREAMD_HOME"]},
    )
    monkeypatch.setenv("FAKE_ACTIVE", "active")
    assert main(["service", "status"]) == 0
    assert capsys.readouterr().out == (
        f"LaunchAgent: {path}\n  file:  installed, up to date\n  state: state=running, pid=4242\n"
    )
    assert main(["service", "uninstall"]) == 0
    assert calls(host)[-1] == f"launchctl bootout gui/{uid}/{LABEL}" and not path.exists()


def test_macos_has_no_system_scope(
    host: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--system on macOS is an error that says to use the LaunchAgent."""
    monkeypatch.setattr(sys, "platform", "darwin")
    assert main(["service", "install", "--system", "--dry-run"]) == 1
    assert capsys.readouterr().err == (
        "dreamd: error: on macOS dreamd runs as your LaunchAgent; drop --system (or use --user)\n"
    )


def test_user_and_system_together_is_a_usage_error(
    host: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--user and --system exclude each other (exit 2)."""
    assert main(["service", "install", "--user", "--system"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_program_is_the_running_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry point beside this interpreter wins; a Homebrew keg maps to its opt link."""
    keg = tmp_path / "Cellar" / "dreamd" / "0.1.0" / "libexec" / "bin"
    opt = tmp_path / "opt" / "dreamd" / "libexec" / "bin"
    for folder in (keg, opt):
        folder.mkdir(parents=True)
        (folder / "dreamd").write_text("#!/bin/sh\n", encoding="utf-8")
        (folder / "dreamd").chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(keg / "python"))
    assert service.program() == [str(opt / "dreamd")]
    (opt / "dreamd").unlink()
    assert service.program() == [str(keg / "dreamd")]


def test_program_falls_back_to_python_m_dreamd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no dreamd script anywhere, the service runs `<python> -m dreamd`."""
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert service.program() == [str(tmp_path / "python"), "-m", "dreamd"]


def test_system_access_covers_what_the_config_points_at(tmp_path: Path) -> None:
    """Workspaces and a moved socket's folder are writable; program, config, tokens readable;
    each of them under /tmp is named as hidden by PrivateTmp=."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    config_path = tmp_path / "etc" / "config.toml"
    config = parse_config(
        '[api]\nsocket = "/srv/sockets/dreamd.sock"\nlisten = "127.0.0.1:8765"\n'
        'tokens_file = "tokens"\n',
        source=str(config_path),
    )
    discovery = discover(config, cli_workspaces=[workspace])
    access = plan_access(
        config,
        executable="/home/ana/.local/bin/dreamd",
        config_path=config_path,
        openclaw_path=None,
        discovery=discovery,
        user="dreamd",
    )
    assert access == Access(
        writable=(str(workspace), "/srv/sockets"),
        readable=(
            "/home/ana/.local/bin/dreamd",
            str(config_path),
            str(tmp_path / "etc" / "tokens"),
        ),
        notes=(
            f"the user 'dreamd' needs read and write access to {workspace}",
            *tmp_notes([str(workspace), str(config_path), str(tmp_path / "etc" / "tokens")]),
            "/home/ana/.local/bin/dreamd is in a home directory, which the user 'dreamd' usually "
            "cannot read: install dreamd system-wide (the .deb, or pipx/uv tool with a "
            "system-wide prefix)",
        ),
        workspaces=(str(workspace),),
    )


def test_only_linux_and_macos_have_a_service_manager() -> None:
    """Other platforms get an error that says to run the daemon by hand."""
    with pytest.raises(DreamdError, match="run `dreamd run` yourself"):
        plan_target(platform="win32", scope=None, uid=1, home=Path("/h"), config_home=None)


def test_a_config_under_tmp_is_named_hidden_from_the_system_unit() -> None:
    """`--config /tmp/…` with the system unit's PrivateTmp=yes: the note says the service cannot
    see it (its /tmp is its own)."""
    access = plan_access(
        parse_config("", source="/tmp/dreamd.toml"),
        executable="/usr/bin/dreamd",
        config_path=Path("/tmp/dreamd.toml"),
        openclaw_path=Path("/var/tmp/openclaw.json"),
        discovery=None,
        user="dreamd",
    )
    assert access.notes == (
        "PrivateTmp= gives the service its own /tmp: it cannot see /tmp/dreamd.toml, "
        "/var/tmp/openclaw.json",
    )
