"""`arbiter` commands for the ratings area; they register on the shared app when imported."""
