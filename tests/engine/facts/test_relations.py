"""Facts that change: the same fact said twice, and a newer statement replacing an older one."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamd.engine.facts.parts import as_speaker, statements_of
from dreamd.engine.facts.relations import relation, replaces, same_fact, told_within
from dreamd.engine.facts.statement import read_statement
from dreamd.engine.facts.timeline import Dated, plan_timeline
from dreamd.engine.facts.values import values_of
from dreamd.engine.phases.supersession import lasting_parts, replaces_any

CHANGES = [
    # a refusal taken back "after all"
    (
        "- B @Ballymore barn: Declined the barn conversion: no capacity before the autumn.",
        "- B @Ballymore barn: Doing the barn conversion after all, from 3 June.",
    ),
    (
        "Said no to the Carrowmore school mural, the timing was impossible.",
        "Carrowmore school mural is back on after all: we paint it in the half-term week.",
    ),
    # a choice between two things that turns round
    (
        "Jonas: Kneeling chair, not the standing desk; he gave up after an hour.",
        "Jonas: Prefers the standing desk now; the kneeling chair is out of his office.",
    ),
    (
        "The club decided to sell the old Bechstein from the hall on Marktplaats for €900.",
        "Keeping the Bechstein in the hall, the choir needs it. Taken off Marktplaats.",
    ),
    (
        "Ferrante bakery is too slow for the Saturday market.",
        "I was wrong about the Ferrante bakery being too slow: the order came on time all month.",
    ),
    (
        "- 07:15 digest sent (short bullets, the way Maren likes it).",
        "From tonight the digest goes out at 22:00 the evening before, same short bullets.",
    ),
    ("Noted: Easter at Grandma's in Lund, driving up on Thursday.", "Easter in Lund is off."),
    ("Mia's swimming lesson is on Tuesdays at 17:00.", "Swimming moved to Thursdays."),
    (
        "Mia's swimming lesson is on Tuesdays at 17:00.",
        "Family: Mia's swimming moved from Tuesday to Thursday, same time.",
    ),
    ("Mia's swimming lesson is on Tuesdays.", "Mia's swimming lesson is on Thursdays."),
    (
        "Mia's swimming lesson is on Tuesdays at 17:00 at the Nordbad.",
        "Mia's swimming moved to Thursdays, same time.",
    ),
    (
        "Ingrid Solheim is our contact at Halvorsen Shipping.",
        "Correction: it's Ingrid Solberg, not Solheim.",
    ),
    (
        "O(c=0.8) @Peter: Prefers voice notes over long emails.",
        "O(c=0.4) @Peter: No longer prefers voice notes",
    ),
    ("Peter prefers voice notes over long emails.", "Peter now prefers written messages."),
    ("Peter prefers calls in the morning.", "Peter prefers calls after 3pm now."),
    (
        "Decisions: we host the site on Hetzner.",
        "Reversed the Hetzner decision — staying on AWS instead.",
    ),
    ("Booked the Lisbon trip for March 12.", "The Lisbon trip is cancelled."),
    (
        "W @Ana: Decided to switch the shop from woocommerce to shopify.",
        "W @Ana: Staying with woocommerce; the shopify switch is cancelled.",
    ),
    ("Backups run nightly at 02:00 to the NAS.", "Backups now run at 04:00."),
    ("The kitchen renovation budget is 18,000 EUR.", "Kitchen budget raised to 22,000 EUR."),
    ("We use Figma for client mockups.", "Switched from Figma to Penpot for mockups."),
    ("Invoices go out on the 1st of the month.", "Invoices go out on the 15th from now on."),
]
SAME = [
    ("Swimming moved to Thursdays.", "Mia's swimming lesson is on Thursdays now."),
    (
        "Ingrid Solberg is our contact at Halvorsen.",
        "Our contact at Halvorsen Shipping is Ingrid Solberg.",
    ),
    ("Backups run nightly at 02:00 to the NAS.", "The nightly backup to the NAS runs at 02:00."),
    (
        "Oskar: Choir moves from Monday to Wednesday 19:00 at the Aula, from 4 March.",
        "Oskar: Choir is on Wednesdays at 19:00 now.",
    ),
    (
        "Priya Nair: Needs the draft by Tuesday noon, sends it back edited on Thursday.",
        "Priya Nair edits the Halden chapters; needs files by Tuesday 12:00, returns them Thursday.",
    ),
    (
        "Dad's locker at the leisure centre is number 217.",
        "Reminder for the gym bag: Dad's locker is 217, not 271.",
    ),
]
UNRELATED = [
    # "never typed by hand" is how, not a name turned down
    (
        "Ó Briain Stone & Slate: goggles and an eyewash bottle always in the van.",
        'Úna: Fix: one saved signature, pasted every time, never typed by hand: "Aoife Ó '
        'Briain, Ó Briain Stone & Slate, Ennis".',
    ),
    # a count dated by an ending ("before we stopped") ends nothing
    (
        "Raffle tickets are sold by bank transfer at the door and at the shop, 5 / 3 GBP.",
        "Raffle tickets: 40 sold online before we stopped, 12 by bank transfer since.",
    ),
    # turning down the heating takes nothing back
    ("The office heating is on from 8 in the morning.", "Turned down the heating in the office."),
    # an opinion that turns "after all" takes back no rule
    (
        "Parcel Bell texts never name what is in the parcel.",
        "Parcel Bell: the older customers seem to like the texts after all.",
    ),
    # "wrong about X being Y" takes back what was said of X, not every line naming X
    (
        "Ferrante bakery supplies the sourdough.",
        "I was wrong about the Ferrante bakery being too slow: the order came on time all month.",
    ),
    # "from X ... to <verb>" without a change cue is no "from X to Y"
    (
        "I run Brasserie Kaat in Ghent, two kitchens: Keuken A and Keuken B.",
        "Brasserie Kaat decided to sell the old Rational oven from Keuken A on 2dehands for "
        "€1,800, to pay for a new extractor.",
    ),
    (
        "Oma (Ria) lives in Zwolle. Coffee there most Saturdays.",
        "Oma came over from Zwolle on Monday and Tuesday to do the school runs.",
    ),
    # "the cancelled one" names a thing; it cancels nothing
    (
        "Our pallet shipments are booked through Vantage Logistics.",
        "The reissued invoice must go to Vantage Logistics; the cancelled one stays in the "
        "ledger as void.",
    ),
    ("Mia's swimming lesson is on Tuesdays at 17:00.", "Mia's piano lesson moved to Thursdays."),
    # a price that holds from a date is not a new time for the evening it is the price of
    (
        "Kammerkoret: Rehearsals on Tuesdays 19:00-21:30 in Nordvik kirkehus.",
        "Nordvik kirkehus: Rehearsal evening costs 600 NOK from 1 June.",
    ),
    # one person in another role: Rasmus keeps his swap of weekends
    (
        "Swap: Ines covers Saturday 6 May, Rasmus takes Ines's Sunday 14 May.",
        "Tove asked Ines to mentor the new starter for the summer rather than Rasmus.",
    ),
    ("Peter can't wait for the team trip next month.", "Peter: Same here!"),
    ("Team sync is on Mondays at 10:00.", "Retro is on Fridays at 15:00."),
    ("Peter prefers tea.", "Peter now prefers calls after 3pm."),
    ("Mia's swimming lesson is on Tuesdays.", "Mia lost a tooth today."),
    ("Oskar: Choir is on Wednesdays at 19:00.", "Oskar: Chess is on Wednesdays at 19:00."),
    ("Backup r3a runs at 02:00 on Sundays.", "Backup r4a runs at 02:00 on Sundays."),
]


@pytest.mark.parametrize(("older", "newer"), CHANGES)
def test_a_change_replaces_what_it_changes(older: str, newer: str) -> None:
    """Moved weekdays (the time kept: "same time"), corrected surnames, denied opinions,
    switched preferences, reversed decisions, cancelled plans (a cancellation never repeats
    what it cancels) and new numbers replace the statement they change, and never the other
    way round."""
    old, new = read_statement(older), read_statement(newer)
    assert (replaces(new, old), same_fact(new, old)) == (True, False)


@pytest.mark.parametrize(("left", "right"), SAME)
def test_paraphrases_are_one_fact(left: str, right: str) -> None:
    """Two wordings of one fact (same names and numbers) are the same fact, in either order,
    and neither replaces the other."""
    a, b = read_statement(left), read_statement(right)
    assert (same_fact(a, b), same_fact(b, a), replaces(a, b), replaces(b, a)) == (
        True,
        True,
        False,
        False,
    )


@pytest.mark.parametrize(("older", "newer"), UNRELATED)
def test_other_slots_are_left_alone(older: str, newer: str) -> None:
    """Another lesson, another meeting, another preference, a passing event, a line that names
    no slot at all ("Same here!"): neither the same fact nor a replacement."""
    old, new = read_statement(older), read_statement(newer)
    assert (replaces(new, old), same_fact(new, old)) == (False, False)


def test_shared_wording_about_other_things_is_not_one_fact() -> None:
    """Two lines that share their frame ("We always check ... before") but not what they are
    about are two facts, however close their wording."""
    gate = read_statement("We always check the gate before deploys.")
    tyres = read_statement("We always check the tyres before long drives.")
    assert (same_fact(gate, tyres), same_fact(tyres, gate)) == (False, False)


def test_the_timeline_ends_the_old_value_on_the_day_it_changed() -> None:
    """The old weekday is current until the change, and not after; a repeat of the new value
    speaks for the change instead of standing beside it."""
    items = [
        Dated("a", "2026-11-02", read_statement("Mia's swimming lesson is on Tuesdays.")),
        Dated("b", "2026-11-10", read_statement("Swimming moved to Thursdays.")),
        Dated("c", "2026-11-12", read_statement("Mia's swimming lesson is on Thursdays now.")),
    ]
    timeline = plan_timeline(items)
    assert {ref: (end.by, end.day) for ref, end in timeline.ended.items()} == {
        "a": ("b", "2026-11-10")
    }
    assert dict(timeline.repeats) == {"c": "b"}
    assert [i.ref for i in timeline.as_of(items, "2026-11-05")] == ["a"]
    assert [i.ref for i in timeline.as_of(items, "2026-11-30")] == ["b", "c"]


def test_a_change_that_names_only_the_repeat_ends_the_repeat() -> None:
    """The chat reply "You're going, May to July" comes first; the note's "Priya decided to go
    on the Oslo secondment" repeats it. "Pulled out of the Oslo secondment" names what only the
    note says: the note's line is ended, though it speaks through the reply."""
    items = [
        Dated(
            "chat", "2026-03-02", read_statement("You're going, May to July, as you decided."), 4
        ),
        Dated(
            "note",
            "2026-03-02",
            read_statement("Priya decided to go on the Oslo secondment, May–July."),
            36,
        ),
        Dated("out", "2026-03-20", read_statement("I pulled out of the Oslo secondment."), 1),
    ]
    timeline = plan_timeline(items)
    assert dict(timeline.repeats) == {"note": "chat"}
    assert {ref: end.by for ref, end in timeline.ended.items()} == {"note": "out"}


@given(st.text(max_size=200), st.text(max_size=200))
def test_reading_and_relating_never_crash_and_nothing_replaces_itself(a: str, b: str) -> None:
    """Any two texts read and relate without error; a statement neither replaces itself nor
    differs from itself."""
    left, right = read_statement(a), read_statement(b)
    replaces(left, right)
    assert not replaces(left, left)
    assert same_fact(right, right) or not right.text.strip() or not (right.topic or right.values)


def test_a_correction_naming_a_plain_word_and_a_name_reads_without_error() -> None:
    """'not Brix' is read both as a word and as a name; a correction against a line that names
    it replaces that line (this raised IndexError in a search's timeline)."""
    newer = read_statement("Correction: the batch log uses SG, not Brix.")
    assert replaces(newer, read_statement("The batch log uses Brix."))


