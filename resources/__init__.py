"""Icons of Gateway Console, installed as the package ``console.resources``.

Read them through ``console.core.resources`` (importlib.resources), never by a path
relative to the current directory. ``packaging/render_icons.py`` renders the PNG, ICO and
ICNS files from ``app-icon.svg``.
"""
