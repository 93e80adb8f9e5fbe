"""A published list's folder and the log agree, even after a crash between the two.

``ratings run -o OUT`` swaps the new list into ``OUT`` (one rename) and then appends
``RatingListPublished``: a kill between the two (the crash points ``swap:exchanged`` and
``list:swapped``) would leave ``OUT`` showing a list the log never published. So the run writes
the event it is about to append into the folder's ``manifest.json`` first (``publication``: its
stream and fields), inside the staging folder that the swap makes ``OUT``. A folder showing a
list then always says whether its run meant to publish it, and what.

`reconcile` is the repair: a folder whose manifest holds a publication the log lacks, and whose
``ratings.csv`` still has the published hash, gets that very event appended (the list was swapped
in whole, so it is the list the run published). Every ``ratings run`` does it for its own folder
and for every folder the log has published to, before it writes; `disagreements` names them
without writing (``arbiter verify``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from events.provenance import current_origin
from events.schema import RatingListPublished
from events.store import NewEvent, Store

__all__ = ["Disagreement", "disagreements", "manifest_publication", "reconcile", "reconcile_all"]

STREAM_PREFIX = "ratinglist-"
_KEY = "publication"


def manifest_publication(stream: str, event: RatingListPublished) -> dict[str, object]:
    """What a manifest says of the publication its run is about to append: the event but its
    ``output``, which is the folder itself (the same list written to two folders is the same
    bytes)."""
    return {"stream": stream, "event": event.model_dump(mode="json", exclude={"output"})}


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A folder showing a list its run meant to publish and the log does not hold."""

    folder: Path
    stream: str
    event: RatingListPublished

    def describe(self) -> str:
        return (
            f"{self.folder}: shows the list as of {self.event.as_of} (sha256 "
            f"{self.event.content_sha256[:12]}) that the log never published"
        )


def _published(store: Store, stream: str) -> set[tuple[object, ...]]:
    return {
        _identity(r.event)
        for r in store.read_stream(stream)
        if isinstance(r.event, RatingListPublished)
    }


def _identity(event: RatingListPublished) -> tuple[object, ...]:
    return (event.as_of, event.as_of_position, event.content_sha256, event.output)


def _pending(store: Store, folder: Path) -> Disagreement | None:
    """The publication ``folder``'s manifest announces and the log lacks, if any."""
    try:
        manifest = json.loads(folder.joinpath("manifest.json").read_bytes())
        intent = manifest[_KEY]
        stream = str(intent["stream"])
        event = RatingListPublished.model_validate(
            {**intent["event"], "output": str(folder.resolve())}
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None  # no list, a dry run's (no publication), or not one of ours
    if not stream.startswith(STREAM_PREFIX) or _identity(event) in _published(store, stream):
        return None
    try:
        digest = hashlib.sha256(folder.joinpath("ratings.csv").read_bytes()).hexdigest()
    except OSError:
        return None
    if digest != event.content_sha256:
        return None  # not the list the manifest describes: nothing to record
    return Disagreement(folder, stream, event)


def _folders(store: Store) -> list[Path]:
    """Every folder the log has published a list to."""
    found: dict[str, None] = {}
    for stream in store.streams(STREAM_PREFIX):
        for recorded in store.read_stream(stream):
            if isinstance(recorded.event, RatingListPublished):
                found[recorded.event.output] = None
    return [Path(f) for f in found]


def disagreements(store: Store, also: Path | None = None) -> list[Disagreement]:
    """The folders (those the log has published to, and ``also``) that show a list their run
    meant to publish and the log lacks."""
    folders = _folders(store)
    if also is not None and also.resolve() not in {f.resolve() for f in folders}:
        folders.append(also)
    return [d for f in folders if (d := _pending(store, f)) is not None]


def reconcile(store: Store, found: Disagreement) -> None:
    """Append the publication a crash left out (see the module)."""
    metadata = current_origin().metadata(job="ratings", recovered=str(found.folder))
    store.append(
        found.stream, [NewEvent(found.event, metadata=metadata)], store.stream_version(found.stream)
    )


def reconcile_all(store: Store, also: Path | None = None) -> list[Disagreement]:
    """`reconcile` every disagreement (`disagreements`); the ones repaired."""
    found = disagreements(store, also)
    for one in found:
        reconcile(store, one)
    return found
