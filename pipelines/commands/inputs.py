"""The command input models, moved to `decide.inputs` (the write side, issue 43): this re-export
keeps the old imports working until the lead removes it after the merge."""

from decide.inputs import (
    OPTION_NAMES,
    ByeInput,
    EventChanges,
    EventData,
    EventDataInput,
    Input,
    Number,
    PlayerChanges,
    PlayerInput,
    Registering,
    ResultInput,
    TournamentInput,
    WholeNumber,
    created_fields,
    option_name,
    refusal,
    refusal_of,
)

__all__ = [
    "OPTION_NAMES",
    "ByeInput",
    "EventChanges",
    "EventData",
    "EventDataInput",
    "Input",
    "Number",
    "PlayerChanges",
    "PlayerInput",
    "Registering",
    "ResultInput",
    "TournamentInput",
    "WholeNumber",
    "created_fields",
    "option_name",
    "refusal",
    "refusal_of",
]
