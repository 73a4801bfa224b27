"""HTTP bodies are refused past ``UNO_MAX_BODY_BYTES`` (413 ``too_large``) before the app sees
them: by their Content-Length when they announce one, else as soon as the bytes received pass
the limit. A body within the limit is read here (at most the limit is held) and handed on."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.codes import Err

from .errors import error_response


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length" and (
                not value.isdigit() or int(value) > self.max_bytes
            ):
                await self._refuse(scope, receive, send)
                return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(413, Err.TOO_LARGE,
                                  f"a request body is limited to {self.max_bytes} bytes")
        await response(scope, receive, send)
