"""Email addresses where they come in: checked with email-validator (a maintained validator,
not a regular expression) and kept in the form the mail path can send to.

Internationalised addresses: a domain in any script is taken, in its ASCII (punycode) form,
which every mail server accepts. Letters outside ASCII *before* the @ need SMTPUTF8 from every
server on the way, which our outbox does not ask for, so such addresses are refused in words.
"""

from __future__ import annotations

from email_validator import EmailNotValidError, validate_email

from pbem.service.errors import BadRequest, Said

MAX_ADDRESS = 254  # RFC 5321's limit on a forward path


def address_fault(text: str) -> Said | None:
    """Why `text` can't be used as a player's address (None if it can): "address_non_ascii"
    (letters like ü before the @: not every mail server carries them), "address_invalid"
    (`detail`: email-validator's reason), "address_too_long" (`most` characters). The words:
    pbem.present.service_words `address_problem`."""
    local = text.rpartition("@")[0]
    if any(ord(ch) > 127 for ch in local):
        return Said("address_non_ascii")
    try:
        validate_email(text, check_deliverability=False, allow_smtputf8=False,
                       test_environment=True)
    except EmailNotValidError as exc:
        return Said("address_invalid", {"detail": str(exc)})
    if len(text) > MAX_ADDRESS:
        return Said("address_too_long", {"most": MAX_ADDRESS})
    return None


def checked_address(text: str) -> str:
    """The address to store for `text` (its domain in ASCII), or BadRequest saying why not."""
    problem = address_fault(text)
    if problem:
        raise BadRequest(problem.code, **problem.data)
    found = validate_email(text, check_deliverability=False, allow_smtputf8=False,
                           test_environment=True)
    return found.ascii_email or found.normalized
