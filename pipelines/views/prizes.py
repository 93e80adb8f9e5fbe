"""The prize list as the `prizes` command and the API show it: one row per player awarded."""

from __future__ import annotations

import json
from decimal import Decimal
from enum import Enum
from typing import Any

from decide.prizes import event_year
from decide.state import TournamentState
from events.prizes import PrizeTable, Sharing
from pipelines.commands.prizes import NoPrizeList
from projections import html
from projections.prizes import Award, allocate, entrants
from projections.standings import StandingRow, standings

__all__ = ["awards", "prizes_html", "prizes_title", "prizes_view", "toml_text"]


def awards(state: TournamentState, rows: list[StandingRow] | None = None) -> list[Award]:
    """Who gets what on the standings after the last paired round (``rows``, when the caller
    has them)."""
    if state.prizes is None:
        raise NoPrizeList(
            f"{state.id}: no prize list yet (arbiter prizes {state.id} set prizes.toml)"
        )
    if rows is None:
        rows = standings(state)
    return allocate(state.prizes, entrants(state, rows), event_year(state))


def _number(value: Decimal | None) -> int | float | None:
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() else float(value)


def _ordinal(n: int) -> str:
    """>>> [_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '21st']"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def prize_name(award: Award) -> str:
    """``3rd``, ``U2000 1st``; a pool member without a place of his own: ``2nd-4th shared``."""
    head = f"{award.category} " if award.category else ""
    if award.place is not None:
        return head + _ordinal(award.place)
    span = award.places
    if not span:
        return head + "shared"
    first, last = _ordinal(span[0]), _ordinal(span[-1])
    return head + (f"{first} shared" if first == last else f"{first}-{last} shared")


def prizes_view(state: TournamentState, given: list[Award]) -> list[dict[str, Any]]:
    """Rows for JSON, CSV and text: who, which prize, how much."""
    currency = state.prizes.currency if state.prizes is not None else None
    return [
        {
            "rank": a.rank,
            "player": {"id": a.player, "name": a.name},
            "points": a.points,
            "category": a.category,
            "prize": prize_name(a),
            "amount": _number(a.amount),
            "currency": currency,
            "item": a.item,
            "announced": _number(a.announced),
            "shared_by": a.shared_by,
            "places": list(a.places),
        }
        for a in given
    ]


def prizes_title(state: TournamentState) -> str:
    sharing = state.prizes.sharing if state.prizes is not None else Sharing.NONE
    how = {Sharing.NONE: "no sharing", Sharing.EQUAL: "ties share equally"}.get(
        sharing, "ties share by the Hort system"
    )
    return (
        f"{state.settings.name}: prizes after round {state.last_round} of "
        f"{state.total_rounds} ({how})"
    )


def prizes_html(state: TournamentState, given: list[Award]) -> str:
    head = ["rank", "player", "points", "prize", "amount", "item", "shared by"]
    body = [
        [
            str(a.rank), a.name, f"{a.points:g}", prize_name(a),
            f"{a.amount:f}".rstrip("0").rstrip(".") if a.amount else "",
            a.item or "", str(a.shared_by) if a.shared_by > 1 else "",
        ]
        for a in given
    ]  # fmt: skip
    return html.page(prizes_title(state), head, body, name_col=1)


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    if isinstance(value, Enum):
        return json.dumps(value.value, ensure_ascii=False)
    if isinstance(value, int | str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def toml_text(table: PrizeTable) -> str:
    r"""The prize list as ``prizes.toml`` text (the keys set, defaults left out): what the manage
    page's prize form shows, and what `parse_table` reads back to the same list.

    >>> from pipelines.commands.prizes import parse_table
    >>> text = 'sharing = "hort"\n[[prize]]\nplace = 1\namount = 1000.5\n'
    >>> print(toml_text(parse_table(text, "t")), end="")
    sharing = "hort"
    <BLANKLINE>
    [[prize]]
    place = 1
    amount = 1000.5
    >>> parse_table(toml_text(parse_table(text, "t")), "t") == parse_table(text, "t")
    True
    """
    lines: list[str] = []
    blocks: list[str] = []
    for key in PrizeTable.model_fields:
        value = getattr(table, key)
        if key in ("category", "prize"):
            for entry in value:
                set_keys = entry.model_dump(exclude_defaults=True)
                body = [f"{k} = {_toml_value(getattr(entry, k))}" for k in set_keys]
                blocks.append("\n".join([f"[[{key}]]", *body]))
        elif value is not None and value != PrizeTable.model_fields[key].default:
            lines.append(f"{key} = {_toml_value(value)}")
    return "\n\n".join(filter(None, ["\n".join(lines), *blocks])) + "\n"
