"""Browser tests: a real uvicorn server (UNO_TESTING=1, a private SQLite file) and Debian's
chromium driven by Playwright's sync API.

Playwright's sync API marks its own event loop as running between calls, which would break the
asyncio tests that run after this package; so the browser lives for this package only and the
loop is cleared when it closes (STYLE.md: pytest-playwright is deliberately not used).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

from tests.server_fixture import GENEROUS_LIMITS
from tests.services import unavailable

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = os.environ.get("UNO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    url: str
    log_path: Path

    def post(self, path: str, body: dict[str, Any]) -> Any:
        """POST JSON; returns the decoded answer (raises HTTPError on a 4xx/5xx)."""
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def log_tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]


def _wait_healthy(url: str, process: subprocess.Popen[bytes], deadline: float) -> bool:
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                return True
        except OSError:
            time.sleep(0.05)
    return False


@contextlib.contextmanager
def serving(**extra_env: str) -> Iterator[Server]:
    """uvicorn in its own process on a free port (``extra_env`` over the test settings); waits
    for /healthz; stopped at the end."""
    workdir = Path(tempfile.mkdtemp(prefix="uno-e2e-"))
    port = _free_port()
    env = {
        **os.environ,
        "UNO_TESTING": "1",
        "UNO_DATABASE_URL": f"sqlite+aiosqlite:///{workdir / 'e2e.db'}",
        "UNO_BOT_DELAY_MS": "[50,100]",
        **GENEROUS_LIMITS,
        **extra_env,
    }
    log_path = workdir / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "app", "--host", "127.0.0.1",  # as scripts/serve.sh
             "--port", str(port), "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    if not _wait_healthy(url, process, time.monotonic() + 30):
        process.kill()
        raise RuntimeError(f"uvicorn did not answer /healthz:\n{log_path.read_text()}")
    try:
        yield Server(url, log_path)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    """The server of the browser tests (a module may start its own with ``serving``)."""
    with serving() as running:
        yield running


# A busy CI machine runs the server, the browser and other tests at once: be patient.
expect.set_options(timeout=10_000)


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    manager = sync_playwright()
    driver = manager.start()
    try:
        yield driver
    finally:
        driver.stop()
        # The sync API leaves its (now closed) loop marked as running: clear it for the
        # asyncio tests that follow, and prove a fresh loop runs.
        asyncio.events._set_running_loop(None)
        asyncio.run(asyncio.sleep(0))


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        unavailable(f"no chromium at {CHROMIUM} (apt-get install chromium, or set UNO_CHROMIUM)")
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        yield launched
    finally:
        launched.close()


PageFactory = Callable[..., Page]


def _console(kind: str, text: str, errors: list[str]) -> None:
    # The browser itself reports refused HTTP calls (a 409 the page then explains) this way.
    if kind == "error" and not text.startswith("Failed to load resource"):
        errors.append(text)


@pytest.fixture
def new_page(browser: Browser, server: Server) -> Iterator[PageFactory]:
    """Open a page in a fresh browser context (its own localStorage, like another device).

    ``new_page(lang="ko", seat=(code, token, seat), viewport=(w, h), color_scheme="dark",
    storage={...})``; the page fails the test on any script error.
    """
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(
        lang: str = "en",
        seat: tuple[str, str, int] | None = None,
        viewport: tuple[int, int] = (1280, 860),
        profile_name: str | None = None,
        color_scheme: Literal["light", "dark"] = "light",
        storage: dict[str, str] | None = None,
    ) -> Page:
        context = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]},
            locale={"en": "en-US", "ko": "ko-KR", "uk": "uk-UA"}[lang],
            color_scheme=color_scheme,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        seeded: dict[str, str] = {"uno.lang": lang, **(storage or {})}
        if seat is not None:
            code, token, number = seat
            seeded[f"uno.seat.{code}"] = json.dumps({"token": token, "seat": number})
        if profile_name is not None:
            seeded["uno.profile"] = json.dumps({"name": profile_name})
        context.add_init_script(
            "(() => { if (sessionStorage.getItem('e2e-seeded')) return;"
            " sessionStorage.setItem('e2e-seeded', '1');"
            f" const items = {json.dumps(seeded)};"
            " for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); })()"
        )
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: _console(message.type, message.text, errors))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the page: {errors}"


def open_log(page: Page) -> None:
    """On a laptop's screen the log and the chat are a drawer: open it (elsewhere it is open)."""
    button = page.get_by_test_id("drawer-button")
    if button.is_visible() and button.get_attribute("aria-expanded") != "true":
        button.click()


def say(page: Page, label: str, text: str) -> None:
    """Type a chat line into the field named ``label`` and send it."""
    open_log(page)
    page.get_by_label(label).fill(text)
    page.locator("form.chat").get_by_role("button", name=re.compile(".")).click()


def shot(page: Page, name: str, full_page: bool = True) -> None:
    """Save a screenshot into artifacts/ (gitignored) for a person to look at: the whole page,
    or (``full_page=False``) what the screen shows."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def http_error_body(error: urllib.error.HTTPError) -> Any:
    return json.loads(error.read().decode() or "null")


def read_qr(new_page: PageFactory, url: str, picture_name: str) -> list[str]:
    """The QR code at ``url`` as a browser draws it, read back by a decoder: its texts."""
    picture = new_page(viewport=(480, 480))
    picture.goto(url)
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / picture_name
    picture.screenshot(path=str(path))
    return [str(barcode.text) for barcode in zxingcpp.read_barcodes(Image.open(path))]
