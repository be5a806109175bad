"""What lasts: lasting facts by kind, and what only happened by the reason it is left out."""

from __future__ import annotations

import pytest

from dreamd.engine.facts.lasting import LASTING_KINDS, SITUATIONAL_REASONS, Lasting, lasting
from dreamd.engine.facts.parts import lasting_line

CASES = [
    ("Ingrid Solberg is our contact at Halvorsen.", True, "identity"),
    ("Halvorsen Shipping is our main client.", True, "identity"),
    ("Backups run nightly at 02:00 to the NAS.", True, "schedule"),
    ("Kids: Leo's football practice is on Wednesdays at 17:30.", True, "schedule"),
    ("We decided to host on Hetzner.", True, "decision"),
    ("Today we decided to keep the old printer.", True, "decision"),
    ("Swimming moved to Thursdays.", True, "schedule"),
    ("Peter prefers voice notes.", True, "preference"),
    ("Never schedule calls before 10:00.", True, "rule"),
    ("Lesson: export the PDF at 300 dpi before sending to the printer.", True, "procedure"),
    ("Invoices: Halvorsen pays net 30.", True, "fact"),
    ("The NAS is in the basement cupboard.", True, "fact"),
    ("Demo went well.", False, "status"),
    ("Worked on the Halvorsen report.", False, "status"),
    ("Mia lost a tooth today!", False, "event"),
    ("Had lunch with Anna at Lykke.", False, "event"),
    ("Anna is coming over on Saturday.", False, "event"),
    ("Family: Mia asked why the sky is blue on the way home.", False, "event"),
    ("Family: Mia and the blue sky, a whole theory on the way home.", False, "trivia"),
    ("Rain all day.", False, "trivia"),
    # "never" in a story told in the past is no rule; a request to the person is no fact
    (
        "Played the Crowley reel; a woman from Dingle taught us a turn we'd never heard.",
        False,
        "trivia",
    ),
    ("The old ferryman told us a story he had never told anyone.", False, "event"),
    ("Tell me the new rota once it's settled and I'll change the school runs.", False, "task"),
    ("Let me know which Saturdays Aoife can cover the stall.", False, "task"),
    ("- Tomas walked me through the home server so I can help with it:", False, "lead-in"),
    ("Good morning!", False, "greeting"),
    ("$ rsync -av /data nas:/backup", False, "log"),
    ("Car service: the garage rang, it's ready this afternoon.", False, "event"),
    ("Dentist appointment next Tuesday at 10.", False, "event"),
    ("Tilde is invited to Noor's birthday party next Sunday, 15:00.", False, "event"),
    ("Choir rehearsals are on Mondays from next week.", True, "schedule"),
    ("Tilde's birthday is 9 March.", True, "identity"),
    ("Papers to sign at the bank before Friday.", False, "task"),
    ("Is the boiler still under warranty?", False, "question"),
    ("Fixed in the booking system, on the rota and on her contact card.", False, "event"),
    ("She spotted it because the dates were wrong.", False, "event"),
    ("I set the alarm for Monday's flight to 05:00.", False, "event"),
    ("Correction: the surname is Whelan, not Phelan.", True, "decision"),
    ("The club account stands at 4,120 EUR after the raffle.", False, "status"),
    ("Savings balance is 12,300 kr this week.", False, "status"),
    ("The club account is with Nordea.", True, "fact"),
    # a slip told as it happened, unless it says what to do from now on
    ("The tenancy letter went out to Pieter Janssen instead of Pieter Jansen.", False, "event"),
    ("Lotte caught it; fixed the booking to 09:30.", False, "event"),
    ("The draft had the old bank details on it again, not the new ones.", False, "event"),
    (
        "The vet bill was sent to Karel instead of me; from now on bills come to me.",
        True,
        "decision",
    ),
    ("Bills go to Karel instead of me.", True, "decision"),
    # a standing word told once, in the past, is what happened; a change of it is not
    ("Oma came over from Zwolle for Monday and Tuesday to do the pickups.", False, "event"),
    ("Tove changed the rota to Monday and Wednesday nights.", True, "schedule"),
    # a line that says nothing changed
    ("The rest of the timetable is otherwise unchanged.", False, "status"),
    ("A one-off; her shifts don't change.", False, "status"),
    # a line that leans on the one before it: a pronoun for its subject, or only a reaction
    ("It's on the fridge now, under the magnet.", False, "context"),
    ("They're fine with the later start.", False, "context"),
    ("He's in charge of the keys now.", False, "context"),
    ("Pia agrees; it's cheaper and it's done by May.", False, "context"),
    ("Kofi is happy with that, as long as the van is back by six.", False, "context"),
    ("It's Karin Hald, not Holm.", True, "decision"),
    ("We're on Wednesdays now, half six till eight.", False, "context"),
    ("Rosa: she is the new head of the allotment committee.", True, "identity"),
    # how something stands again, not a change of a fact
    ("Tomas's knee is fine now.", False, "status"),
    ("The dishwasher's working again.", False, "status"),
    # "never" told in the past is what happened; a "never" for the future is a rule
    ("The electrician never showed up.", False, "event"),
    ("Kasia never replied to the invoice reminder.", False, "event"),
    ("Never book the minibus without the insurance sheet.", True, "rule"),
    # advice offered, not a fact
    ("If the tiler can't come, I'd ask Bruno for the Friday.", False, "task"),
    ("You could move the pick-up to the library side.", False, "task"),
    ("I'd rather keep the Friday calls short.", True, "preference"),
    # one weekday as the heading: that day's arrangement; its plural is a standing one
    ("Sun: Edo takes the kids, I'm on the early shift.", False, "event"),
    ("Sundays: Edo takes the kids to the pool.", True, "schedule"),
    # a shift pattern is a standing arrangement
    ("Aoife: works two weeks on, two weeks off on the rig.", True, "schedule"),
    ("Tariq works nights at the depot.", True, "schedule"),
    ("Gosia works Thursday mornings only (08:00–13:00).", True, "schedule"),
    ("The Gosselin dairy is on Rang 12, past the sugar shack.", True, "fact"),  # a road
    ("Min-jun pays the landlord 650,000 won a month.", True, "fact"),  # a currency
    ("On Saturday afternoons Kofi runs the stall at the flea market.", True, "schedule"),
    # who someone is by their trade
    ("Colm Daly: the joiner from Ennistymon.", True, "identity"),
    ("Beata is the new treasurer of the tenants' association.", True, "identity"),
    # what did not happen again is no rule; "never" as an order is one
    ("The sopranos held the top A once at the dress run, then never again.", False, "event"),
    ("Never schedule Marek on Friday mornings; he left early twice.", True, "rule"),
    # once only, however it is headed
    ("One-off swap: Dana covers Tuesday 4 June, Ilse takes her Friday 7 June.", False, "event"),
    ("A one-time workshop with a sound engineer on 14 May.", False, "event"),
    # a running total, and a payment co-signed once
    ("Their commission is 6 % a sale, about 800 EUR so far.", False, "status"),
    (
        "March's room hire, 3 evenings at 40 EUR, paid on 2 April and co-signed by Joost.",
        False,
        "event",
    ),
]


