"""python -m cpwords"""

from cpwords.cli import main

raise SystemExit(main())
