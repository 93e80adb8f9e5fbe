"""Writers that turn records back into the files federations accept (.ELO, h9, .tou)."""