def test_a_name_heading_is_the_subject_of_a_description() -> None:
    """'Tomas Berg: locum from StaffCo Nord' is about Tomas, not StaffCo; a correction of his
    surname then replaces it."""
    older = read_statement("Tomas Berg: locum from StaffCo Nord, booked for 3–7 May.")
    assert older.subject == "tomas"
    fixed = read_statement("Tomas Bergh: surname is Bergh; earlier notes wrongly say Berg.")
    assert replaces(fixed, older)


EPISODES = [  # what went wrong once, told as an episode: the standing fact stays
    (
        "- W @Priya: Priya's piano lesson is on Wednesdays at 16:30.",
        "- B: Put Priya's lesson in the family calendar at 15:30 instead of 16:30 by mistake.",
    ),
    (
        "- W @Hallam: The Hallam order goes out every Friday by 10:00.",
        "- B: Sent the Hallam order on Thursday instead of Friday; they took it anyway.",
    ),
    (
        "- W: The boiler service is booked with Keane Heating each October.",
        "- B: The reminder went to Keane Plumbing instead of Keane Heating this year.",
    ),
]


@pytest.mark.parametrize(("standing", "episode"), EPISODES)
def test_an_episode_of_a_mistake_does_not_replace_the_standing_fact(
    standing: str, episode: str
) -> None:
    assert not replaces(read_statement(episode), read_statement(standing))


def test_an_episode_that_announces_a_change_still_replaces() -> None:
    standing = read_statement("- W @Priya: Priya's piano lesson is on Wednesdays at 16:30.")
    moved = read_statement("- B: Moved Priya's piano lesson to Thursdays at 16:30 from next week.")
    assert replaces(moved, standing)


@pytest.mark.parametrize(
    ("line", "kind", "body"),
    [
        ("- W @Jaz Kowalczyk: Works Wednesdays and Fridays.", "W", "Works Wednesdays and Fridays."),
        ("- B: Sent the invoice without a VAT line.", "B", "Sent the invoice without a VAT line."),
        ("- B One-off hedge cut for Ruth on Saturday, £95.", "B", "One-off hedge cut for Ruth"),
        ("- O(c=0.3) @Kirkstall: not to be relied on.", "O", "not to be relied on."),
        ("- S 19 people at the first work party.", "S", "19 people at the first work party."),
    ],
)
def test_retain_lines_are_read_with_or_without_a_colon(line: str, kind: str, body: str) -> None:
    read = read_statement(line)
    assert read.retain == kind and read.text.startswith(body)


@pytest.mark.parametrize("line", ["- Went to B and Q for compost.", "- B corp status: pending."])
def test_a_line_that_only_opens_with_a_type_letter_is_not_a_retain_line(line: str) -> None:
    assert read_statement(line).retain is None


DATED_CHANGES = [  # a new value from a date, told without "moved" or "now"
    (
        "- W @Brannock Bikes: Service rate £45 an hour.",
        "- W @Brannock Bikes: £52 an hour as of 1 March.",
    ),
    ("Our cleaner comes on Mondays at 9.", "Our cleaner comes on Thursdays at 9 from 3 February."),
    (
        "- W @Tomasz: Deliveries to the shop on Tuesdays.",
        "- W @Tomasz: Deliveries to the shop on Fridays with effect from 7 April.",
    ),
]


@pytest.mark.parametrize(("older", "newer"), DATED_CHANGES)
def test_a_new_value_from_a_date_replaces_the_old(older: str, newer: str) -> None:
    assert replaces(read_statement(newer), read_statement(older))


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "- W @Mirela Vasquez: Runs the food bank rota.",
            "- It's Mirela Vasconcelos who runs the rota. Not Vasquez: I misheard her on the phone.",
        ),
        (
            "- W @Doug Farrant: Landlord of the workshop.",
            "- The landlord is Doug Farrell. Not Farrant, that was a typo in the lease summary.",
        ),
    ],
)
def test_a_sentence_that_opens_with_not_and_the_old_name_corrects_it(
    older: str, newer: str
) -> None:
    assert replaces(read_statement(newer), read_statement(older))


def test_a_plain_not_sentence_is_no_correction() -> None:
    older = read_statement("- W @Doug Farrant: Landlord of the workshop.")
    newer = read_statement("- Not sure whether Doug Farrant wants the rent early.")
    assert not replaces(newer, older)


def test_calling_off_an_event_ends_the_dated_line_that_set_it() -> None:
    older = read_statement("- W @Hollin Choir: The Spring Concert is on Saturday 12 April.")
    newer = read_statement("- The Spring Concert is called off, half the altos have flu.")
    assert replaces(newer, older)


def test_calling_off_one_event_leaves_another_on_that_day() -> None:
    older = read_statement("- W @Hollin Choir: Spring concert on Saturday 12 April at St Mark's.")
    newer = read_statement("- The bake sale on 12 April is called off.")
    assert not replaces(newer, older)


def test_the_sentence_that_says_not_the_old_name_corrects_it_on_its_own() -> None:
    """A line read sentence by sentence: "Not Vasquez: I misheard her" still corrects."""
    older = read_statement("- W @Mirela Vasquez: Runs the food bank rota.")
    newer = read_statement("Not Vasquez: I misheard her on the phone.")
    assert newer.change == "correction" and replaces(newer, older)


LABELLED = [  # a label heading names the slot; an acknowledgement or a category names none
    ("- Bin day: Tuesdays, green bin first.", "- Bin day is Fridays from now on."),
    (
        "- Understood: the piano tuner comes every March, £85 a visit.",
        "- The piano tuner is £95 a visit from next month (was £85).",
    ),
    ("- Household: window cleaner every fourth Monday, £18.", "- Window cleaner £20 as of 1 May."),
    (
        "- Choir practice: Thursdays at half seven in the church hall.",
        "- Choir practice is on Tuesdays now, half seven as before.",
    ),
]


@pytest.mark.parametrize(("older", "newer"), LABELLED)
def test_a_labelled_line_is_replaced_by_a_change_of_its_label(older: str, newer: str) -> None:
    assert replaces(read_statement(newer), read_statement(older))


def test_another_label_is_another_slot() -> None:
    older = read_statement("- Bin day: Tuesdays, green bin first.")
    newer = read_statement("- Market day is Fridays from now on.")
    assert not replaces(newer, older)


def test_the_sentences_of_an_episode_line_stay_an_episode() -> None:
    """A promoted line is read sentence by sentence; each sentence of a 'B:' line is still an
    episode, so its 'instead of' never ends the standing fact."""

    standing = read_statement("- W @Priya: Priya's piano lesson is on Wednesdays at 16:30.")
    parts = lasting_parts(
        "B: Put Priya's lesson in the calendar at 15:30 instead of 16:30. Copied from an old text."
    )
    assert parts and all(part.retain == "B" for part in parts)
    assert not any(replaces(part, standing) for part in parts)


def test_a_currency_code_is_no_name_and_no_subject() -> None:
    older = read_statement("- Pitch hire is 300 NOK per evening, invoiced by the club.")
    newer = read_statement("- W @Fana Stadion: Pitch hire costs 340 NOK an evening from 1 May.")
    assert older.subject is None and "name:nok" not in older.values
    assert replaces(newer, older)


def test_an_entity_name_with_lowercase_words_is_one_entity() -> None:
    read = read_statement("- W @Café du marché: Closed on Mondays from June.")
    assert read.retain == "W" and read.subject == "café" and read.text.startswith("Closed")


def test_a_misheard_surname_is_corrected_without_naming_the_old_one() -> None:
    older = read_statement("- W @Ines: Ines Marrow, the new receptionist from Monday.")
    newer = read_statement(
        "- W @Ines Morrow: Her surname is Morrow with an o; the earlier spelling was misheard."
    )
    assert replaces(newer, older)


def test_a_correction_about_someone_else_keeps_the_name() -> None:
    older = read_statement("- W @Ines: Ines Marrow, the new receptionist from Monday.")
    newer = read_statement("- W @Ines: Actually Ines starts on Tuesday, shadowing Tom.")
    assert not replaces(newer, older)


def test_a_one_word_line_is_not_the_same_fact_as_a_long_one_holding_its_word() -> None:
    short = read_statement("Bart's own list.")
    long = read_statement(
        "Bart asked them to put the grapefruit warning on the front of her medicine list."
    )
    assert not same_fact(long, short) and not same_fact(short, long)


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        (
            "Piano lessons are on Wednesdays now; the Monday lesson has been discontinued.",
            "day:mon",
            "day:wed",
        ),
        ("Bins go out on Thursdays now and the Monday collection is gone.", "day:mon", "day:thu"),
        (
            "Rehearsals are Wednesday evenings from 5 March (the Monday slot is gone with the "
            "hall renovation).",
            "day:mon",
            "day:wed",
        ),
    ],
)
def test_what_a_line_says_is_gone_is_what_it_replaces(text: str, gone: str, kept: str) -> None:
    """ "the Monday slot is gone": Monday is the value replaced, not the day the line goes on
    to give."""
    statement = read_statement(text)
    assert gone in statement.replaced
    assert kept not in statement.replaced


def test_a_clause_of_an_entry_is_replaced_on_its_own() -> None:
    """An entry of two clauses joined by a semicolon is read clause by clause: a change to the
    one (the rehearsal day) replaces it though the other (who plays the piano) says nothing of
    days."""

    entry = statements_of(
        "Choir rehearsal Mondays 19:30 to 21:00 in the parish hall; Agnieszka Wrona plays the "
        "piano for us."
    )
    assert len(entry) == 2
    change = statements_of(
        "St Bride's choir: Rehearsal is now Wednesday evenings 19:30 to 21:00 from 5 March "
        "(the Monday slot is gone with the hall renovation)."
    )
    assert any(replaces(new, old) for new in change for old in entry)
    assert not any(replaces(new, entry[1]) for new in change)


def test_a_retain_entity_of_several_words_joined_by_an_ampersand() -> None:
    """ "W @Byrne & Daughters Fine Joinery: …" is a Retain line about Byrne & Daughters: the
    "&" names nothing, and the entity's own short particle ("Ó", "Mac") is not its subject."""
    joinery = read_statement("- W @Byrne & Daughters Fine Joinery: Closed on Mondays.")
    assert (joinery.retain, joinery.subject, joinery.text) == ("W", "byrne", "Closed on Mondays.")
    assert "name:&" not in joinery.values
    assert read_statement("- B @Ó Floinn Roofing: Bought a second ladder.").subject == "floinn"


def test_stopping_with_a_supplier_ends_the_supply_not_the_business_that_stopped() -> None:
    """A Retain episode of the business ("Forno Bellini: stopped ordering flour from
    Marchetti's") ends the line on where the flour comes from, not the line that says who the
    business is, though both name the business."""
    stopped = read_statement("- B @Forno Bellini Lucca: Stopped ordering flour from Marchetti's.")
    supply = read_statement(
        "- W @Marchetti's Mill: Our flour comes from Marchetti's in Borgo, €21 a sack."
    )
    who = read_statement("Forno Bellini Lucca, Via Roma 3: bread and pastries since 1998.")
    assert replaces(stopped, supply)
    assert not replaces(stopped, who)


def test_after_all_as_a_reason_announces_no_change() -> None:
    """ "After all, …" gives a reason; "… after all" takes a refusal back."""
    assert read_statement("After all, the Ballymore barn deposit is their money.").change is None
    assert read_statement("We're doing the Ballymore barn after all.").change == "reversed"


