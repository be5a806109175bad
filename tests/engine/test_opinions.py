"""Opinions: the confidence rule's properties, and facts matched to the opinion they bear on."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dreamd.engine.bank.facts import extract_facts
from dreamd.engine.bank.opinions import DOWN, UP, Evidence, evolve, plan_opinions

DAYS = st.sampled_from([f"2026-11-{day:02d}" for day in range(1, 15)])
EVIDENCE = st.lists(st.builds(Evidence, st.just("f"), DAYS, st.booleans()), max_size=30)
START = st.floats(0.0, 1.0)


@given(START, EVIDENCE)
def test_confidence_stays_between_zero_and_one(start: float, evidence: list[Evidence]) -> None:
    """Whatever the evidence, c stays in [0, 1]."""
    assert 0.0 <= evolve(start, evidence) <= 1.0


@given(START, EVIDENCE, DAYS)
def test_confidence_is_monotone_in_evidence(
    start: float, evidence: list[Evidence], day: str
) -> None:
    """One more supporting fact never lowers c; one more contradicting fact never raises it."""
    base = evolve(start, evidence)
    assert evolve(start, [*evidence, Evidence("x", day, True)]) >= base
    assert evolve(start, [*evidence, Evidence("x", day, False)]) <= base


@given(START, EVIDENCE, st.randoms(use_true_random=False))
def test_the_order_of_the_evidence_does_not_matter(
    start: float, evidence: list[Evidence], rng: object
) -> None:
    """Shuffled evidence (one day's facts in any order, days in any order) gives the same c."""
    shuffled = list(evidence)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    assert evolve(start, shuffled) == evolve(start, evidence)


@settings(max_examples=200)
@given(START, st.lists(st.booleans(), max_size=20))
def test_one_day_moves_confidence_by_one_small_step(start: float, stances: list[bool]) -> None:
    """However many facts one day brings, c moves at most one step: UP·(1−c) or DOWN·c."""
    after = evolve(start, [Evidence("f", "2026-11-01", s) for s in stances])
    assert -DOWN * start - 1e-4 <= after - start <= UP * (1 - start) + 1e-4


def test_a_large_fall_needs_contradiction_on_distinct_days() -> None:
    """From 0.95, ten contradictions on one day reach 0.81; on three days, 0.58."""
    one_day = [Evidence(f"f{n}", "2026-11-01", False) for n in range(10)]
    three_days = [Evidence(f"f{n}", f"2026-11-0{n + 1}", False) for n in range(3)]
    assert (evolve(0.95, one_day), evolve(0.95, three_days)) == (0.8075, 0.5834)


def _facts(*notes: tuple[str, str]) -> list:  # type: ignore[type-arg]
    found = []
    for day, bullets in notes:
        found += extract_facts(f"memory/{day}.md", f"# {day}\n\n## Retain\n{bullets}\n")
    return found


def test_restated_confidences_are_one_opinion_that_rises() -> None:
    """O(c=0.95) and O(c=0.7) of one preference are one opinion; the restatement supports it."""
    facts = _facts(
        ("2025-11-27", "- O(c=0.95) @Peter: Prefers concise replies (<1500 chars) on WhatsApp."),
        ("2025-11-28", "- O(c=0.7) @Peter: Prefers concise replies."),
    )
    (opinion,) = plan_opinions(facts)
    assert opinion.as_json() == {
        "id": opinion.id,
        "statement": "Prefers concise replies (<1500 chars) on WhatsApp.",
        "entities": ["Peter"],
        "confidence": 0.955,
        "updated": "2025-11-28",
        "supporting": [facts[0].id, facts[1].id],
        "contradicting": [],
    }


def test_denials_on_distinct_days_lower_the_confidence() -> None:
    """ "No longer", "dislikes" and a confidence below 0.5 all contradict; each day one step."""
    facts = _facts(
        ("2025-11-01", "- O(c=0.9) @Peter: Prefers concise replies."),
        ("2025-11-02", "- O @Peter: No longer prefers concise replies."),
        ("2025-11-03", "- W @Peter: Peter dislikes concise replies now."),
        ("2025-11-04", "- O(c=0.2) @Peter: Prefers concise replies."),
    )
    (opinion,) = plan_opinions(facts)
    assert (opinion.confidence, len(opinion.contradicting)) == (0.5527, 3)


def test_other_subjects_and_other_statements_found_their_own_opinions() -> None:
    """Another entity, or another preference of the same one, is not evidence."""
    facts = _facts(
        ("2025-11-01", "- O(c=0.9) @Peter: Prefers tea.\n- O(c=0.8) @Ana: Prefers tea."),
        ("2025-11-02", "- O(c=0.7) @Peter: Prefers long walks on Sundays."),
    )
    assert [(o.statement, o.entities) for o in plan_opinions(facts)] == [
        ("Prefers tea.", ("Peter",)),
        ("Prefers tea.", ("Ana",)),
        ("Prefers long walks on Sundays.", ("Peter",)),
    ]


REVERSALS = [
    (
        "- O(c=0.8) @Brightwell Print: Dependable: proofs back within a day, colours spot on.",
        "- O(c=0.8) @Brightwell Print: Can't be trusted any more: the proofs took a week and "
        "the blues came out purple.",
    ),
    (
        "- O(c=0.7) @Nadim: Won't finish the rota unless somebody chases him every week.",
        "- O(c=0.85) @Nadim: Finished the rota unprompted and sorted the cover too; give him "
        "the rota for good.",
    ),
    (
        "- O(c=0.8) @Ryobi drill: One charge lasts a whole day of decking.",
        "- O(c=0.8) @Ryobi drill: One charge won't last a day of decking; two packs now.",
    ),
]


def test_a_reversed_view_of_one_thing_lowers_the_old_and_stands_on_its_own() -> None:
    """A later opinion of the same entity that turns the other way, in other words, contradicts
    the earlier one and is listed as a view of its own. (One that shares no word with it and
    only announces a turn cannot be told from another view of the same entity: "no longer
    likes the dashboard theme" does not bear on "prefers written summaries".)"""
    for old, new in REVERSALS:
        facts = _facts(("2025-11-01", old), ("2025-11-09", new))
        opinions = plan_opinions(facts)
        first = next(o for o in opinions if o.founder.id == facts[0].id)
        assert first.confidence < first.start, (old, new)
        assert any(o.founder.id == facts[1].id for o in opinions), (old, new)


def test_two_views_of_one_entity_about_other_things_stay_apart() -> None:
    facts = _facts(
        ("2025-11-01", "- O(c=0.8) @Nadim: Great with the volunteers on a Saturday."),
        ("2025-11-09", "- O(c=0.8) @Nadim: Doesn't answer e-mails before noon."),
    )
    first = next(o for o in plan_opinions(facts) if o.founder.id == facts[0].id)
    assert first.confidence == first.start


def test_too_much_of_something_is_a_view_against_it_and_its_reversal_lowers_it() -> None:
    """'Too slow to trust with the rota' is a view against; 'can run the rota on his own now'
    turns it."""
    facts = _facts(
        ("2025-11-01", "- O(c=0.7) @Nadim: Too slow on the rota to leave him alone with it."),
        ("2025-11-09", "- O(c=0.85) @Nadim: Can run the rota on his own now."),
    )
    first = next(o for o in plan_opinions(facts) if o.founder.id == facts[0].id)
    assert first.confidence < first.start


def test_a_comparison_turned_round_is_a_reversal() -> None:
    """'Slower than the old form' and, later, 'faster than the old form' of one thing."""
    facts = _facts(
        ("2025-11-01", "- O(c=0.75) @Intake form: The new intake form is slower than the old one."),
        ("2025-11-09", "- O(c=0.8) @Intake form: The new intake form is faster than the old one."),
    )
    opinions = plan_opinions(facts)
    first = next(o for o in opinions if o.founder.id == facts[0].id)
    assert first.confidence < first.start
    assert any(o.founder.id == facts[1].id for o in opinions)


def test_a_judgement_in_one_word_turned_round_is_a_reversal() -> None:
    """'Overkill for four of us' is a view against the app; 'far better than the paper rota'
    later turns it: the old view falls and the new one stands."""
    facts = _facts(
        (
            "2025-11-01",
            "- O(c=0.7) @Trello: Overkill for four of us; the paper rota on the fridge works.",
        ),
        (
            "2025-11-12",
            "- O(c=0.85) @Trello: Far better than the paper rota on the fridge; nobody misses "
            "a turn now.",
        ),
    )
    opinions = plan_opinions(facts)
    first = next(o for o in opinions if o.founder.id == facts[0].id)
    assert first.confidence < first.start
    assert any(o.founder.id == facts[1].id for o in opinions)


def test_a_harm_said_of_the_old_choice_lowers_the_view_that_liked_it() -> None:
    """'Vinyl flooring in the bathroom is fine' and later 'vinyl flooring traps the moisture;
    tiles only in the bathroom'."""
    facts = _facts(
        ("2025-11-01", "- O(c=0.6) @Flat: Vinyl flooring in the bathroom is fine, and quick."),
        (
            "2025-11-15",
            "- O(c=0.85) @Flat: Tiles only in the bathroom; vinyl flooring traps the moisture.",
        ),
    )
    first = next(o for o in plan_opinions(facts) if o.founder.id == facts[0].id)
    assert first.confidence < first.start


def test_a_reversal_that_also_names_someone_else_still_turns_the_view() -> None:
    facts = _facts(
        ("2025-11-01", "- O(c=0.7) @Nadim: Too slow on the rota to leave him alone with it."),
        ("2025-11-09", "- O(c=0.85) @Nadim: Runs the rota on his own now; @Ewa agrees."),
    )
    first = next(o for o in plan_opinions(facts) if o.founder.id == facts[0].id)
    assert first.confidence < first.start


def test_a_choice_between_two_things_is_read_whole() -> None:
    """ "Kneeling chair, not the standing desk" takes the same side as "won't get on with the
    standing desk; keep him on the kneeling chair"; "prefers the standing desk now; the kneeling
    chair is out" takes the other, falls on the old view and founds its own; a plain line that
    never touched the chair supports the new one."""
    facts = _facts(
        (
            "2026-03-02",
            "- O(c=0.8) @Jonas: Won't get on with the standing desk; keep him on the kneeling "
            "chair.",
        ),
        (
            "2026-03-05",
            "- O(c=0.85) @Jonas: Kneeling chair, not the standing desk — he gave up after an hour.",
        ),
        (
            "2026-03-26",
            "- O(c=0.9) @Jonas: Prefers the standing desk now; the kneeling chair is out of his "
            "office.",
        ),
        ("2026-03-30", "- W @Jonas: On the standing desk, never touched the kneeling chair."),
    )
    found = {o.statement.split(";")[0].split(",")[0]: o for o in plan_opinions(facts)}
    old = found["Won't get on with the standing desk"]
    assert [f.day for f in old.supporting] == ["2026-03-02", "2026-03-05"]
    assert [f.day for f in old.contradicting] == ["2026-03-26", "2026-03-30"]
    assert old.confidence < old.start
    new = found["Prefers the standing desk now"]
    assert new.confidence > new.start
    assert [f.day for f in new.supporting] == ["2026-03-26", "2026-03-30"]


def test_a_thing_judged_again_the_other_way_in_a_word_is_a_reversal() -> None:
    """'Hype' of a service and, later, 'worth every penny' of it: two judgements of the whole
    thing that share no other word. The old view falls and the new one stands; a judgement of
    one side of someone ('great with the volunteers') is no judgement of all of them."""
    facts = _facts(
        ("2025-11-01", "- O(c=0.7) @Snowcast: overhyped; the club's own readings do the job."),
        ("2025-11-15", "- O(c=0.85) @Snowcast: worth every penny; it called the cornice."),
    )
    opinions = plan_opinions(facts)
    first = next(o for o in opinions if o.founder.id == facts[0].id)
    assert first.confidence < first.start
    assert any(o.founder.id == facts[1].id for o in opinions)
    apart = _facts(
        ("2025-11-01", "- O(c=0.8) @Nadim: Great with the volunteers on a Saturday."),
        ("2025-11-09", "- O(c=0.8) @Nadim: Rude to the delivery drivers every time."),
    )
    first = next(o for o in plan_opinions(apart) if o.founder.id == apart[0].id)
    assert first.confidence == first.start


def _held_after(bullets: list[str]) -> dict[str, float]:
    """Each opinion's statement -> its confidence, one note a day, one bullet each."""
    facts = [
        fact
        for day, bullet in enumerate(bullets, start=1)
        for fact in extract_facts(f"memory/2026-04-{day:02d}.md", f"## Retain\n{bullet}\n")
    ]
    return {o.statement: o.confidence for o in plan_opinions(facts)}


def test_a_view_that_picks_another_of_the_same_kind_lowers_the_old_pick() -> None:
    """ "Nowak's rye is better" after "Kowalski's rye is the best in town" (one entity), and
    "Dale Motors is the better garage" after "Fenwick's is the best garage for the van" (two):
    the old pick falls and the new one is a view of its own, at its start."""
    held = _held_after(
        [
            "- O(c=0.8) @Bakery: Kowalski's rye is the best in town.",
            "- O(c=0.7) @Fenwick Garage: Fenwick's is the best garage for the van.",
            "- O(c=0.75) @Bakery: Nowak's rye is better, and it keeps a week.",
            "- O(c=0.7) @Dale Motors: Dale Motors is the better garage: quicker and cheaper.",
        ]
    )
    assert held["Kowalski's rye is the best in town."] < 0.8
    assert held["Fenwick's is the best garage for the van."] < 0.7
    assert held["Nowak's rye is better, and it keeps a week."] == 0.75
    assert held["Dale Motors is the better garage: quicker and cheaper."] == 0.7


def test_a_view_that_picks_the_same_one_or_names_the_old_leaves_it() -> None:
    """The same rye praised again, a newer pick that names the old one beside it, and a pick
    of another kind of thing lower nothing."""
    held = _held_after(
        [
            "- O(c=0.8) @Bakery: Kowalski's rye is the best in town.",
            "- O(c=0.7) @Bakery: Kowalski's rye is better toasted.",
            "- O(c=0.7) @Bakery: Nowak's rye is the best for toast; Kowalski's rye for sandwiches.",
            "- O(c=0.7) @Dale Motors: Dale Motors' tyres are the better buy.",
        ]
    )
    assert held["Kowalski's rye is the best in town."] >= 0.8


def test_a_place_said_to_be_no_place_for_something_and_later_the_best_for_it() -> None:
    """'No place to buy decent chisels' and, later, 'the best chisel counter in town': the
    first is a view against, and the second turns it round."""
    held = _held_after(
        [
            "- O(c=0.6) @Kessler Tools: a garden centre with a rack of screwdrivers; no place to"
            " buy decent chisels.",
            "- O(c=0.9) @Kessler Tools: the best chisel counter in town; Japanese steel in every"
            " width.",
        ]
    )
    old = next(c for statement, c in held.items() if "no place" in statement)
    assert old < 0.6
