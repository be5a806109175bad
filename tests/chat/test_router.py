"""The chat router's pure parts: parsing, command keys, permissions, texts and splitting."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.chat.access import Role
from dreamd.chat.router import MEMORY, POLICY, Actor, Invocation, authorize, command_key, parse
from dreamd.chat.text import (
    PHASES_TEXT,
    STRANGER_REFUSAL,
    TRIMMED,
    outward,
    refusal,
    render_search,
    split_text,
    usage,
)
from dreamd.cli import sweeping

STRANGER = Actor("42")
OWNER = Actor("7", is_owner=True)


def _key(text: str) -> str:
    invocation = parse(text, actor=STRANGER, platform="test")
    assert invocation is not None
    return command_key(invocation)


def test_parse_reads_command_and_words() -> None:
    """`/dream search billing host` is the dream command with its words, lowercased name."""
    assert parse("/Dream search Billing  host", actor=OWNER, platform="telegram") == Invocation(
        OWNER, "dream", ("search", "Billing", "host"), "telegram"
    )


def test_parse_accepts_this_bot_and_ignores_other_bots_and_other_text() -> None:
    """/cmd@thisbot is ours (any case); /cmd@otherbot, other commands and chatter are not."""
    ours = parse(
        "/dreaming@Dreamd_Bot status", actor=STRANGER, platform="t", bot_username="dreamd_bot"
    )
    assert ours == Invocation(STRANGER, "dreaming", ("status",), "t")
    assert parse("/start", actor=STRANGER, platform="t") == Invocation(STRANGER, "start", (), "t")
    for text in ("/dreaming@other_bot status", "/stop", "hello /dreaming", "", "/"):
        assert parse(text, actor=STRANGER, platform="t", bot_username="dreamd_bot") is None
    assert parse("/dream@someone now", actor=STRANGER, platform="t") is None


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("/dreaming", "dreaming help"),
        ("/dreaming help", "dreaming help"),
        ("/dreaming phases", "dreaming help"),
        ("/dreaming status", "dreaming status"),
        ("/dreaming ON", "dreaming on"),
        ("/dreaming off", "dreaming off"),
        ("/dreaming maybe", "dreaming usage"),
        ("/dreaming on now", "dreaming usage"),
        ("/dream", "dream help"),
        ("/dream status", "dream status"),
        ("/dream search", "dream usage"),
        ("/dream search billing host", "dream search"),
        ("/dream about The Castle", "dream about"),
        ("/dream about", "dream usage"),
        ("/dream report", "dream report"),
        ("/dream rag status", "dream rag status"),
        ("/dream rag", "dream usage"),
        ("/dream explain", "dream explain"),
        ("/dream explain memory/2026-11-20.md", "dream explain"),
        ("/dream now", "dream now"),
        ("/dream now please", "dream usage"),
        ("/dream fly", "dream usage"),
        ("/start", "start"),
        ("/help me", "help"),
    ],
)
def test_command_keys(text: str, key: str) -> None:
    """No argument is help, an unknown or malformed argument is usage."""
    assert _key(text) == key


def test_authorize_denies_by_default_and_ranks_the_three_roles() -> None:
    """Strangers get help and status; readers also memory; owners also on/off and now."""
    for key, permission in POLICY.items():
        assert authorize(POLICY, Role.STRANGER, key) is (permission.value == "anyone"), key
        assert authorize(POLICY, Role.READER, key) is (permission.value != "owner"), key
        assert authorize(POLICY, Role.OWNER, key) is True
    assert {k for k, p in POLICY.items() if p.value == "owner"} == {
        "dreaming on",
        "dreaming off",
        "dream now",
    }
    assert {
        "dream status",
        "dream search",
        "dream about",
        "dream report",
        "dream rag status",
        "dream explain",
    } == MEMORY
    assert authorize(POLICY, Role.OWNER, "dream delete-everything") is False
    assert authorize({}, Role.OWNER, "dreaming status") is False


def test_refusals_are_one_plain_sentence() -> None:
    """on/off and now name what only owners can do; memory names owners and readers."""
    assert refusal("dreaming on") == "Only the bot's owners can turn dreaming on."
    assert refusal("dreaming off") == "Only the bot's owners can turn dreaming off."
    assert refusal("dream now") == "Only the bot's owners can start a sweep."
    for key in MEMORY:
        assert refusal(key) == STRANGER_REFUSAL
    assert STRANGER_REFUSAL == "Only this bot's owners and readers can search its memory."


def test_outward_text_names_workspaces_and_masks_secrets() -> None:
    """Roots become agent ids, files stay relative, the home is ~, secrets are masked."""
    roots = {"/srv/agents/main-ws": "main"}
    text = "/srv/agents/main-ws/memory/2026-11-20.md failed; key ghp_" + "A" * 36
    assert outward(text, roots) == "main:memory/2026-11-20.md failed; key ghp_***"
    assert outward("see /srv/agents/main-ws", roots) == "see main"


def test_help_lists_only_what_the_actor_may_run() -> None:
    """Owners see OpenClaw's usage lines; strangers do not see on/off or now."""
    everything = set(POLICY)
    public = {key for key in POLICY if authorize(POLICY, Role.STRANGER, key)}
    assert usage("dreaming", everything) == "Usage: /dreaming status\nUsage: /dreaming on|off"
    assert usage("dreaming", public) == "Usage: /dreaming status"
    assert "Usage: /dream now" in usage("dream", everything)
    assert "/dream now" not in usage("dream", public)
    assert usage("dream", public) == ""
    assert PHASES_TEXT == sweeping.PHASES_TEXT


