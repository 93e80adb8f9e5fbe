"""Storage backends of the event log: each a `events.recorder.Recorder` (see there)."""
