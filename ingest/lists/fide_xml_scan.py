"""A block of FIDE's XML list as FIDE writes it, cut into columns by array operations.

FIDE writes every ``<player>`` the same way: the element, then its nineteen child elements in
`FIELDS`' order, each holding text only, white space between them. Such a block is forty tags
per player, so its ``<`` bytes fall in rows of forty (`TAGS`); the scan checks, column by column
with numpy, that each ``<`` starts the tag expected there, that the bytes between a closing
tag and the next tag are white space, and gathers the values (the bytes between an opening tag
and its closing tag) into one Arrow string buffer: no Python object per value.

It accepts exactly the blocks made of such players and ASCII white space (a subset of what the
regular expression ``_RECORDS`` of `ingest.lists.fide_xml` reads as players only), and gives
the same values; any other block (a comment, an attribute, another order, a CDATA section, the
end of the list, other white space) gives None and is read by that module's careful path.
The block must be valid UTF-8 (the caller has decoded it): values cut at ``<`` and ``>`` are
then valid UTF-8 too.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import polars as pl
import pyarrow as pa

__all__ = ["FIELDS", "scan_block"]

FIELDS = (
    "fideid",
    "name",
    "country",
    "sex",
    "title",
    "w_title",
    "o_title",
    "foa_title",
    "rating",
    "games",
    "k",
    "rapid_rating",
    "rapid_games",
    "rapid_k",
    "blitz_rating",
    "blitz_games",
    "blitz_k",
    "birthday",
    "flag",
)
"""A player's elements, in FIDE's order."""

TAGS = (
    b"<player>",
    *(tag for f in FIELDS for tag in (f"<{f}>".encode(), f"</{f}>".encode())),
    b"</player>",
)
"""A player's tags in FIDE's layout, in order: one ``<`` each."""

_SPACE = (0x09, 0x0A, 0x0D, 0x20)
_MAX_SPACE = max(_SPACE)
_LT = 0x3C

_Ints = npt.NDArray[np.int64]

_WORD = 8


def _words(half: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """The tags' bytes ``8 * half .. 8 * half + 8`` as little-endian words, and the masks of
    the bytes they have there."""
    values, masks = [], []
    for tag in TAGS:
        part = tag[half * _WORD : (half + 1) * _WORD]
        values.append(int.from_bytes(part.ljust(_WORD, b"\0"), "little"))
        masks.append(int.from_bytes((b"\xff" * len(part)).ljust(_WORD, b"\0"), "little"))
    return np.array(values, dtype=np.uint64), np.array(masks, dtype=np.uint64)


_WORDS, _MASKS = zip(*(_words(half) for half in range(2)), strict=True)
_LENGTHS = np.array([len(t) for t in TAGS], dtype=np.int64)
assert max(_LENGTHS) <= 2 * _WORD


def _gather(
    data: npt.NDArray[np.uint8], starts: _Ints, lengths: _Ints
) -> tuple[npt.NDArray[np.uint8], _Ints]:
    """The bytes of the ranges ``starts[i] .. starts[i] + lengths[i]`` one after the other,
    and their offsets (``len(starts) + 1``). ``data`` is a block (less than 2 GiB)."""
    offsets = np.zeros(len(starts) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    shifts = (starts - offsets[:-1]).astype(np.int32)
    index = np.repeat(shifts, lengths) + np.arange(offsets[-1], dtype=np.int32)
    return data[index], offsets


def _spaces(data: npt.NDArray[np.uint8]) -> int:
    """How many bytes of ``data`` are ASCII white space."""
    low = np.bincount(data[data <= _MAX_SPACE], minlength=_MAX_SPACE + 1)
    return int(low[list(_SPACE)].sum())


def scan_block(block: bytes) -> pl.DataFrame | None:
    """The players of ``block`` as raw text columns (`FIELDS`), when the block is only
    players as FIDE writes them and white space; else None."""
    data = np.frombuffer(block, dtype=np.uint8)
    opens = np.flatnonzero(data == _LT)
    per = len(TAGS)
    if opens.size == 0 or opens.size % per:
        return None
    players = opens.size // per
    tags = opens.reshape(players, per)
    # Each tag's first sixteen bytes as two little-endian words, compared with the tags'.
    padded = np.zeros(data.size + 2 * _WORD, dtype=np.uint8)
    padded[: data.size] = data
    words = np.ndarray((data.size + _WORD,), dtype="<u8", buffer=padded, strides=(1,))
    for half in range(2):
        found = words[tags + half * _WORD] & _MASKS[half]
        if not (found == _WORDS[half]).all():
            return None
    ends = tags + _LENGTHS
    value_starts = ends[:, 1:-1:2].ravel()
    value_lengths = tags[:, 2::2].ravel() - value_starts
    values, offsets = _gather(data, value_starts, value_lengths)
    # The rest (before the first player, after <player> and after each closing tag) must be
    # white space: the block's white space less the values' is all of it.
    gaps = data.size - players * int(_LENGTHS.sum()) - values.size
    if gaps != _spaces(data) - _spaces(values):
        return None
    array = pa.LargeStringArray.from_buffers(
        len(value_starts), pa.py_buffer(offsets), pa.py_buffer(values)
    )
    cells = pl.Series("v", array, dtype=pl.String)
    frame = pl.DataFrame(cells)
    return frame.select(
        pl.col("v").gather_every(len(FIELDS), offset=n).alias(name) for n, name in enumerate(FIELDS)
    )
