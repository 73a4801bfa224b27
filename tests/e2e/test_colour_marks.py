"""Colour marks: no one has to tell red from green. Every colour has a shape of this project's
own (circle red, triangle yellow, square green, diamond blue) on each card face, in both
corners and the centre; for each rank the four colours' faces, as the browser draws them in
the light and the dark palette, differ in grayscale and for protanopia, deuteranopia and
tritanopia; and the palettes' four colours stay apart in each of those too. The marks are on
until switched off in the Display menu, high contrast follows the system until switched, and
both switches are remembered."""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Callable

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from .conftest import PageFactory, Server, shot

RANKS = [str(n) for n in range(10)] + ["S", "R", "+2"]
COLOURS = ["R", "Y", "G", "B"]
MARKS = {"R": "circle", "Y": "triangle", "G": "square", "B": "diamond"}
# Two faces differ when their mean absolute difference, per pixel and channel on the 0-255
# scale, after the simulation, is above this (identical faces give 0).
FACE_THRESHOLD = 12.0
# Two of a palette's colours stay apart when their CIE76 colour difference (Delta E*ab) after
# the simulation is above this (about what tells apart two paint chips side by side).
COLOUR_THRESHOLD = 12.0

# Machado, Oliveira and Fernandes (2009), full severity, on linear RGB.
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = ["grayscale", *MACHADO]
Pixel = tuple[float, float, float]


def linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def encoded(value: float) -> float:
    v = min(1.0, max(0.0, value))
    return 255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


LINEAR = [linear(c) for c in range(256)]


def seen_linear(rgb: tuple[int, int, int], vision: str) -> Pixel:
    r, g, b = (LINEAR[c] for c in rgb)
    if vision == "grayscale":
        y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return (y, y, y)
    m = MACHADO[vision]
    return (m[0][0] * r + m[0][1] * g + m[0][2] * b, m[1][0] * r + m[1][1] * g + m[1][2] * b,
            m[2][0] * r + m[2][1] * g + m[2][2] * b)


def seen(image: Image.Image, vision: str) -> list[Pixel]:
    """The image's pixels as that vision sees them, sRGB-encoded again (0-255)."""
    raw = image.tobytes()  # RGB, 3 bytes a pixel
    out: list[Pixel] = []
    for at in range(0, len(raw), 3):
        lin = seen_linear((raw[at], raw[at + 1], raw[at + 2]), vision)
        out.append((encoded(lin[0]), encoded(lin[1]), encoded(lin[2])))
    return out


def difference(a: list[Pixel], b: list[Pixel]) -> float:
    return sum(abs(x - y) for p, q in zip(a, b, strict=True) for x, y in zip(p, q, strict=True)) / (
        3 * len(a))


def lab(lin: Pixel) -> Pixel:
    r, g, b = (min(1.0, max(0.0, v)) for v in lin)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def hex_rgb(text: str) -> tuple[int, int, int]:
    text = text.strip().lstrip("#")
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


RENDER = """async () => {
  const { cardFace } = await import('/js/cards.js');
  const box = document.createElement('div');
  box.id = 'faces';
  box.style.cssText = 'position:fixed;inset:0 auto auto 0;z-index:999;display:grid;'
    + 'grid-template-columns:repeat(4,84px);gap:8px;padding:8px;background:#345;';
  for (const rank of RANKS) for (const colour of COLOURS) {
    const face = cardFace(colour + rank);
    face.style.setProperty('--card-w', '72px');
    box.append(face);
  }
  document.body.append(box);
}""".replace("RANKS", str(RANKS)).replace("COLOURS", str(COLOURS))


def faces(page: Page) -> dict[str, Image.Image]:
    """Every face of RANKS x COLOURS as the page draws it, cut out of one screenshot."""
    page.evaluate(RENDER)
    box = page.locator("#faces")
    origin = box.bounding_box()
    assert origin is not None
    picture = Image.open(io.BytesIO(box.screenshot(animations="disabled"))).convert("RGB")
    out: dict[str, Image.Image] = {}
    for card in page.locator("#faces .card").all():
        text = card.get_attribute("data-card")
        area = card.bounding_box()
        assert text and area
        left, top = round(area["x"] - origin["x"]), round(area["y"] - origin["y"])
        crop = picture.crop((left, top, left + round(area["width"]), top + round(area["height"])))
        out[text] = crop.resize((36, 54), Image.Resampling.BOX)
    return out


