"""`arbiter` commands for the ingest area; they register on the shared app when imported."""
