"""citeline."""
