"""`python -m tablegames` runs the command line."""

from .cli import main

main()
