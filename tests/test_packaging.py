"""The release artefacts: the wheel and the .deb are built, unpacked and run, as CI would.

`packaging/build-deb.sh` builds both into a temporary directory (once per run); the .deb is
unpacked with `dpkg-deb -x` into a throwaway root and its own files run `dreamd --version`,
`dreamd demo` and `dreamd service install`, with a PATH that holds no other dreamd or Python
venv. Missing tools are installed with apt when running as root, else the test fails: these
checks are never skipped.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from dreamd import __version__
from tests.service.test_systemd import require_tool, verify

ROOT = Path(__file__).resolve().parents[1]
DEBIAN_PYTHON = "/usr/bin/python3"
SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"


@dataclass(frozen=True)
class Built:
    """What the build script made, and the .deb unpacked."""

    wheel: Path
    deb: Path
    root: Path  # the unpacked .deb

    @property
    def dreamd(self) -> Path:
        """The installed entry point inside the unpacked tree."""
        return self.root / "opt" / "dreamd" / "bin" / "dreamd"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """Build the wheel and the .deb once for this module, and unpack the .deb."""
    require_tool("dpkg-deb", "dpkg")
    require_tool("realpath", "coreutils")
    require_tool(DEBIAN_PYTHON, "python3")
    out = tmp_path_factory.mktemp("dist")
    env = {**os.environ, "PYTHON": sys.executable, "TARGET_PYTHON": DEBIAN_PYTHON}
    done = subprocess.run(
        ["bash", str(ROOT / "packaging" / "build-deb.sh"), str(out)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    wheel, deb = (Path(line) for line in done.stdout.split())
    root = tmp_path_factory.mktemp("unpacked")
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    return Built(wheel, deb, root)


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """An environment with only the system PATH and a private DREAMD_HOME and HOME."""
    return {
        "PATH": SYSTEM_PATH,
        "HOME": str(tmp_path / "home"),
        "DREAMD_HOME": str(tmp_path / "dreamd-home"),
        "LANG": "C.UTF-8",
        **extra,
    }


def run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``argv``; fail with its output when it fails."""
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False, timeout=300)
    assert done.returncode == 0, f"{argv}: {done.stdout}{done.stderr}"
    return done


@pytest.mark.slow
def test_wheel_holds_the_templates_and_the_version(built: Built) -> None:
    """The wheel ships the unit and plist templates as package data, at the one version."""
    with zipfile.ZipFile(built.wheel) as wheel:
        names = set(wheel.namelist())
        meta = wheel.read(f"dreamd-{__version__}.dist-info/METADATA").decode()
    assert {
        "dreamd/service/templates/dreamd.service",
        "dreamd/service/templates/dreamd-user.service",
        "dreamd/service/templates/launchd.plist",
    } <= names
    assert f"\nVersion: {__version__}\n" in meta
    assert built.wheel.name == f"dreamd-{__version__}-py3-none-any.whl"


