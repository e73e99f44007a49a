"""``python -m pyramid_widget.cli`` runs the ``pyramid-widget`` command."""

from pyramid_widget.cli import main

raise SystemExit(main())
