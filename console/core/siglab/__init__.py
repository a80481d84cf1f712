"""Signature lab: verify a request someone else signed and name the mistake that broke it.

Rooms, one job each: ``capture`` (raw HTTP text or URL + header + body into a
:class:`~console.core.siglab.capture.Capture`), ``curl`` (a curl command line), ``received``
(what the gateway reads from a capture), ``encoders`` and ``variants`` (the correct base
string and one deliberately wrong builder per known client mistake), ``diagnose`` (the
verdict), ``keysource`` (public key, certificate, private key or an environment's key),
``control`` (callback ``control`` checks) and ``curl_import`` (a curl line as a command's
form values).

The diagnosis builds the correct base string with its own RFC 3986 code and never imports
``console.core.signing``, so the sandbox can name a client's mistake while keeping its
signature check independent of the client's signer.
"""