def test_deb_metadata_names_its_interpreter_and_version(built: Built) -> None:
    """The control file has the version, the exact python3.X the venv links and adduser."""
    fields = ["Package", "Version", "Depends", "Architecture"]
    done = run(["dpkg-deb", "--field", str(built.deb), *fields], dict(os.environ))
    python = subprocess.run(
        [DEBIAN_PYTHON, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    arch = run(["dpkg", "--print-architecture"], dict(os.environ)).stdout.strip()
    assert done.stdout.splitlines() == [
        "Package: dreamd",
        f"Version: {__version__}-1",
        f"Depends: python{python}, adduser",
        f"Architecture: {arch}",
    ]
    assert built.deb.name == f"dreamd_{__version__}-1_{arch}.deb"


def test_deb_lays_out_venv_command_and_unit(built: Built) -> None:
    """/opt/dreamd is the venv, /usr/bin/dreamd links to it, the unit is the verified one."""
    link = built.root / "usr" / "bin" / "dreamd"
    assert link.readlink() == Path("/opt/dreamd/bin/dreamd")
    unit = built.root / "usr" / "lib" / "systemd" / "system" / "dreamd.service"
    assert unit.read_bytes() == (ROOT / "systemd" / "dreamd.service").read_bytes()
    assert (built.root / "opt" / "dreamd" / "pyvenv.cfg").is_file()
    assert not list(built.root.rglob("__pycache__"))  # postinst compiles, prerm cleans
    assert str(built.root) not in built.dreamd.read_text(encoding="utf-8")


def test_deb_ships_the_man_page_built_from_the_parser(built: Built) -> None:
    """dreamd(1) is in the package and documents the verbs and their options."""
    import gzip

    page = built.root / "usr" / "share" / "man" / "man1" / "dreamd.1.gz"
    text = gzip.decompress(page.read_bytes()).decode()
    assert ".TH DREAMD" in text.upper()
    for word in ("memory promote", "config show", "completion", "--log-level"):
        assert word.replace("-", "\\-") in text or word in text, word


def test_unpacked_deb_runs_version_and_demo(built: Built, tmp_path: Path) -> None:
    """The unpacked files alone run `dreamd --version` and `dreamd demo` (a relocatable venv)."""
    env = clean_env(tmp_path)
    assert run([str(built.dreamd), "--version"], env).stdout == f"dreamd {__version__}\n"
    target = tmp_path / "demo"
    done = run([str(built.dreamd), "demo", "--dir", str(target)], env)
    assert "Promoted into MEMORY.md:" in done.stdout
    memory = (target / "MEMORY.md").read_text(encoding="utf-8")
    assert "Ana Silva owns the release checklist" in memory


def test_unpacked_deb_writes_a_unit_that_verifies(built: Built, tmp_path: Path) -> None:
    """`service install --dry-run` from the .deb reads its packaged template; verify is silent."""
    workspace = tmp_path / "ws"
    workspace.mkdir()
    env = clean_env(tmp_path)
    argv = [str(built.dreamd), "--workspace", str(workspace), "service", "install", "--system"]
    unit = run([*argv, "--dry-run"], env).stdout
    assert f"ExecStart={built.dreamd} --workspace {workspace} run\n" in unit
    assert f"ReadWritePaths=-{workspace}\n" in unit
    path = tmp_path / "units" / "dreamd.service"
    path.parent.mkdir()
    path.write_text(unit, encoding="utf-8")
    assert verify(path) == ""


def fake_tools(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """A PATH with logging fakes of getent (no such user), adduser and systemctl."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    log = tmp_path / "calls.log"
    for name, status in (("getent", 2), ("adduser", 0), ("systemctl", 0)):
        script = bin_dir / name
        script.write_text(
            f'#!/bin/sh\necho "{name} $*" >> "{log}"\nexit {status}\n', encoding="utf-8"
        )
        script.chmod(0o755)
    return {"PATH": f"{bin_dir}:{SYSTEM_PATH}"}, log


def test_maintainer_scripts_add_the_user_and_compile(built: Built, tmp_path: Path) -> None:
    """postinst adds the `dreamd` user and byte-compiles the venv; prerm removes the .pyc."""
    control = tmp_path / "control"
    subprocess.run(["dpkg-deb", "-e", str(built.deb), str(control)], check=True)
    for name in ("postinst", "prerm", "postrm"):
        run(["sh", "-n", str(control / name)], dict(os.environ))
    env, log = fake_tools(tmp_path)
    env["DPKG_ROOT"] = str(built.root)
    run([str(control / "postinst"), "configure"], env)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[:2] == [
        "getent passwd dreamd",
        "adduser --system --group --home /var/lib/dreamd --no-create-home "
        "--gecos dreamd memory consolidation dreamd",
    ]
    package = next((built.root / "opt" / "dreamd" / "lib").glob("python3.*/site-packages/dreamd"))
    assert (package / "__pycache__").is_dir()
    run([str(control / "prerm"), "remove"], env)
    assert not list(built.root.rglob("__pycache__"))


def runtime_dependencies() -> set[str]:
    """Every distribution the installed dreamd needs at run time, without extras."""
    found: set[str] = set()
    pending = ["dreamd"]
    while pending:
        name = canonicalize_name(pending.pop())
        if name in found:
            continue
        found.add(name)
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                pending.append(requirement.name)
    return found - {"dreamd"}


def test_homebrew_formula_runs_the_daemon_as_a_service() -> None:
    """The formula's version, `service do` block and test match the project."""
    formula = (ROOT / "packaging" / "homebrew" / "dreamd.rb").read_text(encoding="utf-8")
    assert f"/dreamd-{__version__}.tar.gz" in formula
    service = re.search(r"\n  service do\n(.*?)\n  end\n", formula, re.S)
    assert service is not None
    assert service.group(1).splitlines() == [
        '    run [opt_bin/"dreamd", "run"]',
        "    keep_alive crashed: true",
        '    log_path var/"log/dreamd.log"',
        '    error_log_path var/"log/dreamd.log"',
        "    working_dir var",
    ]
    test = re.search(r"\n  test do\n(.*?)\n  end\n", formula, re.S)
    assert test is not None
    assert test.group(1).splitlines() == [
        '    assert_equal "dreamd #{version}", shell_output("#{bin}/dreamd --version").strip',
        '    output = shell_output("#{bin}/dreamd demo --dir #{testpath}/demo")',
        '    assert_match "Promoted into MEMORY.md", output',
    ]
    # `brew update-python-resources` writes the resources at release; then they must match.
    named = set(re.findall(r'^  resource "([^"]+)" do$', formula, re.M))
    if named:
        assert named == runtime_dependencies()
