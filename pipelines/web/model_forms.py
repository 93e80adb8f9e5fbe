"""HTML forms made from the input models (`decide.inputs`): a field of a model is
one form field, labelled by its name and described by its help; a submitted form becomes the
model's fields for the same command the other doors call.

An empty field is a field not given (as an option left out), but for a required one, which
is then refused as empty; anything typed, blanks included, is checked as typed; a field of
several values (deputy arbiters, round dates) is one value a line; a checkbox is true when
ticked.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from starlette.datastructures import FormData

__all__ = ["FormField", "form_fields", "submitted"]


@dataclass(frozen=True, slots=True)
class FormField:
    """One field of a form: the input's name, its label, its help, how it is typed."""

    name: str
    label: str
    help: str
    kind: str
    """``text``, ``number``, ``lines`` (a value a line), ``check`` or ``choice``."""
    required: bool
    choices: tuple[str, ...] = ()
    default: str = ""


def _kind(annotation: Any) -> tuple[str, tuple[str, ...]]:
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        annotation = args[0]
    if annotation is bool:
        return "check", ()
    if annotation in (int, float):
        return "number", ()
    if typing.get_origin(annotation) is list:
        return "lines", ()
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "choice", tuple(str(m.value) for m in annotation)
    return "text", ()


def form_fields(model: type[BaseModel], exclude: Iterable[str] = ()) -> list[FormField]:
    """The form of ``model`` (but ``exclude``), field by field, in the model's order."""
    skipped = set(exclude)
    out = []
    for name, info in model.model_fields.items():
        if name in skipped:
            continue
        kind, choices = _kind(info.annotation)
        default = info.default
        shown = (
            "" if default is None or info.is_required() else str(getattr(default, "value", default))
        )
        out.append(
            FormField(
                name=name,
                label=name.replace("_", " ").capitalize(),
                help=info.description or "",
                kind=kind,
                required=info.is_required(),
                choices=choices,
                default="" if kind == "check" else shown,
            )
        )
    return out


def submitted(form: FormData, model: type[BaseModel]) -> dict[str, Any]:
    """The fields of ``model`` a submitted form gave: empty ones left out, a value a line for
    a field of several values, a ticked checkbox true (an unticked one is not sent)."""
    out: dict[str, Any] = {}
    for field in form_fields(model):
        values = [v for v in form.getlist(field.name) if isinstance(v, str)]
        if field.kind == "check":
            if values:
                out[field.name] = values[-1].lower() in ("true", "on", "1", "yes")
            continue
        if field.kind == "lines":
            lines = [line.strip() for v in values for line in v.splitlines() if line.strip()]
            if lines:
                out[field.name] = lines
            continue
        text = values[-1] if values else ""
        if text or (values and field.required):  # a required field left empty: "empty"
            out[field.name] = text
    return out
