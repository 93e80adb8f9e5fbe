"""`python -m pipelines` runs the arbiter CLI."""

from pipelines.cli import main

if __name__ == "__main__":  # not again in the ingest job's worker processes
    main()