@pytest.fixture
def home(new_page: PageFactory, server: Server) -> Callable[[str], Page]:
    def make(scheme: str) -> Page:
        page = new_page(color_scheme="dark" if scheme == "dark" else "light",
                        viewport=(600, 900))
        page.goto(f"{server.url}/#/")
        expect(page.locator("h1")).to_be_visible()
        return page
    return make


def test_every_face_carries_its_colours_shape_in_both_corners_and_the_centre(
    home: Callable[[str], Page],
) -> None:
    page = home("light")
    page.evaluate(RENDER)
    for rank in RANKS:
        for colour in COLOURS:
            face = page.locator(f'#faces .card[data-card="{colour}{rank}"]')
            shape = MARKS[colour]
            expect(face.locator(f'.corner .mark[data-mark="{shape}"]')).to_have_count(2)
            expect(face.locator(f'.oval .mark[data-mark="{shape}"]')).to_have_count(1)
            expect(face.locator(".mark")).to_have_count(3)  # no other colour's shape
            expect(face).to_have_attribute("role", "img")  # named by the card, not the shapes
            expect(face.locator(".mark").first).to_have_attribute("aria-hidden", "true")
    # The wild cards carry no colour, so no shape.
    wild = page.evaluate("import('/js/cards.js').then((m) => m.cardFace('W+4').querySelectorAll"
                         "('.mark').length)")
    assert wild == 0


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_four_colours_faces_differ_in_grayscale_and_for_each_colour_blindness(
    scheme: str, home: Callable[[str], Page],
) -> None:
    page = home(scheme)
    cut = faces(page)
    shot(page, f"colour-marks-{scheme}")
    closest: dict[str, tuple[float, str]] = {}
    for vision in VISIONS:
        views = {text: seen(image, vision) for text, image in cut.items()}
        for rank in RANKS:
            for a, b in itertools.combinations(COLOURS, 2):
                d = difference(views[a + rank], views[b + rank])
                if vision not in closest or d < closest[vision][0]:
                    closest[vision] = (d, f"{a}{rank}/{b}{rank}")
    too_close = {v: c for v, c in closest.items() if c[0] <= FACE_THRESHOLD}
    assert too_close == {}, f"faces that look alike ({scheme}): {too_close}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_palettes_colours_stay_apart_in_grayscale_and_for_each_colour_blindness(
    scheme: str, home: Callable[[str], Page],
) -> None:
    page = home(scheme)
    values = page.evaluate("['R','Y','G','B'].map((c) => getComputedStyle("
                           "document.documentElement).getPropertyValue('--' + c))")
    palette = dict(zip(COLOURS, (hex_rgb(v) for v in values), strict=True))
    for vision in VISIONS:
        labs = {c: lab(seen_linear(rgb, vision)) for c, rgb in palette.items()}
        for a, b in itertools.combinations(COLOURS, 2):
            delta = math.dist(labs[a], labs[b])
            assert delta > COLOUR_THRESHOLD, f"{scheme} {vision}: {a} and {b} {delta:.1f}"


def test_the_marks_are_on_until_switched_off_and_the_switch_is_remembered(
    new_page: PageFactory, server: Server
) -> None:
    page = new_page()
    page.goto(f"{server.url}/#/")
    page.evaluate(RENDER)
    mark = page.locator('#faces .card[data-card="G5"] .centre-mark')
    expect(mark).to_be_visible()
    page.get_by_role("button", name="Display").click()
    switch = page.get_by_label("Shapes on colors", exact=False)
    expect(switch).to_be_checked()
    switch.uncheck()
    expect(mark).to_be_hidden()
    page.reload()
    page.evaluate(RENDER)
    expect(page.locator('#faces .card[data-card="G5"] .centre-mark')).to_be_hidden()
    expect(page.locator("html")).to_have_attribute("data-marks", "off")


def test_high_contrast_follows_the_system_and_its_switch_is_remembered(
    new_page: PageFactory, server: Server
) -> None:
    page = new_page()
    page.emulate_media(contrast="more")
    page.goto(f"{server.url}/#/")
    expect(page.locator("html")).to_have_attribute("data-contrast", "more")
    page.get_by_role("button", name="Display").click()
    switch = page.get_by_label("High contrast")
    expect(switch).to_be_checked()
    switch.uncheck()
    expect(page.locator("html")).to_have_attribute("data-contrast", "normal")
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-contrast", "normal")
    page.emulate_media(contrast="no-preference")
    page.get_by_role("button", name="Display").click()
    page.get_by_label("High contrast").check()
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-contrast", "more")
    text = page.evaluate("getComputedStyle(document.body).color")
    assert text in ("rgb(255, 255, 255)", "rgb(0, 0, 0)")  # the strongest text there is
