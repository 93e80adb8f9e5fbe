"""Bulk decoding of stored events into polars columns, through the event schemas.

`decode_frame` is the columnar twin of `events.schema.decode`: the column types come from the
pydantic models of `events.schema` (one description of each event), and rows stored under an
older ``schema_version`` are lifted by the same upcasters (`events.schema.UPCASTERS`) and
re-encoded before they are read, so a projection never sees an old payload shape. Rows at the
current version are decoded by polars directly: they were encoded from validated models when
they were appended, and validating them again one by one would cost ten times as much.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Union

import polars as pl
from pydantic import BaseModel

from events.schema import EVENT_TYPES, decode, encode, schema_version

__all__ = ["decode_frame", "payload_dtype"]

_SCALARS: dict[Any, pl.DataType] = {
    str: pl.Utf8(),
    int: pl.Int64(),
    float: pl.Float64(),
    bool: pl.Boolean(),
    dt.date: pl.Date(),
}


def _dtype(annotation: Any, where: str) -> pl.DataType:
    """The polars type of a pydantic field annotation."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _dtype(typing.get_args(annotation)[0], where)
    if origin in (Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(members) == 1:
            return _dtype(members[0], where)
        if set(members) <= {int, float}:
            return pl.Float64()
        raise TypeError(f"{where}: no single column type for {annotation}")
    if origin is Literal:
        return pl.Utf8()
    if origin in (tuple, list):
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        return pl.List(_dtype(args[0], where))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return pl.Struct(
            {
                name: _dtype(field.annotation, f"{where}.{name}")
                for name, field in annotation.model_fields.items()
            }
        )
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):  # a `Board`
        hints = typing.get_type_hints(annotation)
        return pl.Struct(
            {
                field.name: _dtype(hints[field.name], f"{where}.{field.name}")
                for field in dataclasses.fields(annotation)
            }
        )
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return pl.Utf8()
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    raise TypeError(f"{where}: give the column type of {annotation} (an open mapping)")


def payload_dtype(
    event_type: str,
    fields: Sequence[str],
    open_fields: Mapping[str, pl.DataType] | None = None,
) -> pl.Struct:
    """The struct type of ``fields`` of an event type's payload, from its model.

    Fields the model types as open mappings (``dict[str, ...]``) need their column type in
    ``open_fields`` (the keys the caller reads); a field the model lacks is an error.
    """
    model = EVENT_TYPES[event_type]
    open_fields = open_fields or {}
    columns: dict[str, pl.DataType] = {}
    for name in fields:
        if name not in model.model_fields:
            raise KeyError(f"{event_type} has no field '{name}'")
        if name in open_fields:
            columns[name] = open_fields[name]
        else:
            columns[name] = _dtype(model.model_fields[name].annotation, f"{event_type}.{name}")
    return pl.Struct(columns)


def _current_payloads(rows: pl.DataFrame) -> pl.Series:
    """The payload column with rows of older schema versions upcast and re-encoded."""
    types = rows.get_column("event_type")
    if rows.height == 0:
        return rows.get_column("payload")
    current = types.replace_strict(
        {t: schema_version(t) for t in types.unique().to_list()}, return_dtype=pl.Int64
    )
    stale = rows.get_column("schema_version") != current
    if not stale.any():
        return rows.get_column("payload")
    payloads = rows.get_column("payload").to_list()
    versions = rows.get_column("schema_version").to_list()
    for i in stale.arg_true().to_list():
        payloads[i] = encode(decode(types[i], int(versions[i]), payloads[i]))
    return pl.Series("payload", payloads, dtype=pl.Utf8)


def decode_frame(
    events: pl.DataFrame,
    event_types: str | Sequence[str],
    fields: Sequence[str],
    open_fields: Mapping[str, pl.DataType] | None = None,
) -> pl.DataFrame:
    """Rows of ``events`` (a ``Store.read_frame`` frame) of the given types, in log order,
    with ``fields`` of their payloads as columns beside the frame's other columns.

    With several types, a field one of them lacks is null in its rows.
    """
    wanted = [event_types] if isinstance(event_types, str) else list(event_types)
    groups: dict[pl.Struct, list[str]] = {}
    for event_type in wanted:
        own = [f for f in fields if f in EVENT_TYPES[event_type].model_fields]
        if not own:
            raise KeyError(f"{event_type} has none of the fields {list(fields)}")
        groups.setdefault(payload_dtype(event_type, own, open_fields), []).append(event_type)
    parts = []
    for dtype, types_ in groups.items():
        rows = events.filter(pl.col("event_type").is_in(types_))
        rows = rows.with_columns(_current_payloads(rows))
        decoded = rows.with_columns(pl.col("payload").str.json_decode(dtype).alias("_p"))
        parts.append(decoded.drop("payload").unnest("_p"))
    filled = [p for p in parts if p.height]
    if len(filled) <= 1:
        return filled[0] if filled else pl.concat(parts, how="diagonal_relaxed")
    return pl.concat(filled, how="diagonal_relaxed").sort("global_position")