@pytest.mark.parametrize(("text", "durable", "kind"), CASES)
def test_lasting_facts_and_what_only_happened(text: str, durable: bool, kind: str) -> None:
    """Identity, schedules, decisions, preferences, rules, lessons and facts last; status,
    events, trivia, lead-ins, greetings and logs do not, each with its own reason."""
    verdict = lasting(text)
    assert (verdict.durable, verdict.kind) == (durable, kind)
    assert verdict.reason


def test_a_line_of_sentences_lasts_only_when_one_of_them_does() -> None:
    """Read whole, a narrative mixes a correction word with another sentence's values; it is
    judged by its sentences. A line with one lasting sentence still lasts."""
    from dreamd.engine.facts.parts import lasting_line

    story = (
        "My slip: Lena rang from the stable for Hoff's records and I read her Brandt's, the "
        "Weiler herd. She noticed because the ear tags were wrong. Second time with the two "
        "Hoffs. Logged."
    )
    assert lasting(story).durable  # read whole
    assert not lasting_line(story).durable
    kept = "Rang the garage at 10:00. Lena is our farrier and shoes the ponies every six weeks."
    assert lasting_line(kept).durable


@pytest.mark.parametrize(
    ("text", "durable", "kind"),
    [
        ("Mo rang at lunch: the choir concert on Friday 12th is cancelled.", False, "ending"),
        ("The Lisbon trip is off.", False, "ending"),
        ("Nils stays with Linear; the Jira move is cancelled.", True, "decision"),
        ("Their cat is called Pixel.", True, "identity"),
    ],
)
def test_a_line_that_only_cancels_ends_a_fact_and_is_none(
    text: str, durable: bool, kind: str
) -> None:
    """A cancellation with no new state is an ending: it retires what it names, nothing to
    keep; one that says what holds instead lasts."""
    verdict = lasting(text)
    assert (verdict.durable, verdict.kind) == (durable, kind)


