"""Caller tokens: verifying them for the guard, and minting them and their keys for sites.

A caller token is a JWT signed by the site that embeds the search page, with a key pair
whose public half the server holds. Verification accepts only asymmetric signatures
(``EdDSA``, ``RS256``): an ``HS*`` token verified against a public key would let anyone
who read that public key sign tokens, and ``none`` signs nothing. ``exp`` and ``aud`` are
required, so a token cannot live forever or be replayed from another service.

Deliberately not here: rate limits and the order of the guard's checks (``guard``), HTTP,
and the verdicts' types (``token_verdicts``), which the guard reads without this module: a
server in open mode never imports it, nor PyJWT and cryptography with it.
"""

from __future__ import annotations

import binascii
import hashlib
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed448 import Ed448PrivateKey, Ed448PublicKey
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey, RSAPublicKey
from jwt.utils import base64url_decode

from citeline.server.errors import StartupError
from citeline.server.token_verdicts import RejectedToken, VerifiedToken

ACCEPTED_ALGORITHMS = ("EdDSA", "RS256")
REQUIRED_CLAIMS = ["exp", "aud"]

PublicKey: TypeAlias = Ed25519PublicKey | Ed448PublicKey | RSAPublicKey

# NIST SP 800-131A and RFC 7518 (section 3.3) both set 2048 bits as the least for RS256;
# a 512-bit key, which start-up used to accept, is factored in hours on rented machines.
MIN_RSA_BITS = 2048

_PEM_BLOCK = re.compile(rb"-----BEGIN [A-Z ]+-----.+?-----END [A-Z ]+-----", re.DOTALL)


class CallerKeyError(StartupError):
    """The verifying key cannot be used; the message says how to fix it (start-up stops)."""


@dataclass(frozen=True, slots=True)
class KeyPair:
    """A new signing key (PKCS#8 PEM, keep it secret) and its public half (for the server)."""

    private_pem: bytes
    public_pem: bytes


def caller_identity(claims: dict[str, object], token: str) -> str:
    """``sub:<sub>``, else ``jti:<jti>``, else a digest of the token itself.

    Keyed on ``sub`` first so that minting a fresh token for the same reader does not
    reset their budget; the digest is the fallback for a site that names nobody. It is
    taken over the token's signed part and its decoded signature, not the string: the
    signature's base64 has several spellings that verify alike (padding, the unused low
    bits of its last character), and hashing the string gave one token two budgets.
    """
    subject = claims.get("sub")
    if isinstance(subject, str) and subject:
        return f"sub:{subject}"
    token_id = claims.get("jti")
    if isinstance(token_id, str) and token_id:
        return f"jti:{token_id}"
    signed, _, signature = token.rpartition(".")
    try:
        canonical = signed.encode() + b"." + base64url_decode(signature)
    except (binascii.Error, ValueError):
        canonical = token.encode()  # never for a verified token, whose signature decoded
    return "token:" + hashlib.sha256(canonical).hexdigest()[:32]


def load_public_keys(pem: bytes, *, source: str = "the key file") -> tuple[PublicKey, ...]:
    """Every public key in ``pem`` (several allow a key rotation without downtime)."""
    blocks = _PEM_BLOCK.findall(pem)
    if not blocks:
        raise CallerKeyError(
            f"{source} holds no PEM public key; put the public half of the signing key there "
            "(`citeline token keygen DIR` writes one as DIR/public.pem)."
        )
    keys: list[PublicKey] = []
    for block in blocks:
        if b"PRIVATE KEY" in block:
            raise CallerKeyError(
                f"{source} holds a private key; give the server only the public half "
                "(`citeline token keygen DIR` writes it as DIR/public.pem)."
            )
        try:
            key = serialization.load_pem_public_key(block)
        except ValueError as error:
            raise CallerKeyError(
                f"{source} has a PEM block that is not a readable public key ({error}); "
                "replace it with an Ed25519 or RSA public key in PEM."
            ) from None
        if not isinstance(key, Ed25519PublicKey | Ed448PublicKey | RSAPublicKey):
            raise CallerKeyError(
                f"{source} holds a {type(key).__name__}; caller tokens are verified with "
                "Ed25519 (EdDSA) or RSA (RS256) keys only."
            )
        if isinstance(key, RSAPublicKey) and key.key_size < MIN_RSA_BITS:
            raise CallerKeyError(
                f"{source} holds a {key.key_size}-bit RSA key, which anyone can factor and "
                f"then sign tokens with; make a new pair of at least {MIN_RSA_BITS} bits "
                "(or an Ed25519 pair: `citeline token keygen DIR`), give the server its "
                "public half and have the site sign with the new private key."
            )
        keys.append(key)
    return tuple(keys)