def test_a_later_clause_keeps_the_heading_of_its_entry() -> None:
    """ "Coro da Graça: youth choir; Sala 2 on Thursdays at 19:00": the clause about the room
    is still the choir's, so another group's booking of that room on another day leaves it."""

    entry = statements_of("Coro da Graça: youth choir; Sala 2 on Thursdays at 19:00.")
    assert len(entry) == 2
    other = statements_of(
        "Banda Larga: Sala 2 on Monday evenings from 3 June goes back on the website for hourly "
        "bookings."
    )
    assert not any(replaces(new, old) for new in other for old in entry)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "- W @Hugh Leahy: treasurer of the Bantry rowing club.",
            "Siobhán Keane took over as treasurer of the Bantry rowing club in March.",
        ),
        (
            "Dr Aziz is our GP at the Meadow Lane practice.",
            "- W @Dr Okoro: from June she is our GP at the Meadow Lane practice.",
        ),
        (
            "- W @Pavel: head coach of the Lindholm U10s.",
            "Marta is head coach of the Lindholm U10s now that Pavel has moved away.",
        ),
    ],
)
def test_another_person_in_the_same_role_and_place_replaces_the_old_holder(
    older: str, newer: str
) -> None:
    """A role one person holds at a time passes to another, told in plain words: the new
    holder's line replaces the old holder's."""
    assert relation(read_statement(newer), read_statement(older)) == "replaces"


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # another role, though a word is shared
        (
            "- W @Ruth: second engineer on the Aranmore ferry.",
            "Dara is chief engineer on the Aranmore ferry.",
        ),
        # a role many hold at once
        ("Ines is a nurse at St Kevin's.", "Bea is a nurse at St Kevin's."),
        # the same role in another place
        ("- W @Tom: treasurer of the chess club.", "- W @Ann: treasurer of the tennis club."),
    ],
)
def test_other_roles_shared_roles_and_other_places_are_left_alone(older: str, newer: str) -> None:
    assert relation(read_statement(newer), read_statement(older)) is None


def test_someone_elses_line_sharing_only_the_word_it_turns_down_replaces_nothing() -> None:
    """ "Nuala says the permit is renewed at the council desk, not by post" shares only "post"
    with an older line about a parcel that came by post: it replaces nothing there."""
    older = read_statement("The tiles came by post on Tuesday, two boxes short.")
    newer = read_statement(
        "The site manager, Nuala, says the permit is renewed at the council desk, not by post."
    )
    assert relation(newer, older) is None


def test_a_percentage_after_at_is_a_number_not_a_clock_time() -> None:
    """ "invoiced at 13.5% VAT" gives the rate, not one o'clock."""
    tokens = {v.token for v in values_of("Repairs are invoiced at 13.5% VAT, at 9.30 we open.")}
    assert {"num:13.5", "time:09:30"} <= tokens
    assert "time:13:00" not in tokens


def test_a_name_said_again_outside_never_is_not_turned_down() -> None:
    """ "Ruth Ames, never Ruth Amesbury" turns down Amesbury and keeps Ruth; the line is a
    positive statement, not a denial."""
    line = read_statement("Send every tenor question to Ruth Ames, never to Ruth Amesbury.")
    assert line.polarity == 1
    assert "name:amesbury" in line.replaced
    assert "name:ruth" not in line.replaced and "ruth" not in line.replaced


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "Pool hire is 80 GBP per session, invoiced each term by the leisure centre.",
            "The new price is 95 GBP per session, up from 80.",
        ),
        (
            "Court hire is 30 EUR per training evening, paid to the club treasurer.",
            "W @Kaai sporthal: Training evening costs 36 EUR from 1 May.",
        ),
    ],
)
def test_a_new_price_replaces_the_old_one(older: str, newer: str) -> None:
    """ "up from 80" names the price it replaces; a Retain entity of several words ("Kaai
    sporthal") names the place by all of them, so its words are no topic of the line."""
    assert any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(older))


def test_a_misheard_surname_ends_every_line_with_the_old_one() -> None:
    """A correction about a name ("the earlier spelling was a mishearing") under the new full
    name ends a line that gives the same first name with another surname, however the line
    is worded; a line about someone else with that first name and no correction stays."""
    correction = lasting_parts(
        "W @Ilse Vandenberg: Her surname is Vandenberg; "
        "the earlier spelling was a mishearing on the phone."
    )
    old = statements_of("New bookkeeper from Monday: Ilse Vandermeer, from the Ghent office.")
    assert any(replaces(n, o) for n in correction for o in old)
    other = lasting_parts("W @Ilse Vandenberg: Ilse Vandenberg does the books from Monday.")
    namesake = statements_of("Ilse Peeters runs the front desk at the Ghent office.")
    assert not any(replaces(n, o) for n in other for o in namesake)


def test_a_business_named_for_what_it_stops_buying_still_stops_buying_it() -> None:
    """ "Sand & Gravel" in the business's name does not keep "stopped buying sand from
    Kerrigan's" from ending where the sand came from."""
    stop = lasting_parts("B @Ní Bhriain Sand & Gravel: Stopped buying sand from Kerrigan's.")
    old = statements_of("Kerrigan's Yard: Our sand comes from Kerrigan's in Tuam, 40 EUR a tonne.")
    assert any(replaces(n, o) for n in stop for o in old)


def test_an_entity_word_said_in_lowercase_is_still_what_the_line_is_about() -> None:
    """ "Brennan Sand Supplies" names the supplier where its words are capitalised; "all our
    sand" in the line is about sand, so it is the same fact as a paraphrase without the tag."""
    tagged = read_statement("- W @Brennan Sand Supplies: All our sand comes from Brennan now.")
    assert "sand" in tagged.topic
    plain = read_statement("We've switched to Brennan for all our sand.")
    assert same_fact(tagged, plain)


@pytest.mark.parametrize(
    ("line", "wanted", "unwanted"),
    [
        ("So from today, every invoice goes out by e-mail.", set(), {"day:sun"}),
        ("May I send the quote on Monday?", {"day:mon"}, {"month:05"}),
        ("Sun came out after lunch at the allotment.", set(), {"day:sun"}),
        ("Mar 3 is when the lease ends.", {"month:03"}, set()),
        ("So 10:00 Gottesdienst, danach Kaffee.", {"day:sun", "time:10:00"}, set()),
        ("Do 18:00 Chorprobe im Gemeindehaus.", {"day:thu", "time:18:00"}, set()),
    ],
)
def test_a_word_opening_a_sentence_is_a_day_or_month_only_before_a_number(
    line: str, wanted: set[str], unwanted: set[str]
) -> None:
    """ "So" and "May" open English sentences; "So 10:00" and "Mar 3" are a day and a month."""
    _reads_values(line, wanted, unwanted)


def _reads_values(line: str, wanted: set[str], unwanted: set[str]) -> None:
    """``line``'s values hold every ``wanted`` token and none of ``unwanted``."""
    tokens = {v.token for v in values_of(line)}
    assert wanted <= tokens
    assert not unwanted & tokens


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # a lift is no cancellation
        (
            "Swimming club: the twins train Mondays and Wednesdays at 07:00 at the Leisure Centre.",
            "Twins: Monday swim at the Leisure Centre; dropped them at 06:50 on the way to work.",
        ),
        # "set-up from" gives a start, not a price rise from an old value
        (
            "Noor's physio is on Fridays at 15:00 at the Grange clinic.",
            "Hall booked for the quiz: set-up from 15:00, doors at 19:00, 120 € for the room.",
        ),
        # a cancellation ends what its own clause names, not a person the line goes on to tell
        (
            "Invoices to Priya now go out through Xero, no more PDFs by e-mail.",
            "The Harbour Inn gig is off: told Priya the 14th is free again.",
        ),
    ],
)
def test_a_line_that_only_mentions_a_fact_ends_nothing(older: str, newer: str) -> None:
    assert relation(read_statement(newer), read_statement(older)) is None


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Harbour Inn gig booked for Saturday the 14th, 20:00.", "Cancelled: the Harbour Inn gig."),
        ("Harbour Inn gig booked for Saturday the 14th, 20:00.", "Harbour Inn gig: cancelled."),
        ("We decided to move the backups to Hetzner.", "The Hetzner move is off; we stay put."),
    ],
)
def test_a_cancellation_ends_what_it_names(older: str, newer: str) -> None:
    assert relation(read_statement(newer), read_statement(older)) == "replaces"


@pytest.mark.parametrize(
    ("line", "change"),
    [
        ("Dropped them at 06:50 on the way to work.", None),
        ("Kaarel dropped her at the hall at 17:50.", None),
        ("Dropped off the kit at the clubhouse.", None),
        ("The dropped stitches are fixed now.", "now"),
        ("We dropped the Lisbon trip.", "cancelled"),
        ("Dropped the plan to sell the van.", "cancelled"),
    ],
)
def test_dropping_someone_off_is_no_cancellation(line: str, change: str | None) -> None:
    assert read_statement(line).change == change


def test_a_set_up_time_is_no_value_replaced() -> None:
    """ "set-up from 15:00" starts something; "up from 80" names the old price."""
    assert not read_statement("Hall: set-up from 15:00, doors at 19:00.").replaced
    assert "num:80" in read_statement("Pool hire is 95 GBP now, up from 80.").replaced


@pytest.mark.parametrize(
    "line",
    [
        "April's allotment rent, 45 £, went out on the 3rd as every year.",
        "Monday's rehearsal is in the small hall from now on.",
        "Today's pickup is at 07:10 by the church.",
    ],
)
def test_a_day_or_month_that_owns_something_is_no_subject(line: str) -> None:
    """ "March's fee" is the fee of one month, not March's own fact: the subject is left to
    the rest of the line."""
    assert read_statement(line).subject not in {"april", "monday", "today"}


def test_one_months_payment_restates_the_standing_order() -> None:
    standing = read_statement("Gran's nursing home fee is 980 £ a month, direct debit on the 1st.")
    june = read_statement("June's nursing home fee, 980 £, goes out on the 1st by direct debit.")
    assert same_fact(june, standing)


def test_training_moved_replaces_where_the_team_trains() -> None:
    """ "training moves to Thursdays" is about what "train Tuesdays" is about, though "train"
    is also a way to travel."""
    older = read_statement(
        "Harriers juniors: the under-11s train Mondays 17:30–18:30 at the track."
    )
    newer = read_statement("- W @Harriers: training moves to Wednesdays 17:30–18:30 from 4 May.")
    assert relation(newer, older) == "replaces"


def test_a_reversal_names_what_it_reverses_after_its_cue() -> None:
    older = read_statement("We decided to keep the Bedford and have its gearbox rebuilt.")
    newer = read_statement("Decision reversed on 3 May: the Bedford goes; we lease a Transit.")
    assert relation(newer, older) == "replaces"


def test_a_reversal_under_a_heading_reverses_what_it_names_not_the_heading() -> None:
    """ "Millbrook: decision reversed …: the Aga goes" ends the decision about the Aga, not
    every dated line about the house."""
    newer = read_statement(
        "- B @Millbrook: decision reversed on 9 April: the Aga goes; a heat pump in."
    )
    aga = read_statement("Millbrook: decided to keep the Aga and run radiators off it.")
    permit = read_statement("Millbrook: planning permission P/2031/22 granted on 4 March.")
    assert relation(newer, aga) == "replaces"
    assert relation(newer, permit) is None


