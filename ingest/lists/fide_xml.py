"""FIDE's combined XML list (``players_list_xml_foa.xml``), read as a stream.

The file, as FIDE serves it (element names as FIDE writes them)::

    <?xml version="1.0" encoding="UTF-8"?>
    <playerslist>
    <player>
    <fideid>1503014</fideid>
    <name>Carlsen, Magnus</name>
    <country>NOR</country>
    <sex>M</sex>
    <title>GM</title>
    <w_title></w_title>
    <o_title></o_title>
    <foa_title></foa_title>
    <rating>2839</rating>
    <games>0</games>
    <k>10</k>
    <rapid_rating>2823</rapid_rating>
    <rapid_games>0</rapid_games>
    <rapid_k>10</rapid_k>
    <blitz_rating>2886</blitz_rating>
    <blitz_games>0</blitz_games>
    <blitz_k>10</blitz_k>
    <birthday>1990</birthday>
    <flag></flag>
    </player>
    ...
    </playerslist>

About 1.2 million players and a gigabyte: the file is read in blocks of `BLOCK` bytes. A UTF-8
block of players written as above (ASCII white space between the elements) is cut into columns
by array operations (`ingest.lists.fide_xml_scan`); another block of such players (other white
space, another encoding) with one regular expression (`_RECORDS`); a block with anything else in
it (a comment, attributes, the elements in another order, a CDATA section, the end of the list)
is read player by player, and a player the expression does not fit is parsed by expat on its
own. Nothing is let through unread: text
between players, an element other than ``<player>`` in ``<playerslist>``, a truncated file, a
DTD (``<!DOCTYPE``, hence no entity of a DTD and no entity expansion) are errors naming
``FILE:LINE:COL``. Each block's values are checked column by column (`ingest.lists.check`).
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import stat
import xml.parsers.expat
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import polars as pl

from ingest.errors import IngestError
from ingest.limits import file_kind
from ingest.lists.check import Bad, check
from ingest.lists.errors import ListRowError
from ingest.lists.fide import RATING_FIELDS, SPECS, fide_lists
from ingest.lists.fide_xml_scan import FIELDS, scan_block
from ingest.lists.limits import MAX_ELEMENT_BYTES, MAX_LIST_BYTES, MAX_LIST_PLAYERS
from ingest.lists.records import ListFile, Progress, SourceFormat

__all__ = ["BLOCK", "FIELDS", "read_fide_xml"]

BLOCK = 16 * 1024 * 1024
"""Bytes read at a time."""

_RECORD = r"<player>\s*" + "".join(rf"<{f}>([^<]*)</{f}>\s*" for f in FIELDS) + r"</player>\s*"
_ONE = re.compile(_RECORD)
_RECORDS = re.compile(_RECORD + r"|([^<]+|<)")
"""Players as FIDE writes them, or else one piece of something else (its last group)."""
_SPACE = re.compile(r"[ \t\r\n]+")
_BYTES_SPACE = re.compile(rb"[ \t\r\n]+")
_DECLARATION = re.compile(
    rb"<\?xml\s+version\s*=\s*[\"']1\.\d+[\"']"
    rb"(?:\s+encoding\s*=\s*[\"']([A-Za-z][A-Za-z0-9._-]*)[\"'])?"
    rb"(?:\s+standalone\s*=\s*[\"'](?:yes|no)[\"'])?\s*\?>"
)
_ROOT = re.compile(rb"<playerslist(?:\s[^<>]*)?>")
_END = re.compile(r"</playerslist\s*>")
_PLAYER_START = re.compile(r"<player[\s/>]")
_PLAYER_END = re.compile(r"</player\s*>")
_NAME = re.compile(r"<([A-Za-z_][\w.-]*)")
_BYTES_NAME = re.compile(rb"<([A-Za-z_][\w.-]*)")
_ENTITY = re.compile(r"&(?:#[0-9]+|#x[0-9A-Fa-f]+|amp|lt|gt|quot|apos);")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_ENCODINGS = {
    "utf-8": "utf-8",
    "utf8": "utf-8",
    "us-ascii": "utf-8",
    "ascii": "utf-8",
    "iso-8859-1": "latin-1",
    "latin-1": "latin-1",
    "latin1": "latin-1",
    "iso-8859-15": "iso-8859-15",
    "windows-1252": "cp1252",
    "cp1252": "cp1252",
}


@dataclass(slots=True)
class _Block:
    """Where a block of players is in the file, to name a refused one later."""

    offset: int
    """File offset of the block's first byte."""
    length: int
    """Its bytes."""
    line: int
    column: int
    """Line and 0-based column (characters) of its first character."""
    starts: list[int] | None
    """Offsets (characters) of its players in its text, when they were read one by one; None
    when every player of the block is one of `_ONE`'s matches, in order."""


