"""The Starlette application: the API routes from ``kenning.web.api``, the OpenAPI document, the
page and its static files, with the dashboard's guards (read-only unless allowed, loopback host
names only, no cross-site writes)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kenning.errors import KenningError, NotFoundError
from kenning.web.api import ROUTES, Call, RouteSpec
from kenning.web.graphdata import GraphCache
from kenning.web.openapi import document

if TYPE_CHECKING:
    from kenning.facade import Kenning

STATIC = Path(__file__).parent / "static"
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
READ_ONLY = ("This dashboard is read-only. Restart it with `kenning serve --allow-writes` to "
             "change memories or links.")
MAX_BODY_BYTES = 1_048_576  # a write's JSON body is a few words; nothing needs more than this
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                               "object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status)


def host_name(value: str) -> str:
    """The host part of a Host header or URL netloc, lower case, without port or brackets."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value[1:]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class Guard:
    """Request checks: known host names (DNS rebinding) and same-origin, JSON-only writes.

    A write must show it comes from this dashboard: an ``Origin`` header naming this host, or,
    when a browser sends none, ``Sec-Fetch-Site: same-origin``. A request with neither is
    refused, so a page on another site cannot write through a form or a no-cors request even
    in a browser that leaves the Origin out; a script sends ``Origin`` itself."""

    def __init__(self, allowed_hosts: frozenset[str] | None) -> None:
        self.allowed_hosts = allowed_hosts  # None: any host (bound to a public address)

    def host_ok(self, request: Request) -> bool:
        if self.allowed_hosts is None:
            return True
        return host_name(request.headers.get("host", "")) in self.allowed_hosts

    @staticmethod
    def write_refusal(request: Request) -> JSONResponse | None:
        """Why a write is refused (a 403), or None when it comes from this dashboard."""
        origin = request.headers.get("origin")
        if origin is not None:
            if origin == "null" or (urlsplit(origin).netloc.lower()
                                    != request.headers.get("host", "").lower()):
                return error(403, "cross_site", "writes are accepted from this dashboard only "
                             "(the Origin header names another site)")
            return None
        if request.headers.get("sec-fetch-site") == "same-origin":
            return None
        return error(403, "no_origin", "writes are accepted from this dashboard only: the "
                     "request has no Origin header (a browser sends it; a script must send "
                     "Origin: http://<this host>:<port>)")


class GuardMiddleware:
    """Refuses unknown Host headers and adds the security headers to every response."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not self.guard.host_ok(Request(scope)):
            response = error(400, "bad_host", "unknown Host header: this dashboard answers on "
                             "loopback names only (start it with --host to change that)")
            await response(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def read_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes | None:
    """The request body, or None as soon as it is known to be over ``limit`` bytes (from its
    Content-Length, else while it streams in), so a huge body costs neither time nor memory."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.strip().isdigit() or int(declared) > limit):
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def create_app(k: Kenning, *, allow_writes: bool = False,
               allowed_hosts: frozenset[str] | None = LOOPBACK_NAMES) -> Starlette:
    """The dashboard over an open ``Kenning``. ``allowed_hosts=None`` accepts any Host header
    (for a server bound to a non-loopback address on purpose)."""
    guard = Guard(allowed_hosts)
    graph = GraphCache()
    lock = threading.Lock()  # the facade's caches are not shared across threads

    def endpoint(spec: RouteSpec) -> Any:
        async def handle(request: Request) -> Response:
            if spec.write:
                if not allow_writes:
                    return error(403, "read_only", READ_ONLY)
                refusal = guard.write_refusal(request)
                if refusal is not None:
                    return refusal
            body: dict[str, Any] = {}
            if spec.body is not None:
                raw = await read_body(request)
                if raw is None:
                    return error(413, "too_large", f"the request body is larger than "
                                 f"{MAX_BODY_BYTES:,} bytes")
                if raw:
                    if "application/json" not in request.headers.get("content-type", ""):
                        return error(415, "content_type", "send the body as application/json")
                    try:
                        body = json.loads(raw)
                    except ValueError as exc:
                        return error(400, "bad_json", f"body is not valid JSON: {exc}")
                    except RecursionError:  # thousands of nested brackets
                        return error(400, "bad_json", "body is nested too deeply")
                    if not isinstance(body, dict):
                        return error(400, "bad_json", "body must be a JSON object")
            call = Call(k, graph, dict(request.path_params), request.query_params, body,
                        allow_writes)

            def run() -> Any:
                with lock:
                    return spec.handler(call)

            try:
                result = await run_in_threadpool(run)
            except NotFoundError as exc:
                return error(404, "not_found", str(exc).strip("'\""))
            except KenningError as exc:
                return error(400, "bad_input", str(exc))
            except Exception as exc:  # a bug: keep the trace for `kenning doctor`
                from kenning.errorlog import log_error

                log_error("web", exc)
                return error(500, "internal", f"internal error: {type(exc).__name__} "
                             "(logged; see kenning doctor)")
            return JSONResponse(result)

        handle.__name__ = spec.handler.__name__
        return handle

    from kenning import __version__

    openapi = document(__version__)

    async def openapi_json(request: Request) -> Response:
        return JSONResponse(openapi)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    routes: list[Any] = [Route("/", page, methods=["GET"]),
                         Route("/api/openapi.json", openapi_json, methods=["GET"])]
    routes += [Route(spec.path, endpoint(spec), methods=[spec.method]) for spec in ROUTES]
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))

    async def http_error(request: Request, exc: Exception) -> Response:
        code = getattr(exc, "status_code", 500)
        if request.url.path.startswith("/api/"):
            return error(code, "no_route", f"no API route {request.method} {request.url.path}")
        return Response(getattr(exc, "detail", "error"), status_code=code)

    app = Starlette(routes=routes, exception_handlers={404: http_error, 405: http_error},
                    middleware=[Middleware(GuardMiddleware, guard=guard)])

    app.state.kenning = k
    app.state.allow_writes = allow_writes
    return app