@pytest.mark.parametrize(
    ("line", "wanted", "unwanted"),
    [
        # thousands grouped by a space are one number; a currency or a sales tax names no one
        ("Tuning visit is 12 500 Kč with DPH.", {"num:12500"}, {"num:12", "num:500", "name:kč"}),
        ("Deposit: 1 200 000 Ft now.", {"num:1200000"}, {"num:000", "name:ft"}),
        # a day of a named month is a date, and a count after "after" is no clock time
        ("Choir tour 3–5 June, back after 3 days.", {"date:06-03", "date:06-05"}, {"time:03:00"}),
        ("Boiler service on Oct 9th at 10:30.", {"date:10-09", "time:10:30"}, {"num:9"}),
    ],
)
def test_grouped_thousands_dates_and_counts(
    line: str, wanted: set[str], unwanted: set[str]
) -> None:
    _reads_values(line, wanted, unwanted)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # a call shift is no phone call, notes for the agent no voice note
        ("Tamsin's own notes for the assistant.", "Tamsin's on-call week is 3–9 March."),
        # a price rise changes no number of a long line that only mentions the service
        (
            "I run a small piano workshop at Lerchenweg 14 in Graz: tuning, regulation, "
            "voicing, restringing, rentals and student uprights.",
            "Tuning goes up to 140 EUR from 1 April (was 120 EUR).",
        ),
        # an aside is no change: "(a dropped lid, not wear)" turns nothing down
        (
            "Rental families pay 35 EUR a month, lessons extra.",
            "Hinge repair 90 EUR, the family pays (a dropped lid, not wear).",
        ),
        # a denial naming Sunday ends nothing of someone's weekdays
        (
            "Jonas: apprentice; in the workshop Monday, Tuesday and Wednesday.",
            "The workshop no longer opens on Sunday afternoons.",
        ),
        # going back to bed reverses no plan
        (
            "Decided to send the Hopf cello to the Frankfurt auction on 9 March.",
            "No Frankfurt today, so I'm going back to bed for an hour.",
        ),
        # a trip called off is no plan of someone else's that happens in that town
        (
            "Oma Ruth: cataract operation on 4 February in Kassel.",
            "The Kassel trip is off.",
        ),
    ],
)
def test_lines_that_share_words_but_not_a_fact(older: str, newer: str) -> None:
    assert not any(replaces(n, o) for n in lasting_parts(newer) for o in lasting_parts(older))


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # who someone is, said in passing, is not what the line is about
        (
            "Jonas Weber (the apprentice, 19) is in on Mondays, Tuesdays and Wednesdays.",
            "Jonas Weber: from 3 March works Thursday and Friday; evening classes the rest.",
        ),
        # a role given up ends the role the same person held
        (
            "Greta Holm: treasurer of the allotment society.",
            "At the AGM Greta Holm stood down after nine years; a cake and a speech.",
        ),
        ("Colm Byrne is chair of the residents' association.", "Colm resigned as chair in May."),
        # a trip called off ends the plan it names, dated or not
        ("Easter with the cousins in Kassel, 4–6 April.", "The Kassel trip is off."),
    ],
)
def test_newer_lines_that_end_older_ones(older: str, newer: str) -> None:
    assert any(replaces(n, o) for n in lasting_parts(newer) for o in lasting_parts(older))


def test_a_subject_said_under_a_heading_is_the_same_fact() -> None:
    """ "Rehearsals are the second Tuesday" and "Linden Brass: rehearsals the second Tuesday,
    19:30" state one fact: the first line's subject is what the second speaks of."""
    plain = lasting_parts("Rehearsals are the second and fourth Tuesday of every month.")
    headed = lasting_parts(
        "Linden Brass: rehearsals the second and fourth Tuesday of the month, 19:30 at the hall."
    )
    assert any(same_fact(a, b) for a in plain for b in headed)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # a fuller, newer account of one named subject's arrangement replaces the partial one
        (
            "Ilse Brandt: offers 900 EUR for the Bechstein, 400 EUR now and the rest in May.",
            "Ilse Brandt: buying the Bechstein for 900 EUR (400 EUR on 2 April, 500 EUR by "
            "20 May).",
        ),
        # words moved from: the card index is gone, not what both sides name
        (
            "Loans are kept on the card index: 40 instruments.",
            "Loans move from the card index to a shared spreadsheet that Pia set up.",
        ),
    ],
)
def test_a_fuller_account_and_a_move_away_replace(older: str, newer: str) -> None:
    assert any(replaces(n, o) for n in statements_of(newer) for o in statements_of(older))


def test_a_poorer_restatement_is_the_same_fact_not_a_replacement() -> None:
    """ "Tuning is 140 EUR from today" after "Tuning goes up to 140 EUR from 1 April (was 120)"
    says less: it repeats the change, it does not replace it."""
    older = statements_of("Tuning goes up to 140 EUR from 1 April (was 120 EUR).")
    newer = statements_of("Tuning is 140 EUR from today; the price list is changed.")
    assert not any(replaces(n, o) for n in newer for o in older)


def test_one_arrangement_told_by_two_people_is_one_fact() -> None:
    """The coach's message and the parent's note give the same date, days, times and hall."""
    coach = statements_of(
        "Ella's netball: the coach's e-mail to parents: from the week of 7 April the squad "
        "trains on Mondays and Wednesdays, 17:15–18:30, in the new Hollybank hall."
    )
    parent = statements_of(
        "Ella Ward: from 7 April netball is Mondays and Wednesdays 17:15–18:30 at the "
        "Hollybank hall."
    )
    assert any(relation(p, c) == "same" for p in parent for c in coach)
    # another hall on the same days and times is another arrangement
    other = statements_of("Ella Ward: from 7 April netball is Mondays and Wednesdays 17:15–18:30.")
    swimming = statements_of(
        "Oscar Ward: from 7 April swimming is Mondays and Wednesdays 17:15–18:30 at the Lido."
    )
    assert not any(relation(s, o) == "same" for s in swimming for o in other)


def test_saying_again_where_a_change_landed_replaces_nothing() -> None:
    """ "visits are on Sundays now" after "visits move to Sundays from 5 May" says the same."""
    older = statements_of("Visits to Oma move to Sunday afternoons (~15:00) from 5 May.")
    newer = statements_of("No visit: Thursday, but visits are on Sundays now.")
    assert not any(replaces(n, o) for n in newer for o in older)


def test_an_old_value_in_brackets_is_what_the_line_replaces() -> None:
    """ "£20 a month (were £15)": the £15 is gone, so "Subs £20 a month from 1 April" is the same
    fact said again, and "from today, every message …" turns no message down."""
    changed = statements_of(
        "Harbour Rowing: from 1 April the junior subs are £20 a month (were £15)."
    )
    again = statements_of("Where things stand: Subs £20 a month from 1 April.")
    assert any(same_fact(a, c) for a in again for c in changed)
    assert not any(replaces(a, c) for a in again for c in changed)
    spond = read_statement("So from today, every message to the parents goes through Spond.")
    assert not spond.replaced


def test_a_plan_told_again_with_its_numbers_replaces_the_plan() -> None:
    """ "to move to a ground-floor room" and then "moved to room 108 … on 18 March": the fact is
    the same, and the entry should now say the room and the day."""
    plan = statements_of(
        "Oma Ruth: fell on 2 May; no fracture; to move to a ground-floor room near the lift."
    )
    done = statements_of("- W @Oma Ruth: moved to room 12, ground floor, near the lift, on 9 May.")
    assert any(relation(d, p) == "replaces" for d in done for p in plan)


def test_a_no_with_no_topic_of_its_own_turns_nothing() -> None:
    """Under the club's heading, "stopped by Aileen on 22 Feb" is no slot the subs rise turns."""
    older = statements_of(
        "Harbour Rowing: a round-up for the paper listed full names; stopped by Ines on 2 May."
    )
    newer = statements_of("Harbour Rowing: from 1 June the junior subs are £20 a month (were £15).")
    assert not any(replaces(n, o) for n in newer for o in older)


def test_a_start_day_before_a_change_is_not_what_it_replaces() -> None:
    """ "From 1 July the hall hire goes up from £40 to £46": the £40 is gone, not July."""
    rise = read_statement("From 1 July the hall hire goes up from £40 to £46 an hour.")
    assert rise.replaced == {"num:40"}
    yen = read_statement("Lesson fee goes up from ¥4,500 to ¥5,000 in April.")
    assert yen.replaced == {"num:4500"}


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # the old figure in a correction's brackets
        (
            "Studio rent: €600 a month, by standing order on the 1st.",
            "- W @Ostkreuz Studios: rent €650 a month this year (correction: not €600); "
            "standing order on the 1st.",
        ),
        # a plan said no to, with no change word
        (
            "Tomasz decided to come to the Gdańsk reunion in May.",
            "Tomasz is not coming to the Gdańsk reunion; work.",
        ),
        # an entry withdrawn from, a place pulled out of
        (
            "Lena entered the Bergen half marathon on 7 September.",
            "Lena withdrew from the Bergen half marathon; her knee again.",
        ),
        (
            "We booked the Ardèche gîte for the first week of August.",
            "We pulled out of the Ardèche gîte: the owner double-booked.",
        ),
        # a trip cancelled by its place's name, which the older says as a word of its slot
        (
            "Easter break: Lisbon 2–6 April, flights from Gatwick.",
            "Decided last night: Lisbon is cancelled. We stay home and paint the hall.",
        ),
        # a class moved to other days in another venue: the hall and the gym are one slot
        (
            "Tomek Nowak: volleyball training Tuesdays and Fridays 18:00 in the school gym.",
            "- W @Tomek Nowak: from 4 May volleyball is Mondays and Thursdays 17:00 at the "
            "Wola sports hall.",
        ),
        # a person named by her short name in one line and in full in the other
        (
            "Sam decided to take the Lisbon secondment, April to June.",
            "- W @Samantha Reyes: not taking the Lisbon secondment (withdrew 3 March).",
        ),
    ],
)
def test_corrections_refusals_and_withdrawals_end_what_they_name(older: str, newer: str) -> None:
    assert any(replaces(n, o) for n in lasting_parts(newer) for o in lasting_parts(older))


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # someone off sick is no plan called off
        ("Maja races the county finals at Carlow on 26 March.", "Maja is off sick today."),
        # money taken out is no plan given up
        ("We booked the Ardèche gîte for August.", "Withdrew €300 for the Ardèche trip."),
        # a rate going up from a day names no fee of someone else's due that month
        (
            "Okafor & Co: do our accounts; papers by 30 June, fee £450, filed in July.",
            "Studio: from 1 July the room rate goes up from £38 to £44.",
        ),
        # a short word that begins a name is no nickname of it
        ("Anneliese is on the board of the food bank.", "Ann is not standing for the board."),
        # a medium given up ends nothing of someone whose line shares only that word
        (
            "Okafor & Co: prepares the farm's tax return; papers by 31 January, fee £400, due "
            "31 March.",
            "Sinead at the meeting: from today delivery notes are no longer on paper. Everything "
            "goes into the app on the tablets.",
        ),
        (
            "Brennan Tax Office: prepares our return; papers by 28 May, fee 300 EUR.",
            "Sinead at the meeting: from today delivery notes are no longer on paper.",
        ),
        # "not even to family" says how far a rule reaches; it turns no family down
        (
            "I live in Arbroath with my wife Moira (she kept her family name) and our son Ewan.",
            "Rule from the skipper: no photos, no posts about a rescue, not even to family.",
        ),
    ],
)
def test_lines_that_look_like_withdrawals_but_end_nothing(older: str, newer: str) -> None:
    assert not any(replaces(n, o) for n in lasting_parts(newer) for o in lasting_parts(older))


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # "running it" and "runs it": one arrangement told twice
        (
            "Gwen Price: head of rota; runs the 07:00 call at the depot office.",
            "07:00 call at the depot office by the yard gate, Gwen Price (head of rota) running "
            "it as ever.",
        ),
        # a bare correction and the fuller line that carries it
        (
            "Correction: Okonkwo, not Okonko.",
            "Chidi Okonkwo: coach at the Riverside Athletics Club (correction: Okonkwo, not "
            "Okonko).",
        ),
    ],
)
def test_the_same_fact_told_fuller_is_not_a_second_one(older: str, newer: str) -> None:
    assert any(
        relation(n, o) in ("same", "replaces")
        for n in statements_of(newer)
        for o in statements_of(older)
    )


