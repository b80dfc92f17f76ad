"""`python -m minis` is the same as the `minis` console script."""

from minis.cli import main

raise SystemExit(main())