def test_split_text_breaks_at_lines_and_trims_what_does_not_fit() -> None:
    """Parts stay within the limit, break at line ends, and a too-long reply says it was cut."""
    lines = [f"line {n:03d} " + "x" * 40 for n in range(100)]
    text = "\n".join(lines)
    parts = split_text(text, 500, max_parts=20)
    assert all(len(part) <= 500 for part in parts)
    assert "\n".join(parts) == text
    trimmed = split_text(text, 500, max_parts=2)
    assert len(trimmed) == 2
    assert trimmed[-1].endswith(TRIMMED)
    assert all(len(part) <= 500 for part in trimmed)
    assert split_text("", 100) == ["(nothing to show)"]


@given(st.text(min_size=0, max_size=3000), st.integers(min_value=80, max_value=600))
def test_split_text_never_exceeds_the_limit(text: str, limit: int) -> None:
    """Any text splits into 1..4 non-empty parts within the limit."""
    parts = split_text(text, limit)
    assert 1 <= len(parts) <= 4
    assert all(0 < len(part) <= limit for part in parts)


@given(st.text(max_size=200), st.one_of(st.none(), st.text(max_size=20)))
def test_parse_never_crashes_and_keys_are_in_the_policy(text: str, bot: str | None) -> None:
    """Any message parses to None or an invocation whose key the policy knows."""
    invocation = parse(text, actor=STRANGER, platform="t", bot_username=bot)
    if invocation is not None:
        assert command_key(invocation) in POLICY


def test_search_results_cite_path_and_lines() -> None:
    """Each hit shows path#Lx-Ly and its snippet; no hits says so."""
    hit = {
        "workspace": "/ws",
        "agents": ["main"],
        "path": "memory/2026-11-20.md",
        "startLine": 3,
        "endLine": 4,
        "snippet": "- The billing\n  service runs on db-02.",
        "score": 0.8123,
        "source": "memory/2026-11-20.md#L3-L4",
    }
    assert render_search({"query": "billing", "hits": [hit]}) == (
        'Results for "billing":\n'
        "1. memory/2026-11-20.md#L3-L4 (score 0.81)\n"
        "   - The billing service runs on db-02."
    )
    other = {**hit, "workspace": "/ops", "agents": ["ops"]}
    assert "1. [main] memory/" in render_search({"query": "b", "hits": [hit, other]})
    assert render_search({"query": "zzz", "hits": []}) == 'No results for "zzz".'


def test_search_results_say_what_a_line_replaced() -> None:
    """A hit that replaced an older line shows it as "was …, until <day>" under its snippet."""
    hit = {
        "workspace": "/ws",
        "agents": ["main"],
        "snippet": "- Swimming moved to Thursdays.",
        "score": 0.5,
        "source": "memory/2026-11-20.md#L3-L3",
        "was": [
            {
                "snippet": "- Mia's swimming lesson is on Tuesdays.",
                "source": "memory/2026-11-02.md#L5-L5",
                "until": "2026-11-20",
            }
        ],
    }
    assert render_search({"query": "swimming", "hits": [hit]}) == (
        'Results for "swimming":\n'
        "1. memory/2026-11-20.md#L3-L3 (score 0.50)\n"
        "   - Swimming moved to Thursdays.\n"
        "   was: - Mia's swimming lesson is on Tuesdays. (until 2026-11-20)"
    )
