"""The imported rating lists' rows (`rating_list_rows`): a store of their own beside the log.

A list's rows are written in the transaction of the ``RatingListImported`` event that records
the list, so each backend's `ListRows` works on the connection of a writing
`events.recorders.session.Session` (``session.lists``); the log's own primitives (the
session's) never read them. `events.imported_lists` reads them through `events.log.EventLog`.
"""

from __future__ import annotations

import abc
import datetime as dt
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import polars as pl

__all__ = ["LIST_ROWS_SQL", "ListRows"]

LIST_ROWS_SQL = (
    "list_name, list_date, player_id, name, country, sex, title, birth_year, rating, games, k, "
    "flag, club, grade, expires"
)
"""The ``rating_list_rows`` table's columns (`events.columns.LIST_ROW_COLUMNS`' order)."""

ROW_QUERY = (
    f"SELECT {LIST_ROWS_SQL} FROM rating_list_rows "
    "WHERE list_name = ? AND list_date = ? AND player_id = ?"
)
DELETE_QUERY = "DELETE FROM rating_list_rows WHERE list_name = ? AND list_date = ?"


class ListRows(abc.ABC):
    """The rows of the imported rating lists, on one connection."""

    @abc.abstractmethod
    def insert(self, frame: pl.DataFrame) -> None:
        """Write rating-list rows (`events.columns.LIST_ROW_COLUMNS`, in that order)."""

    @abc.abstractmethod
    def delete(self, list_name: str, list_date: dt.date) -> None:
        """Delete the rows of one imported list (a ``--replace``)."""

    @abc.abstractmethod
    def rows(self, list_name: str, list_date: dt.date) -> pl.DataFrame:
        """The rows of one imported list (LIST_ROW_COLUMNS), by player id."""

    @abc.abstractmethod
    def row(self, list_name: str, list_date: dt.date, player_id: str) -> tuple[Any, ...] | None:
        """One player's row of an imported list (LIST_ROW_COLUMNS' order), or None."""
