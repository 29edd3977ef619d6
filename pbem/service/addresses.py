"""Email addresses where they come in: checked with email-validator (a maintained validator,
not a regular expression) and kept in the form the mail path can send to.

Internationalised addresses: a domain in any script is taken, in its ASCII (punycode) form,
which every mail server accepts. Letters outside ASCII *before* the @ need SMTPUTF8 from every
server on the way, which our outbox does not ask for, so such addresses are refused in words.
"""

from __future__ import annotations

from email_validator import EmailNotValidError, validate_email

from pbem.service.errors import BadRequest

MAX_ADDRESS = 254  # RFC 5321's limit on a forward path


def address_problem(text: str) -> str:
    """Why `text` can't be used as a player's address, in a sentence ("" if it can)."""
    local = text.rpartition("@")[0]
    if any(ord(ch) > 127 for ch in local):
        return ("Hearts can't send mail to an address with letters like “ü” before the @ yet "
                "(not every mail server carries them); please give another address.")
    try:
        validate_email(text, check_deliverability=False, allow_smtputf8=False,
                       test_environment=True)
    except EmailNotValidError as exc:
        return f"That doesn't look like an email address: {exc}"
    if len(text) > MAX_ADDRESS:
        return f"That email address is too long (at most {MAX_ADDRESS} characters)."
    return ""


def checked_address(text: str) -> str:
    """The address to store for `text` (its domain in ASCII), or BadRequest saying why not."""
    problem = address_problem(text)
    if problem:
        raise BadRequest(problem)
    found = validate_email(text, check_deliverability=False, allow_smtputf8=False,
                           test_environment=True)
    return found.ascii_email or found.normalized