@dataclass
class _State:
    typed: list[pl.DataFrame] = field(default_factory=list)
    skipped: list[IngestError] = field(default_factory=list)
    blocks: list[_Block] = field(default_factory=list)
    players: int = 0


def _where(text: str, offset: int, line: int, column: int) -> tuple[int, int]:
    """The 1-based line and column of ``text[offset]``, ``text[0]`` being at ``line`` and
    0-based ``column``."""
    newlines = text.count("\n", 0, offset)
    if newlines:
        return line + newlines, offset - text.rfind("\n", 0, offset)
    return line, column + offset + 1


class _Reader:
    def __init__(self, path: Path, shown: str, *, skip_bad_lines: bool) -> None:
        self.path = path
        self.shown = shown
        self.skip = skip_bad_lines
        self.encoding = "utf-8"
        self.state = _State()
        self.digest = hashlib.sha256()
        """The SHA-256 of the bytes read, in the same pass (the list's ``source_sha256``)."""
        self.buf = b""
        """Bytes read and not yet consumed."""
        self.base = 0
        """File offset of ``buf[0]``."""
        self.line = 1
        self.column = 0
        """Line and 0-based column of ``buf[0]``."""

    # ------------------------------------------------------------------ positions

    def _text(self, data: bytes) -> str:
        return data.decode(self.encoding, "replace")

    def _advance(self, upto: int) -> None:
        """Drop the buffer's first ``upto`` bytes, keeping the position of its start."""
        self.line, column = self._place(upto)
        self.column = column - 1
        self.buf = self.buf[upto:]
        self.base += upto

    def _place(self, offset: int) -> tuple[int, int]:
        """Line and column (1-based) of ``buf[offset]``: the lines counted in the bytes (a
        newline byte is a newline in every encoding read), the column in the characters of
        the last line only."""
        newlines = self.buf.count(b"\n", 0, offset)
        if newlines:
            last = self.buf.rfind(b"\n", 0, offset)
            return self.line + newlines, len(self._text(self.buf[last + 1 : offset])) + 1
        return self.line, self.column + len(self._text(self.buf[:offset])) + 1

    def error(
        self, offset: int, message: str, found: str | None = None, expected: str | None = None
    ) -> IngestError:
        """An error at ``buf[offset]``."""
        line, column = self._place(offset)
        return IngestError(self.shown, line, column, message, found, expected)

    # ------------------------------------------------------------------ the file

    def run(self, progress: Progress | None) -> ListFile:
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        except OSError as exc:
            raise IngestError(self.shown, 0, 0, f"cannot open: {exc.strerror}") from None
        with os.fdopen(fd, "rb") as handle:
            mode = os.fstat(fd).st_mode
            if not stat.S_ISREG(mode):
                raise IngestError(self.shown, 0, 0, f"not a regular file ({file_kind(mode)})")
            self._read(handle, progress)
        return self._lists()

    def _fill(self, handle: BinaryIO, progress: Progress | None) -> bool:
        """Read the next block onto the buffer; False at the end of the file."""
        block = handle.read(BLOCK)
        if not block:
            return False
        if self.base + len(self.buf) + len(block) > MAX_LIST_BYTES:
            raise IngestError(
                self.shown, 0, 0, f"larger than {MAX_LIST_BYTES // 2**30} GiB: not a rating list"
            )
        self.digest.update(block)
        self.buf += block
        if progress is not None:
            progress(self.base + len(self.buf))
        return True

    def _read(self, handle: BinaryIO, progress: Progress | None) -> None:
        while len(self.buf) < 65536 and self._fill(handle, progress):
            pass
        more = True
        pos = self._prologue()
        while True:
            if more:
                last = self.buf.rfind(b"</player>", pos)
                limit = last + len(b"</player>") if last >= 0 else pos
            else:
                limit = len(self.buf)
            ended = False
            if limit > pos:
                pos, ended = self._region(pos, limit, final=not more)
            if ended:
                self._epilogue(pos, handle, progress)
                return
            if not more:
                raise self.error(
                    len(self.buf),
                    "the list ends before </playerslist> (a truncated file?)",
                    found="the end of the file",
                    expected="</player> and </playerslist>",
                )
            if len(self.buf) - pos > MAX_ELEMENT_BYTES:
                raise self._too_long(pos)
            self._advance(pos)
            pos = 0
            more = self._fill(handle, progress)

    def _too_long(self, pos: int) -> IngestError:
        """What follows ``buf[pos]`` holds no ``</player>`` in `MAX_ELEMENT_BYTES`."""
        space = _BYTES_SPACE.match(self.buf, pos)
        start = space.end() if space is not None else pos
        tag = _BYTES_NAME.match(self.buf, start)
        what = f"<{tag.group(1).decode('ascii', 'replace')}>" if tag else "text"
        if self.buf.startswith(b"<!--", start):
            what = "a comment"
        return self.error(start, *_too_long(what))

    def _prologue(self) -> int:
        """Past the XML declaration, comments and the ``<playerslist>`` start tag."""
        buf = self.buf
        pos = 3 if buf.startswith(codecs.BOM_UTF8) else 0
        declared = _DECLARATION.match(buf, pos)
        if declared is not None:
            name = (declared.group(1) or b"utf-8").decode("ascii").lower()
            if name not in _ENCODINGS:
                raise self.error(
                    declared.start(1), "unsupported encoding", name, "UTF-8 or ISO-8859-1"
                )
            self.encoding = _ENCODINGS[name]
            pos = declared.end()
        while True:
            space = _BYTES_SPACE.match(buf, pos)
            if space is not None:
                pos = space.end()
            for opening, closing in ((b"<!--", b"-->"), (b"<?", b"?>")):
                if buf.startswith(opening, pos):
                    end = buf.find(closing, pos + len(opening))
                    if end < 0:
                        raise self.error(pos, "unterminated markup", expected=closing.decode())
                    pos = end + len(closing)
                    break
            else:
                break
        if buf.startswith(b"<!", pos):
            raise self.error(
                pos,
                "a DTD is not accepted in a rating list (no entity, no entity expansion)",
                found="<!DOCTYPE",
                expected="<playerslist>",
            )
        root = _ROOT.match(buf, pos)
        if root is None:
            tag = _BYTES_NAME.match(buf, pos)
            found = f"<{tag.group(1).decode('ascii', 'replace')}>" if tag else "text"
            raise self.error(pos, "not a FIDE players list", found, "<playerslist>")
        return root.end()

    def _epilogue(self, pos: int, handle: BinaryIO, progress: Progress | None) -> None:
        """After ``</playerslist>``: nothing but white space and comments."""
        more = True
        while True:
            space = _BYTES_SPACE.match(self.buf, pos)
            if space is not None:
                pos = space.end()
            comment = self.buf.find(b"-->", pos) if self.buf.startswith(b"<!--", pos) else -1
            if comment >= 0:
                pos = comment + 3
                continue
            if pos < len(self.buf) and not self.buf.startswith(b"<!--", pos):
                raise self.error(
                    pos, "content after </playerslist>", expected="the end of the file"
                )
            if not more:
                if pos < len(self.buf):
                    raise self.error(pos, "unterminated comment", expected="-->")
                return
            if len(self.buf) - pos > MAX_ELEMENT_BYTES:
                raise self._too_long(pos)
            self._advance(pos)
            pos = 0
            more = self._fill(handle, progress)

    # ------------------------------------------------------------------ blocks

    def _region(self, pos: int, limit: int, *, final: bool) -> tuple[int, bool]:
        """Read the players of ``buf[pos:limit]``; (where reading stopped, list ended?)."""
        data = self.buf[pos:limit]
        try:
            text = data.decode(self.encoding)
        except UnicodeDecodeError as exc:
            raise self.error(
                pos + exc.start,
                f"not valid {self.encoding.upper()}",
                found=f"byte 0x{data[exc.start]:02X}",
                expected=f"{self.encoding.upper()}, as the XML declaration says",
            ) from None
        line, column = self._place(pos)
        scanned = scan_block(data) if self.encoding == "utf-8" else None
        if scanned is not None:  # only players as FIDE writes them: read as arrays
            block = _Block(self.base + pos, len(data), line, column - 1, None)
            self._block(block, text, scanned)
            return limit, False
        rows = _RECORDS.findall(text)
        columns = list(zip(*rows, strict=True)) or [()] * (len(FIELDS) + 1)
        other = columns[-1]
        pieces = [n for n, r in enumerate(other) if r]  # not players: white space, or else?
        if all(other[n].isspace() for n in pieces):
            if pieces == list(range(len(pieces))):  # the white space before the first player
                columns = [c[len(pieces) :] for c in columns]
            else:
                drop = set(pieces)
                columns = [tuple(v for n, v in enumerate(c) if n not in drop) for c in columns]
            block = _Block(self.base + pos, len(data), line, column - 1, None)
            self._block(block, text, _raw(columns[:-1]))
            return limit, False
        block = _Block(self.base + pos, 0, line, column - 1, [])
        players, stop, ended = self._careful(text, block, final=final)
        stop_bytes = len(text[:stop].encode(self.encoding))
        block.length = stop_bytes
        columns = list(zip(*players, strict=True)) or [()] * len(FIELDS)
        self._block(block, text[:stop], _raw(columns))
        return pos + stop_bytes, ended

    def _careful(
        self, text: str, block: _Block, *, final: bool
    ) -> tuple[list[tuple[str, ...]], int, bool]:
        """The players of a block's text one by one; (players, where reading stopped, list
        ended?). Reading stops early at a construct the block does not hold whole (read on with
        the next block); their offsets go to ``block.starts``."""
        players: list[tuple[str, ...]] = []
        starts = block.starts
        assert starts is not None
        pos = 0
        limit = len(text)

        def fail(at: int, message: str, found: str | None, expected: str | None) -> IngestError:
            line, column = _where(text, at, block.line, block.column)
            return IngestError(self.shown, line, column, message, found, expected)

        while pos < limit:
            match = _ONE.match(text, pos)
            if match is not None:
                players.append(match.groups())
                starts.append(pos)
                pos = match.end()
                continue
            space = _SPACE.match(text, pos)
            if space is not None:
                pos = space.end()
                continue
            if text.startswith("<!--", pos) or text.startswith("<?", pos):
                closing = "-->" if text.startswith("<!--", pos) else "?>"
                end = text.find(closing, pos + 2)
                if end < 0:
                    if not final:
                        break
                    raise fail(pos, "unterminated markup", None, closing)
                pos = end + len(closing)
            elif (done := _END.match(text, pos)) is not None:
                return players, done.end(), True
            elif _PLAYER_START.match(text, pos) is not None:
                element_end = self._element_end(text, pos)
                if element_end is None:
                    if not final:
                        break
                    raise fail(
                        limit,
                        "the list ends inside a <player> (a truncated file?)",
                        "the end of the file",
                        "</player>",
                    )
                if element_end - pos > MAX_ELEMENT_BYTES:
                    raise fail(pos, *_too_long("<player>"))
                players.append(self._element(text, pos, element_end, block))
                starts.append(pos)
                pos = element_end
            elif text.startswith("<", pos):
                tag = _NAME.match(text, pos)
                found = f"<{tag.group(1)}>" if tag else "'<'"
                if text.startswith("<!", pos):
                    found = "a DTD or CDATA section"
                raise fail(pos, "unexpected markup in <playerslist>", found, "<player>")
            else:
                end = text.find("<", pos)
                raise fail(
                    pos,
                    "text outside a <player>",
                    text[pos : end if end >= 0 else limit].strip(),
                    "<player>",
                )
        return players, pos, False

    @staticmethod
    def _element_end(text: str, pos: int) -> int | None:
        """The end of the ``<player>`` element at ``pos``; None when the text does not hold
        it whole."""
        tag_end = text.find(">", pos)
        if tag_end < 0:
            return None
        if text[tag_end - 1] == "/":
            return tag_end + 1
        close = text.find("</player", tag_end)
        if close < 0:
            return None
        end = _PLAYER_END.match(text, close)
        return end.end() if end is not None else None

    def _element(self, text: str, pos: int, end: int, block: _Block) -> tuple[str, ...]:
        """A ``<player>`` element not as FIDE writes it, parsed by expat: its fields as
        `_ONE` would give them (the text as in the file, entities escaped)."""
        parser = xml.parsers.expat.ParserCreate()
        values: dict[str, list[str]] = {}
        stack: list[str] = []

        def fail(line: int, column: int, message: str, found: str | None = None) -> IngestError:
            start_line, start_column = _where(text, pos, block.line, block.column)
            if line > 1:
                start_line, start_column = start_line + line - 1, 1
            return IngestError(
                self.shown, start_line, start_column + column, message, found, "<player>"
            )

        def here(message: str, found: str) -> IngestError:
            return fail(parser.CurrentLineNumber, parser.CurrentColumnNumber, message, found)

        def start(tag: str, _attributes: dict[str, str]) -> None:
            if len(stack) == 1 and tag in values:
                raise here(f"<{tag}> given twice in a <player>", f"<{tag}>")
            if len(stack) >= 2:
                raise here(f"an element inside <{stack[-1]}>", f"<{tag}>")
            if len(stack) == 1:
                values[tag] = []
            stack.append(tag)

        def close(_tag: str) -> None:
            stack.pop()

        def data(chunk: str) -> None:
            if len(stack) == 2:
                values[stack[-1]].append(chunk)

        parser.StartElementHandler = start
        parser.EndElementHandler = close
        parser.CharacterDataHandler = data
        try:
            parser.Parse(text[pos:end], True)
        except xml.parsers.expat.ExpatError as exc:
            raise fail(exc.lineno, exc.offset, f"not well-formed XML: {exc.args[0]}") from None
        return tuple(
            "".join(values.get(name, ())).replace("&", "&amp;").replace("<", "&lt;")
            for name in FIELDS
        )

    # ------------------------------------------------------------------ values

    def _block(self, block: _Block, text: str, raw: pl.DataFrame) -> None:
        """Check a block's players, given as raw text columns (`FIELDS`)."""
        self.state.blocks.append(block)
        if not raw.height:
            return
        self.state.players += raw.height
        if self.state.players > MAX_LIST_PLAYERS:
            line, column = block.line, block.column + 1
            raise IngestError(
                self.shown, line, column, f"more than {MAX_LIST_PLAYERS} players: not a list"
            )
        raw, broken = _resolved(raw) if "&" in text else (raw, [])
        typed, bad = check(raw, [SPECS[f] for f in FIELDS])
        bad = sorted([*broken, *bad], key=lambda b: b.row)
        index = len(self.state.blocks) - 1
        typed = typed.with_columns(
            pl.lit(index, dtype=pl.UInt32).alias("_block"),
            pl.int_range(typed.height, dtype=pl.UInt32).alias("_row"),
        )
        if bad:
            errors = [self._row_error(text, block, b.row, b.spec.name, b) for b in bad]
            if not self.skip:
                raise errors[0]
            self.state.skipped.extend(errors)
            typed = typed.filter(~pl.col("_row").is_in(sorted({b.row for b in bad})))
        self.state.typed.append(typed)

    def _row_error(self, text: str, block: _Block, row: int, name: str, bad: Bad) -> ListRowError:
        """The error of a refused player, at its field's place in the file."""
        start = _player_offset(text, block, row)
        match = _ONE.match(text, start)
        if match is not None:
            offset = match.start(FIELDS.index(name) + 1)
        else:
            tag = text.find(f"<{name}", start)
            offset = text.find(">", tag) + 1 if tag >= 0 else start
        line, column = _where(text, offset, block.line, block.column)
        return ListRowError(self.shown, line, column, bad.message, bad.found, bad.expected)

    # ------------------------------------------------------------------ the lists

    def _lists(self) -> ListFile:
        if self.state.typed:
            typed = self._without_repeats(pl.concat(self.state.typed))
        else:
            empty = pl.DataFrame(schema=dict.fromkeys(FIELDS, pl.String()))
            typed = check(empty, [SPECS[f] for f in FIELDS])[0]
        lists = fide_lists(typed, list(RATING_FIELDS))
        return ListFile(
            self.shown,
            SourceFormat.FIDE_XML,
            tuple(lists),
            skipped=tuple(self.state.skipped),
            sha256=self.digest.hexdigest(),
        )

    def _without_repeats(self, typed: pl.DataFrame) -> pl.DataFrame:
        """Refuse (or leave out) a FIDE id given a second time."""
        typed = typed.with_row_index("_at")
        repeated = typed.filter(pl.col("fideid").is_duplicated())
        if not repeated.height:
            return typed.drop("_at")
        first = repeated.group_by("fideid").agg(pl.col("_at").min())
        later = repeated.join(first, on=["fideid", "_at"], how="anti").sort("_at")
        errors = []
        with self.path.open("rb") as handle:
            for b, r, fideid in later.select("_block", "_row", "fideid").iter_rows():
                block = self.state.blocks[b]
                handle.seek(block.offset)
                text = self._text(handle.read(block.length))
                bad = Bad(r, SPECS["fideid"], "FIDE id given twice", fideid, "one row per player")
                errors.append(self._row_error(text, block, r, "fideid", bad))
                if not self.skip:
                    raise errors[0]
        self.state.skipped.extend(errors)
        return typed.join(later.select("_at"), on="_at", how="anti").drop("_at")