@pytest.mark.parametrize(
    ("older", "newer", "ends"),
    [
        # a supplier that took over from another ends the one it took over from
        (
            "Drukarnia Lis prints the festival posters: 200 copies for 900 PLN.",
            "Kowalski Print has taken over from Drukarnia Lis for the festival and after.",
            True,
        ),
        (
            "Drukarnia Lis prints the festival posters: 200 copies for 900 PLN.",
            "Kowalski Print replaced Drukarnia Lis for the festival posters.",
            True,
        ),
        # a person taking over a desk ends nothing else the person before does
        (
            "Ola Nowak: our dentist in Kraków, check-ups in March.",
            "Marta took over from Ola at the front desk.",
            False,
        ),
    ],
)
def test_taking_over_from_someone_ends_what_they_did(older: str, newer: str, ends: bool) -> None:
    found = any(replaces(n, o) for n in lasting_parts(newer) for o in lasting_parts(older))
    assert found is ends


@pytest.mark.parametrize(
    ("older", "newer", "ends"),
    [
        # a successor named takes over what the predecessor is, whatever the role's word
        (
            "- W @Matthias Krüger: Hüttenwart of the Alpenverein hut on the Zugspitze.",
            "- W @Lena Vogt: named as Matthias's successor from 1 May.",
            True,
        ),
        (
            "Caoimhe Walsh is the parish sacristan.",
            "Father Dunne says Aoife Byrne succeeds Caoimhe from Easter.",
            True,
        ),
        # a role the newer names passes on alone
        (
            "Maja is the choir's librarian this year: scores, the cupboard, the loans book.",
            "- W @Ingrid Lie: the choir's librarian from 2 May, taking over from Maja.",
            True,
        ),
        (
            "- W @Maja Berg: harbour pilot at Fedje.",
            "- W @Ingrid Lie: the choir's librarian from 2 May, taking over from Maja.",
            False,
        ),
        # ... not what the predecessor likes or does on a day
        (
            "- W @Matthias Krüger: likes the early ferry.",
            "- W @Lena Vogt: Matthias's successor.",
            False,
        ),
        (
            "- W @Matthias Krüger: opens the hut on 1 June.",
            "- W @Lena Vogt: Matthias's successor from 1 May.",
            False,
        ),
    ],
)
def test_a_named_successor_takes_over_what_the_predecessor_is(
    older: str, newer: str, ends: bool
) -> None:
    assert replaces(read_statement(newer), read_statement(older)) is ends


@pytest.mark.parametrize(
    ("older", "newer", "ends"),
    [
        (
            "- W @Grzegorz Wilczek: treasurer of the allotment society.",
            "Wilczak. With an a. The notes have had it wrong since spring.",
            True,
        ),
        (
            "Ilona Szabados: our accountant in Szeged.",
            "It's Szabadosi, it's been wrong in the contacts for months.",
            True,
        ),
        # a line that says what they did keeps its fact; another name is someone else
        (
            "- W @Grzegorz Wilczek: brought the seed potatoes on Saturday.",
            "Wilczak. With an a. The notes have had it wrong since spring.",
            False,
        ),
        (
            "Ilona Szabados: our accountant in Szeged.",
            "It's Horváth, it's been wrong in the contacts for months.",
            False,
        ),
    ],
)
def test_a_name_spelled_again_as_a_correction_replaces_who_they_are(
    older: str, newer: str, ends: bool
) -> None:
    assert replaces(read_statement(newer), read_statement(older)) is ends


def test_a_place_named_with_a_common_noun_is_not_the_slot() -> None:
    """ "Sala Gimnastyczna" or "Fana kulturhus": the place's trailing word is no topic."""
    older = read_statement(
        "- W @Zosia: Choir rehearses Wednesdays 17:00–18:30 at Szkoła Podstawowa; fee 120 zł."
    )
    newer = read_statement(
        "- W @Zosia: rehearsals move to Thursdays 17:30 at Dom kultury from 4 March."
    )
    assert replaces(newer, older)
    piano = read_statement("- W Mia piano on Tuesdays")
    assert not replaces(read_statement("- W Mia swimming moved to Thursdays"), piano)


def test_a_cancellation_beside_a_lasting_sentence_still_ends_the_plan() -> None:
    """The sentence that only ends something is read with the line's lasting ones."""
    plan = lasting_parts("- W Lake Bled weekend 9–11 May, Vila Triglav, €200 deposit.")
    line = (
        "Sorted at dinner: the Lake Bled weekend is cancelled. Anja flies to Split on Friday "
        "9 May to help her father move house, and stays until the 14th."
    )
    told = lasting_parts(line)
    assert any(s.change == "cancelled" for s in told)
    assert any(replaces(n, o) for n in told for o in plan)


def test_dropping_a_name_of_several_words_ends_only_that_name() -> None:
    """A dropped "Lund Trä" is the timber yard, not what happens at Lund Konserthus."""
    drop = lasting_parts(
        "Decided: larch from Skog & Såg in Vittsjö, 640 kr a metre; Lund Trä dropped."
    )
    rehearsals = lasting_parts("Rehearsals move to Wednesdays 19:00 at Lund Konserthus from 3 May.")
    assert not any(replaces(n, o) for n in drop for o in rehearsals)
    # a sentence's opening word is no part of the name after it
    trip = lasting_parts("Christmas in Lund at Britt and Olle's, 24–27 December.")
    assert any(replaces(n, o) for n in lasting_parts("The Lund trip is off.") for o in trip)
    # a name said in full where the older gives it only as its subject still counts
    captain = statements_of(
        "Ferenc Tóth: captain of the rowing club; says he'll stand down at the AGM on 9 March."
    )
    stood = lasting_parts(
        "Rowing club AGM: 40 members there. Ferenc Tóth stood down after 12 years and was made "
        "honorary captain; a long speech."
    )
    assert any(replaces(n, o) for n in stood for o in captain)
    # ... and a drop is no repeat of the line that named the supplier
    supplier = lasting_parts("Larch from Lund Trä, 590 kr a metre.")
    assert any(replaces(n, o) for n in lasting_parts("Lund Trä dropped.") for o in supplier)


@pytest.mark.parametrize(
    ("newer", "older", "expected"),
    [
        ("Tomás Ruiz: captain now Raúl Gil", "Tomás Ruiz: captain Iker Sanz", "replaces"),
        (
            "Brass band: the conductor is now Inés Moll",
            "Brass band: conductor Pau Roca",
            "replaces",
        ),
        # the same holder said again, and another role: no change of hands
        ("Tomás Ruiz: captain is now Iker Sanz", "Tomás Ruiz: captain Iker Sanz", "same"),
        ("Tomás Ruiz: keeper now Raúl Gil", "Tomás Ruiz: captain Iker Sanz", None),
    ],
)
def test_a_role_under_a_heading_changes_hands(newer: str, older: str, expected: str) -> None:
    """Under one heading (whose team or band it is), a role that now names someone else is
    the role changing hands; the same holder again, or another role, is not."""
    assert relation(read_statement(newer), read_statement(older)) == expected


@pytest.mark.parametrize(
    ("older", "expected"),
    [
        ("The Roskilde rowing club will rent the Kaj 4 boathouse from March.", "replaces"),
        ("Decided: the Roskilde rowing club rents the Kaj 4 boathouse.", "replaces"),
        # the club's other facts and plans stand: it is the one calling off, not what is off
        ("Roskilde rowing club: training moves to Tuesdays 18:00 from 3 March.", None),
        ("Correction: the Roskilde rowing club has 64 members, not 46.", None),
    ],
)
def test_who_calls_something_off_keeps_its_other_plans(older: str, expected: str | None) -> None:
    """ "The club is not renting the boathouse after all" ends the boathouse plan, not every
    line with a plan or a correction about the club."""
    newer = read_statement(
        "The Roskilde rowing club is not renting the Kaj 4 boathouse after all (the lease)."
    )
    assert relation(newer, read_statement(older)) == expected


def test_a_counted_thing_is_not_a_role_of_the_same_word() -> None:
    """ "… it buys 40 chairs for hire instead" says nothing of who chairs the council."""
    older = statements_of("Rahel Tesfaye: chairs Sankt Jørgen Forældreråd.")
    newer = statements_of(
        "Sankt Jørgen Forældreråd is not buying the laptops after all; it buys 40 chairs for "
        "hire from Møbelhuset instead, about 9,000 kr."
    )
    assert [relation(n, older[0]) for n in newer] == [None, None]


def test_a_bare_no_longer_ends_no_line_that_only_names_the_same_person() -> None:
    """ "Nana no longer does." (the rota, said in the clause before) has no slot of its own: it
    does not end the person's own "I'm Nana Asante, 52." though both are about Nana."""
    me = as_speaker(statements_of("I'm Nana Asante, 52."), ("nana", "asante"))
    newer = statements_of("Choir: from today Efua Mensah keeps the rota; Nana no longer does.")
    assert [relation(n, m) for n in newer for m in me] == [None, None]


def test_a_line_about_someone_is_not_about_what_their_bare_introduction_gives() -> None:
    """ "I'm Akosua Frimpong, 44." gives a name and an age; a swap of her shifts, with a day
    that is called off, is about her shifts: it ends nothing of the introduction."""
    me = as_speaker(statements_of("I'm Akosua Frimpong, 44."), ("akosua", "frimpong"))
    swap = statements_of(
        "One-off swap: Akosua works Saturday 14 March for Esi and is off Monday 16 March instead."
    )
    assert [relation(n, m) for n in swap for m in me] == [None]


def test_turning_down_what_an_older_line_already_denies_agrees_with_it() -> None:
    """ "… covering the clinic instead of going to Tamale" says no to Tamale, as "Kwabena isn't
    at the Tamale workshop" did: it agrees, and replaces nothing."""
    older = read_statement(
        "The first day of the Tamale workshop, which Kwabena isn't at. The clinic was busy."
    )
    newer = read_statement(
        "The team thanked Kwabena for covering the clinic instead of going to Tamale."
    )
    assert relation(newer, older) is None


@pytest.mark.parametrize(
    ("older", "expected"),
    [
        ("- W @Kwesi Ampofa: treasurer of the Adum Susu.", "replaces"),
        # the line already spelled right, and a line of what he does, stay
        ("- W @Kwesi Ampofo: treasurer of the Adum Susu.", None),
        ("- W Kwesi Ampofa collects the contributions on Fridays at 17:00.", None),
    ],
)
def test_a_spelling_put_right_in_chat_names_the_right_one(older: str, expected: str) -> None:
    """The correction names both spellings ("it's Ampofo … you have been writing Ampofa"):
    what it is about is the right one, so only the line with the old spelling ends."""
    correction = read_statement(
        "Also it's Ampofo. Kwesi Ampofo, with an o at the end. You have been writing Ampofa "
        "all week."
    )
    assert [relation(correction, o) for o in lasting_parts(older)] == [expected]


def test_a_bare_clause_is_no_slot_for_a_long_line_sharing_its_one_word() -> None:
    """ "not at home." (the party is in a hall) is not changed by a long mail about the rota
    whose one shared word is "home"."""
    older = statements_of(
        "Reversed: Kofi's naming ceremony is at the Adum community hall, 9 May from 13:00, "
        "hall hire 900 cedis; not at home."
    )
    newer = statements_of(
        "New rota: mail from the matron to all ward staff: from the next cycle the handover "
        "moves from Wednesday 12:00 to Thursday 08:00, so the nurse coming off doesn't drive "
        "home in the dark."
    )
    assert [relation(n, o) for n in newer for o in older] == [None, None]


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "Grandma Nakato: UGX 50,000 by mobile money on the 10th of every month.",
            "UGX 2,400,000 moved from Stanbic to the Sacco on 2 May; the Stanbic account is "
            "closing.",
        ),
        (
            "Annual meeting (one-off): Dues: raised from UGX 10,000 to UGX 15,000 a month, "
            "from May.",
            "Treasurer's report, Okello's first: balance UGX 2,310,000, plus May dues 21 × "
            "15,000 = 315,000, less the hall deposit 200,000, is UGX 2,425,000.",
        ),
    ],
)
def test_a_currency_both_count_in_is_no_slot_they_share(older: str, newer: str) -> None:
    """A transfer of the group's savings ends no monthly gift to a grandmother, and a
    treasurer's sums that use the new dues end no decision to raise them: both count in UGX,
    which is no name and no topic they share."""
    assert not any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(older))
    assert "name:ugx" not in read_statement(newer).values