@pytest.mark.parametrize(
    ("text", "durable"),
    [
        ("Budget for Ania's birthday party: 400 zł.", False),
        ("The caterer quoted €320 for the open day on the 14th.", False),
        ("Room hire for the retirement do is £150.", False),
        ("Coach tickets for the Krakow trip are 60 zł a head.", False),
        ("For Saturday's tasting the entry fee is 25 zł.", False),
        ("Price for the one-off deep clean is 180 EUR.", False),
        ("Our hourly rate is €65 from January.", True),
        ("The keg price goes up to 290 zł per keg.", True),
        ("The accountant charges 90 EUR a month.", True),
        ("Rent goes up to 1,350 EUR from July.", True),
        ("Standard price for a check-up is 45 EUR.", True),
        ("Ola's rate for weekend shifts is 30 zł an hour.", True),
    ],
)
def test_money_for_one_occasion_is_an_event_and_a_standing_rate_a_fact(
    text: str, durable: bool
) -> None:
    """A price, budget or quote bound to one occasion is what that occasion cost; a rate per
    unit, per month or from a date is a fact worth keeping."""
    verdict = lasting(text)
    assert (verdict.durable, verdict.kind) == (durable, "fact" if durable else "event")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Asked whether the shop could open late on Fridays. Nothing decided.", "status"),
        ("Not decided yet.", "status"),
        ("That is the price before VAT.", "context"),
        ("That isn't the address the tax office writes from.", "context"),
        ('Pia, once he had left: "Will he be like this about the varnish too?"', "question"),
        ('"The printer never needs to hear about any of this."', "context"),
        ("\u201cWe don't do Saturdays, full stop.\u201d", "context"),
    ],
)
def test_undecided_leaning_and_quoted_questions_are_not_kept(text: str, reason: str) -> None:
    verdict = lasting(text)
    assert (verdict.durable, verdict.kind) == (False, reason)


def test_sat_the_day_is_no_past_tense() -> None:
    """ "Sat 14 Mar" names a Saturday: an upcoming event the agent retained is a fact to keep
    until its day; "we sat in the garden" still tells what happened."""
    assert lasting("- W Village fête stall Sat 14 Mar from 10:00; Noor runs the till.").durable
    assert lasting("We sat in the garden all afternoon.").kind == "event"


