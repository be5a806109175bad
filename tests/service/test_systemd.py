"""systemd units and the LaunchAgent: quoting, rendering, `systemd-analyze` and plist checks.

`systemd-analyze verify` exits 0 on unknown keys and bad values, so any output at all fails a
test. A missing systemd-analyze is installed with apt when running as root, else the test fails
saying how to get it: these checks are never skipped.
"""

from __future__ import annotations

import os
import plistlib
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from xml.parsers.expat import ExpatError

import pytest

from dreamd.errors import DreamdError
from dreamd.service.launchd import LABEL, check_launch_agent, render_launch_agent
from dreamd.service.systemd import (
    fill_template,
    protect_home,
    read_template,
    render_system_unit,
    render_user_unit,
    systemd_command,
    systemd_word,
)

ROOT = Path(__file__).resolve().parents[2]
MAX_EXPOSURE = 2.0  # `systemd-analyze security` scale: 0 (locked down) to 10 (exposed)


def require_tool(name: str, package: str) -> str:
    """The path of the program ``name``; apt-get installs ``package`` first when root can."""
    found = shutil.which(name) or (
        name if Path(name).is_absolute() and Path(name).exists() else None
    )
    if found is None and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", package]
        if subprocess.run(install, env=env, capture_output=True, check=False).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, check=False)
            subprocess.run(install, env=env, capture_output=True, check=False)
        found = shutil.which(name) or (name if Path(name).exists() else None)
    if found is None:
        pytest.fail(
            f"{name} is needed: install the Debian package {package!r} (apt-get install {package})"
        )
    return found


def program() -> str:
    """An executable that exists here, for ExecStart= (verify checks that it does)."""
    return str(Path(sys.executable).absolute())


def verify(unit: Path, *, user: bool = False, env: dict[str, str] | None = None) -> str:
    """Everything `systemd-analyze verify` says about ``unit`` (empty means clean)."""
    analyze = require_tool("systemd-analyze", "systemd")
    argv = [analyze, *(["--user"] if user else []), "verify", str(unit)]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False, timeout=120)
    return (
        f"exit {done.returncode}: {done.stdout}{done.stderr}"
        if done.returncode
        else done.stdout + done.stderr
    )


