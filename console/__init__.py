"""Gateway Console: an operator console for the v4 payout, card reference and recurring API."""

APP_ID = "io.github.gatewayconsole.GatewayConsole"
APP_NAME = "Gateway Console"


def __getattr__(name: str) -> str:
    # __version__ is read on demand: importlib.metadata costs a noticeable part of start-up.
    if name == "__version__":
        # on demand: importlib.metadata is slow to import
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("gateway-console")
        except PackageNotFoundError:  # a source tree that was never installed
            return "0.0.0+source"
    raise AttributeError(f"module 'console' has no attribute {name!r}")
