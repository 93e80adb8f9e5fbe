"""Command-line options made from an input model's fields, so that a field is declared once
(`decide.inputs`) and every command that takes it offers the same option with the
same help.

    @tournament_app.command("edit")
    @user_errors
    @model_options(EventChanges)
    def tournament_edit(tournament: TournamentArg, *, fields: Fields) -> None: ...

The command receives the options given (not None) as ``fields``, ready for the model; its own
parameters stay as they are. An option is ``--`` and the field with dashes unless the field
names another (`decide.inputs.option_name`); its help is the field's description.
"""

from __future__ import annotations

import functools
import inspect
import re
import types
import typing
from collections.abc import Callable, Iterable
from typing import Annotated, Any, ParamSpec, TypeVar

import annotated_types
import typer
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from decide.inputs import Registering, option_name

__all__ = ["Fields", "ForceOpt", "NotOnListOpt", "model_options"]

P = ParamSpec("P")
R = TypeVar("R")

Fields = dict[str, Any]
"""The model's fields given on the command line (options left out are not in it)."""


def _said_here(text: str | None) -> str:
    """A description as the command line says it: fields by their options."""
    return re.sub(r"\b(fide_id|egd_pin|aga_id)\b", lambda m: option_name(m[1]), text or "")


ForceOpt = Annotated[
    bool, typer.Option(help=_said_here(Registering.model_fields["force"].description))
]
NotOnListOpt = Annotated[
    bool, typer.Option(help=_said_here(Registering.model_fields["not_on_list"].description))
]
"""The two options of every command that registers a player (`decide.inputs.Registering`)."""


def _bare(annotation: Any) -> tuple[Any, bool]:
    """The option's type without None, and whether None was allowed."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        return (rest[0] if len(rest) == 1 else annotation), True
    return annotation, False


def _option(name: str, info: FieldInfo, *, optional_too: bool = False) -> inspect.Parameter:
    kind, optional = _bare(info.annotation)
    flag = option_name(name)
    limits: dict[str, Any] = {}
    for meta in info.metadata:
        if isinstance(meta, annotated_types.Ge):
            limits["min"] = meta.ge
        elif isinstance(meta, annotated_types.Le):
            limits["max"] = meta.le
    decls = [f"{flag}/--no-{flag.removeprefix('--')}"] if kind is bool else [flag]
    option = typer.Option(*decls, help=info.description, **limits)
    required = info.is_required() and not optional_too
    optional = optional or optional_too
    default = ... if required else (None if optional else info.default)
    annotation = kind if required or not optional else kind | None
    return inspect.Parameter(
        name,
        inspect.Parameter.KEYWORD_ONLY,
        annotation=Annotated[annotation, option],
        default=inspect.Parameter.empty if required else default,
    )


def model_options(
    model: type[BaseModel], *, exclude: Iterable[str] = (), optional: Iterable[str] = ()
) -> Callable[[Callable[P, R]], Callable[..., R]]:
    """Give the command an option for each field of ``model`` (but ``exclude``); the command
    takes them as its keyword argument ``fields``. A field of ``optional`` may be left out on
    the command line even when the model requires it (the command fills it in)."""
    skipped = set(exclude)
    loose = set(optional)
    fields = {n: f for n, f in model.model_fields.items() if n not in skipped}

    def decorate(fn: Callable[P, R]) -> Callable[..., R]:
        own = list(inspect.signature(fn, eval_str=True).parameters.values())
        own = [p for p in own if p.name != "fields"]
        clash = {p.name for p in own} & set(fields)
        if clash:
            raise TypeError(f"{fn.__name__}: {sorted(clash)} are both parameters and fields")

        @functools.wraps(fn)
        def command(*args: Any, **kwargs: Any) -> R:
            given = {n: kwargs.pop(n) for n in fields if n in kwargs}
            given = {n: v for n, v in given.items() if v is not None}
            return fn(*args, fields=given, **kwargs)  # type: ignore[arg-type]

        positional = [p for p in own if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        keyword = [p for p in own if p.kind is inspect.Parameter.KEYWORD_ONLY]
        params = [
            *positional,
            *keyword,
            *(_option(n, f, optional_too=n in loose) for n, f in fields.items()),
        ]
        command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        command.__annotations__ = {p.name: p.annotation for p in params}
        del command.__wrapped__  # typer must read the signature above, not fn's
        return command

    return decorate
