"""events layer."""