def test_a_list_of_nots_after_a_no_turns_nothing_down() -> None:
    """ "No client's address goes into anything I send, not in e-mails, not in chat" stresses
    the "no"; it does not turn e-mails down, and ends no line about e-mails. A list of nots
    after a place still turns each one down."""
    rule = read_statement(
        "No client's address goes into anything you send, not in e-mails, not in chat, not in "
        "drafts."
    )
    assert rule.replaced == frozenset() and rule.change is None
    older = read_statement("Rosa's own notes. Please don't edit these e-mails.")
    assert not replaces(rule, older)
    place = read_statement("We meet at the Old Mill, not at the station, not at the Anchor.")
    assert {"name:anchor", "station"} <= place.replaced


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Late cancellations fell from 12 % to 5 % after the texts.", ["num:12", "num:5"]),
        ("Occupancy is up from 8 % this spring.", ["num:8"]),
        ("Calls only after 4 pm, never from 9 on a Sunday.", ["time:16:00", "time:09:00"]),
    ],
)
def test_a_percentage_after_from_is_no_hour(text: str, tokens: list[str]) -> None:
    assert [v.token for v in values_of(text) if not v.token.startswith("day:")] == tokens


def test_moved_from_a_place_without_a_to_ends_where_she_lived() -> None:
    """ "(moved from Vika on 2 March)" turns Vika down though no "to" follows it: the line
    about her living at Vika is replaced; "moved from Leeds to York" still turns down Leeds
    only."""
    older = "Granny Elna: 84, lives on her own in the farmhouse at Vika."
    newer = "Granny Elna: lives in Åndalsnes now, in a flat over the chemist (moved from Vika on 2 March)."
    assert any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(older))
    assert read_statement("The office moved from Leeds to York in May.").replaced == {"name:leeds"}


def test_the_one_who_assisted_taking_the_role_ends_the_old_holders_line() -> None:
    """ "Marit is head of the U-12 at Nordstrand IL from 1 March; Jens assists" after "Ola Berg:
    head of the U-12 at Nordstrand IL; Marit assists": the role passed to the one who
    assisted."""
    older = "Ola Berg: head of the U-12 at Nordstrand IL; Marit assists."
    newer = "Marit is head of the U-12 at Nordstrand IL from 1 March; Jens assists."
    assert any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(older))


def test_one_word_shared_across_two_headings_is_no_slot() -> None:
    """A calendar line about training ends no course at a training centre."""
    older = "Ane's first-aid refresher: 4–6 May at the training centre in Bodø; expires 31 May."
    newer = "Calendar: U-12 training Mondays and Wednesdays 17:30 from 2 April."
    assert not any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(older))


@pytest.mark.parametrize(
    "newer",
    [
        "The Albin Vega is not for sale after all: Siri buys a third of her for 2,000 EUR.",
        "Albin Vega listing taken down on Sunday; she stays with us.",
    ],
)
def test_a_boat_not_for_sale_after_all_ends_the_decision_to_sell(newer: str) -> None:
    older = "Jon has decided to sell the Albin Vega, the 27 ft sloop on the pontoon at Hovik."
    assert any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(older))


def test_one_new_arrangement_told_twice_in_other_words_is_one_fact() -> None:
    """Both lines give the new day and date and both turn Friday down, one with "not", one
    with "no more" in brackets; the second names no one: the same arrangement."""
    first = (
        "Pick-up: new arrangement: Ines and Paulo agreed it today: from Tuesday 3 March the "
        "kids switch homes on Tuesday after school, not on Friday evening."
    )
    second = (
        "From Tuesday 3 March the kids switch homes on Tuesdays after school: whoever's week "
        "begins picks them up at school (no more Friday 18:00 pick-up)."
    )
    pairs = [(n, o) for n in lasting_parts(second) for o in lasting_parts(first)]
    assert any(relation(n, o) == "same" for n, o in pairs)


@pytest.mark.parametrize(
    ("older", "newer", "replaced"),
    [
        (
            "Maya Berg: 11, year 6 at Lindholm School; swimming squad at Aqua Centre, training "
            "Tuesdays 17:00.",
            "U-12 football training moves to Thursdays at 18:00 from 3 May.",
            False,
        ),
        (
            "Erik Nyberg: coach of the U-12. Training Mondays 18:00.",
            "U-12 training moves to Thursdays at 18:00 from 3 May.",
            True,
        ),
        (
            "Never read a card PIN out to anyone; the bank never asks for it by phone.",
            "Change that PIN today, now that it's been said on a call, and ask the bank to "
            "block the card.",
            False,
        ),
    ],
)
def test_one_word_shared_by_lines_that_name_other_things_is_no_slot(
    older: str, newer: str, replaced: bool
) -> None:
    """The U-12's training moving ends no swimming training of a child's, only the training a
    line of the U-12's coach gives; "now that" is no "now"."""
    found = any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(older))
    assert found is replaced


def test_a_slip_told_in_the_past_replaces_nothing_it_names() -> None:
    """ "I posted it to the Berg family group instead of the Lindholm Choir group" tells a
    slip: the choir's line stands. A decision said with "instead of" still replaces."""
    older = read_statement("- W Lindholm Choir subs: 300 NOK a term, paid by the 10th.")
    slip = read_statement(
        "Kari asked me at 14:20 to post the subs list (who owes the choir what) for members to "
        "check. I posted it to the Berg family group instead of the Lindholm Choir group. "
        "Deleted after four minutes."
    )
    assert relation(slip, older) is None
    assert replaces(
        read_statement("From May the rota goes out on Saturdays instead of Sundays."),
        read_statement("The rota goes out on Sundays."),
    )


def test_a_raise_from_one_sum_ends_no_other_fee_of_that_sum() -> None:
    """ "Dues raised from UGX 20,000 to UGX 25,000" ends the old dues, not a credit union's
    joining fee that happens to be UGX 20,000 too."""
    newer = (
        "Annual meeting (one-off): Dues: raised from UGX 20,000 to UGX 25,000 a month, from May."
    )
    fee = "Kampala Teachers' SACCO group account: certificate, minutes and three IDs; joining fee UGX 20,000."
    dues = "Nakawa Women's Group dues: UGX 20,000 a month, paid into Centenary Bank."
    assert not any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(fee))
    assert any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(dues))


def test_no_longer_of_something_else_ends_no_line_that_shares_names() -> None:
    """ "The crew meets at the new base in Puerto Madryn (no longer the containers at the
    gate)" says the containers are gone, not that a line naming Puerto Madryn and the wind
    farm is; "Southern Vet Labs no longer used" still ends the line about sending bloods
    there."""
    who = read_statement(
        "- W @Ines Duarte: senior technician at Parque Eólico Serra Alta (31 turbines), 20 km "
        "north of Vila Real."
    )
    base = read_statement(
        "- W Serra Alta crew meets at the new depot in the Parque Industrial, Vila Real; the "
        "van leaves at 07:15 (no longer the site huts at 07:45)."
    )
    assert relation(base, who) is None
    assert replaces(
        read_statement("Southern Vet Labs no longer used."),
        read_statement("Bloods go to Southern Vet Labs in Cork."),
    )


def test_a_no_told_as_a_reason_ends_no_plan() -> None:
    """ "Told the squad why Ilse won't race" reports a reason; the story of her fall and what
    she will do instead stands. "Ilse is not racing on Sunday after all" still calls a plan
    off."""
    story = read_statement(
        "At 09:40 Ilse fell on the ice and hurt her knee; the club rang Per, who drove her to "
        "A&E and waited three hours. A sprain: splint for ten days, no skating for two weeks. "
        "So no Vikersund race for Ilse on the 14th; she will help at the start line."
    )
    report = read_statement(
        "17:00, 14 skaters. Told the squad why Ilse won't race; Ilse came to watch with the "
        "splint, Per with her."
    )
    assert relation(report, story) is None
    assert replaces(
        read_statement("Ilse is not racing on Sunday after all."),
        read_statement("Ilse decided to race the 500 m on Sunday."),
    )


def test_a_turn_or_an_agenda_ends_only_what_it_speaks_of() -> None:
    """ "Not buying the allotment after all; it buys 40 chairs for hire" turns the allotment,
    not a line saying who chairs the group; a meeting's agenda in brackets names a treasurer
    without giving anyone the role."""
    chair = read_statement("- W @Amina Yusuf: chairs Umoja Savers.")
    turn = read_statement(
        "- B Umoja Savers is not buying the Kibera allotment after all (caveat); it buys 40 "
        "chairs for hire from Jua Kali Works instead, about KSh 90,000."
    )
    assert relation(turn, chair) is None
    assert replaces(turn, read_statement("Decided: Umoja Savers buys the Kibera allotment."))
    treasurer = read_statement("- W @Halima Noor: treasurer of Umoja Savers.")
    agenda = read_statement(
        "- W Special Umoja Savers meeting, one-off: Saturday 5 July 14:00 at Amina's (allotment, "
        "treasurer, meeting day, bank)."
    )
    assert relation(agenda, treasurer) is None


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "Volunteer rotas are written in Welsh; Gwen checks them herself.",
            "My slip, again: the rule from today, for everything I write — rotas for volunteers, "
            "supplier orders, notes, shopping lists: a client is named by their file number "
            "(e.g. CF-118) and nothing else.",
        ),
        (
            "Auckland is eleven hours ahead of Cardiff; any time from New Zealand is written "
            "with both (e.g. 09:00 Cardiff / 20:00 Auckland).",
            "Third time this month I've done that, one way or another (the web booking on the "
            "4th, the rota swap on the 9th, the delivery slot on the 18th — and now the van).",
        ),
    ],
)
def test_two_words_in_passing_in_a_long_line_are_no_slot(older: str, newer: str) -> None:
    """A long new rule that names rotas and volunteers in passing ends no rule about writing
    the rotas in Welsh; a story of a slip that counts its times ends no time-zone rule."""
    assert not any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(older))


@pytest.mark.parametrize(
    "newer",
    [
        "B Grandad moved into Bryn Haven on Friday 9 May: room 6, ground floor.",
        "B Grandad moved in with Auntie Sian in Llandeilo last week.",
    ],
)
def test_someone_who_moved_no_longer_lives_where_they_did(newer: str) -> None:
    """A move into a home, or in with someone, ends the line that says where they live; a
    move of someone else ends nothing of theirs."""
    older = read_statement(
        "W @Grandad: Grandad (Emrys Pugh, 88) lives on his own in his bungalow in Ffairfach."
    )
    assert any(replaces(n, older) for n in lasting_parts(newer))
    assert not replaces(
        read_statement("Bethan moved into the new office on Monday."),
        read_statement("Rhys lives in Cardiff."),
    )


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        (
            "Squash: my partner is Gemma Hurst.",
            "W @Priya: Priya Shah is Rhian's squash partner now, for the winter league; she "
            "takes the backhand side.",
        ),
        (
            "Her care coordinator (named nurse) on days is Bronwen — fifties, from Bala, very "
            "calm.",
            "W @Owain: Owain Lloyd is Mam's care coordinator at Plas Gwyn (days) from 3 March; "
            "review with Rhian on Friday 14 March at 11:00.",
        ),
    ],
)
def test_someone_else_in_a_role_said_after_is_takes_it(older: str, newer: str) -> None:
    """ "My partner is Gemma" and "her care coordinator on days is Bronwen" name the holder
    after "is": a newer line giving the role to someone else now ends them; the older's
    description of the holder need not be said again."""
    assert any(replaces(n, o) for n in lasting_parts(newer) for o in statements_of(older))


