"""Prize allocation (`projections.prizes.allocate`) on the worked examples peers publish.

Each expected figure is the source's own, not arbiter's output:

- Hort system: German Wikipedia, "Hort-System", section "Beispiel" (prizes 1000 500 350 200
  150 100; A, B on 8, C on 7.5, D, E, F on 7): A 875, B 625, C 350, D 175, E 150, F 125.
  Also its older English rendering (de.zxc.wiki/wiki/Hort-System: prizes 100 80 60 40 20 10,
  "as a rule, whole-number amounts are paid out"): A 95, B 85, C 60, D 32, E 22, F 17.
- Hort system, four players tied: Vega's manual (2016, p. 19, "Hort system"): prizes 10,000
  8,000 6,000 4,000 -> 8,500 7,500 6,500 5,500.
- Equal sharing: the "Chess Tournament Prize Split Calculator" worked example
  (superglobalcalculator.pages.dev/calculators/chess/tournament-prize/, after USCF 32 and
  FIDE): 2000 1000 500 300 200, three players tied for 2nd -> 600 each, 1st 2000, 5th 200.
- One prize per player, place prize before an equal class prize: US Chess forum thread
  "Prize example" (uschess.discourse.group/t/prize-example/13188, rule 32B4): 1st 250, 2nd 150,
  3rd 100, U2200 100; A (GM) 4, B, C (experts) 3.5, D (NM) 3, E (expert) 2.5 -> A 250,
  B and C 125 each, E the U2200 100, D nothing.
- "If you finish high overall, you usually receive the higher-paying prize and become
  ineligible for the class prize" (chessbio.com/term/class prize; SwissSys's prize report:
  "players receive highest eligible prizes").
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from pydantic import ValidationError

from decide.prizes import PrizeError
from events.prizes import PrizeTable
from projections.prizes import Award, Entrant, allocate


def table(**data: Any) -> PrizeTable:
    return PrizeTable.model_validate(data)


def places(*amounts: float) -> list[dict[str, Any]]:
    return [{"place": i, "amount": a} for i, a in enumerate(amounts, start=1)]


def field(*scores: float, **extra: dict[str, Any]) -> list[Entrant]:
    """Players A, B, C ... in rank order with these points (tie-breaks already applied)."""
    out = []
    for i, points in enumerate(scores):
        name = chr(ord("A") + i)
        out.append(Entrant(i + 1, name, i + 1, points, **extra.get(name, {})))
    return out


def paid(awards: list[Award]) -> dict[str, Decimal]:
    return {a.name: a.amount for a in awards}


def test_hort_german_wikipedia_example() -> None:
    prizes = table(sharing="hort", prize=places(1000, 500, 350, 200, 150, 100))
    awards = allocate(prizes, field(8, 8, 7.5, 7, 7, 7, 6.5))
    assert paid(awards) == {"A": 875, "B": 625, "C": 350, "D": 175, "E": 150, "F": 125}
    by_name = {a.name: a for a in awards}
    assert by_name["A"].shared_by == 2
    assert by_name["A"].places == (1, 2)
    assert by_name["C"].shared_by == 1
    assert by_name["F"].places == (4, 5, 6)


def test_hort_english_rendering_whole_units() -> None:
    prizes = table(sharing="hort", round_to=1, prize=places(100, 80, 60, 40, 20, 10))
    awards = allocate(prizes, field(8, 8, 7.5, 7, 7, 7))
    assert paid(awards) == {"A": 95, "B": 85, "C": 60, "D": 32, "E": 22, "F": 17}


def test_hort_vega_manual_four_tied() -> None:
    prizes = table(sharing="hort", prize=places(10000, 8000, 6000, 4000))
    awards = allocate(prizes, field(7, 7, 7, 7, 6))
    assert paid(awards) == {"A": 8500, "B": 7500, "C": 6500, "D": 5500}


def test_equal_sharing_three_tied_for_second() -> None:
    prizes = table(sharing="equal", prize=places(2000, 1000, 500, 300, 200))
    awards = allocate(prizes, field(6, 5, 5, 5, 4.5, 4))
    assert paid(awards) == {"A": 2000, "B": 600, "C": 600, "D": 600, "E": 200}


def test_place_prize_before_equal_class_prize_uschess_example() -> None:
    prizes = table(
        sharing="equal",
        category=[{"name": "U2200", "rating_max": 2199}],
        prize=[*places(250, 150, 100), {"category": "U2200", "place": 1, "amount": 100}],
    )
    ratings = {"A": 2600, "B": 2100, "C": 2050, "D": 2250, "E": 2000}
    entrants = field(4, 3.5, 3.5, 3, 2.5, **{k: {"rating": v} for k, v in ratings.items()})
    awards = allocate(prizes, entrants)
    assert paid(awards) == {"A": 250, "B": 125, "C": 125, "E": 100}
    assert {a.name: a.category for a in awards}["E"] == "U2200"


def test_one_prize_each_the_larger() -> None:
    """The best U2000 finishes 2nd: he takes the 2nd prize, the U2000 prize goes to the next
    U2000 player (and no sharing: the tie-break decides)."""
    prizes = table(
        sharing="none",
        category=[{"name": "U2000", "rating_max": 1999}],
        prize=[*places(500, 300), {"category": "U2000", "place": 1, "amount": 100}],
    )
    ratings = {"A": 2300, "B": 1950, "C": 2200, "D": 1800}
    awards = allocate(prizes, field(5, 4, 4, 3.5, **{k: {"rating": v} for k, v in ratings.items()}))
    assert paid(awards) == {"A": 500, "B": 300, "D": 100}


def test_a_share_smaller_than_a_category_prize_is_declined() -> None:
    """B, C, D tie for 2nd-4th: 600 + 400 + 0 pooled is 333.33 each; C, a woman whose
    tie-break gave her the 3rd prize, takes the women's 350 instead, and B and D share 500
    each (the forum thread above: "as long as no player would get a larger prize by not
    becoming part of the pool then the division is even")."""
    prizes = table(
        sharing="equal",
        category=[{"name": "Women", "sex": "f"}],
        prize=[*places(1000, 600, 400), {"category": "Women", "place": 1, "amount": 350}],
    )
    awards = allocate(prizes, field(6, 5, 5, 5, 4, C={"sex": "f"}, E={"sex": "w"}))
    assert paid(awards) == {"A": 1000, "B": 500, "C": 350, "D": 500}


def test_a_category_prize_smaller_than_a_share_is_declined() -> None:
    """D, tied with B and C for 2nd-4th, holds the U2000 300 (no place prize is left for
    him); a third of 600 + 400 is more, so he joins the pool and the U2000 prize goes on."""
    prizes = table(
        sharing="equal",
        category=[{"name": "U2000", "rating_max": 1999}],
        prize=[*places(1000, 600, 400), {"category": "U2000", "place": 1, "amount": 300}],
    )
    ratings = {"A": 2400, "B": 2300, "C": 2200, "D": 1900, "E": 1800}
    awards = allocate(
        prizes, field(6, 5, 5, 5, 4, **{k: {"rating": v} for k, v in ratings.items()})
    )
    assert paid(awards) == {
        "A": 1000, "B": Decimal("333.33"), "C": Decimal("333.33"), "D": Decimal("333.33"),
        "E": 300,
    }  # fmt: skip


def test_things_are_not_shared() -> None:
    prizes = table(
        sharing="equal",
        prize=[{"place": 1, "amount": 100, "item": "Cup"}, {"place": 2, "amount": 50}],
    )
    awards = allocate(prizes, field(5, 5, 4))
    assert [(a.name, a.amount, a.item) for a in awards] == [
        ("A", Decimal(75), "Cup"),
        ("B", Decimal(75), None),
    ]


def test_categories_by_birth_year_federation_and_age() -> None:
    prizes = table(
        sharing="none",
        category=[
            {"name": "U12", "under": 12},
            {"name": "Seniors", "born_max": 1961},
            {"name": "NOR", "federations": "nor"},
        ],
        prize=[
            {"place": 1, "amount": 100},
            {"category": "U12", "place": 1, "item": "Book"},
            {"category": "Seniors", "place": 1, "amount": 40},
            {"category": "NOR", "place": 1, "amount": 30},
        ],
    )
    people = {
        "A": {"birth_year": 2015, "federation": "NOR"},
        "B": {"birth_year": 2013, "federation": "NOR"},  # 13 on 1 January 2026: not U12
        "C": {"birth_year": 1950, "federation": "SWE"},
        "D": {"birth_year": 2014, "federation": "NOR"},  # 11 on 1 January 2026: U12
    }
    awards = allocate(prizes, field(4, 3, 2, 1, **people), year=2026)
    assert [(a.name, a.category, a.amount, a.item) for a in awards] == [
        ("A", None, Decimal(100), None),
        ("B", "NOR", Decimal(30), None),
        ("C", "Seniors", Decimal(40), None),
        ("D", "U12", Decimal(0), "Book"),
    ]
    with pytest.raises(PrizeError, match="category 'U12' counts ages"):
        allocate(prizes, field(1))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"prize": []}, "at least 1 item"),
        ({"prize": [{"place": 1}]}, "a prize needs an amount or an item"),
        ({"prize": [{"place": 1, "amount": -5}]}, "greater than 0"),
        ({"prize": [{"place": 1, "amount": 5, "category": "U10"}]}, "category 'U10'"),
        ({"prize": places(5, 4) + places(3)}, "place 1 of the whole field is listed twice"),
        ({"sharing": "halves", "prize": places(5)}, "'none', 'equal' or 'hort'"),
    ],
)
def test_bad_tables_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        PrizeTable.model_validate(data)
