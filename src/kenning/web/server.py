"""Running the dashboard with uvicorn: loopback by default, a warning for any other address."""

from __future__ import annotations

import ipaddress
import socket
import threading
import webbrowser
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kenning.errors import ValidationError
from kenning.web.app import LOOPBACK_NAMES, create_app

if TYPE_CHECKING:
    from kenning.facade import Kenning

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 7077


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_for(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def check_port(host: str, port: int) -> None:
    """Fail with a one-line message before uvicorn starts if the address cannot be bound."""
    if not 0 < port < 65536:
        raise ValidationError(f"port must be between 1 and 65535, not {port}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), port))
        except OSError as exc:
            raise ValidationError(f"cannot listen on {host}:{port}: {exc.strerror or exc}"
                                  ) from None


def build_server(k: Kenning, *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                 allow_writes: bool = False) -> Any:
    """A configured ``uvicorn.Server`` for the dashboard over ``k`` (not started)."""
    import uvicorn

    hosts = LOOPBACK_NAMES | {host.lower()} if is_loopback(host) else None
    app = create_app(k, allow_writes=allow_writes, allowed_hosts=hosts)
    config = uvicorn.Config(app, host=host.strip("[]"), port=port, log_level="warning",
                            use_colors=False, access_log=False, lifespan="off")
    return uvicorn.Server(config)


def serve(k: Kenning, *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          allow_writes: bool = False, open_browser: bool = False,
          say: Callable[[str], None] = print, warn: Callable[[str], None] = print) -> None:
    """Serve until interrupted."""
    check_port(host, port)
    if not is_loopback(host):
        warn(f"warning: listening on {host}, not loopback: anyone who can reach this machine "
             "can read your memories" + (" and change them" if allow_writes else ""))
    server = build_server(k, host=host, port=port, allow_writes=allow_writes)
    url = url_for(host if host not in ("0.0.0.0", "::") else DEFAULT_HOST, port)
    mode = "writes allowed" if allow_writes else "read-only"
    say(f"Kenning dashboard on {url} ({mode}); Ctrl+C to stop")
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server.run()
