"""ratings layer."""