def _raw(columns: list[tuple[str, ...]]) -> pl.DataFrame:
    """Players given as columns (`FIELDS`' order) as raw text columns."""
    return pl.DataFrame(
        [pl.Series(n, c, dtype=pl.String) for n, c in zip(FIELDS, columns, strict=True)]
    )


def _too_long(what: str) -> tuple[str, None, str]:
    """(message, found, expected) of a piece of the list longer than `MAX_ELEMENT_BYTES`."""
    return (
        f"{what} longer than {MAX_ELEMENT_BYTES // 1024} KiB: no player of a list is that long",
        None,
        f"a <player> of at most {MAX_ELEMENT_BYTES} bytes",
    )


def _player_offset(text: str, block: _Block, row: int) -> int:
    """Where the ``row``-th player of a block starts in its text."""
    if block.starts is not None:
        return block.starts[row]
    for n, match in enumerate(_ONE.finditer(text)):
        if n == row:
            return match.start()
    return 0


def _resolved(raw: pl.DataFrame) -> tuple[pl.DataFrame, list[Bad]]:
    """The values with XML's entities and character references resolved, and those holding
    an ``&`` that is neither."""
    broken: list[Bad] = []
    columns = []
    for name in raw.columns:
        column = raw.get_column(name)
        marked = column.str.contains("&", literal=True)
        if not marked.any():
            columns.append(column)
            continue
        values = column.to_list()
        for row in marked.arg_true().to_list():
            value, ok = _unescape(values[row])
            values[row] = value
            if not ok:
                spec = SPECS[name]
                broken.append(
                    Bad(row, spec, f"{spec.label}: unknown entity", value, "&amp; &lt; or &#N;")
                )
        columns.append(pl.Series(name, values, dtype=pl.String))
    return pl.DataFrame(columns), broken