@pytest.mark.parametrize(
    "text",
    [
        "- W @Leith Chorus: The church hall may not be ours on Tuesdays after March; the "
        "vestry decides on 2 March.",
        "Lena will probably take over the allotment rota.",
        "Gig at the Corn Exchange on the 14th, fee to be confirmed.",
    ],
)
def test_what_is_not_settled_is_not_kept(text: str) -> None:
    assert lasting(text).kind == "uncertain"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a change that waits on something has not happened
        (
            "The warden says they'll move her to a room by the lift as soon as one is free, so "
            "she isn't on the top floor.",
            "uncertain",
        ),
        # "instead", told in the past, happened once
        ("Rang Oma at 18:00 instead; she wanted the football scores.", "event"),
    ],
)
def test_a_waiting_change_and_a_one_off_instead(text: str, kind: str) -> None:
    assert lasting(text).kind == kind
    assert lasting("We switched to Mill Lane Timber instead of Hobbs for all our oak.").durable


def test_a_decision_still_to_come_is_not_one() -> None:
    assert lasting("The vestry decides on Thursday.").kind == "uncertain"
    assert lasting("We decided to keep the van.").kind == "decision"


@pytest.mark.parametrize(
    ("text", "durable"),
    [
        # how a slip came about, told in the past perfect
        ("We had booked the van for 08:00 on the old rota, which lists UTC times.", False),
        ("Ilse had copied the wrong sheet, which runs a week behind.", False),
        # praise of how something was done is no rule
        ("Careful and unhurried, the way it should be done.", False),
        ("Clean joints, exactly how it ought to be.", False),
        # "I'd like" is a wish, and "had to … so always" still a rule
        ("We had to redo it twice, so always check the torque first.", True),
        ("Invoices must go out by the 5th, the way it should be.", True),
    ],
)
def test_a_past_perfect_story_and_praise_are_not_lasting(text: str, durable: bool) -> None:
    assert lasting(text).durable is durable


@pytest.mark.parametrize(
    ("text", "durable"),
    [
        # an ending of days or times says nothing in their place
        ("No more Tuesday and Thursday practices at the hall.", False),
        ("Stopped the Friday 08:30 stand-ups.", False),
        ("The brass band gives up Thursdays.", False),
        # an ending that is a state of its own, or keeps a day, lasts
        ("No longer eats meat or fish.", True),
        ("No more Friday deliveries; Thursdays from now on.", True),
        # a limit is a rule, not an ending
        ("No more than eight children per adult on the trip.", True),
    ],
)
def test_a_line_that_only_ends_days_is_not_kept(text: str, durable: bool) -> None:
    assert lasting(text).durable is durable


@pytest.mark.parametrize(
    "text",
    [
        "ok. how much is the swim club fee again",
        "so when is Oskar's dentist",
        "Where are the spare van keys kept",
    ],
)
def test_a_question_without_its_mark_is_not_kept(text: str) -> None:
    assert lasting(text).kind == "question"


def test_which_is_why_is_no_question() -> None:
    assert lasting("The van leaks, which is why it is parked under the roof every night.").durable


@pytest.mark.parametrize(
    ("text", "durable"),
    [
        # one occasion of a habit, told in the past
        ("Fiona phoned her sister at 20:00, as every Thursday, from the ward office.", False),
        ("We walked the dogs at six, as always, along the canal.", False),
        # the habit itself lasts
        ("Fiona phones her sister at 20:00 every Thursday.", True),
        # a rule cue only in quoted words of a story
        (
            'I sent the minutes to everyone, and her aside went with them: "never seat me near '
            'the door again".',
            False,
        ),
        ('Piotr wrote back: "don\'t book me for Sundays".', False),
        # a rule of our own beside a quotation stays
        ('Mari said "never stack it wet"; always stack the logs dry.', True),
    ],
)
def test_a_habit_s_one_occasion_or_a_quoted_rule_is_not_kept(text: str, durable: bool) -> None:
    assert lasting(text).durable is durable


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Word is he has run the depot in Nowa Huta since 2019.", "uncertain"),
        ("Apparently the new caretaker is from Os.", "uncertain"),
        ("Not to the neighbours, not to the press.", "context"),
        ("Nor on the group chat.", "context"),
        ("Aoife showed me: the valve under the sink.", "trivia"),
        ("Dr van Dijk: our dentist in Utrecht.", "identity"),
    ],
)
def test_hearsay_fragments_and_a_told_line_are_not_facts(text: str, kind: str) -> None:
    assert lasting(text).kind == kind