def test_an_old_date_in_brackets_turns_down_that_date_not_its_month_or_aside() -> None:
    """ "(was Wednesday 14 March, a Fedje week)" turns the 14th down: a line about the fee from
    1 March, or a meeting on a Fedje Tuesday, is not replaced; the old meeting date is."""
    moved = read_statement(
        "- W Seilforeningen AGM moved to Tuesday 20 March 19:00, Vika boathouse (was Wednesday 14 "
        "March, a Fedje week)."
    )
    assert moved.replaced == {"day:wed", "date:03-14", "month:03"}
    fee = read_statement(
        "- W Sailing club fee rises to 1,450 kr a year from 1 March (was 1,200 kr)."
    )
    parents = read_statement(
        "- B Parents' meeting Tue 30 Jan 19:00: Arild goes (Solveig on Fedje)."
    )
    old = read_statement("- AGM: Wednesday 14 March, 19:00, Vika boathouse")
    assert relation(moved, fee) is None and relation(moved, parents) is None
    assert replaces(moved, old)
    assert read_statement("Fee is £46 now (were £15, then £40).").replaced == {"num:15", "num:40"}


def test_a_relative_by_kin_word_and_by_name_is_one_when_the_date_moves() -> None:
    """ "Mum's knee operation … Thursday 5 June" and "@Aileen Rowe: knee operation moved to
    Monday 12 May (was 5 June)" speak of one person: the date it turns down is hers. Another
    person's line in the kin word with nothing turned down stands."""
    older = read_statement("Mum's knee operation at Raigmore is set for Thursday 5 June.")
    newer = read_statement(
        "W @Aileen Rowe: knee operation moved to Monday 12 May at Raigmore (was 5 June)."
    )
    assert replaces(newer, older)
    assert not replaces(
        read_statement("W @Aileen Rowe: lives in Inverness now."),
        read_statement("Dad lives in Dingwall."),
    )


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # a line that names nothing turns down a word and shares one other with someone's line
        (
            "Mum moved into Larchfield on Monday 6 May: room 22, first floor.",
            "The spare defibrillator pads must be kept with the first-aid box, not in the plant "
            "room.",
        ),
        # one dated occasion moved, beside a standing week
        (
            "Kemal works Tuesday to Saturday at the bakery.",
            "Kemal works Sunday 14 July for Dara and is off Tuesday 16 July instead.",
        ),
        (
            "Uncle Reza opens the garage at 07:30, Monday to Saturday.",
            "Reza's sisters have moved the picnic in Kashan: Sunday 10 August instead of "
            "Saturday 9 August.",
        ),
        (
            "Kemal: from Monday 3 June, off on Sundays and Mondays (new rota); works Tuesday to "
            "Saturday.",
            "Kemal's brothers have moved the picnic: Sunday 14 July instead of Monday 15 July.",
        ),
        # only the word it turns down in common
        (
            "The canteen manager keeps the 40 EUR deposit until the end of term.",
            "Noor eats lunch at her desk instead of in the canteen.",
        ),
        # a machine still stopped, a job that waits: no "no" to anything
        (
            "Hollin Farm: the milking team meets at the new parlour at 05:30 (no longer the old "
            "byre).",
            "Hollin Farm: pump 3 still stopped; the seal can't be fitted until the part arrives.",
        ),
        # a message's sender and time are not what it is about
        (
            "Gustav Lind leads the Borgå brass band.",
            "Band mail: From Gustav, 08:40, to all members: from 1 March rehearsals are on "
            "Thursday evenings at 19:00.",
        ),
        # a reversal told again, whole or in part
        (
            "Reversed: the wedding lunch is at the Old Mill, 4 June from 13:00; not at home.",
            "Lunch plans: Reversed: the wedding lunch is not at home.",
        ),
        # a reversal of someone's plan, at a place where something else meets
        (
            "Choir AGM Thursday 21 March 19:30, Tolbooth hall.",
            "Reversed: Ilse's birthday dinner is at the Tolbooth hall, 3 April from 19:00; not "
            "at home.",
        ),
        # "no more" after "dropped": the same end, said twice, alone or beside its successor
        ("Fenwick Fuels dropped.", "no more Fenwick Fuels."),
        (
            "The yard's diesel supplier from now on (Orla Quinn, Navan); Fenwick Fuels dropped.",
            "And note it: no more Fenwick Fuels. Quinn's from now on.",
        ),
        # where something was written down is not what it is about
        (
            "From now on nothing goes in your calendar before 10:00 on a bottling day.",
            "The Galway weekend (6–7 June) is cancelled in the calendar; nothing booked yet.",
        ),
    ],
)
def test_lines_about_other_things_replace_nothing(older: str, newer: str) -> None:
    assert not any(replaces(n, o) for n in statements_of(newer) for o in statements_of(older))


def test_a_day_off_is_no_cancellation_and_a_standing_change_still_replaces() -> None:
    assert read_statement("Kemal is off Tuesday 16 July.").change != "cancelled"
    assert read_statement("Kemal is off on Tuesdays now.").change != "cancelled"
    assert read_statement("The Kashan picnic is off.").change == "cancelled"
    assert read_statement("Changed: Dara goes, Kemal is off the list.").change != "cancelled"
    slips = "Third slip: the vet e-mail on the 4th, the rota note on the 9th, and now this."
    assert read_statement(slips).change is None
    older = read_statement("Kemal works Tuesday to Saturday at the bakery.")
    assert replaces(
        read_statement("Kemal works Monday to Friday at the bakery from 1 August."), older
    )
    header = read_statement("From Gustav, 08:40, to all members: rehearsals move to Thursdays.")
    assert "time:08:40" not in header.values and header.subject != "gustav"


def test_a_name_told_by_its_initials_is_told() -> None:
    """ "the RVI" is the Royal Victoria Infirmary the person's own line names in full."""
    whole = read_statement(
        "I'm Tariq Haddad, 52. Charge nurse in the emergency department at the Royal Victoria "
        "Infirmary in Newcastle."
    )
    told = read_statement("Tariq Haddad: charge nurse, emergency department at the RVI, Newcastle.")
    assert told_within(told, whole, {"tariq", "haddad"})
    other = read_statement(
        "Tariq Haddad: charge nurse, emergency department at the RBH, Newcastle."
    )
    assert not told_within(other, whole, {"tariq", "haddad"})


def test_from_a_weekday_and_its_date_is_a_change() -> None:
    """ "from Monday 9 June … by Telegram" moves the notices off the SMS the older names."""
    assert read_statement("From Tuesday 3 March the lab pickups are at 16:00.").change == "now"
    older = read_statement("Rota changes go out by SMS from Planday, a day ahead.")
    newer = lasting_parts(
        "Retain: W @Planday: from Monday 9 June rota changes go by Telegram to all staff, a day "
        "ahead; SMS only for the two without Telegram."
    )
    assert replaces(newer[0], older)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # a sentence that points back speaks of the sentence before it, not of its heading
        (
            "Office: the monthly budget review is on Wednesdays at 09:00, from 3 March.",
            'Office: Joan, at 16:20, about the cleaning rota I had drafted: "Friday the 6th, '
            "18:00? Pere doesn't do Fridays.\" Fair point. Two shifts I shouldn't have put in. "
            "Moved to Monday evening.",
        ),
        (
            "Studio: fire drill on Friday 13 March.",
            "Studio: the budget review will be on Wednesdays at 09:00 from 3 March; the Tuesday "
            "24 February one is the last at 10:00.",
        ),
    ],
)
def test_a_sentence_that_points_back_keeps_the_topic_before_it(older: str, newer: str) -> None:
    assert not any(replaces(n, o) for n in statements_of(newer) for o in statements_of(older))
    assert not any(replaces(n, o) for n in lasting_parts(newer) for o in lasting_parts(older))


def test_a_clause_with_an_attribute_of_its_own_keeps_no_borrowed_topic() -> None:
    """ "four nights on, four off" is another attribute of the subject, not the job before it;
    "Moved to Monday evening" is the change of what the sentence before it names."""
    first, second = statements_of("Lina Ortiz: ward clerk at St Mary's; four nights on, four off.")
    assert not second.topic & first.topic
    parts = statements_of("Lina Ortiz: the team huddle is on Tuesdays at 08:00. Moved to 08:30.")
    assert parts[0].topic <= parts[1].topic


def test_the_holder_told_again_is_no_handover() -> None:
    """The same person in the role, told again the same day in other words, is the same fact:
    it ends neither line."""
    older = lasting_parts(
        "Ines is head chef at the Casa Verde kitchen from 1 June; Rui Costa assists her."
    )
    newer = lasting_parts(
        "Casa Verde: The owners rang Ines at 11:00: from 1 June she's head chef in the kitchen."
    )
    assert relation(newer[0], older[0]) != "replaces"
    other = lasting_parts("Marta is head chef at the Casa Verde kitchen from 1 June.")
    assert relation(other[0], older[0]) == "replaces"


def test_a_no_in_a_bracketed_aside_is_not_the_lines_no() -> None:
    """What the aside turns down is turned down; the line itself still says yes."""
    moved = read_statement(
        "The bus leaves at 06:45 from the square (no longer the depot at 07:15)."
    )
    assert moved.polarity == 1 and "time:07:15" in moved.replaced
    assert read_statement("The bus no longer leaves from the depot.").polarity == -1
    assert read_statement("(No longer on Saturdays.)").polarity == -1


def test_a_cancellation_of_a_plans_dates_ends_it_whoever_each_line_names_first() -> None:
    older = read_statement("Ruth and Sam go to Lisbon 3–7 October for the wedding.")
    assert relation(read_statement("The Lisbon trip of 3–7 October is cancelled."), older) == (
        "replaces"
    )
    # another day of the month, or the same day with nothing else shared, ends nothing
    assert relation(read_statement("The Lisbon trip of 4–9 October is cancelled."), older) is None
    other = read_statement("Parents' evening on 3 October is cancelled.")
    assert relation(other, read_statement("Ruth's dentist on 3 October at 10:00.")) is None


def test_a_rate_that_goes_up_from_one_sum_to_another_replaces_the_old_sum() -> None:
    """ "goes up from … to …" is a change, and "R3,800" is a sum in rand, not a name."""
    assert [v.token for v in values_of("R2,950 a session")] == ["num:2950"]
    assert [v.token for v in values_of("R640 each")] == ["num:640"]
    assert [v.token for v in values_of("the r3a board")] == ["id:r3a"]
    older = read_statement("Weekend call-out rate: R2,950.")
    newer = read_statement("Thabo's weekend call-out rate goes up from R2,950 to R3,400 on 1 May.")
    assert newer.change == "moved" and replaces(newer, older)
    assert read_statement("Petrol rose to €1.92 a litre this week.").change == "moved"


def test_a_chief_interpreter_retiring_or_succeeded_ends_the_role() -> None:
    """ "retired on 4 March" gives the role up as "retired from" does; a chief interpreter is
    one person at a time, so another named in the role takes it."""
    older = lasting_parts(
        "Farida Osei: chief interpreter at the Accra Circuit Court; sets the rota on Mondays."
    )
    assert older[0].text.startswith("chief interpreter")
    gone = read_statement("- B Farida Osei retired on 2 May after 28 years at the Circuit Court.")
    assert gone.change == "cancelled" and replaces(gone, older[0])
    taken = lasting_parts("- W @Kofi Mensah: chief interpreter at the Accra Circuit Court.")
    assert replaces(taken[0], older[0])
    assert read_statement("Her father, retired, lives in Kumasi.").change is None


def test_a_decision_taken_back_in_its_own_verb_ends_it_whoever_each_line_names_first() -> None:
    older = read_statement(
        "Tonight Priya and Tom decided to sell it to her cousin Anouk, who has asked since May."
    )
    newer = read_statement(
        "- B Not selling the Vespa to Anouk after all: Tom's job moves, so he keeps riding it."
    )
    assert relation(newer, older) == "replaces"
    # a refusal of something else the two lines share nobody in
    other = read_statement("- B Not renting a van after all: the removal firm brings its own.")
    assert relation(other, older) is None


