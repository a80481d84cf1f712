"""The one build setting pyproject.toml cannot express: ship the top-level ``resources/``
folder inside the wheel as the package ``console.resources``.

Package discovery in pyproject.toml only finds folders under ``console/``, and a
``package-dir`` mapping alone adds no package, so the package list is computed here: every
package under ``console/`` (namespace folders included, as pyproject discovery would) plus
the mapped resources. Package data and everything else stay in pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

setup(
    packages=[
        *find_namespace_packages(
            include=["console", "console.*"], exclude=["*.__pycache__", "*.__pycache__.*"]
        ),
        "console.resources",
        "console.resources.icons",
    ],
    package_dir={"console.resources": "resources"},
)
