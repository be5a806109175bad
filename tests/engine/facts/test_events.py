"""A one-off event's day: the day after which a line is no longer news."""

from __future__ import annotations

from datetime import date

import pytest

from dreamd.engine.facts.events import event_day, expired

SAID = date(2032, 3, 10)


@pytest.mark.parametrize(
    ("line", "day"),
    [
        ("Piano exam at the conservatory on Thu 18 March at 09:40, room 4.", date(2032, 3, 18)),
        ("Ines's on-call weekend is 19–21 March.", date(2032, 3, 21)),
        ("Gas safety check on March 22nd between 8 and 12.", date(2032, 3, 22)),
        ("Final payment due 2032-04-02.", date(2032, 4, 2)),
        ("Balance 300 000 Ft by 2032.04.15.", date(2032, 4, 15)),
        # said in March, a January day is this year's, gone; said in December, next year's
        ("Orchestra check Tue 11 Jan at the Kodály Centre.", date(2032, 1, 11)),
        # from, since, as of: a start, not an event
        ("Lessons move to Thursdays from 18 March.", None),
        ("The new rate applies as of 1 April.", None),
        # standing and yearly things never expire
        ("Bin day is every Tuesday; garden waste on the 1st and 15th of each month.", None),
        ("Milo's birthday is 14 March.", None),
        ("Lessons are on Thursdays at 16:00.", None),
    ],
)
def test_the_day_a_line_names_for_a_one_off_event(line: str, day: date | None) -> None:
    assert event_day(line, SAID) == day


def test_a_day_early_next_year_said_in_december() -> None:
    assert event_day("Orchestra check Tue 11 Jan.", date(2032, 12, 20)) == date(2033, 1, 11)


def test_a_line_is_over_only_when_every_clause_names_a_past_day() -> None:
    today = date(2032, 3, 25)
    assert expired("Piano exam on Thu 18 March at 09:40, room 4.", SAID, today) == date(2032, 3, 18)
    # the contact stays, whatever happened on the 18th
    assert expired("Vera Kis: exam secretary; piano exam on Thu 18 March.", SAID, today) is None
    # a deposit paid, a delivery still to come
    assert expired("Deposit paid 12 March; delivery 30 April.", SAID, today) is None
    assert expired("Ines's on-call weekend is 19–21 March.", SAID, date(2032, 3, 21)) is None


def test_the_day_a_change_took_effect_never_expires() -> None:
    line = "- W @Oma Ruth: moved to room 12, ground floor, by the lift, on 18 March."
    assert expired(line, SAID, date(2032, 4, 30)) is None


def test_who_someone_is_outlasts_the_day_they_started() -> None:
    line = "Ola Berg is the ferry's new deckhand (joined 2 March)."
    assert expired(line, SAID, date(2032, 4, 30)) is None


def test_a_first_trip_starts_something() -> None:
    line = "Ola Berg: new deckhand, first shift 14 March."
    assert expired(line, SAID, date(2032, 4, 30)) is None
