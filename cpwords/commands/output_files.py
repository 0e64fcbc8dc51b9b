"""The files a command writes besides its output: ``--svg`` pictures, ``--out``, ``--checkpoint``.

Every one is claimed through the one writer (:class:`cpwords.writer.Outputs`) before anything is
solved (:func:`claim_outputs`), so a run never writes over one of its inputs or gives two options
one file; the pictures are written as the results come (:func:`write_pictures`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cpwords import puzzles
from cpwords.errors import InputError


def picture_option(args: argparse.Namespace) -> str | None:
    """``--svg``'s file name, refused unless it ends in .svg; ``--blank`` needs it."""
    svg_name = getattr(args, "svg", None)
    if svg_name and not svg_name.lower().endswith(".svg"):
        raise InputError("the SVG output file must end in .svg", source=svg_name, field="--svg")
    if getattr(args, "blank", False) and svg_name is None:
        raise InputError("draws the puzzle without its answer into the --svg file: give --svg FILE too",
                         field="--blank")
    return svg_name


def claim_outputs(specs: Sequence[Any], kinds: Sequence[Any], args: argparse.Namespace,
                  inputs: Sequence[Path]) -> Any:
    """Every file the run writes (``--checkpoint``, ``--svg`` and the names derived from it,
    ``--out``), checked together by the one writer before anything is solved: never an input of
    the run (the puzzle file, every file a spec names, every file the command read), never two
    options on one file (see :class:`cpwords.writer.Outputs`)."""
    from cpwords import files, writer

    good = [spec for spec in specs if not isinstance(spec, InputError)]
    read = [*inputs, *files.recorded(), *(p for spec in good for p in files.named_in(spec))]
    outputs = writer.Outputs(force=getattr(args, "force", False), inputs=read)
    outputs.claim(getattr(args, "checkpoint", None), "--checkpoint", resumable=True)
    svg = getattr(args, "svg", None)
    if svg is not None:
        per = [_most_pictures(kind, spec) for spec, kind in zip(specs, kinds, strict=True) if kind is not None]
        outputs.claim(svg, "--svg", pictures=(len(specs), max(per, default=1)))
    outputs.claim(getattr(args, "out", None), "--out")
    return outputs


def _most_pictures(kind: Any, spec: Any) -> int:
    """The most pictures one result of ``spec`` is drawn as (``box.svg``, or ``box-1.svg`` …)."""
    module = kind.render_module()
    if not hasattr(module, "svgs"):
        return 1
    return int(module.most_pictures(spec)) if hasattr(module, "most_pictures") else 10**9


def write_pictures(kind: puzzles.PuzzleKind, spec: Any, result: Any, target: Any, *, batch: tuple[int, int],
                   args: argparse.Namespace, outputs: Any) -> list[InputError]:
    """Write a result's pictures (one file each: ``box.svg``, or ``box-1.svg``, ``box-2.svg`` … for
    several puzzles or a batch) through the one writer; returns the errors instead of raising them."""
    from cpwords import writer

    module = kind.render_module()
    answer = not getattr(args, "blank", False)
    pictures = module.svgs(spec, result, answer=answer) if hasattr(module, "svgs") else [module.svg(spec, result)]
    number, of = batch
    claims = []
    for j in range(1, len(pictures) + 1):
        tags = ([str(number)] if of > 1 else []) + ([str(j)] if len(pictures) > 1 else [])
        if not tags:
            claims.append(target)
            continue
        path = target.path.with_name(f"{target.path.stem}-{'-'.join(tags)}{target.path.suffix}")
        try:  # all of a result's pictures or none
            claims.append(outputs.claim(str(path), "--svg", parent=target))
        except InputError as exc:
            return [exc]
    errors = []
    for claim, picture in zip(claims, pictures, strict=True):
        try:
            writer.write_text(claim, picture)
        except InputError as exc:
            errors.append(exc)
        else:
            print(f"wrote {claim.path}", file=sys.stderr)
    return errors
