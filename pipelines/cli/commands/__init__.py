"""One module per `housestyle` command, named after it (``review-export`` → ``review_export.py``): each
exposes ``register(subparsers)``, which adds that one command with ``set_defaults(func=...)``."""
