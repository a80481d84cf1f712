"""Signature lab: verify a request someone else signed and name the mistakes that broke it.

Rooms, one job each: ``capture`` (raw HTTP text or URL + header + body into a
:class:`~console.core.siglab.capture.Capture`), ``curl`` (a curl command line), ``received``
(what the gateway reads from a capture, or from the bytes a server read), ``readings`` (a
body or query read the ways clients read it), ``encoders`` and ``variants`` (the correct
base string and the deviations known clients make, per dimension), ``search`` (those
deviations alone and two at a time, hashed against the signature's digest), ``opening``
(the signature's forms and keys), ``rules`` (the gateway's other rules), ``mistakes`` (each
code's meaning and fix), ``diagnose`` (the verdict), ``keysource`` (public key,
certificate, private key or an environment's key), ``control`` (callback ``control``
checks) and ``curl_import`` (a curl line as a command's form values).

The diagnosis builds the correct base string with its own RFC 3986 code and never imports
``console.core.signing``, so the sandbox can log the lab's verdict while keeping its
signature check independent of the client's signer.
"""
