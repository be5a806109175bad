"""Secrets a link carries outside its userinfo and its query: in its path, or in the whole of
a proxy client's share link.

:mod:`dreamd.redaction.commands` masks ``user:password@`` and :mod:`dreamd.redaction.keys` a
query's ``?token=…``; some services put the secret where a path would be, and the share links
of proxy clients put it where a user would be:

* **A stream key**, the last piece of an ``rtmp://``/``rtmps://`` link's path
  (``rtmp://a.rtmp.youtube.com/live2/<key>``): ten letters and digits or more, both in it;
  ``/app`` and ``/live2`` are an ingest's path, no key.
* **A bridge's user**, Philips Hue's ``http://<bridge>/api/<user>/lights``: thirty letters,
  digits, ``-`` and ``_`` or more right after ``/api/``, followed by the resource asked for.
* **A channel's token**, Anaconda's ``https://conda.anaconda.org/t/<token>/<channel>``.
* **A blockchain node's key**, the piece of an RPC provider's link after its version
  (``https://eth-mainnet.g.alchemy.com/v2/<key>``, Infura's ``/v3/<key>``, QuickNode's host
  then ``/<token>/``).
* **A heartbeat's ping link**: Healthchecks' ``https://hc-ping.com/<uuid>`` (whoever holds it
  can report the job done, or failed), Cronitor's ``cronitor.link/p/<key>/``.
* **A proxy's share link**: the userinfo of ``trojan://``, ``hysteria2://``/``hy2://``,
  ``tuic://``, ``vless://`` and a Tapo camera's ``tapo://`` (a password or a UUID, with no
  user before it, and characters a URL would escape: ``trojan://%%e#…@host``), and the
  base64 body of ``vmess://`` (a JSON object that holds the account's UUID).

Pure; standard library only.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding

__all__ = ["find_link_secrets"]

_STREAM_KEY = LazyPattern(
    r"rtmps?://[^\s/]+(?:/[^\s/]+)*/"
    r"(?P<value>(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9_-]{10,})(?![\w/-])"
)
_HUE_USER = LazyPattern(
    r"https?://[^\s/]+/api/(?P<value>(?=[\w-]*\d)[A-Za-z0-9_-]{30,})"
    r"/(?:lights|groups|config|sensors|scenes|schedules|rules|resourcelinks|capabilities)\b"
)
_CHANNEL_TOKEN = LazyPattern(r"\bconda\.anaconda\.org/t/(?P<value>[A-Za-z0-9_-]{16,})/")
_NODE_KEY = LazyPattern(
    r"\b(?:[\w-]+\.g\.alchemy\.com/v2|[\w-]+\.infura\.io/v3|[\w-]+\.quiknode\.pro"
    r"|rpc\.ankr\.com/\w+)/(?P<value>(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[A-Za-z0-9_-]{20,})(?![\w-])"
)
_PING = LazyPattern(
    r"\b(?:hc-ping\.com|cronitor\.link/p)/(?P<value>[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}"
    r"-[0-9a-fA-F]{12}|(?=[\w-]*\d)[A-Za-z0-9_-]{20,})(?![\w-])"
)
_SHARE_LINK = LazyPattern(
    r"\b(?:trojan|hysteria2|hy2|tuic|vless|tapo)://(?P<value>[^@\s/]{6,})@[\w.-]+"
    r"|\bvmess://(?P<body>[A-Za-z0-9+/_-]{20,}={0,2})"
)


def find_link_secrets(text: str) -> list[Finding]:
    """Stream keys, a bridge's user, a channel's token and proxy share links' secrets."""
    found: list[Finding] = []
    for needle, pattern in (
        ("rtmp", _STREAM_KEY),
        ("/api/", _HUE_USER),
        ("/t/", _CHANNEL_TOKEN),
        ("/v", _NODE_KEY),
        ("quiknode", _NODE_KEY),
        ("ankr", _NODE_KEY),
        ("hc-ping", _PING),
        ("cronitor", _PING),
    ):
        if needle in text:
            spans = (m.span("value") for m in pattern.finditer(text))
            found += [Finding("secret-assignment", *span) for span in spans]
    for match in _SHARE_LINK.finditer(text):
        group = "value" if match.group("value") is not None else "body"
        found.append(Finding("url-credential", *match.span(group)))
    return found