def read_public_keys(path: Path | None) -> tuple[PublicKey, ...]:
    """The keys in the file that ``CITELINE_CALLER_KEY_FILE`` names, or a how-to-fix error."""
    if path is None:
        raise CallerKeyError(
            "No key to verify caller tokens: set CITELINE_CALLER_KEY_FILE to the PEM file of "
            "the site's public key (`citeline token keygen DIR` makes a pair), or pass --open "
            "to answer everyone without tokens."
        )
    try:
        pem = path.read_bytes()
    except OSError as error:
        raise CallerKeyError(
            f"CITELINE_CALLER_KEY_FILE={path} cannot be read ({error.strerror or error}); "
            "point it at a readable PEM public key, or pass --open to answer without tokens."
        ) from None
    if not pem.strip():
        raise CallerKeyError(
            f"CITELINE_CALLER_KEY_FILE={path} is empty; write the site's PEM public key "
            "there, or pass --open to answer without tokens."
        )
    return load_public_keys(pem, source=f"CITELINE_CALLER_KEY_FILE={path}")


def _algorithm_fits(algorithm: str, key: PublicKey) -> bool:
    if algorithm == "EdDSA":
        return isinstance(key, Ed25519PublicKey | Ed448PublicKey)
    return algorithm == "RS256" and isinstance(key, RSAPublicKey)


class TokenVerifier:
    """Checks caller tokens against the site's public keys and one audience."""

    def __init__(self, keys: tuple[PublicKey, ...], *, audience: str) -> None:
        if not keys:
            raise CallerKeyError("A token verifier needs at least one public key.")
        self._keys = keys
        self._audience = audience

    def verify(self, token: str) -> VerifiedToken | RejectedToken:
        if not token:
            return RejectedToken("no_token", "the request carried no caller token")
        try:
            algorithm = jwt.get_unverified_header(token).get("alg")
        except jwt.PyJWTError as error:
            return RejectedToken("bad_token", f"unreadable token: {error}")
        if algorithm not in ACCEPTED_ALGORITHMS:
            return RejectedToken("bad_token", f"algorithm {algorithm!r} is not accepted")
        keys = [key for key in self._keys if _algorithm_fits(algorithm, key)]
        if not keys:
            return RejectedToken("bad_token", f"no configured key verifies {algorithm}")
        rejection = RejectedToken("bad_token", "signature matches no configured key")
        for key in keys:
            try:
                claims = jwt.decode(
                    token,
                    key,
                    algorithms=[algorithm],
                    audience=self._audience,
                    options={"require": REQUIRED_CLAIMS},
                )
            except jwt.InvalidSignatureError:
                continue
            except jwt.ExpiredSignatureError:
                return RejectedToken("expired", "the token has expired")
            except jwt.InvalidAudienceError:
                return RejectedToken("wrong_audience", "the token names another audience")
            except jwt.MissingRequiredClaimError as error:
                return RejectedToken("missing_claim", str(error))
            except jwt.PyJWTError as error:
                return RejectedToken("bad_token", f"{type(error).__name__}: {error}")
            return VerifiedToken(caller_identity(claims, token))
        return rejection


def generate_key_pair() -> KeyPair:
    """A fresh Ed25519 pair: small keys, fast signatures, no parameters to get wrong."""
    private_key = Ed25519PrivateKey.generate()
    return KeyPair(
        private_pem=private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ),
        public_pem=private_key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ),
    )


def mint_token(
    private_pem: bytes,
    *,
    subject: str,
    ttl_seconds: int,
    audience: str,
    now: float | None = None,
) -> str:
    """A caller token for ``subject``, valid for ``ttl_seconds``, signed EdDSA or RS256."""
    try:
        key = serialization.load_pem_private_key(private_pem, password=None)
    except (ValueError, TypeError) as error:
        raise CallerKeyError(
            f"The signing key is not an unencrypted PEM private key ({error}); "
            "`citeline token keygen DIR` writes one as DIR/private.pem."
        ) from None
    algorithm: str
    if isinstance(key, Ed25519PrivateKey | Ed448PrivateKey):
        algorithm = "EdDSA"
    elif isinstance(key, RSAPrivateKey):
        if key.key_size < MIN_RSA_BITS:
            raise CallerKeyError(
                f"The signing key is a {key.key_size}-bit RSA key, which a server refuses; "
                f"make a pair of at least {MIN_RSA_BITS} bits, or an Ed25519 pair with "
                "`citeline token keygen DIR`."
            )
        algorithm = "RS256"
    else:
        raise CallerKeyError(
            f"The signing key is a {type(key).__name__}; use an Ed25519 or RSA private key."
        )
    issued = int(time.time() if now is None else now)
    claims = {"sub": subject, "aud": audience, "iat": issued, "exp": issued + ttl_seconds}
    return jwt.encode(claims, key, algorithm=algorithm)
