"""Dates as organisers write them in file headers (TRF ``042``/``052``, ...).

Real TRF files (``../shared/testdata/chess/real/``) write ``2024/11/23``, ``2008-02-01``,
``25.02.2011``, ``28. 07. 2005``, ``24/09/2010``, ``10.09.13`` and ``Feb 20, 2021``. A date with
the year first or last is read so; day and month in the European order (day first); a
two-digit year first is TRF16's ``YY/MM/DD``.
"""

from __future__ import annotations

import datetime as dt
import re

__all__ = ["parse_header_date"]

_MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
        start=1,
    )
}
_NUMBERS = re.compile(r"(\d{1,4})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,4})")
_WORDS = re.compile(r"([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})")


def parse_header_date(text: str | None) -> dt.date | None:
    """The date ``text`` states, or None when it states none (or an impossible one).

    >>> parse_header_date("08/04/2018"), parse_header_date("2024/11/23")
    (datetime.date(2018, 4, 8), datetime.date(2024, 11, 23))
    >>> parse_header_date("28. 07. 2005"), parse_header_date("10.09.13")
    (datetime.date(2005, 7, 28), datetime.date(2010, 9, 13))
    >>> parse_header_date("Feb 20, 2021"), parse_header_date("soon")
    (datetime.date(2021, 2, 20), None)
    """
    if not text:
        return None
    numbers = _NUMBERS.search(text)
    try:
        if numbers is not None:
            first, month, last = (int(g) for g in numbers.groups())
            if len(numbers.group(1)) == 4:
                return dt.date(first, month, last)
            if len(numbers.group(3)) == 4:
                return dt.date(last, month, first)
            return dt.date(2000 + first, month, last)
        words = _WORDS.search(text)
        if words is not None and words.group(1).lower() in _MONTHS:
            month = _MONTHS[words.group(1).lower()]
            return dt.date(int(words.group(3)), month, int(words.group(2)))
    except ValueError:
        return None
    return None
