"""One Chromium tab per test module, lent to its tests one after another (the studio and play page tests).

Each new tab is a new Chromium renderer process. Starting one and warming it up (V8, fonts, style and layout
caches) cost about 1.5 s of CPU per test, more than most of these tests' own work (tests/browser_tab.py's commit
gives the figures). So a test borrows the module's tab instead: blank (about:blank), with no listener of an
earlier test, the mouse up and in the corner. Every test then opens its own server's page in it: another port is
another origin, so nothing an earlier test's page kept (storage, cache) is seen, and the page's script starts
afresh. A test that fails, or whose page raised an error, hands back a tab that is closed: the next test gets a
new one, so one failure does not spread to the tests after it.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest


class Tabs:
    """The module's tab, opened when first needed (at `viewport`'s size), reused while its tests pass."""

    def __init__(self, browser: Any, viewport: dict[str, int]):
        self.browser = browser
        self.viewport = viewport
        self.page: Any = None

    def take(self) -> Any:
        if self.page is None or self.page.is_closed():
            self.page = self.browser.new_page(viewport=self.viewport)
        return self.page

    def give_back(self, clean: bool) -> None:
        page, self.page = self.page, None
        if page is None or page.is_closed():
            return
        if clean:
            try:
                page.goto("about:blank")
                page.mouse.up()
                page.mouse.move(0, 0)
                self.page = page
                return
            except Exception:  # noqa: BLE001 - a tab that cannot be reset is closed and replaced
                pass
        page.close()

    def close(self) -> None:
        self.give_back(clean=False)


class Tab:
    """One test's loan of the module's tab: `page`, the page errors seen, and listeners removed when it ends."""

    def __init__(self, page: Any):
        self.page = page
        self.errors: list[str] = []
        self._listeners: list[tuple[str, Callable]] = []
        self.on("pageerror", lambda e: self.errors.append(str(e)))

    def on(self, event: str, handler: Callable) -> None:
        """page.on(event, handler) for this test only."""
        self.page.on(event, handler)
        self._listeners.append((event, handler))

    def blank(self) -> None:
        """Leave the test's page (its server can then stop without a page still listening to it)."""
        if not self.page.is_closed():
            self.page.goto("about:blank")

    def end(self) -> None:
        for event, handler in self._listeners:
            self.page.remove_listener(event, handler)
        self._listeners.clear()


def tabs_fixture(width: int, height: int):
    """A module-scoped `tabs` fixture: the module's tab at width x height (the size its tests measure on)."""

    @pytest.fixture(scope="module")
    def tabs(browser):
        t = Tabs(browser, {"width": width, "height": height})
        yield t
        t.close()

    return tabs


@pytest.fixture
def tab(tabs: Tabs, request):
    """The module's tab for one test (a Tab); the test fails if its page raised an error."""
    failed = request.session.testsfailed
    t = Tab(tabs.take())
    try:
        yield t
    finally:
        t.end()
        tabs.give_back(clean=request.session.testsfailed == failed and not t.errors)
    assert not t.errors, t.errors
