"""How long a request may wait: the defaults and the largest values an environment or an
option may set (one place for the environment rules and the command line's converters)."""

DEFAULT_CONNECT_TIMEOUT = 10.0  # seconds
DEFAULT_READ_TIMEOUT = 60.0  # seconds
CONNECT_TIMEOUT_MAX = 300.0  # seconds; a connection that takes longer is not coming
READ_TIMEOUT_MAX = 600.0  # seconds; the gateway answers long before
