"""``python -m citeline`` is the same command line as the ``citeline`` script."""

from citeline.cli import main

main()
