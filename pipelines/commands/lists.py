"""The store's imported rating lists as the deciders consult them (`decide.lists.Lists`):
each question one indexed read, made only when a registration gives an id of that kind."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from decide.lists import Lists
from events.store import Store

if TYPE_CHECKING:
    from events.imported_lists import ListedPlayer

__all__ = ["StoreLists"]


class StoreLists(Lists):
    """The lists imported in ``store`` (`arbiter ratings import`), the latest of each name."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def in_force(self, name: str) -> dt.date | None:
        from events.imported_lists import latest_list_import  # polars: only when an id is given

        found = latest_list_import(self._store, name)
        return None if found is None else found.list_date

    def row(self, name: str, player_id: str) -> ListedPlayer | None:
        from events.imported_lists import lookup

        return lookup(self._store, name, player_id)
