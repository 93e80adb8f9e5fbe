"""The imported rating lists as a registration consults them: which list of a kind is in
force (its date) and a player's row on it.

A decider is given a `Lists` (a required argument, never a default): the service gives the
store's lists (`pipelines.commands.lists.StoreLists`), a test or a door with no lists
`Lists.none()`, an explicit empty value. `LIST_SOURCES` says which registration field is read
from which list, and what a row fills in.
"""

from __future__ import annotations

import abc
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from events import validate
from events.domain import Game
from events.go import Rank

if TYPE_CHECKING:
    from events.imported_lists import ListedPlayer

__all__ = [
    "LIST_SOURCES",
    "NOT_ON_LIST",
    "ListSource",
    "Lists",
    "aga_fields",
    "egd_fields",
    "fide_fields",
]


class Lists(abc.ABC):
    """The imported lists in force: the date of a list, a player's row on it."""

    @abc.abstractmethod
    def in_force(self, name: str) -> dt.date | None:
        """The date of the latest import of the list ``name``; None when none was imported."""

    @abc.abstractmethod
    def row(self, name: str, player_id: str) -> ListedPlayer | None:
        """Player ``player_id`` on the list ``name`` in force; None when he is not on it."""

    @staticmethod
    def none() -> Lists:
        """No list imported: a registration is taken as given."""
        return _NoLists()


class _NoLists(Lists):
    def in_force(self, name: str) -> dt.date | None:  # noqa: ARG002 (no list at all)
        return None

    def row(self, name: str, player_id: str) -> ListedPlayer | None:  # noqa: ARG002
        return None


@dataclass(frozen=True, slots=True)
class ListSource:
    """A federation id a registration may give, and the imported list that fills it in."""

    field: str
    """The input field (`PlayerInput`): ``fide_id``, ``egd_pin``, ``aga_id``."""
    body: str
    """Who publishes the list, as the refusal says it: FIDE, the EGD, the AGA."""
    check: Callable[[str, Game], str]
    """The field's rule (`events.validate`), applied before the list is read."""
    fill: Callable[[ListedPlayer], dict[str, Any]]
    """The registration fields the player's row gives (a None value gives nothing)."""

    def list_name(self, rating_type: str | None) -> str:
        """The list read: FIDE's of the tournament's rating type (standard when it states
        none), else the body's one list."""
        from events.imported_lists import FIDE_LISTS

        if self.field == "fide_id":
            return FIDE_LISTS[rating_type or "standard"]
        return self.field.split("_")[0]


def fide_fields(row: ListedPlayer) -> dict[str, Any]:
    """A FIDE row's registration fields: name, federation, title, sex, birth year, rating."""
    return {
        "name": row.name,
        "federation": row.federation,
        "title": row.title,
        "sex": row.sex.lower() if row.sex else None,
        "birth": str(row.birth_year) if row.birth_year else None,
        "rating": int(row.rating) if row.rating is not None else None,
    }


def egd_fields(row: ListedPlayer) -> dict[str, Any]:
    """An EGD row's: name, country (the federation), club, grade (the rank), GoR (the rating)."""
    gor = row.gor
    return {
        "name": row.name,
        "federation": row.country,
        "club": row.club,
        "rank": row.grade,
        "rating": gor if gor is not None and gor >= 0 else None,
    }


def aga_fields(row: ListedPlayer) -> dict[str, Any]:
    """An AGA row's: name, club, AGA rating and the rank the AGA gives it."""
    rating = None if row.rating is None else float(row.rating)
    return {
        "name": row.name,
        "club": row.club,
        "aga_rating": rating,
        "rank": None if rating is None else str(Rank.from_aga(rating)),
    }


LIST_SOURCES: tuple[ListSource, ...] = (
    ListSource("fide_id", "FIDE", lambda v, _game: validate.fide_id(v), fide_fields),
    ListSource("egd_pin", "the EGD", validate.egd_pin, egd_fields),
    ListSource("aga_id", "the AGA", validate.aga_id, aga_fields),
)
"""The ids a registration is completed from (`decide.players.completed`), in the order their
lists count: a field the first list gives is not taken from the next."""

NOT_ON_LIST = "not_on_list"
"""The flag that registers a player whose id is on no imported list (new to FIDE, the EGD or
the AGA): ``--not-on-list`` on the command line, ``not_on_list`` at the API, the form and
`player import`."""