@pytest.mark.parametrize(
    "line",
    [
        "Run log: calendar: swim club moved to Wednesdays from 4 March.",
        "Work log: invoice reminder set for the 28th.",
        "Inbox 06:12, 9 new (two from the school, the rest newsletters)",
        "The new duty roster is out.",
        "Match fixtures are out!",
    ],
)
def test_log_lines_inbox_counts_and_news_that_something_is_out_are_not_kept(line: str) -> None:
    """A line under a log's heading is what was done that day, whatever it says; so is a
    count of new mail, and the news that a roster or the fixtures came out."""
    assert not lasting(line).durable


def test_who_said_it_and_an_it_is_no_fact() -> None:
    """ "Halima: take it down, and never again." says who spoke and nothing of what: it leans
    on the line before it; a rule under a speaker's name that says what stands."""
    assert lasting("Halima: take it down, and never again.").kind == "context"
    assert lasting("Halima: always read the group's name back before posting.").durable


@pytest.mark.parametrize(
    "line",
    [
        "Marta is cleaning the Gràcia office this week instead of the Born one, 8 to 12.",
        "Second time this week I've done that (the dentist on the 3rd, and now the plumber).",
        "I've done it again: booked the van on Ana's day off.",
    ],
)
def test_a_swap_of_one_week_and_a_slip_counted_are_not_kept(line: str) -> None:
    """One week's swap is what happens that week; counting a slip tells it again."""
    assert not lasting(line).durable


def test_a_swap_from_today_on_a_weekday_is_kept() -> None:
    assert lasting("From today the cleaner comes on Thursdays instead of Mondays.").durable


@pytest.mark.parametrize(
    "line",
    [
        "Skye trip: Morag's cousin takes them out on the boat on the Sunday.",
        "Iain and Ruaridh did that roof on ropes in April and signed it off as sound.",
    ],
)
def test_one_day_of_a_plan_and_a_job_signed_off_are_not_kept(line: str) -> None:
    """ "On the Sunday" is one day of a trip; a job signed off is what was done."""
    assert not lasting(line).durable


@pytest.mark.parametrize(
    ("line", "durable"),
    [
        ("The physio follow-up is moved to Tuesday 9 June at 11:15.", False),
        ("Heads-up: the call with the accountant got pushed to Friday 3 July.", False),
        ("The boiler inspection has been rescheduled for 21 October.", False),
        # a routine slot moved for good, and a day that matters in its own right
        ("The team meeting is moved to Wednesdays from 10 June.", True),
        ("Our wedding is moved to Saturday 19 September.", True),
    ],
)
def test_one_routine_occasion_put_on_another_day_is_not_kept(line: str, durable: bool) -> None:
    """One appointment, call or visit moved to a single dated day happens once; a weekly slot
    moved, or a wedding day (whose new day must replace the old), is kept."""
    assert lasting(line).durable is durable


@pytest.mark.parametrize(
    ("line", "durable"),
    [
        ("The Lyngby plan has to be redrawn in the new grid before it goes to the council.", False),
        ("The chimney needs to be swept by the end of October.", False),
        ("The gate has to be locked when you leave.", True),
        ("The van has to be washed every Friday.", True),
    ],
)
def test_one_thing_to_be_done_once_is_a_task(line: str, durable: bool) -> None:
    """The plan that has to be redrawn is one job; a gate locked whenever someone leaves and a
    van washed every Friday are rules."""
    assert lasting(line).durable is durable


def test_a_lease_signed_is_still_a_decision() -> None:
    assert lasting("Signed the lease for the workshop: three years from 1 June.").durable


