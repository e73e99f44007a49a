"""``python -m pyramid_widget`` runs the ``pyramid-widget`` command (where the script is not on
the PATH, or to pick the interpreter): ``python -m pyramid_widget stats``."""

from pyramid_widget.cli import main

raise SystemExit(main())
