"""The round-nine corpus, held to 97 % recall and 3 % false positives, sample by sample; and the
classes of secret it showed the rules missing, each tested with cases of our own wording
(never the corpus's strings), with look-alikes that must come through unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dreamd.redaction import redact
from tests import redaction_corpus_round9
from tests.corpus_checks import masked, planted, rate_cases, revealing, sample_cases
from tests.redaction_corpus_fresh import Lookalike, Sample

SAMPLES = redaction_corpus_round9.secret_samples()
LOOKALIKES = redaction_corpus_round9.lookalikes()


def _out_of_reach(sample: Sample) -> str | None:
    """What no general rule reads, and why (none of the samples, this round)."""
    del sample
    return None


# --- the corpus ------------------------------------------------------------------------------


def test_the_corpus_is_large_and_a_third_look_alikes() -> None:
    """400+ planted items in 45+ families, and look-alikes are 30 % of the texts or more."""
    sizes = (planted(SAMPLES), len({s.family for s in SAMPLES}), len(LOOKALIKES) / len(SAMPLES))
    assert sizes[0] >= 400 and sizes[1] >= 45 and sizes[2] >= 0.3 / 0.7, sizes


@pytest.mark.parametrize(("wrong", "total"), rate_cases(SAMPLES, LOOKALIKES))
def test_at_most_3_percent_are_wrong(
    wrong: Callable[[], list[str]], total: Callable[[], int]
) -> None:
    """At most 3 % of the planted items survive redaction, and at most 3 % of the look-alikes
    are changed by it (they are listed when more are)."""
    errors = wrong()
    assert len(errors) <= total() * 0.03, "\n".join(errors)


@pytest.mark.parametrize("sample", sample_cases(SAMPLES, _out_of_reach))
def test_each_sample_loses_its_secrets(sample: Sample) -> None:
    """Every planted item of the sample is gone from its redaction."""
    assert [s for s in sample.secrets if not masked(sample.text, s)] == []


@pytest.mark.parametrize(
    "lookalike", [pytest.param(x, id=f"{x.family}-{i}") for i, x in enumerate(LOOKALIKES)]
)
def test_each_look_alike_stays(lookalike: Lookalike) -> None:
    """Every look-alike comes through byte for byte."""
    assert redact(lookalike.text) == lookalike.text


def test_no_mask_reveals_more_than_a_vendor_prefix() -> None:
    """Masks keep nothing of a secret but its vendor's fixed prefix (a webhook keeps its scheme
    and host, which are no secret)."""
    assert [r for r in revealing(SAMPLES) if not r.startswith("'http")] == []


# --- the classes of secret the corpus showed, in our own words ---------------------------

# (class, text, secret)
READ = [
    # password hashes where they stand as values
    ("hash", "backup:$6$Qm3xT9aLr2Vb$Zk8Pq1Rw7Ys4Xn0Lc5Jd2Hf6Gt9Bm3Nv8Cx1Az4Sq7", "Zk8Pq1Rw7Ys4"),
    (
        "hash",
        "deploy:$apr1$Lq7Zr2Wx$M3kT8vBn1Qp5Ys9Xc2Rd0f",
        "$apr1$Lq7Zr2Wx$M3kT8vBn1Qp5Ys9Xc2Rd0f",
    ),
    (
        "hash",
        "UPDATE staff SET pw = '$2b$10$abcdEFGHijklMNOPqrstuv.wxyz0123456789ABCDEFghijklmnopq';",
        "$2b$10$abcdEFGHijklMNOPqrstuv.wxyz0123456789ABCDEFghijklmnopq",
    ),
    (
        "hash",
        "password = pbkdf2_sha256$720000$Xy7qLm2R$Qw8eRt5yUi1oPa3sDf6gHj9kLz2xCv4bNm7Q=",
        "Qw8eRt5yUi1oPa3sDf6gHj9kLz2xCv4bNm7Q",
    ),
    # router and switch lines with words round the key
    ("device", "crypto isakmp key Tr4v3l-VPN! address 203.0.113.9", "Tr4v3l-VPN!"),
    (
        "device",
        'set security ike policy p1 pre-shared-key ascii-text "Sm0keSignal7"',
        "Sm0keSignal7",
    ),
    ("device", "username ops privilege 15 secret 0 Winter-Fjord-44", "Winter-Fjord-44"),
    ("device", "radius-server host 10.9.9.9 auth-port 1812 key Rad1usShared", "Rad1usShared"),
    # name and value entries
    ("entry", "env:\n- name: SMTP_PASSWORD\n  value: Gardenia1987\n", "Gardenia1987"),
    (
        "entry",
        '{"name": "stripeSecret", "type": "secret",\n "value": "rk9Zq2Lm8Vx4Tp"}',
        "rk9Zq2Lm8Vx4Tp",
    ),
    # cookies.txt
    (
        "cookie file",
        ".bank.example\tTRUE\t/\tTRUE\t0\tsid\tq9w8e7r6t5y4u3i2o1p0",
        "q9w8e7r6t5y4u3i2o1p0",
    ),
    # a token cut into literals
    (
        "literals",
        'tok = "ghp_" + "Zq8LmR4tY7uI1oP5sD0gH2jK3lX6cV9bN2mQ"',
        "Zq8LmR4tY7uI1oP5sD0gH2jK3lX6cV9bN2mQ",
    ),
    # number plates
    ("plate", "Kennzeichen HH-KL 4821 gehört Herrn Brandt", "HH-KL 4821"),
    ("plate", "the van (rego XQT 92B) belongs to my uncle", "XQT 92B"),
    ("plate", "kenteken 12-XTR-4 staat op naam van Joost", "12-XTR-4"),
    # dictated and typed one at a time
    ("dictated", "ok ready: capital W, then 8, lowercase j, hash sign, 3, q", "capital W, then 8"),
    ("typed", "the guest wifi is k 7 R 2 p 9 x", "k 7 R 2 p 9 x"),
    ("spelling alphabet", "alarm keypad: Sierra 4 Delta 8 Mike", "Sierra 4 Delta 8 Mike"),
    ("passphrase", 'the backup passphrase is "walnut harbor tinsel 81"', "walnut harbor tinsel 81"),
    ("new one", "rotated the NAS login again, the new one is 'Kestrel2031'", "Kestrel2031"),
    # authenticator seeds, one-time codes
    ("seed", "authy seed for the bank: KQ3TXWPLMNBVCZAS", "KQ3TXWPLMNBVCZAS"),
    ("seed", "TOTP seed HXQWERTYUIOPASDFGHJKLZXCVBNM5Q", "HXQWERTYUIOPASDFGHJKLZXCVBNM5Q"),
    ("blik", "mama, podaj kod BLIK 904 217", "904 217"),
    # health and national numbers after their names
    ("record", "Fallnummer 40022931 (Uniklinik)", "40022931"),
    ("record", "Aetna member ID W2384756101", "W2384756101"),
    ("record", "Medicare card 2123 45670 1", "2123 45670 1"),
    ("emirates", "Emirates ID 784-1990-1234567-8", "784-1990-1234567-8"),
    # commands, config lines and keys
    ("command", "CONFIG SET masterauth Repl1ca!Key", "Repl1ca!Key"),
    ("command", "redis-server --requirepass Harbour2024", "Harbour2024"),
    (
        "command",
        "wandb login 0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
        "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
    ),
    ("command", "setx SENTRY_AUTH_TOKEN Qw7ErT5yUi9oPz", "Qw7ErT5yUi9oPz"),
    ("command", 'gh secret set DB_PASS --body "Magnolia1990"', "Magnolia1990"),
    ("command", "vpn psk <(echo Zt9Qw2Lm7Rx4Vb8N=) --peer x", "Zt9Qw2Lm7Rx4Vb8N="),
    ("relay map", "[mail.isp.example]:465 me@isp.example:zqxwvmkpltrdhgfs", "zqxwvmkpltrdhgfs"),
    ("directive", "# fetchmailrc\npassword Qm7zLpRxWt", "Qm7zLpRxWt"),
    ("netsh", "    Key Content            : Birch-Lake-58", "Birch-Lake-58"),
    ("anchor", "cache:\n  pass: &cache_pw Juniper77x\n", "Juniper77x"),
    ("braced", "Driver={PostgreSQL};Uid=etl;Pwd={lantana2019};", "lantana2019"),
    (
        "braced",
        "<apiToken>{AQAAABAAAAAQx7Lm2Rq9Vt4Zp8Nw3Ks6Yb1Jd5Hf0Gc=}</apiToken>",
        "AQAAABAAAAAQx7Lm2Rq9",
    ),
    (
        "padded key",
        'private_key="/Xq9Lm2Rt7Vb4Np8Zk3Wd6Yf1Hs5Jc0Ga2Qe7Tr4Ub=="',
        "/Xq9Lm2Rt7Vb4Np8Zk3Wd6Yf1Hs5Jc0Ga2Qe7Tr4Ub==",
    ),
    ("half", "pw is Tundra88 + Qx!mB7 (together)", "Qx!mB7"),
    ("code on the next line", "* mastercard 5555555555554444\n* 09/28\n* cvc on back 713", "713"),
    ("lone, doubled symbol", "for the shared laptop, same as ever: Rq7!!zMx42", "Rq7!!zMx42"),
    (
        "vendor",
        "tfc token AbCdEfGh123456.atlasv1."
        + "Zq8LmR4tY7uI1oP5sD0gH2jK3lX6cV9bN2mQw8E4rT6yU1iO3pA5sD7fG9hJ2k",
        "atlasv1",
    ),
]

# (class, text)
KEPT = [
    ("hash in prose", "an argon2id hash looks like $argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"),
    ("shell positional", 'echo "$1" and $2; price $5.99; cp $HOME/a $6'),
    ("entry of no secret", "env:\n- name: LOG_FORMAT\n  value: json\n"),
    ("entry read from a secret", "- name: API_TOKEN\n  valueFrom:\n    secretKeyRef: {name: app}"),
    ("cookie file, no session", ".news.example\tTRUE\t/\tFALSE\t0\ttheme\tdark"),
    ("literals of prose", 'print("Hello, " + name + "!") and "abc" "def"'),
    ("plate-like model", "Porsche 911 Targa 4S, registration HRB 12345 at the court"),
    ("bus line", "take bus 74 or tram 7 to the registration office"),
    ("new one, not a password", "changed phones, the new one is iPhone15 and it works"),
    ("new one, where it is", "changed the wifi password, the new one is on the fridge"),
    ("heading", "Password Hygiene\npassword manager\nPassword rotation"),
    ("login of no key", "docker login registry.example.org"),
    ("fish variable", "set -gx EDITOR nvim"),
    ("process substitution", "diff <(echo left) <(echo right)"),
    ("BLIK as a method", "Zapłaciłem BLIKiem 120 zł."),
    ("member of a shop", "Costco member ID 111222333444"),
    ("seed of a run", "random seed 42, seed 1234567"),
    ("spelling of teams", "Alpha, Bravo and Charlie teams meet at seven"),
]


@pytest.mark.parametrize(("text", "secret"), [pytest.param(t, s, id=c) for c, t, s in READ])
def test_our_cases_of_each_class_are_read(text: str, secret: str) -> None:
    """A case of ours of each class the corpus showed the rules missing loses its secret."""
    assert masked(text, secret)


@pytest.mark.parametrize("text", [pytest.param(t, id=c) for c, t in KEPT])
def test_our_look_alikes_of_each_class_stay(text: str) -> None:
    """A look-alike of ours of each class comes through byte for byte."""
    assert redact(text) == text


def test_a_password_after_a_plus_is_masked_but_not_a_second_factor() -> None:
    """The half after a plus goes with the password; ``+ 2FA`` stays."""
    assert redact("the password is Kx7#abc12 + 2FA app") == "the password is *** + 2FA app"
