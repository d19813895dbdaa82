"""The Kenning dashboard: a small Starlette app (``kenning serve``) over the facade, with a JSON
API and a one-page front end in ``static/`` that works offline."""

from kenning.web.app import create_app

__all__ = ["create_app"]
