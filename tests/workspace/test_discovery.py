"""Tests for dreamd.workspace.discovery: source precedence, dedupe, agents, errors and warnings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dreamd.config import Config, ImportedDreaming, parse_config
from dreamd.errors import WorkspaceError
from dreamd.workspace.discovery import AgentInfo, Discovery, Workspace, discover
from dreamd.workspace.openclaw import OpenClawAgent, OpenClawInstall


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every home-like location at a temporary directory."""
    monkeypatch.setenv("DREAMD_HOME", str(tmp_path / "dreamd-home"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


def _dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _config(*agents: str, extra: str = "") -> Config:
    return parse_config(extra + "".join(agents), source="config.toml")


def _agent(agent_id: str, workspace: str, more: str = "") -> str:
    return f'[[agents.list]]\nid = "{agent_id}"\nworkspace = "{workspace}"\n{more}\n'


def _install(tmp_path: Path, *agents: OpenClawAgent, system: str | None = None) -> OpenClawInstall:
    path = tmp_path / "oc" / "openclaw.json"
    return OpenClawInstall(
        path=path,
        default_workspace=tmp_path / "oc" / "workspace",
        agents=agents,
        system_agent=system,
        user_timezone=None,
        dreaming=ImportedDreaming(source=path),
    )


def _info(agent_id: str, workspace: Path, sessions: Path | None = None) -> AgentInfo:
    return AgentInfo(agent_id, workspace, sessions, "30m", "last", False)


def test_cli_workspaces_win_over_everything(tmp_path: Path) -> None:
    """--workspace flags are the only source when given; each is a sole agent `main`."""
    one, two = _dir(tmp_path / "one"), _dir(tmp_path / "two")
    other = _dir(tmp_path / "other")
    config = _config(_agent("ops", str(other)))
    install = _install(tmp_path, OpenClawAgent("x", other, tmp_path / "s"), system="x")
    found = discover(config, cli_workspaces=[one, two, one], openclaw=install)
    assert found == Discovery(
        workspaces=(
            Workspace(one, ("main",), (), (str(one),)),
            Workspace(two, ("main",), (), (str(two),)),
        ),
        origin="cli",
        warnings=(),
        agents=(_info("main", one), _info("main", two)),
        system_agent=None,
    )


def test_missing_cli_workspace_is_an_error(tmp_path: Path) -> None:
    """A --workspace that does not exist is a WorkspaceError that says how to fix it."""
    missing = tmp_path / "missing"
    with pytest.raises(WorkspaceError) as caught:
        discover(Config(), cli_workspaces=[missing])
    assert str(caught.value) == f"workspace {missing} does not exist; create it or fix --workspace"


def test_cli_workspace_that_is_a_file_is_an_error(tmp_path: Path) -> None:
    """A --workspace that is a regular file is a WorkspaceError."""
    afile = tmp_path / "notes.md"
    afile.write_text("x", encoding="utf-8")
    with pytest.raises(WorkspaceError) as caught:
        discover(Config(), cli_workspaces=[afile])
    assert str(caught.value) == (
        f"workspace {afile} is not a directory; create it or fix --workspace"
    )


def test_cli_workspace_expands_home(home: Path) -> None:
    """`~` in a --workspace path is the user's home."""
    ws = _dir(home / "ws")
    found = discover(Config(), cli_workspaces=[Path("~/ws")])
    assert found.workspaces == (Workspace(ws, ("main",), (), ("~/ws",)),)


def test_config_agents_win_over_openclaw(tmp_path: Path, home: Path) -> None:
    """[[agents.list]] is used over an OpenClaw install; relative paths use config_dir."""
    cfg_dir = _dir(tmp_path / "cfg")
    main_ws, ops_ws = _dir(cfg_dir / "main-ws"), _dir(home / "ops-ws")
    config = _config(
        _agent("main", "main-ws", 'sessions = "sess/main"'),
        _agent("ops", "~/ops-ws", 'heartbeat = { every = "5m", target = "none" }'),
        extra='[agents]\nsystem_agent = "ops"\n',
    )
    oc_sessions = tmp_path / "oc" / "agents" / "ops" / "sessions"
    install = _install(tmp_path, OpenClawAgent("ops", _dir(tmp_path / "oc-ops"), oc_sessions))
    found = discover(config, openclaw=install, config_dir=cfg_dir)
    assert found == Discovery(
        workspaces=(
            Workspace(main_ws, ("main",), (("main", cfg_dir / "sess" / "main"),), ("main-ws",)),
            Workspace(ops_ws, ("ops",), (("ops", oc_sessions),), ("~/ops-ws",)),
        ),
        origin="config",
        warnings=(),
        agents=(
            _info("main", main_ws, cfg_dir / "sess" / "main"),
            AgentInfo("ops", ops_ws, oc_sessions, "5m", "none", True),
        ),
        system_agent="ops",
    )


def test_openclaw_agents_are_used_without_config_agents(tmp_path: Path) -> None:
    """With no [[agents.list]], the OpenClaw install names the workspaces and the owner."""
    shared, solo = _dir(tmp_path / "shared"), _dir(tmp_path / "solo")
    sessions = {name: tmp_path / "oc" / "agents" / name / "sessions" for name in "abc"}
    install = _install(
        tmp_path,
        OpenClawAgent("b", shared, sessions["b"], "10m", None, True),
        OpenClawAgent("a", shared, sessions["a"]),
        OpenClawAgent("c", solo, sessions["c"], None, "none"),
        system="c",
    )
    found = discover(Config(), openclaw=install)
    assert found == Discovery(
        workspaces=(
            Workspace(
                shared, ("a", "b"), (("a", sessions["a"]), ("b", sessions["b"])), (str(shared),)
            ),
            Workspace(solo, ("c",), (("c", sessions["c"]),), (str(solo),)),
        ),
        origin="openclaw",
        warnings=(),
        agents=(
            AgentInfo("b", shared, sessions["b"], "10m", "last", True),
            AgentInfo("a", shared, sessions["a"], "30m", "last", False),
            AgentInfo("c", solo, sessions["c"], "30m", "none", False),
        ),
        system_agent="c",
    )
    assert found.owner == "c"


def test_default_workspace_is_created_under_dreamd_home(tmp_path: Path) -> None:
    """With no other source, the default workspace and its memory/ dir are created."""
    root = tmp_path / "dreamd-home" / "data" / "workspace"
    found = discover(Config())
    assert (found, (root / "memory").is_dir()) == (
        Discovery(
            workspaces=(Workspace(root, ("main",), (), (str(root),)),),
            origin="default",
            warnings=(),
            agents=(_info("main", root),),
            system_agent=None,
        ),
        True,
    )


def test_symlinked_workspace_is_one_workspace(tmp_path: Path) -> None:
    """Two agents reaching one directory through a symlink share one workspace."""
    real = _dir(tmp_path / "real")
    link = tmp_path / "link"
    link.symlink_to(real)
    found = discover(_config(_agent("a", str(real)), _agent("b", str(link))))
    assert found.workspaces == (Workspace(real, ("a", "b"), (), (str(real), str(link))),)
    assert found.agents == (_info("a", real), _info("b", real))


def test_same_real_path_written_twice_is_one_workspace(tmp_path: Path) -> None:
    """Different spellings of one path are one workspace with the union of agents."""
    real = _dir(tmp_path / "ws")
    spelled = f"{tmp_path}/x/../ws/"
    _dir(tmp_path / "x")
    found = discover(_config(_agent("b", str(real)), _agent("a", spelled)))
    assert found.workspaces == (Workspace(real, ("a", "b"), (), (str(real), spelled)),)


def test_bind_mount_is_one_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same (st_dev, st_ino) under two real paths, as with a bind mount, is one workspace."""
    real = _dir(tmp_path / "real")
    mount = tmp_path / "mount"
    mount.symlink_to(real)
    # A bind mount has no symlink to resolve: realpath leaves both paths as they are.
    monkeypatch.setattr(os.path, "realpath", os.fspath)
    found = discover(_config(_agent("a", str(real)), _agent("b", str(mount))))
    assert found.workspaces == (Workspace(real, ("a", "b"), (), (str(real), str(mount))),)


def test_missing_config_workspace_is_skipped_with_a_warning(tmp_path: Path) -> None:
    """A configured workspace that does not exist is skipped; the others are still used."""
    good = _dir(tmp_path / "good")
    missing = tmp_path / "missing"
    found = discover(_config(_agent("a", str(good)), _agent("b", str(missing))))
    assert (found.workspaces, found.warnings, found.agents) == (
        (Workspace(good, ("a",), (), (str(good),)),),
        (
            f"skipped: workspace {missing} does not exist; "
            "create it or fix agents.list[1].workspace in the dreamd config",
        ),
        (_info("a", good), _info("b", missing)),
    )


def test_missing_openclaw_workspace_is_skipped_with_a_warning(tmp_path: Path) -> None:
    """An OpenClaw agent whose workspace is missing is skipped with a warning."""
    good, missing = _dir(tmp_path / "good"), tmp_path / "gone"
    install = _install(
        tmp_path,
        OpenClawAgent("a", good, tmp_path / "s"),
        OpenClawAgent("b", missing, tmp_path / "t"),
    )
    found = discover(Config(), openclaw=install)
    assert (found.workspaces, found.warnings) == (
        (Workspace(good, ("a",), (("a", tmp_path / "s"),), (str(good),)),),
        (
            f"skipped: workspace {missing} does not exist; "
            f"create it or set agent 'b''s workspace in {install.path}",
        ),
    )


def test_no_usable_configured_workspace_is_an_error(tmp_path: Path) -> None:
    """When every configured workspace is missing, discovery fails instead of warning."""
    missing = tmp_path / "missing"
    with pytest.raises(WorkspaceError) as caught:
        discover(_config(_agent("a", str(missing))))
    assert str(caught.value) == (
        f"no usable workspace: workspace {missing} does not exist; "
        "create it or fix agents.list[0].workspace in the dreamd config"
    )


def test_unknown_system_agent_is_a_warning(tmp_path: Path) -> None:
    """A system agent that is not one of the agents is reported, and there is no owner."""
    ws = _dir(tmp_path / "ws")
    config = _config(
        _agent("a", str(ws)), _agent("b", str(ws)), extra='[agents]\nsystem_agent = "z"\n'
    )
    found = discover(config)
    assert (found.system_agent, found.warnings, found.owner) == (
        "z",
        ("system agent 'z' is not one of the agents ['a', 'b']",),
        None,
    )


@pytest.mark.parametrize(
    ("ids", "system", "owner"),
    [(("a",), None, "a"), (("a", "b"), None, None), (("a", "b"), "b", "b")],
)
def test_owner_is_the_system_agent_or_the_only_agent(
    tmp_path: Path, ids: tuple[str, ...], system: str | None, owner: str | None
) -> None:
    """The sweep owner is the system agent, else the sole agent, else nobody."""
    ws = _dir(tmp_path / "ws")
    extra = f'[agents]\nsystem_agent = "{system}"\n' if system else ""
    found = discover(_config(*(_agent(i, str(ws)) for i in ids), extra=extra))
    assert found.owner == owner
