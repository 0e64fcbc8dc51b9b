"""Package layout that pyproject.toml alone cannot say: the top-level ``models/`` folder
(shapes as YAML that users copy and edit) ships inside the wheel as ``cpwords.models``."""

from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).parent
model_packages = ["cpwords.models"] + [
    "cpwords.models." + ".".join(p.relative_to(ROOT / "models").parts)
    for p in sorted((ROOT / "models").rglob("*"))
    if p.is_dir() and p.name != "__pycache__"
]

setup(
    packages=find_packages(include=["cpwords", "cpwords.*"]) + model_packages,
    package_dir={"cpwords.models": "models"},
)
