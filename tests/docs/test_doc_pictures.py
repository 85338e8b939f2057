"""Docs whose pictures are today's output (issue 41): scripts/doc_pictures.py makes
every picture in docs/ again, the documented way, and compares it with the one in
the folder. The default suite checks that every picture has a maker and that the
comparison tells a changed picture from the same one; `-m slow` makes them all."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from testdata import DOCS, ROOT


def _doc_pictures():
    spec = importlib.util.spec_from_file_location("doc_pictures", ROOT / "scripts/doc_pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


doc_pictures = _doc_pictures()


def test_every_picture_in_docs_has_a_maker_and_every_maker_a_picture():
    in_docs = {p.stem for p in DOCS.glob("*.png")}
    assert in_docs == {p.name for p in doc_pictures.PICTURES}


def test_the_comparison_tells_a_changed_picture_from_the_same_one(tmp_path: Path):
    original = DOCS / "preview-iran.png"
    same = tmp_path / "same.png"
    shutil.copyfile(original, same)
    assert doc_pictures.difference(original, same) == 0.0

    # A label's worth of pixels changed (a number redrawn): far beyond the threshold.
    changed = Image.open(original).convert("RGB")
    ImageDraw.Draw(changed).rectangle((400, 400, 700, 600), fill="black")
    changed.save(tmp_path / "changed.png")
    assert doc_pictures.difference(original, tmp_path / "changed.png") > doc_pictures.SAME_RMS

    # Another size is never the same picture.
    changed.crop((0, 0, 100, 100)).save(tmp_path / "small.png")
    assert doc_pictures.difference(original, tmp_path / "small.png") is None


def test_a_missing_or_stale_picture_is_named(tmp_path: Path):
    picture = doc_pictures.Picture("preview-iran", "preview-iran")
    assert doc_pictures.compare([picture], tmp_path) == [
        "preview-iran: not made (its maker made no preview-iran.png)"
    ]
    Image.open(DOCS / "preview-iran.png").convert("RGB").rotate(90, expand=True).save(
        tmp_path / "preview-iran.png"
    )
    assert doc_pictures.compare([picture], tmp_path) == ["preview-iran: another size today"]


def test_a_moment_of_a_live_game_is_checked_for_its_size_only(tmp_path: Path):
    live = doc_pictures.Picture("preview-iran", "serve", exact=False)
    changed = Image.open(DOCS / "preview-iran.png").convert("RGB")
    ImageDraw.Draw(changed).rectangle((400, 400, 700, 600), fill="black")
    changed.save(tmp_path / "preview-iran.png")
    assert doc_pictures.compare([live], tmp_path) == []
    assert all(p.exact == (p.group != "serve") for p in doc_pictures.PICTURES)


@pytest.mark.slow
def test_every_picture_in_docs_is_todays_output(tmp_path: Path):
    doc_pictures.make(doc_pictures.PICTURES, tmp_path)
    assert doc_pictures.compare(doc_pictures.PICTURES, tmp_path) == []