def test_a_slot_said_again_with_part_of_its_terms_confirms_the_line() -> None:
    """ "Friday 18:30 rehearsals are in everyone's calendar weekly now" confirms the line that moved
    rehearsals to Fridays at 18:30 and named the last Tuesday one: it ends none of it. Fewer
    days than the older gave is still a change."""
    older = (
        "- W @Choir: rehearsals will be on Fridays at 18:30 (to 20:00), from 3 October; the "
        "Tuesday 30 September one is the last at 19:00."
    )
    newer = "Friday 18:30 rehearsals are in everyone's calendar weekly now."
    assert relation(lasting_parts(newer)[0], lasting_parts(older)[0]) == "same"
    assert not replaces_any(lasting_parts(newer), lasting_parts(older))
    fewer = lasting_parts("Rehearsals are on Fridays at 18:30 now.")
    assert replaces_any(fewer, lasting_parts("Rehearsals are on Tuesdays and Fridays at 18:30."))


def test_an_opinion_taken_back_ends_the_view_not_a_fact_about_its_subject() -> None:
    """Taking back "Moira is careless with the float" ends that view (an O line or the prose
    that held it), not what Moira does: the week's cashing up she now runs is still true."""
    denial = lasting_parts(
        "- O(c=0.2) @Moira Quinn: careless and can't be trusted with the float — not true; "
        "three cash-ups in a row to the penny."
    )[0]
    duty = read_statement(
        "Moira Quinn is shop manager now and will do the Friday cash-up and bank the float."
    )
    view = read_statement("Moira Quinn is careless; she can't be trusted with the float.")
    assert relation(denial, duty) is None
    assert relation(denial, view) is not None  # it speaks of the view


def test_a_sum_told_again_with_more_numbers_beside_it_is_the_same_fact() -> None:
    """The rate said shortly and then with how it is claimed and paid is one fact (the name
    one gives is a word of the other's); the same sum for another thing is not."""
    short = lasting_parts("The NHS pays bank nurses its bank rate, £31 an hour.")[0]
    full = lasting_parts(
        "NHS bank rate for nurses: £31 an hour, claimed weekly through the staff app, paid in "
        "about 14 days."
    )[0]
    assert same_fact(short, full)
    assert same_fact(full, short)
    other = lasting_parts("The garage charges its storage fee, £31 an hour.")[0]
    assert not same_fact(other, full)


def test_what_we_do_is_what_the_business_does_in_the_same_words() -> None:
    """ "We quote and bill in hours" tells again what "Kestrel Joinery quotes, plans and bills
    in hours" says; two words in common are not enough."""
    business = lasting_parts("Kestrel Joinery quotes, plans and bills in hours.")[0]
    we = read_statement("We quote and bill in hours.")
    assert same_fact(we, business)
    fewer = read_statement("We bill in hours.")
    assert not same_fact(fewer, business)


def test_two_lines_turning_down_the_same_misspelling_are_one_correction() -> None:
    """ "Kowalczyk, with a cz: not Kowalczik, as I had him all spring" and the Retain line
    "Piotr Kowalczyk: the name is Kowalczyk, not Kowalczik" correct one name; a line that puts
    another name in its place is another correction."""
    prose = lasting_parts(
        "Kowalczyk, with a cz: not Kowalczik, as I have had him since April, on three invoices."
    )
    retain = lasting_parts("- W @Piotr Kowalczyk: The name is Kowalczyk, not Kowalczik.")
    assert relation(retain[0], prose[0]) == "same"
    other = lasting_parts("Correction: it's Kowalski, not Kowalczik.")
    assert relation(other[0], prose[0]) != "same"


def test_the_same_work_now_going_to_another_firm_replaces_the_old_one() -> None:
    """ "Print jobs now go to Kowloon Press" replaces "print jobs go to Harbour Litho"; a firm
    that "also" takes them, or the same firm named again, replaces nothing."""
    older = lasting_parts(
        "- W @Harbour: print jobs and posters go to Harbour Litho, contact Ken Wu."
    )
    newer = lasting_parts("Print jobs and posters now go to Kowloon Press (Amy Lau).")
    assert replaces_any(newer, older)
    also = lasting_parts("Print jobs and posters now also go to Kowloon Press (Amy Lau).")
    assert not replaces_any(also, older)
    same = lasting_parts("Print jobs and posters now go to Harbour Litho.")
    assert not replaces_any(same, older)


def test_another_code_from_a_date_replaces_the_old_code() -> None:
    """ "Drawings in ETRS89 from 1 March" replaces "the county takes drawings in RT90": a code
    given from a day is the slot's new value; without a cue, another code is another thing."""
    older = lasting_parts("The county takes planning drawings in RT90 (DWG plus a signed PDF).")
    newer = lasting_parts("- W @County: planning drawings in ETRS89 from 1 March.")
    assert replaces_any(newer, older)
    plain = lasting_parts("The county takes planning drawings in ETRS89 too.")
    assert not replaces_any(plain, older)


def test_someone_who_has_anothers_charge_now_replaces_them() -> None:
    """ "Piet has Anouk's cases now" ends "Anouk Visser handles the permits and the cases of
    the north ward"; Piet having Anouk's bike now ends nothing of what she handles."""
    older = lasting_parts("Anouk Visser handles the permits and the cases of the north ward.")
    assert replaces_any(lasting_parts("- W @Piet Bos: has Anouk's cases now."), older)
    assert not replaces_any(lasting_parts("- W @Piet Bos: has Anouk's bike now."), older)


@pytest.mark.parametrize(
    ("text", "polarity"),
    [
        ("The survey isn't due till 14 November now.", 1),
        ("The café doesn't open until 10:00 from Monday.", 1),
        ("Ana doesn't eat meat.", -1),
        ("He isn't coming to the AGM.", -1),
    ],
)
def test_a_day_put_later_with_till_is_no_no(text: str, polarity: int) -> None:
    """ "Isn't due till 14 November" gives the day it is due; "doesn't eat meat" says no."""
    assert read_statement(text).polarity == polarity


def test_someone_who_retired_no_longer_does_their_weekly_duty() -> None:
    """ "Greta Holm retired on 3 May" ends "Greta Holm: posts the swim rota on Fridays"; it
    ends nothing Greta said of someone else, nor a duty of hers with no day."""
    retired = lasting_parts("- B Greta Holm retired on 3 May after 20 years at the pool.")
    assert replaces_any(retired, lasting_parts("Greta Holm: posts the swim rota on Fridays."))
    assert not replaces_any(retired, lasting_parts("Greta Holm: lives in Borås."))


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("The skip lorry reversed over the kerb at number 9.", None),
        ("Tomek reversed into the gatepost again.", None),
        ("We reversed the decision on the van: keeping it.", "reversed"),
    ],
)
def test_a_vehicle_backing_up_is_no_reversal(text: str, change: str | None) -> None:
    """A lorry that reversed over the kerb changed no decision; a decision reversed did."""
    assert read_statement(text).change == change


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # another firm named in place of the one the older opens with
        (
            "Copyzone prints the choir's programmes and posters.",
            "Hollis Print on Lisbon Road prints the choir's programmes in place of Copyzone.",
        ),
        # a surname put right further than two letters, the correction saying it is the name
        (
            "- W @Ilse Vandermeulen: runs the bakery counter at De Korenaar.",
            "- W @Ilse Vandermolen: bakery counter at De Korenaar (her surname was misspelt"
            " before).",
        ),
        # "starting 2 March" is a start, though the aside sends the old day somewhere
        (
            "- W Choir practice: Tuesdays 19:30–21:00 in the church hall.",
            "- W Choir practice: Mondays from 19:00, starting 2 March (Tuesdays go to the youth"
            " choir).",
        ),
        # one Retain label, another number; the names of the aside say who told
        (
            "- W Harbour crane 3: rated to 40 t (survey of 2039).",
            "- W Harbour crane 3: rated to 35 t (after the new inspector's survey, Dag Lund).",
        ),
        # a plan that died, named in the older's own two words, whoever it speaks of
        (
            "- W @Rosa Mendel: Ida's sister; booking the Lofoten week for both families.",
            "The Lofoten week is dead; nobody can get the time off.",
        ),
        # a standing week moved whole: other days, other hours, another place
        (
            "- W @Noor Haddad: swimming club Wednesdays 17:00–18:00 at the Zuiderbad.",
            "- W @Noor Haddad: swimming club Mondays 16:30–17:30, Sportfondsenbad Oost, lane 4.",
        ),
        # a sale said in a chat in lower case, called off by the place's full name
        (
            "User: so we're selling the bechstein. casa miramar is paying 700 for it, pickup on"
            " the 12th",
            "- B The Bechstein stays: the sale to Hostal Casa Miramar is off; Lotte will practise"
            " on it.",
        ),
        # ... also when the older says the thing by its common noun
        (
            "Lessons are Thursday afternoons, 16:00 to 17:00, in the back room of the library.",
            "- W @Tilde Vos: violin lessons Mondays 18:30–19:30 at the music school, room 4.",
        ),
        # work one person did all of, another now does part of
        (
            "- W Harbour Café: Mirela bakes all the bread herself; Tomas washes up and opens at"
            " seven.",
            "- W @Tomas Kral: bakes the Harbour Café's rolls on his own from 3 March; Mirela"
            " keeps the cakes.",
        ),
        # an offer is a plan a cancellation can end
        (
            "The Hendriks family has offered €400 for the old dinghy.",
            "The sale to the Hendriks family is off; the dinghy stays in the shed.",
        ),
    ],
)
def test_changes_told_in_other_words_replace(older: str, newer: str) -> None:
    assert replaces_any(lasting_parts(newer), lasting_parts(older))


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        # tonight's practice called off; the week stands
        (
            "- W Choir practice: Tuesdays 19:30–21:00 in the church hall.",
            "Choir practice called off tonight: the hall's heating failed.",
        ),
        # baking at home is not the café's bread
        (
            "- W Harbour Café: Mirela bakes all the bread herself; Tomas washes up and opens at"
            " seven.",
            "- W @Tomas Kral: bakes sourdough at home on Sundays for his family.",
        ),
        # a sale called off ends the sale, not what the clause after ", and" names
        (
            "- W @Nils Berg: diabetic; the insulin pen stays in the side pocket of his school bag.",
            "- B The rowing machine stays: the sale to Hallstrom Fitness is off, and Nils will"
            " train on it.",
        ),
        # a flat battery is no plan that died
        (
            "- W @Rosa Mendel: Ida's sister; booking the Lofoten week for both families.",
            "The car battery is dead again; Rosa is taking the bus.",
        ),
        # another activity of the same someone on other days is no move
        (
            "- W @Noor Haddad: swimming club Wednesdays 17:00–18:00 at the Zuiderbad.",
            "- W @Noor Haddad: piano lesson Mondays 16:30 with Mrs Bakker.",
        ),
    ],
)
def test_what_only_looks_like_a_change_replaces_nothing(older: str, newer: str) -> None:
    assert not replaces_any(lasting_parts(newer), lasting_parts(older))


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("Repuestos on calle Quillota, Viña del Mar.", False),
        ("We fly to Mar del Plata for the week.", False),
        ("The invoice is due on 14 Mar.", True),
    ],
)
def test_a_month_word_in_a_place_name_is_no_month(text: str, month: bool) -> None:
    found = {value.token for value in values_of(text)}
    assert ("month:03" in found) is month


def test_someone_who_retired_no_longer_does_the_duties_of_their_role() -> None:
    retired = lasting_parts("- B Ines Falk retired from Brandt Chemie on 2 May after 30 years.")
    role = lasting_parts("- W @Ines Falk: head of the lab at Brandt Chemie; approves the orders.")
    home = lasting_parts("- W @Ines Falk: lives in Rostock with her sister.")
    assert [relation(retired[0], part) for part in role] == ["replaces", "replaces"]
    assert relation(retired[0], home[0]) is None
