"""Go rank helpers for the pairing engines (defined with the domain values in events)."""

from events.go_ranks import MAX_RANK, MIN_RANK, format_rank, parse_rank

__all__ = ["MAX_RANK", "MIN_RANK", "format_rank", "parse_rank"]
