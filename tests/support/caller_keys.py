"""Real signing keys for the tests: an Ed25519 pair and an RSA pair, public halves in one file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from citeline.server.tokens import generate_key_pair


@dataclass(frozen=True)
class Keys:
    ed25519_private: bytes
    rsa_private: bytes
    public_file: Path  # both public halves, as a site rotating keys would have it
    ed25519_public_file: Path


def make_keys(folder: Path) -> Keys:
    ed25519 = generate_key_pair()
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa_public = rsa_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    rsa_private = rsa_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    both = folder / "public.pem"
    both.write_bytes(ed25519.public_pem + rsa_public)
    single = folder / "ed25519-public.pem"
    single.write_bytes(ed25519.public_pem)
    return Keys(ed25519.private_pem, rsa_private, both, single)
