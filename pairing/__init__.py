"""pairing layer."""
