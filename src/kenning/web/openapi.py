"""The OpenAPI 3.1 document of the dashboard API, generated from the route table."""

from __future__ import annotations

from typing import Any

from kenning.web.api import ROUTES, RouteSpec

ERROR = {"$ref": "#/components/schemas/Error"}


def _operation(spec: RouteSpec) -> dict[str, Any]:
    op: dict[str, Any] = {
        "summary": spec.summary,
        "operationId": spec.handler.__name__,
        "tags": [spec.tag],
        "parameters": [
            {
                "name": p.name,
                "in": p.where,
                "required": p.required or p.where == "path",
                "description": p.description,
                "schema": {"type": "array", "items": {"type": p.type}} if p.repeat
                else {"type": p.type},
                **({"explode": True} if p.repeat else {}),
            }
            for p in spec.params
        ],
        "responses": {
            "200": {"description": "OK", "content": {"application/json": {
                "schema": {"type": "object"}}}},
            "400": {"description": "Bad input", "content": {"application/json": {
                "schema": ERROR}}},
            "404": {"description": "Unknown id", "content": {"application/json": {
                "schema": ERROR}}},
        },
    }
    if spec.body is not None:
        op["requestBody"] = {
            "required": bool(spec.body.required),
            "content": {"application/json": {"schema": {
                "type": "object",
                "properties": {name: {"type": t, "description": d}
                               for name, (t, d) in spec.body.properties.items()},
                "required": list(spec.body.required),
            }}},
        }
    if spec.write:
        op["description"] = ("A write: refused with 403 unless the server runs with "
                             "--allow-writes and the request comes from the dashboard (an "
                             "Origin header naming it, or Sec-Fetch-Site: same-origin).")
        op["responses"]["403"] = {"description": "Read-only server", "content": {
            "application/json": {"schema": ERROR}}}
    return op


def document(version: str) -> dict[str, Any]:
    """The whole OpenAPI document, including the page and this document itself."""
    paths: dict[str, dict[str, Any]] = {
        "/": {"get": {"summary": "The dashboard page", "operationId": "page", "tags": ["page"],
                      "responses": {"200": {"description": "HTML", "content": {
                          "text/html": {"schema": {"type": "string"}}}}}}},
        "/api/openapi.json": {"get": {
            "summary": "This OpenAPI document", "operationId": "openapi", "tags": ["read"],
            "responses": {"200": {"description": "OpenAPI 3.1", "content": {
                "application/json": {"schema": {"type": "object"}}}}}}},
    }
    for spec in ROUTES:
        paths.setdefault(spec.path, {})[spec.method.lower()] = _operation(spec)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Kenning dashboard API", "version": version,
                 "description": "Read-only unless `kenning serve --allow-writes`."},
        "paths": paths,
        "components": {"schemas": {"Error": {
            "type": "object",
            "properties": {"error": {"type": "string"}, "code": {"type": "string"}},
            "required": ["error", "code"],
        }}},
    }
