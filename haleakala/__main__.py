from haleakala.cli import main

raise SystemExit(main())