@pytest.fixture
def user_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A user-mode environment for systemd-analyze: a private 0700 runtime dir.

    The runtime dir is short, outside ``tmp_path``: the user units installed on the host
    (gpg-agent's sockets) put socket paths in it, and a Unix socket path over 108 bytes fails
    the check for a reason that is not dreamd's.
    """
    with tempfile.TemporaryDirectory(prefix="xdg-") as runtime:  # made 0700
        yield {**os.environ, "XDG_RUNTIME_DIR": runtime, "HOME": str(tmp_path / "home")}


def exposure(unit: Path) -> float:
    """The overall exposure score `systemd-analyze security --offline=true` gives ``unit``."""
    analyze = require_tool("systemd-analyze", "systemd")
    argv = [analyze, "security", "--offline=true", "--no-pager", str(unit)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=120)
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    assert found, done.stdout + done.stderr
    return float(found.group(1))


def write_unit(tmp_path: Path, text: str) -> Path:
    """``text`` as ``<tmp>/units/dreamd.service``."""
    path = tmp_path / "units" / "dreamd.service"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_words_are_quoted_and_escaped_for_systemd() -> None:
    """Plain words stay bare; spaces, quotes and backslashes quote; % and (on Exec lines) $ double."""
    assert [
        systemd_word("/srv/agents/ops"),
        systemd_word("/srv/my agents"),
        systemd_word("/srv/100%"),
        systemd_word('/srv/say "hi"\\'),
        systemd_word("/srv/$HOME", command=True),
        systemd_word("/srv/$HOME"),
    ] == [
        "/srv/agents/ops",
        '"/srv/my agents"',
        "/srv/100%%",
        '"/srv/say \\"hi\\"\\\\"',
        '"/srv/$$HOME"',
        '"/srv/$HOME"',
    ]


def test_commands_need_an_absolute_program_and_one_line() -> None:
    """A relative program or a newline in a word cannot be written into a unit."""
    assert systemd_command(["/usr/bin/dreamd", "--workspace", "/a b", "run"]) == (
        '/usr/bin/dreamd --workspace "/a b" run'
    )
    with pytest.raises(DreamdError, match="absolute program path"):
        systemd_command(["dreamd", "run"])
    with pytest.raises(DreamdError, match="cannot be written"):
        systemd_word("/srv/a\nb")


def test_homes_are_hidden_unless_the_service_needs_one() -> None:
    """ProtectHome= is yes, or read-only when a path the service touches is in a home."""
    assert [
        protect_home(["/srv/ws", "/opt/dreamd/bin/dreamd"]),
        protect_home(["/srv/ws", "/home/ana/agents/ws"]),
        protect_home(["/root/.local/bin/dreamd"]),
        protect_home(["/run/user/1000/ws"]),
        protect_home(["/homestead/ws"]),
    ] == ["yes", "read-only", "read-only", "read-only", "yes"]


def test_templates_fill_values_and_blocks_and_refuse_unknown_placeholders() -> None:
    """A block line becomes several lines or none; an unfilled placeholder is an error."""
    template = "A=@ONE@\n@LIST@\nB=@ONE@@ONE@\n"
    assert fill_template(template, {"@ONE@": "@LIST@"}, {"@LIST@": ["x", "y"]}) == (
        "A=@LIST@\nx\ny\nB=@LIST@@LIST@\n"
    )
    assert fill_template(template, {"@ONE@": "1"}, {"@LIST@": []}) == "A=1\nB=11\n"
    with pytest.raises(DreamdError, match="@ONE@"):
        fill_template(template, {}, {"@LIST@": []})


def test_system_unit_lists_each_workspace_once(tmp_path: Path) -> None:
    """Workspaces become sorted, de-duplicated, optional ReadWritePaths= lines."""
    unit = render_system_unit(
        "/usr/bin/dreamd run",
        writable=["/srv/b", "/home/ana/ws with space", "/srv/b/"],
        readable=["/usr/bin/dreamd"],
    )
    lines = [line for line in unit.splitlines() if line.startswith(("ReadWrite", "ProtectHome"))]
    assert lines == [
        "ProtectHome=read-only",
        'ReadWritePaths="-/home/ana/ws with space"',
        "ReadWritePaths=-/srv/b",
    ]
    assert unit.startswith("# dreamd: ")
    assert re.search(r"@[A-Z_]+@", unit) is None


def test_rendered_system_unit_verifies_without_a_word(tmp_path: Path) -> None:
    """`systemd-analyze verify` has nothing to say about a unit with odd workspace paths."""
    odd = tmp_path / "ws with space and 100%"
    odd.mkdir()
    argv = [program(), "-m", "dreamd", "--workspace", str(odd), "run"]
    unit = render_system_unit(systemd_command(argv), writable=[str(odd), "/home/ana/ws"])
    assert verify(write_unit(tmp_path, unit)) == ""


def test_rendered_user_unit_verifies_without_a_word(
    tmp_path: Path, user_env: dict[str, str]
) -> None:
    """The user unit, with environment lines, is clean for `systemd-analyze --user verify`."""
    environment = {"DREAMD_HOME": str(tmp_path / "dreamd home"), "DREAMD_LOG_LEVEL": "DEBUG"}
    unit = render_user_unit(
        systemd_command([program(), "-m", "dreamd", "run"]), environment=environment
    )
    assert [line for line in unit.splitlines() if line.startswith("Environment=")] == [
        f'Environment="DREAMD_HOME={tmp_path}/dreamd home"',
        "Environment=DREAMD_LOG_LEVEL=DEBUG",
    ]
    assert verify(write_unit(tmp_path, unit), user=True, env=user_env) == ""


def test_shipped_system_unit_verifies_and_is_locked_down(tmp_path: Path) -> None:
    """systemd/dreamd.service (the .deb's) is clean and scores at most MAX_EXPOSURE."""
    shipped = (ROOT / "systemd" / "dreamd.service").read_text(encoding="utf-8")
    assert "ExecStart=/opt/dreamd/bin/dreamd run\n" in shipped
    # verify needs the program to exist here: point it at one that does.
    unit = write_unit(tmp_path, shipped.replace("/opt/dreamd/bin/dreamd", program()))
    assert verify(unit) == ""
    assert exposure(unit) <= MAX_EXPOSURE


def test_shipped_user_unit_verifies(tmp_path: Path, user_env: dict[str, str]) -> None:
    """systemd/user/dreamd.service runs %h/.local/bin/dreamd and is clean in user mode."""
    bin_dir = tmp_path / "home" / ".local" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "dreamd").symlink_to(program())
    shipped = (ROOT / "systemd" / "user" / "dreamd.service").read_text(encoding="utf-8")
    assert "ExecStart=%h/.local/bin/dreamd run\n" in shipped
    assert verify(write_unit(tmp_path, shipped), user=True, env=user_env) == ""


def test_service_files_in_the_tree_match_the_templates() -> None:
    """systemd/ and launchd/ hold exactly what packaging/service_files.py renders."""
    script = ROOT / "packaging" / "service_files.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_templates_are_package_data() -> None:
    """The templates are read from the installed package, not from the source tree."""
    assert read_template("dreamd.service").startswith("# dreamd: ")
    assert read_template("dreamd-user.service").startswith("# dreamd: ")
    assert plistlib.loads(read_template("launchd.plist").encode())["Label"] == "@LABEL@"


def test_launch_agent_is_a_valid_plist_with_absolute_paths() -> None:
    """The rendered plist parses, passes the key check and holds what launchd needs."""
    data = render_launch_agent(
        ["/opt/homebrew/bin/dreamd", "--workspace", "/Users/ana/ws", "run"],
        home="/Users/ana",
        log_dir="/Users/ana/Library/Logs/dreamd",
        environment={"DREAMD_LOG_LEVEL": "DEBUG"},
    )
    document = plistlib.loads(data)
    assert check_launch_agent(document) == []
    assert document == {
        "Label": LABEL,
        "ProgramArguments": ["/opt/homebrew/bin/dreamd", "--workspace", "/Users/ana/ws", "run"],
        "RunAtLoad": True,
        "KeepAlive": {"SuccessfulExit": False},
        "ThrottleInterval": 10,
        "ExitTimeOut": 30,
        "ProcessType": "Background",
        "WorkingDirectory": "/Users/ana",
        "StandardOutPath": "/Users/ana/Library/Logs/dreamd/dreamd.log",
        "StandardErrorPath": "/Users/ana/Library/Logs/dreamd/dreamd.log",
        "EnvironmentVariables": {
            "PATH": "/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
            "DREAMD_LOG_LEVEL": "DEBUG",
        },
    }


def test_shipped_launch_agent_validates() -> None:
    """launchd/org.dreamd.dreamd.plist parses with plistlib and passes the key check."""
    document = plistlib.loads((ROOT / "launchd" / f"{LABEL}.plist").read_bytes())
    assert (check_launch_agent(document), document["Label"]) == ([], LABEL)


def test_plist_check_catches_what_launchd_would_silently_ignore() -> None:
    """A misspelt key, a string for a boolean, ~ in a path, a relative program all count."""
    assert check_launch_agent(
        {
            "Label": "x",
            "ProgramArguments": ["dreamd", "run"],
            "KeepAlve": True,
            "RunAtLoad": "yes",
            "ThrottleInterval": True,
            "KeepAlive": {"SuccessfulExit": 0, "Crashd": True},
            "ProcessType": "Daemon",
            "StandardOutPath": "~/Library/Logs/dreamd.log",
            "EnvironmentVariables": {"N": 1},
        }
    ) == [
        "unknown key KeepAlve",
        "RunAtLoad: expected boolean, got string",
        "ThrottleInterval: expected integer, got boolean",
        "ProgramArguments[0] must be an absolute path, got 'dreamd'",
        "KeepAlive.SuccessfulExit: expected boolean",
        "unknown key KeepAlive.Crashd",
        "ProcessType must be one of Adaptive, Background, Interactive, Standard",
        "StandardOutPath must be an absolute path (launchd expands no ~), got "
        "'~/Library/Logs/dreamd.log'",
        "EnvironmentVariables values must be strings",
    ]
    assert check_launch_agent(["not", "a", "dict"]) == ["the plist is not a dictionary"]
    assert check_launch_agent({"ProgramArguments": ["/bin/x"]}) == ["Label is missing"]


def test_malformed_plist_xml_is_rejected_by_plistlib() -> None:
    """plistlib refuses mismatched tags, so a hand-edited broken plist never passes."""
    broken = read_template("launchd.plist").replace("</dict>\n</plist>", "</plist>")
    with pytest.raises(ExpatError, match="mismatched tag"):
        plistlib.loads(broken.encode())
