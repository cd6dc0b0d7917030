from .cli.cli import main

raise SystemExit(main())
