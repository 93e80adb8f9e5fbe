"""Byte-level mutations of a real file, shared by the readers' fuzz tests."""

from __future__ import annotations

from hypothesis import strategies as st

Mutation = tuple[str, float, bytes]


def mutation(max_size: int, specials: list[bytes]) -> st.SearchStrategy[Mutation]:
    """One edit: its kind, where (a fraction of the length), and the bytes it uses."""
    return st.tuples(
        st.sampled_from(["replace", "insert", "delete", "truncate"]),
        st.floats(min_value=0, max_value=1),
        st.binary(min_size=1, max_size=max_size) | st.sampled_from(specials),
    )


def mutate(data: bytes, mutations: list[Mutation]) -> bytes:
    for kind, where, payload in mutations:
        at = int(where * len(data))
        if kind == "replace":
            data = data[:at] + payload + data[at + len(payload) :]
        elif kind == "insert":
            data = data[:at] + payload + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + len(payload) :]
        else:
            data = data[:at]
    return data
