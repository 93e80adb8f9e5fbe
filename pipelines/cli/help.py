"""How a command's ``--help`` reads: each value's type as a word (TEXT, INTEGER, FLOAT, PATH;
nothing for a flag), never the Python annotation typer would print (``<typing.Annotated[int,
BeforeValidator(...)]>``, ``<bool>``, ``<str>``), and the docstring's paragraphs wrapped where
the terminal wraps them instead of at the source's line ends.

`tidy` is applied once to every command when its module's group is built
(`pipelines.cli._group`), so every command, present and future, reads the same way.
"""

from __future__ import annotations

import datetime as dt
import inspect
import re
import typing
from pathlib import Path
from typing import Any

from typer import _click
from typer.core import TyperGroup, TyperOption

__all__ = ["paragraphs", "tidy", "type_word"]

_WORDS: tuple[tuple[type, str], ...] = (
    (bool, ""),
    (int, "INTEGER"),
    (float, "FLOAT"),
    (Path, "PATH"),
    (dt.date, "DATE"),
    (str, "TEXT"),
)


def _bare(annotation: Any) -> Any:
    """The annotation without ``Annotated[...]``, ``X | None`` or ``list[...]``."""
    while True:
        origin = typing.get_origin(annotation)
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if origin is typing.Annotated or (origin is not None and len(args) == 1):
            annotation = args[0]
            continue
        return annotation


def type_word(param: _click.Parameter) -> str:
    """The word ``--help`` shows for the value ``param`` takes ("" for a flag)."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return ""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None:
        return "TEXT"
    if descriptor.is_choice:
        return "TEXT"
    kind = _bare(descriptor.annotation)
    for known, word in _WORDS:
        if isinstance(kind, type) and issubclass(kind, known):
            return word
    return "TEXT"


def _choices(param: _click.Parameter) -> str:
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is None or not descriptor.is_choice:
        return ""
    values = [str(getattr(c, "value", c)) for c in descriptor.choices or ()]
    return "One of: " + ", ".join(values) + "."


_LIST_ITEM = re.compile(r"^\s*([-*•]|\d+[.)]|[A-Z][A-Z_-]*\s{2,})\s")


def paragraphs(text: str) -> str:
    """``text`` with each paragraph's lines joined into one (the terminal wraps it); a line
    that starts a list item, an indented line and a ``\\b`` paragraph keep their breaks."""
    out = []
    for block in inspect.cleandoc(text).split("\n\n"):
        if block.startswith("\b"):
            out.append(block)
            continue
        lines = block.split("\n")
        joined = [lines[0]]
        for line in lines[1:]:
            if _LIST_ITEM.match(line) or line.startswith(" "):
                joined.append(line)
            else:
                joined[-1] = f"{joined[-1].rstrip()} {line.strip()}"
        out.append("\n".join(joined))
    return "\n\n".join(out)


def _names_all(text: str, param: TyperOption) -> bool:
    """Whether the help ``text`` already names every choice of ``param``."""
    values = [str(getattr(c, "value", c)) for c in param.type_descriptor.choices or ()]
    return all(re.search(rf"\b{re.escape(v)}\b", text) for v in values)


def _plain_help_option(command: _click.Command) -> None:
    """``--help`` itself, which click makes when help is shown, is a flag: no type word."""
    made = command.get_help_option

    def get_help_option(ctx: _click.Context) -> Any:
        option = made(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option

    object.__setattr__(command, "get_help_option", get_help_option)


def tidy(command: _click.Command) -> None:
    """``command`` (and a group's commands) as ``--help`` should show them: plain type words,
    choices named in the help, paragraphs that the terminal wraps."""
    if command.help:
        command.help = paragraphs(command.help)
    command.rich_markup_mode = None  # type: ignore[attr-defined]  # click's plain layout
    for param in command.params:
        word = type_word(param)
        if isinstance(param, TyperOption):
            if param.metavar is None:
                param.metavar = word
            choices = _choices(param)
            if choices and not _names_all(param.help or "", param):
                param.help = f"{param.help or ''} {choices}".strip()
        else:
            if param.metavar is None:
                param.metavar = (param.name or "value").upper()
            # an argument's type column is its own display_type (the name is the metavar)
            object.__setattr__(param, "display_type", lambda _ctx, word=word: word or None)
    _plain_help_option(command)
    if isinstance(command, TyperGroup):
        for sub in command.commands.values():
            tidy(sub)
