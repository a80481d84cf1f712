"""Allow ``python -m console``."""

from console.cli import main

raise SystemExit(main())