def _unescape(value: str) -> tuple[str, bool]:
    """``value`` with XML's entities and character references resolved; False when it holds an
    ``&`` that is neither."""
    ok = True

    def one(match: re.Match[str]) -> str:
        nonlocal ok
        text = match.group()[1:-1]
        try:
            if text.startswith("#x"):
                return chr(int(text[2:], 16))
            if text.startswith("#"):
                return chr(int(text[1:]))
        except (ValueError, OverflowError):
            ok = False
            return match.group()
        return _ENTITIES[text]

    resolved = _ENTITY.sub(one, value)
    return resolved, ok and "&" not in _ENTITY.sub("", value)


def read_fide_xml(
    path: Path,
    shown: str | None = None,
    *,
    skip_bad_lines: bool = False,
    progress: Progress | None = None,
) -> ListFile:
    """FIDE's combined XML list at ``path``: its standard, rapid and blitz lists.

    :raises IngestError: the file is not a FIDE players list, is not well-formed, is truncated,
        holds a DTD; or (`ListRowError`) a player's value breaks its rule, unless
        ``skip_bad_lines``: such players are then left out and listed in ``skipped``.
    """
    reader = _Reader(path, shown if shown is not None else str(path), skip_bad_lines=skip_bad_lines)
    return reader.run(progress)
