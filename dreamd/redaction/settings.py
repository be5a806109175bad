"""Secrets that tools name in their own words, where no word of a secret's names stands:

* **Z-Wave security keys** (Z-Wave JS, Home Assistant): ``S0_Legacy``, ``S2_Unauthenticated``,
  ``S2_Authenticated``, ``S2_AccessControl`` and the Long Range ones, each 32 hex digits;
* **a network key written as bytes**: a key's value given as a list of sixteen or thirty-two
  numbers from 0 to 255 (Zigbee2MQTT's ``network_key: [20, 107, …]``), whatever the key's name
  says besides ``key``;
* **a game server's login token**: ``sv_setsteamaccount <token>`` in a Source or CS2
  ``server.cfg``;
* **a HomeKit setup code**, ``XXX-XX-XXX`` after ``HomeKit`` or ``setup code`` on its line
  (it pairs the accessory with whoever reads it);
* **a device's codes with no separator**: a console's or a phone's ``passcode 2847`` (digits
  right after the word), an authenticator's ``restore code VC38NXHMNG`` (letters and digits);
* **a settings export's password line**: HeidiSQL's ``…\\Password<|||>1<|||><value>``;
* **an APRS-IS passcode**: a callsign and the number its passcode is (the network's published
  hash of the callsign, checked here), as direwolf's ``IGLOGIN CALL NNNNN`` or a client's
  ``user CALL pass NNNNN`` give it; ``-1``, the receive-only passcode, is none.

Pure; standard library only.
"""

from __future__ import annotations

from dreamd.patterns import LazyPattern
from dreamd.redaction.finding import Finding

__all__ = ["aprs_passcode", "find_setting_secrets"]

_ZWAVE = LazyPattern(
    r"(?i:\bS[02]_(?:Legacy|Unauthenticated|Authenticated|AccessControl)(?:_LR)?"
    r"|\bS2_(?:Authenticated|AccessControl)LR)[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<value>[0-9A-Fa-f]{32})\b"
)
_BYTE = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d|0x[0-9A-Fa-f]{2})"
_KEY_BYTES = LazyPattern(
    r"(?i:key)[\"']?[ \t]*[:=][ \t]*\[[ \t]*(?P<value>"
    + _BYTE
    + r"(?:[ \t]*,[ \t]*"
    + _BYTE
    + r"){15}(?:(?:[ \t]*,[ \t]*"
    + _BYTE
    + r"){16})?)[ \t]*\]"
)
_STEAM_TOKEN = LazyPattern(r"\bsv_setsteamaccount[ \t]+\"?(?P<value>[0-9A-Fa-f]{32})\b")
_HOMEKIT = LazyPattern(
    r"(?i:homekit|setup[ \t-]code)[^\n]{0,40}?(?<![\d-])(?P<value>\d{3}-\d{2}-\d{3})(?![\d-])"
)
_PASSCODE = LazyPattern(r"(?i:\bpasscode)[ \t]+(?P<value>\d{4,8})(?![\w-])")
_RESTORE_CODE = LazyPattern(
    r"(?i:\brestore[ \t]+code)[ \t]*[:=]?[ \t]*"
    r"(?P<value>(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{8,16})(?![\w-])"
)
_APRS_LOGIN = LazyPattern(
    r"(?i:\b(?:iglogin|user|login|callsign|call)[ \t:=]+)(?P<call>[A-Z0-9]{1,3}\d[A-Z]{1,4})"
    r"(?:-\d{1,2})?(?:[ \t]+(?i:pass(?:code)?)[ \t:=]*|[ \t,/]+)(?P<value>\d{1,5})(?![\w-])"
)
_EXPORT_LINE = LazyPattern(r"\\(?i:password|pass|pwd)<\|\|\|>\d+<\|\|\|>(?P<value>[^\s<]+)")


def aprs_passcode(callsign: str) -> int:
    """The APRS-IS passcode of ``callsign`` (its SSID aside): the network's published hash."""
    call = callsign.upper().split("-")[0]
    code = 0x73E2
    for index in range(0, len(call), 2):
        code ^= ord(call[index]) << 8
        if index + 1 < len(call):
            code ^= ord(call[index + 1])
    return code & 0x7FFF


def find_setting_secrets(text: str, low: str) -> list[Finding]:
    """Z-Wave keys, byte-list keys, game servers' tokens and export lines (``low``: lower
    case)."""
    found: list[Finding] = []
    if "iglogin" in low or "aprs" in low or "pass" in low:
        for login in _APRS_LOGIN.finditer(text):
            if int(login.group("value")) == aprs_passcode(login.group("call")):
                found.append(Finding("secret-assignment", *login.span("value")))
    for needle, pattern in (
        ("s2_", _ZWAVE),
        ("s0_", _ZWAVE),
        ("key", _KEY_BYTES),
        ("sv_setsteamaccount", _STEAM_TOKEN),
        ("<|||>", _EXPORT_LINE),
        ("homekit", _HOMEKIT),
        ("passcode", _PASSCODE),
        ("restore", _RESTORE_CODE),
        ("setup", _HOMEKIT),
    ):
        if needle in low:
            found += [
                Finding("secret-assignment", *m.span("value")) for m in pattern.finditer(text)
            ]
    return found
