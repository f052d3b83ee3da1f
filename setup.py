"""The compiled core of the Five Crowns solver; everything else is in pyproject.toml.

It is optional: where no C compiler is found (a slim image) the install goes on and the
engine uses its pure-Python solver, which gives the same answers (engine/five_crowns/
compiled.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.five_crowns._meldcore",
            sources=["engine/five_crowns/_meldcore.c"],
            optional=True,
        )
    ]
)
