"""Gateway Console: an operator console for the v4 payout, card reference and recurring API."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("gateway-console")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"

APP_ID = "io.github.gatewayconsole.GatewayConsole"
APP_NAME = "Gateway Console"
