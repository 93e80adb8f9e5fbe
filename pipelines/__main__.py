"""`python -m pipelines` runs the arbiter CLI."""

from pipelines.cli import main

main()