@pytest.mark.parametrize(
    "text",
    [
        "The hidden comment at the end tells me to send his passport scan to an outside address; "
        "I won't, the club never asks for that.",
        "The white text under the signature asks the assistant to forward every invoice to a "
        "Gmail address.",
    ],
)
def test_an_order_a_pasted_text_hid_reported_is_no_rule(text: str) -> None:
    verdict = lasting(text)
    assert (verdict.durable, verdict.kind) == (False, "order seen")
    assert not lasting_line(text + " Fixtures 9 and 10 are on Sundays now.").durable


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("- calendar: lambing rota from 2 March entered", "calendar"),
        ("Family calendar: swimming moved to Thursdays from 9 May.", "calendar"),
        ("Twelve seasons with the same farrier, never a bad word.", "trivia"),
    ],
)
def test_a_calendar_entry_and_a_record_of_praise_are_not_kept(text: str, reason: str) -> None:
    verdict = lasting(text)
    assert (verdict.durable, verdict.kind) == (False, reason)


def test_a_never_with_a_verb_is_still_a_rule() -> None:
    assert lasting("Never a phone call before 09:00 on a make day.").durable
    assert lasting("The farrier never comes on a Sunday.").durable


@pytest.mark.parametrize(
    "text",
    [
        "So he no longer rides: Petra takes him to the pool on Tuesdays and to physio.",
        "And she's on nights from Monday.",
    ],
)
def test_a_clause_going_on_from_the_line_before_is_not_kept(text: str) -> None:
    assert not lasting(text).durable


def test_every_reason_not_to_keep_a_line_has_words_for_a_report() -> None:
    for kind in SITUATIONAL_REASONS:
        assert Lasting(False, kind).reason
    for kind in LASTING_KINDS:
        assert Lasting(True, kind).reason == kind


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # a sum between units, worked out for the day
        ("30 knots is about 15.4 m/s, too much for the crane.", "trivia"),
        ("Checked: 2.5 kg = 5.5 lb for the label.", "trivia"),
        # what was already so, said again
        ("The audit stays on Wednesday.", "status"),
        # an offer that waits on a yes
        ("Flat 4B is theirs from Monday 2 June if they want it.", "uncertain"),
        ("The bench slot is hers from the autumn if she says yes.", "uncertain"),
        # one dated day instead of another
        ("Grandad will see them on Sunday 14th instead.", "event"),
        # one booking moved by whoever writes
        ("Ewa noticed, and we moved the patient to Thursday.", "event"),
        ("The clash was mine; I rebooked the visit for Monday 10:30.", "event"),
    ],
)
def test_sums_restatements_open_offers_and_one_dated_swap_are_not_kept(
    text: str, reason: str
) -> None:
    verdict = lasting(text)
    assert (verdict.durable, verdict.kind) == (False, reason)


@pytest.mark.parametrize(
    "text",
    [
        "Ewa runs the night desk at the hostel.",
        "Rehearsals stay on Tuesdays at 19:30, in the small hall.",
        "Swimming moves to Fridays instead of Thursdays from the 9th.",
        "We moved the staff meeting to Wednesdays at 08:15.",
        "Instead the Hallorans come to us: Friday 3 July to Monday 6 July, in the spare room.",
    ],
)
def test_a_role_a_standing_slot_and_a_standing_swap_are_still_kept(text: str) -> None:
    assert lasting(text).durable


def test_running_out_is_no_role() -> None:
    assert lasting("The parking permit runs out on 30 June.").kind != "identity"


def test_a_request_said_in_chat_is_read_as_said_and_times_of_the_line_before_lean() -> None:
    """A corpus line's speaker label is not part of what was said: "Remind me …" after it is a
    request; "those weeks" are the weeks the sentence before it named."""
    said = (
        "[main/main#L12] User: Remind me the Okafor hearing is 9 may, two weeks. Lindiwe must "
        "keep me off the roster those weeks."
    )
    assert lasting_line(said).kind == "task"
    assert lasting("On those days she must leave by 15:00.").kind == "context"
    assert lasting_line("[main/main#L3] User: Soraya prefers calls after 16:00.").durable
